// The real agent CLIs from npm (Claude Code and Codex, pinned in tests/clients) run
// non-interactively through a real `waterline-cli proxy` process against the fake upstream, which
// is scripted from what each request carries: Claude Code is made to call its Read tool on a file
// of the workspace, then its Bash tool, then to answer; Codex its shell tool, then to answer
// (issue 23 items 8 and 9). Each test checks that the CLI finished with the scripted answer, that
// the tool round trips carried the real file content and command output back upstream, and that
// the proxy forwarded every request with the client's key and without its own token.
//
// The CLIs are installed once by scripts/npm-clients into a cache outside the checkout; without
// them the tests are skipped and say how to install them.
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
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <optional>

using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
const QString kSourceDir = QStringLiteral(WATERLINE_SOURCE_DIR);
// What the file in the workspace says: only a real Read (or cat) can bring it back upstream.
const QString kFileSecretPhrase = u"The heron counts 314 reeds at dawn."_s;
const QString kClaudeAnswer = u"FINAL: the notes mention the heron, and bash printed its sum."_s;
const QString kCodexAnswer = u"FINAL: codex read the notes through its shell."_s;
// The keys the CLIs send: they must reach the upstream and appear nowhere else.
const QString kAnthropicKey = u"sk-ant-dummy-key-for-the-agent-cli-test"_s;
const QString kOpenAiKey = u"sk-dummy-key-for-the-agent-cli-test"_s;

QString compactText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    return QString::fromUtf8(value.isArray() ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                             : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
}

bool hasTool(const QJsonObject &body, const QString &name)
{
    const QJsonArray tools = body.value(u"tools").toArray();
    return std::any_of(tools.cbegin(), tools.cend(), [&name](const QJsonValue &tool) {
        return tool.toObject().value(u"name").toString() == name;
    });
}

// Anthropic Messages: every tool_result block of the conversation, by tool_use_id.
QHash<QString, QString> anthropicToolResults(const QJsonObject &body)
{
    QHash<QString, QString> results;
    for (const QJsonValue &message : body.value(u"messages").toArray()) {
        for (const QJsonValue &block : message.toObject().value(u"content").toArray()) {
            const QJsonObject b = block.toObject();
            if (b.value(u"type").toString() == u"tool_result")
                results.insert(b.value(u"tool_use_id").toString(), compactText(b.value(u"content")));
        }
    }
    return results;
}

// OpenAI Responses: every function_call_output item, by call_id.
QHash<QString, QString> responsesToolResults(const QJsonObject &body)
{
    QHash<QString, QString> results;
    for (const QJsonValue &item : body.value(u"input").toArray()) {
        const QJsonObject i = item.toObject();
        if (i.value(u"type").toString() == u"function_call_output")
            results.insert(i.value(u"call_id").toString(), compactText(i.value(u"output")));
    }
    return results;
}

FakeReply answerFor(const QJsonObject &body, FakeReply reply)
{
    reply.wholeJson = !body.value(u"stream").toBool(false);
    reply.chunkChars = 24;
    reply.inputTokens = 2000;
    reply.cacheReadTokens = 1500;
    reply.outputTokens = 40;
    return reply;
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
    void codexRunsItsShellTool();

private:
    // Waits with the event loop running: the fake upstream lives on this thread.
    CliRun run(const QString &program, const QStringList &arguments, const QProcessEnvironment &env);
    QProcessEnvironment cliEnvironment() const;
    std::optional<FakeReply> respond(const RecordedRequest &request) const;
    QList<RecordedRequest> newRequests() const { return m_upstream.requests().mid(m_seenBefore); }
    // Every request the CLI made went through the proxy (one log line each), to the upstream,
    // with the key and without the proxy's token.
    void checkForwarded(const QByteArray &path, const QList<QByteArray> &keyHeaders);
    // The proxy recorded the CLI's conversation as a session: the one whose history holds
    // `toolOutput` (what a tool of the CLI returned), with at least `requests` requests, each
    // with the system prompt and the tool schemas (among them `tool`) the CLI sent.
    void checkRecorded(const QString &toolOutput, int requests, const QString &tool);

    FakeLlmServer m_upstream;
    QProcess m_proxy;
    QTemporaryDir m_root;
    QString m_workspace;
    QString m_baseUrl;
    QByteArray m_token;
    QString m_nodeModules;
    QString m_clientsError;
    QByteArray m_proxyLog;
    int m_seenBefore = 0;
};

