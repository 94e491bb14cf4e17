#pragma once

#include "tools/SandboxPolicy.h"

#include <QString>
#include <QStringList>

namespace wl {

class Workspace;

// What a tool call runs against: the session's workspace and, for the records, who asked.
struct ToolContext
{
    Workspace *workspace = nullptr;  // not owned; must outlive the runs started with this context
    QString sessionId;
    QString callId;
    SandboxPolicy sandbox;           // how commands run (the bash tool)
    QStringList privatePaths;        // Waterline's files a command must not see wherever they are
                                     // (the session database, the audit file)
};

} // namespace wl
