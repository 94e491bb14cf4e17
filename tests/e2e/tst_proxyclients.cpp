// The official provider SDKs from npm (`openai`, `@anthropic-ai/sdk`, pinned in tests/clients)
// drive a real `waterline-cli proxy` process against the fake upstream: Chat Completions and
// Messages, streamed and whole, a tool loop, and status errors passed through with their bodies.
// The small Node scripts in tests/clients print what the SDK gave back as JSON; each test compares
// it with what the fake upstream was scripted to send, and checks what reached the upstream: the
// client's key (redacted in the record, so only its presence) and never the proxy's token.
//
// The SDKs are installed once by scripts/npm-clients into a cache outside the checkout; without
// them every test fails and says how to install them.
#include "FakeLlmServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
const QString kSourceDir = QStringLiteral(WATERLINE_SOURCE_DIR);

QJsonObject parse(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

FakeReply whole(FakeReply reply)
{
    reply.wholeJson = true;
    return reply;
}

FakeReply statusReply(int status, const QByteArray &body, const HeaderList &headers = {})
{
    FakeReply reply = FakeReply::withStatus(status, body, headers);
    reply.contentType = "application/json";
    return reply;
}

qsizetype pieceCount(const QString &text, int size)
{
    return (text.size() + size - 1) / size;
}
} // namespace

class TestProxyClients : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void openAiChat();
    void openAiChatStream();
    void openAiToolLoop();
    void openAiErrorsPassThrough_data();
    void openAiErrorsPassThrough();
    void anthropicMessage();
    void anthropicMessageStream();
    void anthropicToolLoop();
    void anthropicErrorsPassThrough_data();
    void anthropicErrorsPassThrough();

private:
    // Runs tests/clients/<script> <name> against the proxy, with the event loop running (the fake
    // upstream lives on this thread), and returns the JSON it printed.
    QJsonObject runClient(const QString &script, const QString &name);
    // Every request the upstream saw since init(): the SDK's key was there, the proxy token never.
    // The Anthropic SDK sends its key as x-api-key or (1.x) as "Authorization: Bearer".
    void checkUpstreamRequests(const QByteArray &path, const QList<QByteArray> &keyHeaders);
    QList<RecordedRequest> newRequests() const { return m_upstream.requests().mid(m_seenBefore); }

    FakeLlmServer m_upstream;
    QProcess m_proxy;
    QTemporaryDir m_home;
    QString m_baseUrl;
    QString m_token;
    QString m_nodeModules;
    QString m_clientsError;
    int m_seenBefore = 0;
};

void TestProxyClients::initTestCase()
{
    QVERIFY(m_home.isValid());
    // Where scripts/npm-clients installed the SDKs (the cache of the user who configured the build).
    QProcess locate;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CACHE_HOME"_s, QStringLiteral(WATERLINE_NPM_CACHE_HOME));
    locate.setProcessEnvironment(env);
    locate.start(u"bash"_s, {kSourceDir + u"/scripts/npm-clients"_s, u"--print-dir"_s});
    if (!locate.waitForFinished(30000) || locate.exitCode() != 0) {
        m_clientsError = u"The npm SDK clients are not installed (%1). Install them once with `scripts/npm-clients` "
                         "(from the checkout, on the host; it needs the npm registry) and run this test again."_s
                             .arg(QString::fromLocal8Bit(locate.readAllStandardError()).trimmed());
    } else {
        m_nodeModules = QString::fromLocal8Bit(locate.readAllStandardOutput()).trimmed() + u"/node_modules"_s;
    }

    QVERIFY(m_upstream.start());
    QProcessEnvironment proxyEnv = QProcessEnvironment::systemEnvironment();
    proxyEnv.insert(u"XDG_DATA_HOME"_s, m_home.filePath(u"data"_s));
    proxyEnv.insert(u"XDG_CONFIG_HOME"_s, m_home.filePath(u"config"_s));
    m_proxy.setProcessEnvironment(proxyEnv);
    m_proxy.start(QStringLiteral(WATERLINE_BIN_DIR "/waterline-cli"),
                  {u"proxy"_s, u"--listen"_s, u"127.0.0.1:0"_s, u"--upstream"_s, m_upstream.url().toString()});
    QVERIFY2(m_proxy.waitForStarted(10000), qPrintable(m_proxy.errorString()));
    // The first line of its standard output is the base URL, token included.
    QVERIFY2(QTest::qWaitFor([this] { return m_proxy.canReadLine() || m_proxy.state() == QProcess::NotRunning; }, 10000),
             "waterline-cli proxy printed no base URL");
    QVERIFY2(m_proxy.canReadLine(), m_proxy.readAllStandardError().constData());
    m_baseUrl = QString::fromUtf8(m_proxy.readLine()).trimmed();
    const QUrl base(m_baseUrl);
    QVERIFY2(base.isValid() && base.host() == u"127.0.0.1" && base.path().startsWith(u"/t/"), qPrintable(m_baseUrl));
    m_token = base.path().mid(3);
    QVERIFY(m_token.size() >= 16);
}

