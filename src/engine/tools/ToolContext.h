#pragma once

#include "tools/SandboxPolicy.h"

#include <QString>
#include <QStringList>

#include <functional>

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
    // pin_fact: pins `text` in the session (the agent's store); returns why it could not, empty when
    // pinned. Called on the tool's worker thread, so it must touch no QObject of the agent's.
    // Unset where nothing can be pinned (the tool then says so).
    std::function<QString(const QString &text, const QString &reason)> pinFact;
};

} // namespace wl
