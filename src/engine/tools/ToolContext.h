#pragma once

#include "tools/SandboxPolicy.h"

#include <QString>

namespace wl {

class Workspace;

// What a tool call runs against: the session's workspace and, for the records, who asked.
struct ToolContext
{
    Workspace *workspace = nullptr;  // not owned; must outlive the runs started with this context
    QString sessionId;
    QString callId;
    SandboxPolicy sandbox;           // how commands run (the bash tool)
};

} // namespace wl
