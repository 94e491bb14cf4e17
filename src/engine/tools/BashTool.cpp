#include "tools/BashTool.h"

#include "LoggingCategories.h"
#include "tools/CommandEnvironment.h"
#include "tools/OutputCapture.h"
#include "tools/Sandbox.h"
#include "tools/ToolArguments.h"
#include "tools/ToolRun.h"
#include "tools/Utf8Text.h"
#include "tools/Workspace.h"

#include <QDir>
#include <QProcess>
#include <QTimer>

#include <algorithm>

#include <csignal>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

class BashRun : public ToolRun
{
    Q_OBJECT
public:
    // `unsandboxedReason` empty: the command runs in the sandbox; else why it runs without one.
    BashRun(const QString &command, const ToolContext &context, int timeoutSeconds, const QString &unsandboxedReason,
            QObject *parent);
    ~BashRun() override;

    void cancel() override;

private:
    enum class Stop { None, Timeout, Cancel };

    void drain();
    void killGroup();
    void stop(Stop reason);
    void complete(int exitCode, bool crashed);
    QString outputText() const;

    QString m_command;
    int m_timeoutSeconds;
    QString m_unsandboxedReason;
    QProcess m_process;
    QTimer m_timer;
    OutputCapture m_capture{BashTool::outputCap / 2, BashTool::outputCap / 2};
    Stop m_stop = Stop::None;
    bool m_completed = false;  // the result is built (finished() follows through the event loop)
};

BashRun::BashRun(const QString &command, const ToolContext &context, int timeoutSeconds,
                 const QString &unsandboxedReason, QObject *parent)
    : ToolRun(u"bash"_s, parent)
    , m_command(command)
    , m_timeoutSeconds(timeoutSeconds)
    , m_unsandboxedReason(unsandboxedReason)
{
    const QString workingDirectory = context.workspace->root();
    const QStringList bashCommand{u"bash"_s, u"-c"_s, command};
    QProcessEnvironment environment
        = CommandEnvironment::build(QProcessEnvironment::systemEnvironment(), context.sandbox.extraEnvironment);
    if (m_unsandboxedReason.isEmpty()) {
        const Sandbox sandbox(workingDirectory, QDir::homePath(), context.sandbox, context.privatePaths);
        m_process.setProgram(Sandbox::program());
        m_process.setArguments(sandbox.arguments(bashCommand));
        environment.insert(u"TMPDIR"_s, u"/tmp"_s);  // the sandbox's own; the host's may be hidden or read-only
    } else {
        m_process.setProgram(bashCommand.first());
        m_process.setArguments(bashCommand.mid(1));
    }
    m_process.setWorkingDirectory(workingDirectory);
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.setStandardInputFile(QProcess::nullDevice());
    m_process.setProcessEnvironment(environment);
    // A new session makes the child the leader of its own process group (pgid == pid). In the
    // sandbox the child is bwrap: killing it takes down the sandbox's PID namespace, with every
    // process in it, whatever session or group they moved to.
    m_process.setChildProcessModifier([] { ::setsid(); });

    connect(&m_process, &QProcess::readyReadStandardOutput, this, &BashRun::drain);
    connect(&m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        drain();
        // bwrap passes a death by signal N on as exit code 128 + N, as a shell does.
        const bool signalled = m_unsandboxedReason.isEmpty() && exitCode > 128 && exitCode <= 128 + 64;
        complete(exitCode, status == QProcess::CrashExit || signalled);
    });
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || m_completed)
            return;
        m_completed = true;
        m_timer.stop();
        ToolResult result = ToolResult::error(u"%1 could not be started: %2"_s.arg(m_process.program(), m_process.errorString()));
        result.exitCode = -1;
        finishQueued(result);
    });
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { stop(Stop::Timeout); });

    m_process.start();
    m_timer.start(std::chrono::seconds(timeoutSeconds));
    qCDebug(lcTools) << "bash started, pid" << m_process.processId() << "timeout" << timeoutSeconds << "s,"
                     << (m_unsandboxedReason.isEmpty() ? "sandboxed" : "NOT sandboxed");
}

BashRun::~BashRun()
{
    if (m_process.state() != QProcess::NotRunning) {
        killGroup();
        m_process.waitForFinished(1000);  // reaps the killed leader; it is already dead or dying
    }
}

void BashRun::cancel()
{
    stop(Stop::Cancel);
}

void BashRun::drain()
{
    // Read everything available now, so the pipe never backs up and no more than one
    // chunk sits in memory beside the capture's head and tail.
    while (m_process.bytesAvailable() > 0) {
        const QByteArray chunk = m_process.read(64 * 1024);
        if (chunk.isEmpty())
            break;
        m_capture.append(chunk);
    }
}

void BashRun::killGroup()
{
    const qint64 pid = m_process.processId();
    if (pid <= 0)
        return;
    // Negative pid: the whole process group the command started in.
    if (::kill(-pid_t(pid), SIGKILL) != 0)
        ::kill(pid_t(pid), SIGKILL);
}

void BashRun::stop(Stop reason)
{
    if (m_completed)
        return;
    m_stop = reason;
    m_timer.stop();
    killGroup();
    drain();
    // Finish now rather than waiting for the exit to be noticed: stop must be immediate.
    complete(-1, true);
}

