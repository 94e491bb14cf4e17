// The real agent CLIs from npm (Claude Code and Codex, pinned in tests/clients) run
// non-interactively through a real `waterline-cli proxy` process against the fake upstream, which
// is scripted from what each request carries: Claude Code is made to call its Read tool on a file
// of the workspace, then its Bash tool, then to answer; Codex its shell tool, then to answer
// (issue 23 items 8 and 9). Each test checks that the CLI finished with the scripted answer, that
// the tool round trips carried the real file content and command output back upstream, and that
// the proxy forwarded every request with the client's key and without its own token. A second
// proxy runs in compact mode with a small window: Claude Code reads a large file through it and
// must still finish, with requests Waterline compacted on the way (issue 23 item 8).
//
// The CLIs are installed once by scripts/npm-clients into a cache outside the checkout; without
// them the tests are skipped and say how to install them.
#include "AgentCliScript.h"
#include "FakeLlmServer.h"
#include "store/RequestContext.h"
#include "store/SessionStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <optional>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
const QString kSourceDir = QStringLiteral(WATERLINE_SOURCE_DIR);
// What the file in the workspace says: only a real Read (or cat) can bring it back upstream.
const QString kFileSecretPhrase = u"The heron counts 314 reeds at dawn."_s;
const QString kClaudeAnswer = u"FINAL: the notes mention the heron, and bash printed its sum."_s;
const QString kCompactAnswer = u"FINAL: the gauge log was read whole, and both commands ran."_s;
const QString kCodexAnswer = u"FINAL: codex read the notes through its shell."_s;
// The keys the CLIs send: they must reach the upstream and appear nowhere else.
const QString kAnthropicKey = u"sk-ant-dummy-key-for-the-agent-cli-test"_s;
const QString kOpenAiKey = u"sk-dummy-key-for-the-agent-cli-test"_s;

// The large file of the compact-mode test (about 40 KB, far more than its small window takes
// beside Claude Code's system prompt and tools); only its last line says this.
const QString kBigFileEnd = u"The gauge log ends here: 7f3a-reed."_s;
// Compact mode's window and thresholds: Claude Code's first request (~9.7k tokens of system prompt
// and tool schemas, and the prompt) stays under the warn threshold; once the file's content is in
// the conversation the request is past the emergency threshold, and offloading it is enough.
constexpr int kCompactWindow = 20000;

// Anthropic Messages: each tool_result answers a tool_use of the assistant turn just before it,
// and each tool_use is answered in the very next turn, as the API demands. False with `why`.
bool anthropicPairsValid(const QJsonObject &body, QString *why)
{
    QSet<QString> open; // the tool_use ids of the previous assistant turn
    const QJsonArray messages = body.value(u"messages").toArray();
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject message = messages[i].toObject();
        const QString role = message.value(u"role").toString();
        QSet<QString> uses;
        QSet<QString> results;
        for (const QJsonValue &block : message.value(u"content").toArray()) {
            const QJsonObject b = block.toObject();
            if (b.value(u"type").toString() == u"tool_use")
                uses.insert(b.value(u"id").toString());
            else if (b.value(u"type").toString() == u"tool_result")
                results.insert(b.value(u"tool_use_id").toString());
        }
        for (const QString &id : std::as_const(results)) {
            if (role != u"user" || !open.contains(id)) {
                *why = u"message %1: tool_result %2 has no tool_use in the turn before"_s.arg(i).arg(id);
                return false;
            }
        }
        for (const QString &id : std::as_const(open)) {
            if (!results.contains(id)) {
                *why = u"message %1: tool_use %2 is not answered"_s.arg(i).arg(id);
                return false;
            }
        }
        open = role == u"assistant" ? uses : QSet<QString>();
    }
    if (!open.isEmpty()) {
        *why = u"the last turn's tool_use %1 is not answered"_s.arg(*open.cbegin());
        return false;
    }
    return true;
}

// The absolute path an offload placeholder ("[offloaded: PATH | N lines, B bytes]...") names.
QString offloadedPath(const QString &content)
{
    static const QString open = u"[offloaded: "_s;
    if (!content.startsWith(open))
        return {};
    const qsizetype end = content.indexOf(u" | "_s);
    return end < 0 ? QString() : content.mid(open.size(), end - open.size());
}

