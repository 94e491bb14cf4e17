#pragma once

#include "tools/Tool.h"

namespace wl {

// glob(pattern, path): files under `path` (default: the workspace root) whose path
// relative to it matches the pattern (see GlobPattern). Lists paths relative to the
// workspace root, sorted, at most maxResults of them.
class GlobTool : public Tool
{
public:
    static constexpr int maxResults = 500;

    ToolSpec spec() const override;
    ApprovalKind approvalKind() const override { return ApprovalKind::Read; }

protected:
    ToolRun *run(const QJsonObject &arguments, const ToolContext &context, QObject *parent) override;
};

} // namespace wl
