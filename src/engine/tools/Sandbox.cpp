#include "tools/Sandbox.h"

#include "LoggingCategories.h"
#include "Paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QProcess>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// The options every sandbox starts with; the availability probe uses the same ones. Run as root,
// bwrap would leave the command every capability (enough to remount / read-write): drop them all.
QStringList baseOptions()
{
    return {u"--die-with-parent"_s, u"--new-session"_s, u"--unshare-pid"_s, u"--unshare-ipc"_s,
            u"--cap-drop"_s, u"ALL"_s};
}

QStringList baseMounts()
{
    return {u"--ro-bind"_s, u"/"_s, u"/"_s, u"--dev"_s, u"/dev"_s, u"--proc"_s, u"/proc"_s, u"--tmpfs"_s, u"/tmp"_s};
}

// Where a path really is: symlinks resolved; empty when it does not exist.
QString realPath(const QString &path)
{
    const QFileInfo info(path);
    return info.exists() ? info.canonicalFilePath() : QString();
}

bool isInside(const QString &path, const QString &folder)
{
    return path == folder || path.startsWith(folder.endsWith(u'/') ? folder : folder + u'/');
}

} // namespace

Sandbox::Sandbox(const QString &workspace, const QString &home, const SandboxPolicy &policy,
                 const QStringList &privatePaths)
    : m_workspace(workspace)
    , m_home(QDir::cleanPath(home))
    , m_policy(policy)
    , m_privatePaths(privatePaths)
{
}

QStringList Sandbox::secretStores()
{
    return {
        u".ssh"_s, u".gnupg"_s, u".pki"_s,
        u".local/share/keyrings"_s, u".local/share/kwalletd"_s, u".password-store"_s, u".config/op"_s,
        u".aws"_s, u".azure"_s, u".config/gcloud"_s, u".kube"_s, u".docker"_s, u".vault-token"_s,
        u".terraform.d"_s, u".oci"_s,
        u".netrc"_s, u".git-credentials"_s, u".config/git/credentials"_s, u".config/gh"_s, u".config/hub"_s,
        u".config/glab-cli"_s, u".npmrc"_s, u".yarnrc"_s, u".pypirc"_s, u".gem/credentials"_s,
        u".cargo/credentials"_s, u".cargo/credentials.toml"_s, u".m2/settings.xml"_s,
        u".gradle/gradle.properties"_s, u".config/rclone"_s,
        u".mozilla"_s, u".config/google-chrome"_s, u".config/chromium"_s, u".config/BraveSoftware"_s,
        u".thunderbird"_s,
        u".claude"_s, u".claude.json"_s, u".codex"_s, u".config/anthropic"_s, u".config/openai"_s,
        u".Xauthority"_s, u".ICEauthority"_s,
    };
}

QStringList Sandbox::hiddenPaths() const
{
    QStringList candidates;
    if (!m_home.isEmpty() && m_home != u"/"_s) {
        for (const QString &store : secretStores())
            candidates << m_home + u'/' + store;
    }
    // Waterline's own sessions, audit records and settings (whose organisation folder, when there
    // is one, holds the settings file next to the configuration folder).
    candidates << Paths::dataDir() << QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    if (const QString organisation = QCoreApplication::organizationName(); Paths::isSafePathComponent(organisation))
        candidates << QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + u'/' + organisation;
    candidates << m_privatePaths;

    QStringList hidden;
    for (const QString &candidate : std::as_const(candidates)) {
        if (candidate.isEmpty() || !QDir::isAbsolutePath(candidate))
            continue;
        const QString path = realPath(candidate);
        // Never hide everything: a store that resolves to / or to the home itself is left alone.
        if (path.isEmpty() || path == u"/"_s || path == m_home || hidden.contains(path))
            continue;
        hidden << path;
    }
    return hidden;
}

QStringList Sandbox::arguments(const QStringList &command) const
{
    QStringList args = baseOptions();
    if (!m_policy.network)
        args << u"--unshare-net"_s;
    args << baseMounts();
    // Private scratch folders; the session's sockets (D-Bus, the keyring, the SSH agent, the
    // display server's) live in the runtime folder.
    QStringList runtime{u"/var/tmp"_s, u"/run/user"_s};
    if (const QString xdg = realPath(qEnvironmentVariable("XDG_RUNTIME_DIR")); !xdg.isEmpty() && !isInside(xdg, u"/run/user"_s))
        runtime << xdg;
    for (const QString &folder : std::as_const(runtime)) {
        if (QFileInfo(folder).isDir())
            args << u"--tmpfs"_s << folder;
    }
    args << u"--bind"_s << m_workspace << m_workspace;
    // After the workspace, so a store inside it (the workspace is the home) is hidden too.
    const QStringList hidden = hiddenPaths();
    bool workspaceCovered = false;
    for (const QString &path : hidden) {
        if (QFileInfo(path).isDir())
            args << u"--tmpfs"_s << path;
        else
            args << u"--ro-bind"_s << u"/dev/null"_s << path;
        workspaceCovered = workspaceCovered || isInside(m_workspace, path);
    }
    // A workspace the user chose inside a store stays itself; the rest of the store stays hidden.
    if (workspaceCovered)
        args << u"--bind"_s << m_workspace << m_workspace;
    args << u"--chdir"_s << m_workspace << u"--"_s << command;
    return args;
}

QString Sandbox::program()
{
    const QString configured = qEnvironmentVariable("WATERLINE_BWRAP");
    if (!configured.isEmpty())
        return configured;
    return QStandardPaths::findExecutable(u"bwrap"_s);
}

QString Sandbox::unavailableReason()
{
    static QMutex mutex;
    static QHash<QString, QString> known;  // program -> reason ("" when it works)
    const QString bwrap = program();
    QMutexLocker locker(&mutex);
    if (const auto it = known.constFind(bwrap); it != known.cend())
        return *it;

    // Not remembered: installing bubblewrap while Waterline runs takes effect at the next command.
    if (bwrap.isEmpty() || !QFileInfo(bwrap).isExecutable())
        return u"bubblewrap (the bwrap command) is not installed"_s;

    QString reason;
    {
        QProcess probe;
        probe.setProcessChannelMode(QProcess::MergedChannels);
        probe.setStandardInputFile(QProcess::nullDevice());
        probe.start(bwrap, baseOptions() + baseMounts() + QStringList{u"--"_s, u"true"_s});
        if (!probe.waitForFinished(10000)) {
            probe.kill();
            probe.waitForFinished(1000);
            reason = u"bwrap did not start a sandbox within 10 s"_s;
        } else if (probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0) {
            const QString said = QString::fromUtf8(probe.readAll()).trimmed().section(u'\n', 0, 0);
            reason = u"bwrap cannot make a sandbox here (%1)"_s.arg(
                said.isEmpty() ? u"exit code %1"_s.arg(probe.exitCode()) : said);
        }
    }
    if (reason.isEmpty())
        qCInfo(lcTools) << "commands run in a bubblewrap sandbox:" << bwrap;
    else
        qCWarning(lcTools).noquote() << "no command sandbox:" << reason;
    known.insert(bwrap, reason);
    return reason;
}

} // namespace wl
