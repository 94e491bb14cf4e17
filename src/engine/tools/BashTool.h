#pragma once

#include "tools/Tool.h"

namespace wl {

// bash(command, timeout_s): `bash -c` in the workspace root, in its own process group
// (a new session), so a timeout or cancel kills the command and everything it started.
// stdout and stderr are merged and read as they arrive; only the head and a tail ring
// are kept, so the result holds at most outputCap bytes of output however much is written.
class BashTool : public Tool
{
    Q_DECLARE_TR_FUNCTIONS(wl::BashTool)
public:
    static constexpr int defaultTimeoutSeconds = 120;
    static constexpr int maxTimeoutSeconds = 600;
    static constexpr qsizetype outputCap = 16000;

    ToolSpec spec() const override;
    ApprovalKind approvalKind() const override { return ApprovalKind::Execute; }

protected:
    ToolRun *run(const QJsonObject &arguments, const ToolContext &context, QObject *parent) override;
    void describe(const QJsonObject &arguments, const ToolContext &context, ApprovalRequest &request) const override;
};

} // namespace wl