struct CliRun
{
    bool finished = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QString describe() const
    {
        return u"exit %1\nstdout: %2\nstderr: %3"_s.arg(exitCode).arg(QString::fromUtf8(out.right(4000)),
                                                         QString::fromUtf8(err.right(4000)));
    }
};
} // namespace

class TestAgentClis : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void claudeCodeReadsAFileAndRunsBash();
    void claudeCodeCompletesInCompactMode();
    void codexRunsItsShellTool();

private:
    // One `waterline-cli proxy` process in front of a fake upstream of its own.
    struct Proxy
    {
        FakeLlmServer upstream;
        QProcess process;
        QString database;
        QString baseUrl;
        QByteArray token;
        QByteArray log;      // its standard error read so far
        int seenBefore = 0;  // requests the upstream had when the running test began
        QList<RecordedRequest> newRequests() const { return upstream.requests().mid(seenBefore); }
    };
    // Starts `proxy` with `extra` arguments, recording into `name`.db, with its data folder (where
    // compact mode offloads) under `name`-data.
    void startProxy(Proxy &proxy, const QString &name, const QStringList &extra);
    void stopProxy(Proxy &proxy);
    // Waits with the event loop running: the fake upstreams live on this thread.
    CliRun run(const QString &program, const QStringList &arguments, const QProcessEnvironment &env);
    QProcessEnvironment cliEnvironment() const { return agentCliEnvironment(m_root.filePath(u"home"_s)); }
    std::optional<FakeReply> respondToCodex(const RecordedRequest &request) const;
    // Every request the CLI made went through the proxy (one log line each), to the upstream,
    // with the key and without the proxy's token.
    void checkForwarded(Proxy &proxy, const QByteArray &path, const QList<QByteArray> &keyHeaders);
    // The proxy recorded the CLI's conversation as a session: the one whose history holds
    // `toolOutput` (what a tool of the CLI returned), with at least `requests` requests, each
    // with the system prompt and the tool schemas (among them `tool`) the CLI sent. Its id in
    // `sessionId` when asked.
    void checkRecorded(Proxy &proxy, const QString &toolOutput, int requests, const QString &tool,
                       QString *sessionId = nullptr);

    QTemporaryDir m_root;
    QString m_workspace;
    QString m_nodeModules;
    QString m_clientsError;
    std::unique_ptr<ClaudeCodeScript> m_claudeScript;
    std::unique_ptr<ClaudeCodeScript> m_compactScript;
    Proxy m_plain;   // records only
    Proxy m_compact; // --compact with a small window
};

void TestAgentClis::initTestCase()
{
    QVERIFY(m_root.isValid());
    m_nodeModules = npmClientsModules(kSourceDir, QStringLiteral(WATERLINE_NPM_CACHE_HOME), &m_clientsError);

    m_workspace = m_root.filePath(u"workspace"_s);
    QVERIFY(QDir().mkpath(m_workspace));
    QVERIFY(QDir().mkpath(m_root.filePath(u"home"_s)));
    QFile notes(m_workspace + u"/notes.txt"_s);
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write(kFileSecretPhrase.toUtf8() + '\n');
    notes.close();
    QFile big(m_workspace + u"/gauges.log"_s);
    QVERIFY(big.open(QIODevice::WriteOnly));
    for (int line = 1; big.size() < 40 * 1024; ++line)
        big.write(u"%1 the gauge at weir %2 read %3.%4 m; the reeds stood %5 cm above the water.\n"_s
                      .arg(line, 4, 10, QChar(u'0')).arg(line % 7).arg(line % 5).arg(line % 97, 2, 10, QChar(u'0')).arg(line % 60)
                      .toUtf8());
    big.write(kBigFileEnd.toUtf8() + '\n');
    big.close();

    // Claude Code: Read, then Bash, then the answer; in compact mode a large Read and two commands.
    m_claudeScript = std::make_unique<ClaudeCodeScript>(
        QList<ClaudeCodeScript::Step>{
            ClaudeCodeScript::read(u"toolu_read_1"_s, m_workspace + u"/notes.txt"_s, u"I will read the notes first."_s),
            ClaudeCodeScript::bash(u"toolu_bash_1"_s, u"echo bash-says-$((300 + 14))"_s, u"Print a sum"_s)},
        kClaudeAnswer);
    m_compactScript = std::make_unique<ClaudeCodeScript>(
        QList<ClaudeCodeScript::Step>{
            ClaudeCodeScript::read(u"toolu_read_big"_s, m_workspace + u"/gauges.log"_s, u"Reading the gauge log."_s),
            ClaudeCodeScript::bash(u"toolu_bash_c1"_s, u"wc -l gauges.log"_s, u"Count the lines"_s),
            ClaudeCodeScript::bash(u"toolu_bash_c2"_s, u"echo compact-says-$((40 + 2))"_s, u"Print a sum"_s)},
        kCompactAnswer);
    m_plain.upstream.setResponder([this](const RecordedRequest &request) {
        const std::optional<FakeReply> claude = m_claudeScript->respond(request);
        return claude ? claude : respondToCodex(request);
    });
    m_compact.upstream.setResponder([this](const RecordedRequest &request) { return m_compactScript->respond(request); });

    startProxy(m_plain, u"recorded"_s, {});
    if (QTest::currentTestFailed())
        return;
    startProxy(m_compact, u"compact"_s, {u"--compact"_s, u"--window"_s, QString::number(kCompactWindow)});
}