void TestAgentClis::initTestCase()
{
    QVERIFY(m_root.isValid());
    QProcess locate;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CACHE_HOME"_s, QStringLiteral(WATERLINE_NPM_CACHE_HOME));
    locate.setProcessEnvironment(env);
    locate.start(u"bash"_s, {kSourceDir + u"/scripts/npm-clients"_s, u"--print-dir"_s});
    if (!locate.waitForFinished(30000) || locate.exitCode() != 0)
        m_clientsError = u"The agent CLIs from npm are not installed (%1). Install them once with `scripts/npm-clients` "
                         "(from the checkout, on the host; it needs the npm registry) and run this test again."_s
                             .arg(QString::fromLocal8Bit(locate.readAllStandardError()).trimmed());
    else
        m_nodeModules = QString::fromLocal8Bit(locate.readAllStandardOutput()).trimmed() + u"/node_modules"_s;

    m_workspace = m_root.filePath(u"workspace"_s);
    QVERIFY(QDir().mkpath(m_workspace));
    QVERIFY(QDir().mkpath(m_root.filePath(u"home"_s)));
    QFile notes(m_workspace + u"/notes.txt"_s);
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write(kFileSecretPhrase.toUtf8() + '\n');
    notes.close();

    m_upstream.setResponder([this](const RecordedRequest &request) { return respond(request); });
    QVERIFY(m_upstream.start());
    QProcessEnvironment proxyEnv = QProcessEnvironment::systemEnvironment();
    proxyEnv.insert(u"XDG_DATA_HOME"_s, m_root.filePath(u"data"_s));
    proxyEnv.insert(u"XDG_CONFIG_HOME"_s, m_root.filePath(u"config"_s));
    m_proxy.setProcessEnvironment(proxyEnv);
    m_proxy.start(QStringLiteral(WATERLINE_BIN_DIR "/waterline-cli"),
                  {u"proxy"_s, u"--listen"_s, u"127.0.0.1:0"_s, u"--upstream"_s, m_upstream.url().toString(), u"--db"_s,
                   m_root.filePath(u"recorded.db"_s)});
    QVERIFY2(m_proxy.waitForStarted(10000), qPrintable(m_proxy.errorString()));
    QVERIFY2(QTest::qWaitFor([this] { return m_proxy.canReadLine() || m_proxy.state() == QProcess::NotRunning; }, 10000),
             "waterline-cli proxy printed no base URL");
    QVERIFY2(m_proxy.canReadLine(), m_proxy.readAllStandardError().constData());
    m_baseUrl = QString::fromUtf8(m_proxy.readLine()).trimmed();
    const QUrl base(m_baseUrl);
    QVERIFY2(base.isValid() && base.host() == u"127.0.0.1" && base.path().startsWith(u"/t/"), qPrintable(m_baseUrl));
    m_token = base.path().mid(3).toUtf8();
    QVERIFY(m_token.size() >= 16);
}

void TestAgentClis::init()
{
    if (!m_clientsError.isEmpty())
        QSKIP(qPrintable(m_clientsError));
    QCOMPARE(m_proxy.state(), QProcess::Running);
    m_seenBefore = m_upstream.requestCount();
    m_proxyLog += m_proxy.readAllStandardError();
}

void TestAgentClis::cleanupTestCase()
{
    if (m_proxy.state() != QProcess::NotRunning) {
        m_proxy.terminate();
        if (!m_proxy.waitForFinished(5000))
            m_proxy.kill();
    }
    // Nothing the proxy printed (the base URL, one line per exchange) carries a client's key.
    const QByteArray printed = m_proxy.readAllStandardOutput() + m_proxyLog + m_proxy.readAllStandardError();
    QVERIFY(!printed.contains(kAnthropicKey.toUtf8()));
    QVERIFY(!printed.contains(kOpenAiKey.toUtf8()));
}

