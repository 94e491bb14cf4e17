#pragma once

#include "tools/Tool.h"

namespace wl {

// bash(command, timeout_s): `bash -c` in the workspace root, inside a bubblewrap sandbox (see
// Sandbox) with an allow-listed environment (see CommandEnvironment). The sandbox has its own PID
// namespace: when the command ends, times out or is cancelled, everything it started dies with it.
// Where bwrap cannot start, the call is refused unless the session allows unsandboxed commands
// (SandboxPolicy::allowUnsandboxed); then it runs as a plain process in its own session and
// process group, which a timeout or cancel kills, and the result says it ran unsandboxed.
// stdout and stderr are merged and read as they arrive; only the head and a tail ring
// are kept, so the result holds at most outputCap bytes of output however much is written.
class BashTool : public Tool
{
    Q_DECLARE_TR_FUNCTIONS(wl::BashTool)
public:
    static constexpr int defaultTimeoutSeconds = 120;
    static constexpr int maxTimeoutSeconds = 600;
    static constexpr qsizetype outputCap = 16000;

    // The setting that allows unsandboxed commands, as the refusal names it.
    static QString unsandboxedSettingName();

    ToolSpec spec() const override;
    ApprovalKind approvalKind() const override { return ApprovalKind::Execute; }

protected:
    ToolRun *run(const QJsonObject &arguments, const ToolContext &context, QObject *parent) override;
    void describe(const QJsonObject &arguments, const ToolContext &context, ApprovalRequest &request) const override;
};

} // namespace wl
