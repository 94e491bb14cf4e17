#pragma once

#include "tools/SandboxPolicy.h"

#include <QString>
#include <QStringList>

namespace wl {

// The bubblewrap (bwrap) command line that runs one command of the bash tool: the workspace
// read-write, the rest of the file system read-only, a private /tmp, /var/tmp and /run/user,
// a new /dev and /proc, no capabilities (also when Waterline runs as root), its own PID, IPC
// and session namespaces (so nothing it starts outlives it, and Waterline's own /proc is out
// of sight), no network when the policy says so, and the user's secret stores and Waterline's
// own data and configuration hidden under empty mounts, also where they lie inside the
// workspace.
//
// The program is `bwrap` from PATH, or WATERLINE_BWRAP when set (tests point it at a program
// that does not exist to see the refusal).
class Sandbox
{
public:
    // `workspace` is canonical (Workspace::root()); `home` is the user's home folder;
    // `privatePaths` are hidden like the stores (Waterline's database where --db put it).
    Sandbox(const QString &workspace, const QString &home, const SandboxPolicy &policy = {},
            const QStringList &privatePaths = {});

    // Everything after the program: options, "--", then `command` (e.g. {"bash", "-c", text}).
    QStringList arguments(const QStringList &command) const;

    // The secret stores under a home folder, relative to it: SSH and GnuPG keys, keyrings, cloud
    // and registry credentials, browser profiles, other agents' logins.
    static QStringList secretStores();
    // The absolute paths hidden for this workspace and home: the secret stores and Waterline's
    // data and configuration folders that exist (canonical, so a symlinked store is hidden where
    // it really lies), and the runtime folder of the session's sockets.
    QStringList hiddenPaths() const;

    static QString program();
    // Empty when bwrap can make a sandbox here, else why not (not installed, no user namespaces,
    // ...). A bwrap that is there is tried once per program path and the outcome remembered.
    static QString unavailableReason();

private:
    QString m_workspace;
    QString m_home;
    SandboxPolicy m_policy;
    QStringList m_privatePaths;
};

} // namespace wl