// The script, from what the request carries. A request without the agent's tools (a title or a
// summary the CLI asks for on the side) gets a short text; otherwise the next step of the task
// follows from which tool results are already in the conversation.
std::optional<FakeReply> TestAgentClis::respond(const RecordedRequest &request) const
{
    const QJsonObject body = request.json();
    if (request.protocol() == u"anthropic") {
        if (!hasTool(body, u"Read"_s) || !hasTool(body, u"Bash"_s))
            return answerFor(body, FakeReply::withText(u"Side answer."_s));
        const QHash<QString, QString> results = anthropicToolResults(body);
        if (!results.contains(u"toolu_read_1"_s)) {
            const QJsonObject input{{u"file_path"_s, QString(m_workspace + u"/notes.txt"_s)}};
            return answerFor(body, FakeReply::withToolCalls(
                {{u"toolu_read_1"_s, u"Read"_s, QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Compact))}},
                u"I will read the notes first."_s));
        }
        if (!results.contains(u"toolu_bash_1"_s)) {
            const QJsonObject input{{u"command"_s, u"echo bash-says-$((300 + 14))"_s},
                                    {u"description"_s, u"Print a sum"_s}};
            return answerFor(body, FakeReply::withToolCalls(
                {{u"toolu_bash_1"_s, u"Bash"_s, QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Compact))}}));
        }
        return answerFor(body, FakeReply::withText(kClaudeAnswer));
    }
    if (request.protocol() == u"openai-responses") {
        // Codex's shell tool: `exec_command` ({"cmd": "..."}) in current versions, `shell` before.
        const bool exec = hasTool(body, u"exec_command"_s);
        if (!exec && !hasTool(body, u"shell"_s))
            return answerFor(body, FakeReply::withText(u"Side answer."_s));
        if (!responsesToolResults(body).contains(u"call_shell_1"_s)) {
            const QString command = u"cat notes.txt && echo codex-says-$((300 + 14))"_s;
            const QJsonObject arguments = exec ? QJsonObject{{u"cmd"_s, command}}
                                               : QJsonObject{{u"command"_s, QJsonArray{u"bash"_s, u"-lc"_s, command}}};
            return answerFor(body, FakeReply::withToolCalls(
                {{u"call_shell_1"_s, exec ? u"exec_command"_s : u"shell"_s,
                  QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact))}}));
        }
        return answerFor(body, FakeReply::withText(kCodexAnswer));
    }
    return std::nullopt;
}

QProcessEnvironment TestAgentClis::cliEnvironment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &name : {u"ANTHROPIC_API_KEY"_s, u"ANTHROPIC_AUTH_TOKEN"_s, u"ANTHROPIC_BASE_URL"_s,
                                u"OPENAI_API_KEY"_s, u"OPENAI_BASE_URL"_s, u"CODEX_HOME"_s})
        env.remove(name);
    env.insert(u"HOME"_s, m_root.filePath(u"home"_s));
    env.insert(u"XDG_CONFIG_HOME"_s, m_root.filePath(u"home/.config"_s));
    env.insert(u"XDG_CACHE_HOME"_s, m_root.filePath(u"home/.cache"_s));
    env.insert(u"XDG_DATA_HOME"_s, m_root.filePath(u"home/.local/share"_s));
    return env;
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

void TestAgentClis::checkForwarded(const QByteArray &path, const QList<QByteArray> &keyHeaders)
{
    const QList<RecordedRequest> requests = newRequests();
    QVERIFY(!requests.isEmpty());
    for (const RecordedRequest &request : requests) {
        QVERIFY2(request.path.startsWith(path), request.path.constData());
        const bool keySent = std::any_of(keyHeaders.cbegin(), keyHeaders.cend(), [&request](const QByteArray &name) {
            return !request.header(name).isEmpty();
        });
        QVERIFY2(keySent, qPrintable(request.dump().left(2000)));
        QVERIFY(!request.path.contains(m_token));
        QVERIFY(!request.body.contains(m_token));
        for (const auto &[name, value] : request.headers)
            QVERIFY2(!value.contains(m_token), name.constData());
    }
    // The proxy logged one line per exchange it forwarded ("POST /v1/messages?beta=true 200 ..."):
    // as many as the upstream saw since the test began.
    const QByteArray line = "POST " + path;
    const qsizetype before = m_proxyLog.count(line);
    QVERIFY2(QTest::qWaitFor([&] {
        m_proxyLog += m_proxy.readAllStandardError();
        return m_proxyLog.count(line) - before >= requests.size();
    }, 5000), m_proxyLog.right(2000).constData());
}