void TestProxyClients::init()
{
    QVERIFY2(m_clientsError.isEmpty(), qPrintable(m_clientsError));
    QCOMPARE(m_proxy.state(), QProcess::Running);
    QCOMPARE(m_upstream.pendingReplies(), 0);   // the previous test used all it scripted
    m_seenBefore = m_upstream.requestCount();
}

void TestProxyClients::cleanupTestCase()
{
    if (m_proxy.state() != QProcess::NotRunning) {
        m_proxy.terminate();   // SIGTERM: it quits its event loop
        if (!m_proxy.waitForFinished(5000))
            m_proxy.kill();
    }
    // Its log: one line per exchange, statuses included, and never the clients' keys (the ones
    // tests/clients/*.cjs send).
    const QByteArray log = m_proxy.readAllStandardError();
    if (m_clientsError.isEmpty()) {
        QVERIFY2(log.contains("POST /v1/chat/completions 429"), log.constData());
        QVERIFY2(log.contains("POST /v1/messages 400"), log.constData());
    }
    QVERIFY(!log.contains("sk-fake-openai-key-for-the-proxy-test"));
    QVERIFY(!log.contains("sk-ant-fake-key-for-the-proxy-test"));
}

QJsonObject TestProxyClients::runClient(const QString &script, const QString &name)
{
    QProcess node;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"NODE_PATH"_s, m_nodeModules);
    env.insert(u"WATERLINE_BASE_URL"_s, m_baseUrl);
    node.setProcessEnvironment(env);
    node.start(u"node"_s, {kSourceDir + u"/tests/clients/"_s + script, name});
    if (!node.waitForStarted(10000)) {
        qWarning("could not start node (%s): scripts/packages-debian13.txt lists nodejs; run scripts/setup",
                 qPrintable(node.errorString()));
        return {};
    }
    const bool finished = QTest::qWaitFor([&node] { return node.state() == QProcess::NotRunning; }, 60000);
    if (!finished) {
        node.kill();
        node.waitForFinished(5000);
    }
    const QByteArray out = node.readAllStandardOutput();
    const QByteArray err = node.readAllStandardError();
    if (!finished || node.exitStatus() != QProcess::NormalExit || node.exitCode() != 0) {
        qWarning("%s %s failed (exit %d)\nstdout: %s\nstderr: %s", qPrintable(script), qPrintable(name), node.exitCode(),
                 out.constData(), err.constData());
        return {};
    }
    return parse(out);
}

void TestProxyClients::checkUpstreamRequests(const QByteArray &path, const QList<QByteArray> &keyHeaders)
{
    const QList<RecordedRequest> requests = newRequests();
    QVERIFY(!requests.isEmpty());
    const QByteArray token = m_token.toUtf8();
    for (const RecordedRequest &request : requests) {
        QCOMPARE(request.method, QByteArray("POST"));
        QCOMPARE(request.path, path);
        // The record redacts credentials: that the header arrived, non-empty, is what can be seen.
        const bool keySent = std::any_of(keyHeaders.cbegin(), keyHeaders.cend(), [&request](const QByteArray &name) {
            return !request.header(name).isEmpty();
        });
        QVERIFY2(keySent, qPrintable(request.dump()));
        QVERIFY2(!request.path.contains(token), request.path.constData());
        QVERIFY(!request.body.contains(token));
        for (const auto &[name, value] : request.headers)
            QVERIFY2(!value.contains(token), name.constData());
    }
}

// ---- OpenAI Chat Completions -------------------------------------------------

