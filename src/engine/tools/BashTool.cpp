#include "tools/BashTool.h"

#include "LoggingCategories.h"
#include "tools/OutputCapture.h"
#include "tools/ToolArguments.h"
#include "tools/ToolRun.h"
#include "tools/Utf8Text.h"
#include "tools/Workspace.h"

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
    BashRun(const QString &command, const QString &workingDirectory, int timeoutSeconds, QObject *parent);
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
    QProcess m_process;
    QTimer m_timer;
    OutputCapture m_capture{BashTool::outputCap / 2, BashTool::outputCap / 2};
    Stop m_stop = Stop::None;
    bool m_completed = false;  // the result is built (finished() follows through the event loop)
};

BashRun::BashRun(const QString &command, const QString &workingDirectory, int timeoutSeconds, QObject *parent)
    : ToolRun(u"bash"_s, parent)
    , m_command(command)
    , m_timeoutSeconds(timeoutSeconds)
{
    m_process.setProgram(u"bash"_s);
    m_process.setArguments({u"-c"_s, command});
    m_process.setWorkingDirectory(workingDirectory);
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.setStandardInputFile(QProcess::nullDevice());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    // API keys stay out of reach: whatever a command prints enters the history and the store.
    const QStringList names = environment.keys();
    for (const QString &name : names) {
        if (name.endsWith(u"_API_KEY"_s) || name.endsWith(u"_AUTH_TOKEN"_s))
            environment.remove(name);
    }
    // Nothing interactive: no pager waits for a key, no colour codes in the output.
    environment.insert(u"PAGER"_s, u"cat"_s);
    environment.insert(u"GIT_PAGER"_s, u"cat"_s);
    environment.insert(u"TERM"_s, u"dumb"_s);
    m_process.setProcessEnvironment(environment);
    // A new session makes the child the leader of its own process group (pgid == pid).
    m_process.setChildProcessModifier([] { ::setsid(); });

    connect(&m_process, &QProcess::readyReadStandardOutput, this, &BashRun::drain);
    connect(&m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        drain();
        complete(exitCode, status == QProcess::CrashExit);
    });
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || m_completed)
            return;
        m_completed = true;
        m_timer.stop();
        ToolResult result = ToolResult::error(u"bash could not be started: %1"_s.arg(m_process.errorString()));
        result.exitCode = -1;
        finishQueued(result);
    });
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { stop(Stop::Timeout); });

    m_process.start();
    m_timer.start(std::chrono::seconds(timeoutSeconds));
    qCDebug(lcTools) << "bash started, pid" << m_process.processId() << "timeout" << timeoutSeconds << "s";
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
                                  {u"retainedBytes"_s, qint64(m_capture.retainedBytes())}};
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

ToolSpec BashTool::spec() const
{
    using namespace ToolArguments;
    return ToolSpec{
        u"bash"_s,
        u"Run a shell command with `bash -c` in the workspace root. stdout and stderr are merged; long output keeps "
         "its first and last %1 bytes. The exit code is reported. timeout_s defaults to %2 and is at most %3; on "
         "timeout the command and everything it started are killed. No input is available (stdin is empty)."_s
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
    return new BashRun(command, context.workspace->root(), timeout, parent);
}

void BashTool::describe(const QJsonObject &arguments, const ToolContext &, ApprovalRequest &request) const
{
    request.command = ToolArguments::string(arguments, u"command"_s);
    request.summary = tr("bash: %1").arg(request.command);
}

} // namespace wl

#include "BashTool.moc"