void TestAgentClis::startProxy(Proxy &proxy, const QString &name, const QStringList &extra)
{
    QVERIFY(proxy.upstream.start());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_DATA_HOME"_s, m_root.filePath(name + u"-data"_s));
    env.insert(u"XDG_CONFIG_HOME"_s, m_root.filePath(name + u"-config"_s));
    proxy.process.setProcessEnvironment(env);
    proxy.database = m_root.filePath(name + u".db"_s);
    proxy.process.start(QStringLiteral(WATERLINE_BIN_DIR "/waterline-cli"),
                        QStringList{u"proxy"_s, u"--listen"_s, u"127.0.0.1:0"_s, u"--upstream"_s, proxy.upstream.url().toString(),
                                    u"--db"_s, proxy.database} + extra);
    QVERIFY2(proxy.process.waitForStarted(10000), qPrintable(proxy.process.errorString()));
    QVERIFY2(QTest::qWaitFor([&proxy] { return proxy.process.canReadLine() || proxy.process.state() == QProcess::NotRunning; }, 10000),
             "waterline-cli proxy printed no base URL");
    QVERIFY2(proxy.process.canReadLine(), proxy.process.readAllStandardError().constData());
    proxy.baseUrl = QString::fromUtf8(proxy.process.readLine()).trimmed();
    const QUrl base(proxy.baseUrl);
    QVERIFY2(base.isValid() && base.host() == u"127.0.0.1" && base.path().startsWith(u"/t/"), qPrintable(proxy.baseUrl));
    proxy.token = base.path().mid(3).toUtf8();
    QVERIFY(proxy.token.size() >= 16);
}

void TestAgentClis::init()
{
    if (!m_clientsError.isEmpty())
        QSKIP(qPrintable(m_clientsError));
    for (Proxy *proxy : {&m_plain, &m_compact}) {
        QCOMPARE(proxy->process.state(), QProcess::Running);
        proxy->seenBefore = proxy->upstream.requestCount();
        proxy->log += proxy->process.readAllStandardError();
    }
}

void TestAgentClis::stopProxy(Proxy &proxy)
{
    if (proxy.process.state() != QProcess::NotRunning) {
        proxy.process.terminate();
        if (!proxy.process.waitForFinished(5000))
            proxy.process.kill();
    }
    // Nothing the proxy printed (the base URL, one line per exchange) carries a client's key.
    const QByteArray printed = proxy.process.readAllStandardOutput() + proxy.log + proxy.process.readAllStandardError();
    QVERIFY(!printed.contains(kAnthropicKey.toUtf8()));
    QVERIFY(!printed.contains(kOpenAiKey.toUtf8()));
}

void TestAgentClis::cleanupTestCase()
{
    stopProxy(m_plain);
    stopProxy(m_compact);
}

// Codex's script, from what the request carries: its shell tool, then the answer. A request
// without the agent's tools (a title the CLI asks for on the side) gets a short text.
std::optional<FakeReply> TestAgentClis::respondToCodex(const RecordedRequest &request) const
{
    if (request.protocol() != u"openai-responses")
        return std::nullopt;
    const QJsonObject body = request.json();
    // Codex's shell tool: `exec_command` ({"cmd": "..."}) in current versions, `shell` before.
    const bool exec = offersTool(body, u"exec_command"_s);
    if (!exec && !offersTool(body, u"shell"_s))
        return shapedReply(request, FakeReply::withText(u"Side answer."_s));
    if (!responsesToolResults(body).contains(u"call_shell_1"_s)) {
        const QString command = u"cat notes.txt && echo codex-says-$((300 + 14))"_s;
        const QJsonObject arguments = exec ? QJsonObject{{u"cmd"_s, command}}
                                           : QJsonObject{{u"command"_s, QJsonArray{u"bash"_s, u"-lc"_s, command}}};
        return shapedReply(request, FakeReply::withToolCalls(
            {{u"call_shell_1"_s, exec ? u"exec_command"_s : u"shell"_s,
              QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact))}}));
    }
    return shapedReply(request, FakeReply::withText(kCodexAnswer));
}