void TestProxyClients::openAiChat()
{
    FakeReply reply = whole(FakeReply::withText(u"Hello from the fake upstream, whole."_s));
    reply.inputTokens = 12;
    reply.outputTokens = 7;
    m_upstream.enqueue(reply);
    const QJsonObject got = runClient(u"openai.cjs"_s, u"chat"_s);
    QCOMPARE(got.value(u"kind").toString(), u"chat"_s);
    QCOMPARE(got.value(u"text").toString(), reply.text);
    QCOMPARE(got.value(u"finishReason").toString(), u"stop"_s);
    QCOMPARE(got.value(u"usage").toObject().value(u"prompt_tokens").toInt(), 12);
    QCOMPARE(got.value(u"usage").toObject().value(u"completion_tokens").toInt(), 7);
    checkUpstreamRequests("/v1/chat/completions", {"authorization"});
    QCOMPARE(newRequests().size(), 1);
    QCOMPARE(newRequests().constFirst().lastUserText(), u"Say hello (openai, whole)"_s);
}

void TestProxyClients::openAiChatStream()
{
    FakeReply reply = FakeReply::withText(u"Hello from the fake upstream, streamed piece by piece."_s);
    reply.chunkChars = 5;
    reply.delayMs = 2;
    reply.inputTokens = 30;
    reply.outputTokens = 11;
    m_upstream.enqueue(reply);
    const QJsonObject got = runClient(u"openai.cjs"_s, u"chat-stream"_s);
    QCOMPARE(got.value(u"kind").toString(), u"chat-stream"_s);
    QCOMPARE(got.value(u"text").toString(), reply.text);
    // The role chunk, one per piece, the finish chunk and the usage chunk: none merged or lost.
    QCOMPARE(got.value(u"chunks").toInteger(), 1 + pieceCount(reply.text, reply.chunkChars) + 1 + 1);
    QCOMPARE(got.value(u"finishReason").toString(), u"stop"_s);
    QCOMPARE(got.value(u"usage").toObject().value(u"prompt_tokens").toInt(), 30);
    QCOMPARE(got.value(u"usage").toObject().value(u"completion_tokens").toInt(), 11);
    checkUpstreamRequests("/v1/chat/completions", {"authorization"});
    QCOMPARE(newRequests().size(), 1);
    const QJsonObject sent = newRequests().constFirst().json();
    QCOMPARE(sent.value(u"stream").toBool(), true);
    QCOMPARE(sent.value(u"stream_options").toObject().value(u"include_usage").toBool(), true);
}

void TestProxyClients::openAiToolLoop()
{
    const FakeToolCall call{u"call_oslo_1"_s, u"get_weather"_s, uR"({"city":"Oslo"})"_s};
    m_upstream.enqueue(FakeReply::withToolCalls({call}));
    m_upstream.enqueue(whole(FakeReply::withText(u"It is sunny in Oslo."_s)));
    const QJsonObject got = runClient(u"openai.cjs"_s, u"tool-loop"_s);
    QCOMPARE(got.value(u"kind").toString(), u"tool-loop"_s);
    const QJsonArray calls = got.value(u"toolCalls").toArray();
    QCOMPARE(calls.size(), 1);
    QCOMPARE(calls.at(0).toObject().value(u"id").toString(), call.id);
    QCOMPARE(calls.at(0).toObject().value(u"name").toString(), call.name);
    QCOMPARE(calls.at(0).toObject().value(u"arguments").toString(), call.arguments);
    QCOMPARE(got.value(u"firstFinishReason").toString(), u"tool_calls"_s);
    QCOMPARE(got.value(u"toolResults").toArray().at(0).toObject().value(u"city").toString(), u"Oslo"_s);
    QCOMPARE(got.value(u"text").toString(), u"It is sunny in Oslo."_s);
    QCOMPARE(got.value(u"finishReason").toString(), u"stop"_s);

    checkUpstreamRequests("/v1/chat/completions", {"authorization"});
    const QList<RecordedRequest> requests = newRequests();
    QCOMPARE(requests.size(), 2);
    QCOMPARE(requests.at(0).json().value(u"tools").toArray().at(0).toObject().value(u"function").toObject()
                 .value(u"name").toString(), call.name);
    // The second request carries the call and its result back.
    const QJsonArray messages = requests.at(1).json().value(u"messages").toArray();
    QCOMPARE(messages.size(), 3);
    QCOMPARE(messages.at(1).toObject().value(u"tool_calls").toArray().at(0).toObject().value(u"id").toString(), call.id);
    const QJsonObject result = messages.at(2).toObject();
    QCOMPARE(result.value(u"role").toString(), u"tool"_s);
    QCOMPARE(result.value(u"tool_call_id").toString(), call.id);
    QCOMPARE(result.value(u"content").toString(), u"Sunny in Oslo"_s);
}

