#pragma once

#include "tools/Tool.h"

namespace wl {

// write_file(path, content): writes the whole file atomically (QSaveFile), creating folders.
class WriteFileTool : public Tool
{
    Q_DECLARE_TR_FUNCTIONS(wl::WriteFileTool)
public:
    ToolSpec spec() const override;
    ApprovalKind approvalKind() const override { return ApprovalKind::Write; }

protected:
    ToolRun *run(const QJsonObject &arguments, const ToolContext &context, QObject *parent) override;
    void describe(const QJsonObject &arguments, const ToolContext &context, ApprovalRequest &request) const override;
};

} // namespace wl