void TestAgentClis::checkRecorded(const QString &toolOutput, int requests, const QString &tool)
{
    const QString database = m_root.filePath(u"recorded.db"_s);
    SessionStore store;
    QString error;
    QVERIFY2(store.open(database, &error), qPrintable(error));
    // The recorder writes on its own thread: the last request lands a moment after the CLI exits.
    QString sessionId;
    QVERIFY2(QTest::qWaitFor([&] {
        for (const SessionInfo &info : store.listSessions()) {
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
    }, 10000), "the proxy recorded no session with the CLI's tool result");
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
    // The native binary of the platform package (what the wrapper's postinstall copies over its
    // placeholder; scripts/npm-clients runs no install scripts).
    const QString claude = m_nodeModules + u"/@anthropic-ai/claude-code-linux-x64/claude"_s;
    QVERIFY2(QFileInfo(claude).isExecutable(), qPrintable(claude + u" is missing: run scripts/npm-clients again"_s));
    QProcessEnvironment env = cliEnvironment();
    env.insert(u"ANTHROPIC_BASE_URL"_s, m_baseUrl);
    env.insert(u"ANTHROPIC_API_KEY"_s, kAnthropicKey);
    env.insert(u"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"_s, u"1"_s);
    env.insert(u"DISABLE_AUTOUPDATER"_s, u"1"_s);
    const CliRun result = run(claude, {u"-p"_s, u"Read notes.txt, then run a command, then tell me what you found."_s,
                                       u"--allowedTools"_s, u"Read"_s, u"Bash"_s, u"--max-turns"_s, u"6"_s},
                              env);
    QVERIFY2(result.finished && result.exitCode == 0, qPrintable(result.describe()));
    QVERIFY2(result.out.contains(kClaudeAnswer.toUtf8()), qPrintable(result.describe()));

    checkForwarded("/v1/messages", {"x-api-key", "authorization"});
    // The last agent request carried both tool round trips: the file's text and the command's output.
    const QList<RecordedRequest> requests = newRequests();
    const auto last = std::find_if(requests.crbegin(), requests.crend(), [](const RecordedRequest &r) {
        return anthropicToolResults(r.json()).contains(u"toolu_bash_1"_s);
    });
    QVERIFY2(last != requests.crend(), "no request carried the Bash tool's result");
    const QHash<QString, QString> results = anthropicToolResults(last->json());
    QVERIFY2(results.value(u"toolu_read_1"_s).contains(kFileSecretPhrase), qPrintable(results.value(u"toolu_read_1"_s)));
    QVERIFY2(results.value(u"toolu_bash_1"_s).contains(u"bash-says-314"_s), qPrintable(results.value(u"toolu_bash_1"_s)));
    checkRecorded(u"bash-says-314"_s, 3, u"Read"_s);

    // What Claude Code sends besides the messages, in tokens (bytes / 4): the system prompt and
    // the tool schemas of its first agent request.
    const auto first = std::find_if(requests.cbegin(), requests.cend(), [](const RecordedRequest &r) {
        return hasTool(r.json(), u"Read"_s);
    });
    QVERIFY(first != requests.cend());
    const QJsonObject body = first->json();
    const qsizetype systemBytes = compactText(body.value(u"system")).toUtf8().size();
    const qsizetype toolBytes = compactText(body.value(u"tools")).toUtf8().size();
    QVERIFY(systemBytes > 0 && toolBytes > 0);
    qInfo("Claude Code %s sends besides its messages: system prompt %lld bytes (~%lld tokens), %lld tool schemas "
          "%lld bytes (~%lld tokens), together ~%lld tokens; %lld requests in this run",
          first->header("user-agent").constData(), qlonglong(systemBytes), qlonglong(systemBytes / 4),
          qlonglong(body.value(u"tools").toArray().size()), qlonglong(toolBytes), qlonglong(toolBytes / 4),
          qlonglong((systemBytes + toolBytes) / 4), qlonglong(requests.size()));
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
                 "stream_max_retries = 0\n"_s.arg(m_baseUrl).toUtf8());
    config.close();
    QProcessEnvironment env = cliEnvironment();
    env.insert(u"CODEX_HOME"_s, codexHome);
    env.insert(u"WATERLINE_TEST_OPENAI_KEY"_s, kOpenAiKey);
    const CliRun result = run(u"node"_s, {codex, u"exec"_s, u"--skip-git-repo-check"_s, u"-C"_s, m_workspace,
                                          u"Show me what notes.txt says, using the shell."_s},
                              env);
    QVERIFY2(result.finished && result.exitCode == 0, qPrintable(result.describe()));
    QVERIFY2(result.out.contains(kCodexAnswer.toUtf8()), qPrintable(result.describe()));

    checkForwarded("/v1/responses", {"authorization"});
    const QList<RecordedRequest> requests = newRequests();
    const auto last = std::find_if(requests.crbegin(), requests.crend(), [](const RecordedRequest &r) {
        return responsesToolResults(r.json()).contains(u"call_shell_1"_s);
    });
    QVERIFY2(last != requests.crend(), "no request carried the shell tool's output");
    const QString output = responsesToolResults(last->json()).value(u"call_shell_1"_s);
    QVERIFY2(output.contains(kFileSecretPhrase), qPrintable(output));
    QVERIFY2(output.contains(u"codex-says-314"_s), qPrintable(output));
    checkRecorded(u"codex-says-314"_s, 2, u"exec_command"_s);
}

QTEST_GUILESS_MAIN(TestAgentClis)
#include "tst_agentclis.moc"