void TestProxyClients::openAiErrorsPassThrough_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("retryAfter");
    QTest::newRow("429 with Retry-After")
        << 429 << QByteArray(R"({"error":{"message":"Rate limited by the fake upstream","type":"rate_limit_error","code":"rate_limit_exceeded"}})")
        << QByteArray("7");
    QTest::newRow("400 with its JSON error")
        << 400 << QByteArray(R"({"error":{"message":"messages: field required","type":"invalid_request_error","param":"messages","code":null}})")
        << QByteArray();
}

void TestProxyClients::openAiErrorsPassThrough()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, retryAfter);
    HeaderList headers;
    if (!retryAfter.isEmpty())
        headers.append({"Retry-After", retryAfter});
    m_upstream.enqueue(statusReply(status, body, headers));
    const QJsonObject got = runClient(u"openai.cjs"_s, u"error"_s);
    QCOMPARE(got.value(u"kind").toString(), u"error"_s);
    QCOMPARE(got.value(u"status").toInt(), status);
    QCOMPARE(got.value(u"retryAfter").toString().toUtf8(), retryAfter);
    // The OpenAI SDK keeps the body's `error` object.
    QCOMPARE(got.value(u"error").toObject(), parse(body).value(u"error").toObject());
    checkUpstreamRequests("/v1/chat/completions", {"authorization"});
    QCOMPARE(newRequests().size(), 1);   // maxRetries 0: the SDK saw the status itself, no retry
}

// ---- Anthropic Messages ------------------------------------------------------

void TestProxyClients::anthropicMessage()
{
    FakeReply reply = whole(FakeReply::withText(u"Hello from the fake upstream, whole."_s));
    reply.inputTokens = 40;
    reply.cacheReadTokens = 30;
    reply.outputTokens = 9;
    m_upstream.enqueue(reply);
    const QJsonObject got = runClient(u"anthropic.cjs"_s, u"message"_s);
    QCOMPARE(got.value(u"kind").toString(), u"message"_s);
    QCOMPARE(got.value(u"text").toString(), reply.text);
    QCOMPARE(got.value(u"stopReason").toString(), u"end_turn"_s);
    const QJsonObject usage = got.value(u"usage").toObject();
    QCOMPARE(usage.value(u"input_tokens").toInt(), 10);
    QCOMPARE(usage.value(u"cache_read_input_tokens").toInt(), 30);
    QCOMPARE(usage.value(u"output_tokens").toInt(), 9);
    checkUpstreamRequests("/v1/messages", {"x-api-key", "authorization"});
    QCOMPARE(newRequests().size(), 1);
    QVERIFY(newRequests().constFirst().hasHeader("anthropic-version"));
    QCOMPARE(newRequests().constFirst().lastUserText(), u"Say hello (anthropic, whole)"_s);
}

void TestProxyClients::anthropicMessageStream()
{
    FakeReply reply = FakeReply::withText(u"Hello from the fake upstream, streamed piece by piece."_s);
    reply.chunkChars = 6;
    reply.delayMs = 2;
    reply.inputTokens = 50;
    reply.outputTokens = 13;
    m_upstream.enqueue(reply);
    const QJsonObject got = runClient(u"anthropic.cjs"_s, u"message-stream"_s);
    QCOMPARE(got.value(u"kind").toString(), u"message-stream"_s);
    QCOMPARE(got.value(u"text").toString(), reply.text);
    QCOMPARE(got.value(u"deltas").toString(), reply.text);
    QCOMPARE(got.value(u"stopReason").toString(), u"end_turn"_s);
    QCOMPARE(got.value(u"usage").toObject().value(u"output_tokens").toInt(), 13);
    QStringList types;
    for (const QJsonValue &type : got.value(u"eventTypes").toArray())
        types << type.toString();
    QCOMPARE(types.constFirst(), u"message_start"_s);
    QCOMPARE(types.constLast(), u"message_stop"_s);
    QCOMPARE(types.count(u"content_block_delta"_s), pieceCount(reply.text, reply.chunkChars));
    // message_start, block start, the deltas, block stop, message_delta, message_stop.
    QCOMPARE(types.size(), 5 + pieceCount(reply.text, reply.chunkChars));
    checkUpstreamRequests("/v1/messages", {"x-api-key", "authorization"});
    QCOMPARE(newRequests().size(), 1);
    QCOMPARE(newRequests().constFirst().json().value(u"stream").toBool(), true);
}