CliRun TestAgentClis::run(const QString &program, const QStringList &arguments, const QProcessEnvironment &env)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(m_workspace);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(program, arguments);
    CliRun result;
    if (!process.waitForStarted(10000)) {
        result.err = process.errorString().toUtf8();
        return result;
    }
    result.finished = QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, 180000);
    if (!result.finished) {
        process.kill();
        process.waitForFinished(5000);
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

void TestAgentClis::checkForwarded(Proxy &proxy, const QByteArray &path, const QList<QByteArray> &keyHeaders)
{
    const QList<RecordedRequest> requests = proxy.newRequests();
    QVERIFY(!requests.isEmpty());
    for (const RecordedRequest &request : requests) {
        QVERIFY2(request.path.startsWith(path), request.path.constData());
        const bool keySent = std::any_of(keyHeaders.cbegin(), keyHeaders.cend(), [&request](const QByteArray &name) {
            return !request.header(name).isEmpty();
        });
        QVERIFY2(keySent, qPrintable(request.dump().left(2000)));
        QVERIFY(!request.path.contains(proxy.token));
        QVERIFY(!request.body.contains(proxy.token));
        for (const auto &[name, value] : request.headers)
            QVERIFY2(!value.contains(proxy.token), name.constData());
    }
    // The proxy logged one line per exchange it forwarded ("POST /v1/messages?beta=true 200 ..."):
    // as many as the upstream saw since the test began.
    const QByteArray line = "POST " + path;
    const qsizetype before = proxy.log.count(line);
    QVERIFY2(QTest::qWaitFor([&] {
        proxy.log += proxy.process.readAllStandardError();
        return proxy.log.count(line) - before >= requests.size();
    }, 5000), proxy.log.right(2000).constData());
}

void TestAgentClis::checkRecorded(Proxy &proxy, const QString &toolOutput, int requests, const QString &tool,
                                  QString *sessionIdOut)
{
    const QString database = proxy.database;
    SessionStore store;
    QString error;
    QVERIFY2(store.open(database, &error), qPrintable(error));
    // The recorder writes on its own thread: the last request lands a moment after the CLI exits.
    QString sessionId;
    QString seen; // what the database holds, for the failure message
    QVERIFY2(QTest::qWaitFor([&] {
        seen.clear();
        for (const SessionInfo &info : store.listSessions()) {
            seen += u"%1 %2: %3 requests, %4 messages\n"_s.arg(info.id, info.title).arg(store.requests(info.id).size())
                        .arg(store.history(info.id).size());
            const QList<Message> history = store.history(info.id);
            const bool holds = std::any_of(history.cbegin(), history.cend(), [&toolOutput](const Message &m) {
                return m.isToolResult() && m.content.contains(toolOutput);
            });
            if (holds && store.requests(info.id).size() >= requests) {
                sessionId = info.id;
                return true;
            }
        }
        return false;
    }, 10000), qPrintable(u"the proxy recorded no session with the CLI's tool result; the database holds:\n"_s + seen
                          + u"and the proxy said:\n"_s + QString::fromUtf8((proxy.log += proxy.process.readAllStandardError()).right(3000))));
    // Each tool call and each result once, however the CLI regrouped its earlier turns.
    QStringList callIds, resultIds;
    for (const Message &m : store.history(sessionId)) {
        if (m.isToolResult())
            resultIds << m.toolCallId;
        for (const ToolCall &call : m.toolCalls)
            callIds << call.id;
    }
    QCOMPARE(QSet<QString>(callIds.cbegin(), callIds.cend()).size(), callIds.size());
    QCOMPARE(QSet<QString>(resultIds.cbegin(), resultIds.cend()).size(), resultIds.size());
    QVERIFY(!resultIds.isEmpty());
    const std::optional<SessionSource> source = store.sessionSource(sessionId);
    QVERIFY(source);
    QCOMPARE(source->format, u"proxy"_s);
    const QList<RequestRecord> stored = store.requests(sessionId);
    for (const RequestRecord &request : stored) {
        QVERIFY(!request.viewMessageIds.isEmpty());
        const std::optional<RequestContext> context = store.requestContext(sessionId, request.index, &error);
        QVERIFY2(context, qPrintable(error));
        QVERIFY(!context->systemPrompt.isEmpty());
        const bool hasTool = std::any_of(context->toolSchemas.cbegin(), context->toolSchemas.cend(), [&tool](const QJsonValue &v) {
            const QJsonObject o = v.toObject();
            return o.value(u"name").toString() == tool || o.value(u"function").toObject().value(u"name").toString() == tool;
        });
        QVERIFY2(hasTool, qPrintable(QString::fromUtf8(QJsonDocument(context->toolSchemas).toJson()).left(2000)));
    }
    if (sessionIdOut)
        *sessionIdOut = sessionId;
    store.close();
    // No key of the CLIs in the database file.
    QFile file(database);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(!bytes.contains(kAnthropicKey.toUtf8()));
    QVERIFY(!bytes.contains(kOpenAiKey.toUtf8()));
}

void TestAgentClis::claudeCodeReadsAFileAndRunsBash()
{
    const QString claude = claudeCodeBinary(m_nodeModules);
    QVERIFY2(QFileInfo(claude).isExecutable(), qPrintable(claude + u" is missing: run scripts/npm-clients again"_s));
    const CliRun result = run(claude, {u"-p"_s, u"Read notes.txt, then run a command, then tell me what you found."_s,
                                       u"--allowedTools"_s, u"Read"_s, u"Bash"_s, u"--max-turns"_s, u"6"_s},
                              claudeCodeEnvironment(m_root.filePath(u"home"_s), QUrl(m_plain.baseUrl), kAnthropicKey));
    QVERIFY2(result.finished && result.exitCode == 0, qPrintable(result.describe()));
    QVERIFY2(result.out.contains(kClaudeAnswer.toUtf8()), qPrintable(result.describe()));

    checkForwarded(m_plain, "/v1/messages", {"x-api-key", "authorization"});
    // The last agent request carried both tool round trips: the file's text and the command's output.
    const QList<RecordedRequest> requests = m_plain.newRequests();
    const auto last = std::find_if(requests.crbegin(), requests.crend(), [](const RecordedRequest &r) {
        return anthropicToolResults(r.json()).contains(u"toolu_bash_1"_s);
    });
    QVERIFY2(last != requests.crend(), "no request carried the Bash tool's result");
    const QHash<QString, QString> results = anthropicToolResults(last->json());
    QVERIFY2(results.value(u"toolu_read_1"_s).contains(kFileSecretPhrase), qPrintable(results.value(u"toolu_read_1"_s)));
    QVERIFY2(results.value(u"toolu_bash_1"_s).contains(u"bash-says-314"_s), qPrintable(results.value(u"toolu_bash_1"_s)));
    checkRecorded(m_plain, u"bash-says-314"_s, 3, u"Read"_s);

    // What Claude Code sends besides the messages, in tokens (bytes / 4): the system prompt and
    // the tool schemas of its first agent request.
    const auto first = std::find_if(requests.cbegin(), requests.cend(), [](const RecordedRequest &r) {
        return offersTool(r.json(), u"Read"_s);
    });
    QVERIFY(first != requests.cend());
    const QJsonObject body = first->json();
    const qsizetype systemBytes = jsonText(body.value(u"system")).toUtf8().size();
    const qsizetype toolBytes = jsonText(body.value(u"tools")).toUtf8().size();
    QVERIFY(systemBytes > 0 && toolBytes > 0);
    qInfo("Claude Code %s sends besides its messages: system prompt %lld bytes (~%lld tokens), %lld tool schemas "
          "%lld bytes (~%lld tokens), together ~%lld tokens; %lld requests in this run",
          first->header("user-agent").constData(), qlonglong(systemBytes), qlonglong(systemBytes / 4),
          qlonglong(body.value(u"tools").toArray().size()), qlonglong(toolBytes), qlonglong(toolBytes / 4),
          qlonglong((systemBytes + toolBytes) / 4), qlonglong(requests.size()));
}

void TestAgentClis::claudeCodeCompletesInCompactMode()
{
    const QString claude = claudeCodeBinary(m_nodeModules);
    QVERIFY2(QFileInfo(claude).isExecutable(), qPrintable(claude + u" is missing: run scripts/npm-clients again"_s));
    const CliRun result = run(claude, {u"-p"_s, u"Read gauges.log, count its lines, run a sum, then sum it all up."_s,
                                       u"--allowedTools"_s, u"Read"_s, u"Bash"_s, u"--max-turns"_s, u"8"_s},
                              claudeCodeEnvironment(m_root.filePath(u"home"_s), QUrl(m_compact.baseUrl), kAnthropicKey));
    QVERIFY2(result.finished && result.exitCode == 0, qPrintable(result.describe()));
    QVERIFY2(result.out.contains(kCompactAnswer.toUtf8()), qPrintable(result.describe()));
    checkForwarded(m_compact, "/v1/messages", {"x-api-key", "authorization"});

    // Claude Code sent the whole file each time: its recorded conversation holds all of it.
    QString sessionId;
    checkRecorded(m_compact, kBigFileEnd, 4, u"Read"_s, &sessionId);
    if (QTest::currentTestFailed())
        return;
    SessionStore store;
    QString error;
    QVERIFY2(store.open(m_compact.database, &error), qPrintable(error));
    QString fileAsSent;
    for (const Message &m : store.history(sessionId)) {
        if (m.isToolResult() && m.toolCallId == u"toolu_read_big")
            fileAsSent = m.content;
    }
    QVERIFY2(fileAsSent.contains(kBigFileEnd), qPrintable(fileAsSent.right(400)));
    // ... and Waterline's compactions of those requests are the session's own: records, each to
    // fewer tokens, with the checkpoints and offloads they made on the stored messages.
    const QList<CompactionRecord> records = store.records(sessionId);
    const ContextOverlays overlays = store.overlays(sessionId);
    QSet<QString> recordIds;
    for (const CompactionRecord &record : records) {
        recordIds.insert(record.id);
        QVERIFY2(record.tier != Tier::None, qPrintable(jsonText(record.toJson())));
        QVERIFY2(record.tokensAfter < record.tokensBefore, qPrintable(jsonText(record.toJson())));
        QVERIFY(record.requestIndex >= 0 && record.requestIndex < store.requests(sessionId).size());
        qInfo("request %d compacted (%s): %lld to %lld tokens, %lld results offloaded, %d messages summarised", record.requestIndex,
              qPrintable(tierName(record.tier)), qlonglong(record.tokensBefore), qlonglong(record.tokensAfter),
              qlonglong(record.offloaded.size()), record.summarized);
    }
    QVERIFY2(!records.isEmpty(), qPrintable(QString::fromUtf8(m_compact.log.right(2000))));
    QVERIFY(!overlays.checkpoints.isEmpty() || !overlays.offloads.isEmpty());
    QSet<qint64> storedIds;
    for (const Message &m : store.history(sessionId))
        storedIds.insert(m.id);
    for (const Checkpoint &cp : overlays.checkpoints)
        QVERIFY(recordIds.contains(cp.recordId) && storedIds.contains(cp.coversUpToMessageId));
    for (const OffloadOverlay &o : overlays.offloads)
        QVERIFY(recordIds.contains(o.recordId) && storedIds.contains(o.messageId));
    store.close();

    // What the upstream received: every agent request pairs its tool calls and results; the file's
    // content went up at most once (the request right after the Read may fit), later in its place
    // a placeholder naming an absolute file that holds it all.
    int agentRequests = 0;
    int smaller = 0;
    for (const RecordedRequest &request : m_compact.newRequests()) {
        const QJsonObject body = request.json();
        if (!offersTool(body, u"Read"_s))
            continue;
        ++agentRequests;
        QString why;
        QVERIFY2(anthropicPairsValid(body, &why), qPrintable(why + u"\n"_s + QString::fromUtf8(request.body.left(3000))));
        const QHash<QString, QString> results = anthropicToolResults(body);
        for (auto it = results.cbegin(); it != results.cend(); ++it) {
            const QString path = offloadedPath(it.value());
            if (it.value().startsWith(u"[offloaded: "_s)) {
                QVERIFY2(QDir::isAbsolutePath(path), qPrintable(it.value().left(300)));
                QFile offloaded(path);
                QVERIFY2(offloaded.open(QIODevice::ReadOnly), qPrintable(path));
                if (it.key() == u"toolu_read_big")
                    QVERIFY2(QString::fromUtf8(offloaded.readAll()).contains(kBigFileEnd), qPrintable(path));
            }
        }
        // The request as Claude Code wrote it carried the whole file whenever it carried the Read's
        // result; the upstream got less.
        if (results.contains(u"toolu_read_big"_s) && !results.value(u"toolu_read_big"_s).contains(kBigFileEnd)) {
            ++smaller;
            QJsonObject restored = body;
            QJsonArray messages = restored.value(u"messages").toArray();
            for (qsizetype i = 0; i < messages.size(); ++i) {
                QJsonObject message = messages[i].toObject();
                QJsonArray content = message.value(u"content").toArray();
                for (qsizetype j = 0; j < content.size(); ++j) {
                    QJsonObject block = content[j].toObject();
                    if (block.value(u"tool_use_id").toString() == u"toolu_read_big")
                        block.insert(u"content"_s, fileAsSent);
                    content.replace(j, block);
                }
                message.insert(u"content"_s, content);
                messages.replace(i, message);
            }
            restored.insert(u"messages"_s, messages);
            const qsizetype before = QJsonDocument(restored).toJson(QJsonDocument::Compact).size();
            qInfo("request #%d as sent by Claude Code ~%lld bytes, as received upstream %lld bytes", request.number,
                  qlonglong(before), qlonglong(request.body.size()));
            QVERIFY(request.body.size() < before);
        }
    }
    QVERIFY(agentRequests >= 4);
    QVERIFY2(smaller > 0, "no request reached the upstream without the whole file");
}

void TestAgentClis::codexRunsItsShellTool()
{
    const QString codex = m_nodeModules + u"/@openai/codex/bin/codex.js"_s;
    QVERIFY2(QFileInfo::exists(codex), qPrintable(codex + u" is missing: run scripts/npm-clients again"_s));
    // A provider of its own whose base URL is the proxy, speaking Responses; no approvals and no
    // sandbox (the workspace is a temporary folder), so it runs unattended.
    const QString codexHome = m_root.filePath(u"codex-home"_s);
    QVERIFY(QDir().mkpath(codexHome));
    QFile config(codexHome + u"/config.toml"_s);
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(u"model = \"fake-model\"\n"
                 "model_provider = \"waterline\"\n"
                 "approval_policy = \"never\"\n"
                 "sandbox_mode = \"danger-full-access\"\n"
                 "\n"
                 "[model_providers.waterline]\n"
                 "name = \"Waterline proxy\"\n"
                 "base_url = \"%1/v1\"\n"
                 "wire_api = \"responses\"\n"
                 "env_key = \"WATERLINE_TEST_OPENAI_KEY\"\n"
                 "request_max_retries = 0\n"
                 "stream_max_retries = 0\n"_s.arg(m_plain.baseUrl).toUtf8());
    config.close();
    QProcessEnvironment env = cliEnvironment();
    env.insert(u"CODEX_HOME"_s, codexHome);
    env.insert(u"WATERLINE_TEST_OPENAI_KEY"_s, kOpenAiKey);
    const CliRun result = run(u"node"_s, {codex, u"exec"_s, u"--skip-git-repo-check"_s, u"-C"_s, m_workspace,
                                          u"Show me what notes.txt says, using the shell."_s},
                              env);
    QVERIFY2(result.finished && result.exitCode == 0, qPrintable(result.describe()));
    QVERIFY2(result.out.contains(kCodexAnswer.toUtf8()), qPrintable(result.describe()));

    checkForwarded(m_plain, "/v1/responses", {"authorization"});
    const QList<RecordedRequest> requests = m_plain.newRequests();
    const auto last = std::find_if(requests.crbegin(), requests.crend(), [](const RecordedRequest &r) {
        return responsesToolResults(r.json()).contains(u"call_shell_1"_s);
    });
    QVERIFY2(last != requests.crend(), "no request carried the shell tool's output");
    const QString output = responsesToolResults(last->json()).value(u"call_shell_1"_s);
    QVERIFY2(output.contains(kFileSecretPhrase), qPrintable(output));
    QVERIFY2(output.contains(u"codex-says-314"_s), qPrintable(output));
    checkRecorded(m_plain, u"codex-says-314"_s, 2, u"exec_command"_s);
}

QTEST_GUILESS_MAIN(TestAgentClis)
#include "tst_agentclis.moc"