QString BashRun::outputText() const
{
    const OutputCapture::Parts parts = m_capture.parts();
    if (m_capture.totalBytes() == 0)
        return u"(no output)"_s;
    const bool binary = Utf8Text::looksBinary(parts.head, parts.omittedBytes > 0 || !parts.tail.isEmpty())
        || Utf8Text::looksBinary(parts.tail, false);
    if (binary)
        return u"[the command wrote %1 bytes of binary output (NUL bytes or invalid UTF-8), not shown; pipe it "
                "through `xxd | head` or `cat -v` to inspect it]"_s
            .arg(m_capture.totalBytes());
    QString text = QString::fromUtf8(parts.head);
    if (parts.omittedBytes > 0) {
        if (!text.endsWith(u'\n'))
            text += u'\n';
        text += u"[... %1 bytes of output left out; %2 bytes in total ...]"_s
                    .arg(parts.omittedBytes)
                    .arg(m_capture.totalBytes())
            + u'\n' + QString::fromUtf8(parts.tail);
    }
    return text;
}

void BashRun::complete(int exitCode, bool crashed)
{
    if (m_completed)
        return;
    m_completed = true;
    m_timer.stop();
    const OutputCapture::Parts parts = m_capture.parts();
    QString content = outputText();
    if (!content.endsWith(u'\n'))
        content += u'\n';
    ToolResult result;
    result.metadata = QJsonObject{{u"command"_s, m_command},
                                  {u"timeoutSeconds"_s, m_timeoutSeconds},
                                  {u"totalBytes"_s, m_capture.totalBytes()},
                                  {u"omittedBytes"_s, parts.omittedBytes},
                                  {u"retainedBytes"_s, qint64(m_capture.retainedBytes())},
                                  {u"sandboxed"_s, m_unsandboxedReason.isEmpty()}};
    if (!m_unsandboxedReason.isEmpty()) {
        content += u"[ran without a sandbox (%1): this session allows unsandboxed commands]\n"_s.arg(m_unsandboxedReason);
        result.metadata.insert(u"unsandboxedReason"_s, m_unsandboxedReason);
    }
    switch (m_stop) {
    case Stop::Timeout:
        content += u"[timed out after %1 s; the command and every process it started were killed]"_s.arg(m_timeoutSeconds);
        result.metadata.insert(u"timedOut"_s, true);
        break;
    case Stop::Cancel:
        content += u"[stopped by the user; the command and every process it started were killed]"_s;
        result.metadata.insert(u"cancelled"_s, true);
        break;
    case Stop::None:
        if (crashed)
            content += u"[the command was killed by a signal]"_s;
        else
            content += u"[exit code: %1]"_s.arg(exitCode);
        break;
    }
    result.content = content;
    result.exitCode = (m_stop != Stop::None || crashed) ? -1 : exitCode;
    result.isError = result.exitCode != 0;
    result.metadata.insert(u"exitCode"_s, result.exitCode);
    finishQueued(result);
}

} // namespace

QString BashTool::unsandboxedSettingName()
{
    return u"Run commands without a sandbox where bubblewrap is unavailable"_s;
}

ToolSpec BashTool::spec() const
{
    using namespace ToolArguments;
    return ToolSpec{
        u"bash"_s,
        u"Run a shell command with `bash -c` in the workspace root. stdout and stderr are merged; long output keeps "
         "its first and last %1 bytes. The exit code is reported. timeout_s defaults to %2 and is at most %3; on "
         "timeout the command and everything it started are killed. No input is available (stdin is empty). The "
         "command runs in a sandbox: only the workspace (and a private /tmp) can be written, and nothing it starts "
         "in the background outlives it."_s
            .arg(outputCap / 2)
            .arg(defaultTimeoutSeconds)
            .arg(maxTimeoutSeconds),
        objectSchema(QJsonObject{{u"command"_s, stringProperty(u"The command line"_s)},
                                 {u"timeout_s"_s, integerProperty(u"Timeout in seconds (default %1, max %2)"_s
                                                                      .arg(defaultTimeoutSeconds)
                                                                      .arg(maxTimeoutSeconds),
                                                                  1)}},
                     {u"command"_s})};
}

ToolRun *BashTool::run(const QJsonObject &arguments, const ToolContext &context, QObject *parent)
{
    const QString command = ToolArguments::string(arguments, u"command"_s);
    if (command.trimmed().isEmpty())
        return fail(u"invalid arguments for bash: 'command' is empty"_s, parent);
    const int timeout = int(std::clamp<qint64>(ToolArguments::integer(arguments, u"timeout_s"_s, defaultTimeoutSeconds), 1,
                                           maxTimeoutSeconds));
    const QString unavailable = Sandbox::unavailableReason();
    if (!unavailable.isEmpty() && !context.sandbox.allowUnsandboxed)
        return fail(u"bash refused to run the command: commands run in a bubblewrap sandbox, and %1. Install "
                     "bubblewrap, or let this session run commands without a sandbox: Settings > Agent > \"%2\" "
                     "(waterline-cli run --allow-unsandboxed)."_s.arg(unavailable, unsandboxedSettingName()),
                    parent);
    return new BashRun(command, context, timeout, unavailable, parent);
}

void BashTool::describe(const QJsonObject &arguments, const ToolContext &, ApprovalRequest &request) const
{
    request.command = ToolArguments::string(arguments, u"command"_s);
    request.summary = tr("bash: %1").arg(request.command);
}

} // namespace wl

#include "BashTool.moc"