void TestProxyClients::anthropicToolLoop()
{
    const FakeToolCall call{u"toolu_oslo_1"_s, u"get_weather"_s, uR"({"city":"Oslo"})"_s};
    m_upstream.enqueue(FakeReply::withToolCalls({call}, u"Let me look that up."_s));
    m_upstream.enqueue(whole(FakeReply::withText(u"It is sunny in Oslo."_s)));
    const QJsonObject got = runClient(u"anthropic.cjs"_s, u"tool-loop"_s);
    QCOMPARE(got.value(u"kind").toString(), u"tool-loop"_s);
    const QJsonArray uses = got.value(u"toolUses").toArray();
    QCOMPARE(uses.size(), 1);
    QCOMPARE(uses.at(0).toObject().value(u"id").toString(), call.id);
    QCOMPARE(uses.at(0).toObject().value(u"name").toString(), call.name);
    QCOMPARE(uses.at(0).toObject().value(u"input").toObject(), parse(call.arguments.toUtf8()));
    QCOMPARE(got.value(u"firstStopReason").toString(), u"tool_use"_s);
    QCOMPARE(got.value(u"text").toString(), u"It is sunny in Oslo."_s);
    QCOMPARE(got.value(u"stopReason").toString(), u"end_turn"_s);

    checkUpstreamRequests("/v1/messages", {"x-api-key", "authorization"});
    const QList<RecordedRequest> requests = newRequests();
    QCOMPARE(requests.size(), 2);
    QCOMPARE(requests.at(0).json().value(u"tools").toArray().at(0).toObject().value(u"name").toString(), call.name);
    const QJsonArray messages = requests.at(1).json().value(u"messages").toArray();
    QCOMPARE(messages.size(), 3);
    // The assistant turn goes back as the SDK assembled it from the stream: text, then the call.
    const QJsonArray assistant = messages.at(1).toObject().value(u"content").toArray();
    QCOMPARE(assistant.size(), 2);
    QCOMPARE(assistant.at(0).toObject().value(u"text").toString(), u"Let me look that up."_s);
    QCOMPARE(assistant.at(1).toObject().value(u"id").toString(), call.id);
    const QJsonObject result = messages.at(2).toObject().value(u"content").toArray().at(0).toObject();
    QCOMPARE(result.value(u"type").toString(), u"tool_result"_s);
    QCOMPARE(result.value(u"tool_use_id").toString(), call.id);
    QCOMPARE(result.value(u"content").toString(), u"Sunny in Oslo"_s);
}

void TestProxyClients::anthropicErrorsPassThrough_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("retryAfter");
    QTest::newRow("429 with Retry-After")
        << 429 << QByteArray(R"({"type":"error","error":{"type":"rate_limit_error","message":"Rate limited by the fake upstream"}})")
        << QByteArray("7");
    QTest::newRow("400 with its JSON error")
        << 400 << QByteArray(R"({"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: field required"}})")
        << QByteArray();
}

void TestProxyClients::anthropicErrorsPassThrough()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, retryAfter);
    HeaderList headers;
    if (!retryAfter.isEmpty())
        headers.append({"Retry-After", retryAfter});
    m_upstream.enqueue(statusReply(status, body, headers));
    const QJsonObject got = runClient(u"anthropic.cjs"_s, u"error"_s);
    QCOMPARE(got.value(u"kind").toString(), u"error"_s);
    QCOMPARE(got.value(u"status").toInt(), status);
    QCOMPARE(got.value(u"retryAfter").toString().toUtf8(), retryAfter);
    // The Anthropic SDK keeps the whole body.
    QCOMPARE(got.value(u"error").toObject(), parse(body));
    checkUpstreamRequests("/v1/messages", {"x-api-key", "authorization"});
    QCOMPARE(newRequests().size(), 1);
}

QTEST_GUILESS_MAIN(TestProxyClients)
#include "tst_proxyclients.moc"
