// Both clients against the fake server: success, every fault, retries with
// their attempt counts, cancellation, timeouts, model discovery, scenarios.
#include "FakeLlmServer.h"
#include "TestSupport.h"
#include "llm/AnthropicClient.h"
#include "llm/ModelDiscovery.h"
#include "llm/OpenAiChatClient.h"
#include "llm/ProviderProfile.h"
#include "llm/ProviderRequest.h"

#include <QElapsedTimer>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <memory>
#include <optional>

using namespace Qt::StringLiterals;
using namespace wl;
using wl::test::FakeLlmServer;
using wl::test::FakeReply;
using wl::test::FakeToolCall;

namespace {

struct CallLog
{
    QStringList order;
    QString text;
    QString thinking;
    QList<int> retryAttempts;
    QList<int> retryDelays;
    int attemptsStarted = 0;
    int cancelledCount = 0;
    int discarded = 0;
    std::optional<Message> message;
    ChatUsage usage;
    QString finish;
    std::optional<ChatError> error;

    bool done() const { return message || error || cancelledCount > 0; }
};

void attach(ChatClient *client, CallLog *log)
{
    QObject::connect(client, &ChatClient::attemptStarted, client, [log](int) { ++log->attemptsStarted; });
    QObject::connect(client, &ChatClient::textDelta, client, [log](const QString &t) {
        log->text += t;
        if (log->order.isEmpty() || log->order.last() != u"text")
            log->order << u"text"_s;
    });
    QObject::connect(client, &ChatClient::thinkingDelta, client, [log](const QString &t) {
        log->thinking += t;
        if (log->order.isEmpty() || log->order.last() != u"thinking")
            log->order << u"thinking"_s;
    });
    QObject::connect(client, &ChatClient::toolCallStarted, client, [log](int i, const QString &id, const QString &name) {
        log->order << u"start %1 %2 %3"_s.arg(i).arg(id, name);
    });
    QObject::connect(client, &ChatClient::toolCallArgumentsDelta, client, [log](int i, const QString &) {
        const QString entry = u"args %1"_s.arg(i);
        if (log->order.isEmpty() || log->order.last() != entry)
            log->order << entry;
    });
    QObject::connect(client, &ChatClient::retrying, client, [log](int attempt, int delay, const ChatError &) {
        log->retryAttempts << attempt;
        log->retryDelays << delay;
        log->order << u"retrying"_s;
    });
    QObject::connect(client, &ChatClient::finished, client,
                     [log](const Message &m, const ChatUsage &u, const QString &reason) {
                         log->message = m;
                         log->usage = u;
                         log->finish = reason;
                         log->order << u"finished"_s;
                     });
    QObject::connect(client, &ChatClient::failed, client, [log](const ChatError &e) {
        log->error = e;
        log->order << u"failed"_s;
    });
    QObject::connect(client, &ChatClient::replyDiscarded, client, [log] {
        // What a caller does: forget the broken reply; the retry streams it whole.
        ++log->discarded;
        log->text.clear();
        log->thinking.clear();
        log->order << u"discarded"_s;
    });
    QObject::connect(client, &ChatClient::cancelled, client, [log] {
        ++log->cancelledCount;
        log->order << u"cancelled"_s;
    });
}

std::unique_ptr<ChatClient> makeClient(const QString &protocol, const FakeLlmServer &server, int maxAttempts = 4,
                                       int transferTimeoutMs = 3000)
{
    std::unique_ptr<ChatClient> client;
    if (protocol == u"anthropic") {
        client = std::make_unique<AnthropicClient>();
        client->setBaseUrl(server.anthropicBaseUrl());
    } else {
        client = std::make_unique<OpenAiChatClient>();
        client->setBaseUrl(server.openAiBaseUrl());
    }
    client->setApiKey(u"test-key-not-secret-123"_s);
    RetryPolicy policy;
    policy.maxAttempts = maxAttempts;
    policy.baseDelayMs = 5;
    policy.maxDelayMs = 40;
    client->setRetryPolicy(policy);
    client->setTransferTimeoutMs(transferTimeoutMs);
    return client;
}

ChatRequest simpleRequest(const QString &model = u"fake-model"_s)
{
    ChatRequest r;
    r.model = model;
    r.messages = {Message::system(u"You are terse."_s), Message::user(u"Say hello."_s)};
    return r;
}

const QString kReplyText = u"Hello from the fake server, streamed in pieces."_s;

FakeReply okReply()
{
    FakeReply r = FakeReply::withText(kReplyText);
    r.chunkChars = 6;
    return r;
}

FakeReply status(int code, const QByteArray &body = {}, const test::HeaderList &headers = {})
{
    return FakeReply::withStatus(code, body, headers);
}

FakeReply fault(FakeReply::Fault f, int after)
{
    FakeReply r = FakeReply::withFault(f, after);
    r.chunkChars = 6;
    return r;
}

} // namespace

Q_DECLARE_METATYPE(FakeReply)

class TestChatClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<wl::ChatError>(); }

    // A failed connection says what to try, naming the server the port belongs to.
    void connectFailureSaysWhatToTry_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("error");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ollama") << u"http://127.0.0.1:11434/v1"_s << int(QNetworkReply::ConnectionRefusedError)
                                << u"Nothing is listening at 127.0.0.1:11434: start Ollama with `ollama serve`."_s;
        QTest::newRow("lm studio") << u"http://localhost:1234/v1"_s << int(QNetworkReply::ConnectionRefusedError)
                                   << u"Nothing is listening at localhost:1234: start the LM Studio server (`lms server start`)."_s;
        QTest::newRow("other local port") << u"http://127.0.0.1:9999/v1"_s << int(QNetworkReply::ConnectionRefusedError)
                                          << u"Nothing is listening at 127.0.0.1:9999: start the model server, or correct the port in the provider's base URL."_s;
        QTest::newRow("remote") << u"https://llm.example.com/v1"_s << int(QNetworkReply::ConnectionRefusedError)
                                << u"Nothing is listening at llm.example.com:443: check that the server runs and the base URL's port."_s;
        QTest::newRow("unknown host") << u"https://no-such-host.invalid/v1"_s << int(QNetworkReply::HostNotFoundError)
                                      << u"The host no-such-host.invalid was not found: check the base URL's host name and the network connection."_s;
    }
    void connectFailureSaysWhatToTry()
    {
        QFETCH(QString, url);
        QFETCH(int, error);
        QFETCH(QString, expected);
        const wl::ChatError e = wl::ChatError::connectFailed(QUrl(url), error, u"Connection refused"_s);
        QCOMPARE(e.kind, wl::ChatError::Kind::Network);
        QVERIFY(e.retryable);
        QCOMPARE(e.message, expected);
        QCOMPARE(e.providerMessage, u"Connection refused"_s);
    }

    // A real refused connection reaches the caller with the port in the message.
    void refusedConnectionNamesThePort()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        wl::OpenAiChatClient client;
        client.setBaseUrl(QUrl(u"http://127.0.0.1:%1/v1"_s.arg(port)));
        wl::RetryPolicy once;
        once.maxAttempts = 1;
        client.setRetryPolicy(once);
        QSignalSpy failed(&client, &wl::ChatClient::failed);
        client.send(simpleRequest());
        QVERIFY(failed.wait(20000));
        const auto e = failed.last().at(0).value<wl::ChatError>();
        QVERIFY2(e.message.startsWith(u"Nothing is listening at 127.0.0.1:%1"_s.arg(port)), qPrintable(e.message));
    }

    void successWithToolCalls_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::newRow("openai-chat") << u"openai-chat"_s;
        QTest::newRow("anthropic") << u"anthropic"_s;
    }
    void successWithToolCalls()
    {
        QFETCH(QString, protocol);
        FakeLlmServer server;
        QVERIFY(server.start());
        FakeReply reply = FakeReply::withToolCalls(
            {FakeToolCall{u"call_a"_s, u"read_file"_s, uR"({"path":"src/main.cpp"})"_s},
             FakeToolCall{u"call_b"_s, u"bash"_s, uR"({"command":"ls -la"})"_s}},
            u"I will look at two things."_s);
        reply.thinking = u"The user wants files."_s;
        reply.inputTokens = 1200;
        reply.outputTokens = 77;
        reply.cacheReadTokens = 1000;
        reply.cacheWriteTokens = protocol == u"anthropic" ? 150 : 0;
        reply.chunkChars = 5;
        server.enqueue(reply);

        auto client = makeClient(protocol, server);
        CallLog log;
        attach(client.get(), &log);
        ChatRequest request = simpleRequest(u"model-%1"_s.arg(protocol));
        request.tools = {ToolSpec{u"read_file"_s, u"Read"_s, {}}, ToolSpec{u"bash"_s, u"Run"_s, {}}};
        client->send(request);
        QVERIFY(client->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(log.done(), 10000);

        QVERIFY2(log.message, log.error ? qPrintable(log.error->displayText()) : "no result");
        QVERIFY(!client->isBusy());
        QCOMPARE(log.message->content, u"I will look at two things."_s);
        QCOMPARE(log.text, log.message->content);
        QCOMPARE(log.thinking, u"The user wants files."_s);
        QCOMPARE(log.message->toolCalls.size(), 2);
        QCOMPARE(log.message->toolCalls[0], (ToolCall{u"call_a"_s, u"read_file"_s, uR"({"path":"src/main.cpp"})"_s, true}));
        QCOMPARE(log.message->toolCalls[1], (ToolCall{u"call_b"_s, u"bash"_s, uR"({"command":"ls -la"})"_s, true}));
        QCOMPARE(log.finish, u"tool_calls"_s);
        QCOMPARE(log.usage.input, 1200);
        QCOMPARE(log.usage.output, 77);
        QCOMPARE(log.usage.cacheRead, 1000);
        QCOMPARE(log.usage.cacheWriteKnown, protocol == u"anthropic");
        QCOMPARE(log.usage.cacheWrite, protocol == u"anthropic" ? 150 : 0);
        QCOMPARE(log.order, (QStringList{u"thinking"_s, u"text"_s, u"start 0 call_a read_file"_s, u"args 0"_s,
                                         u"start 1 call_b bash"_s, u"args 1"_s, u"finished"_s}));
        QCOMPARE(log.attemptsStarted, 1);

        QCOMPARE(server.requestCount(), 1);
        const test::RecordedRequest rec = server.requests().first();
        QCOMPARE(rec.method, QByteArray("POST"));
        QCOMPARE(rec.protocol(), protocol);
        QCOMPARE(rec.path, protocol == u"anthropic" ? QByteArray("/v1/messages") : QByteArray("/v1/chat/completions"));
        QVERIFY(rec.header("content-type").startsWith("application/json"));
        QCOMPARE(rec.json().value(u"model").toString(), u"model-%1"_s.arg(protocol));
        QCOMPARE(rec.systemPrompt(), u"You are terse."_s);
        QCOMPARE(rec.lastUserText(), u"Say hello."_s);
        if (protocol == u"anthropic") {
            QCOMPARE(rec.header("x-api-key"), QByteArray("[redacted]"));
            QCOMPARE(rec.header("anthropic-version"), QByteArray("2023-06-01"));
            QVERIFY(!rec.hasHeader("authorization"));
        } else {
            QCOMPARE(rec.header("authorization"), QByteArray("[redacted]"));
            QVERIFY(!rec.hasHeader("x-api-key"));
        }
        QVERIFY(!rec.dump().contains(u"test-key-not-secret-123"_s));
    }

    void faults_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<QList<FakeReply>>("replies");
        QTest::addColumn<bool>("succeeds");
        QTest::addColumn<int>("kind");          // of the error when it fails
        QTest::addColumn<int>("attempts");
        QTest::addColumn<int>("maxAttempts");
        QTest::addColumn<int>("timeoutMs");
        QTest::addColumn<bool>("partialText");  // text reached the caller before the failure (a success: was discarded)

        using F = FakeReply::Fault;
        using K = ChatError::Kind;
        const int ok = -1;
        for (const QString &p : {u"openai-chat"_s, u"anthropic"_s}) {
            auto row = [&p](const char *name) { return &QTest::newRow(qPrintable(p + u": "_s + QLatin1StringView(name))); };
            *row("429 Retry-After 0, then ok") << p << QList<FakeReply>{status(429, {}, {{"Retry-After", "0"}}), okReply()}
                                               << true << ok << 2 << 4 << 3000 << false;
            for (int s : {408, 500, 502, 503, 504, 529})
                QTest::newRow(qPrintable(u"%1: %2 then ok"_s.arg(p).arg(s)))
                    << p << QList<FakeReply>{status(s), okReply()} << true << ok << 2 << 4 << 3000 << false;
            *row("400") << p << QList<FakeReply>{status(400)} << false << int(K::BadRequest) << 1 << 4 << 3000 << false;
            *row("401") << p << QList<FakeReply>{status(401)} << false << int(K::Auth) << 1 << 4 << 3000 << false;
            *row("403") << p << QList<FakeReply>{status(403)} << false << int(K::Auth) << 1 << 4 << 3000 << false;
            *row("404") << p << QList<FakeReply>{status(404)} << false << int(K::NotFound) << 1 << 4 << 3000 << false;
            *row("429 quota") << p
                              << QList<FakeReply>{status(429, test::readData(u"llm/errors/openai-429-insufficient-quota.json"_s))}
                              << false << int(K::RateLimited) << 1 << 4 << 3000 << false;
            *row("429 Retry-After 120 s") << p << QList<FakeReply>{status(429, {}, {{"Retry-After", "120"}})} << false
                                          << int(K::RateLimited) << 1 << 4 << 3000 << false;
            *row("529 x-should-retry false") << p << QList<FakeReply>{status(529, {}, {{"x-should-retry", "false"}})}
                                             << false << int(K::Overloaded) << 1 << 4 << 3000 << false;
            *row("503 until attempts run out") << p << QList<FakeReply>{status(503), status(503), status(503)} << false
                                               << int(K::Server) << 3 << 3 << 3000 << false;
            *row("disconnect after headers, then ok") << p << QList<FakeReply>{fault(F::Disconnect, 0), okReply()}
                                                      << true << ok << 2 << 4 << 3000 << false;
            *row("disconnect before content, then ok") << p << QList<FakeReply>{fault(F::Disconnect, 1), okReply()}
                                                       << true << ok << 2 << 4 << 3000 << false;
            // A stream that breaks mid-reply is retried like any network error; the partial reply is dropped.
            *row("disconnect mid-stream, then ok") << p << QList<FakeReply>{fault(F::Disconnect, 4), okReply()} << true
                                                   << ok << 2 << 4 << 3000 << true;
            *row("malformed json before content") << p << QList<FakeReply>{fault(F::MalformedJson, 1), okReply()}
                                                  << false << int(K::Protocol) << 1 << 4 << 3000 << false;
            *row("malformed json mid-stream") << p << QList<FakeReply>{fault(F::MalformedJson, 4), okReply()} << false
                                              << int(K::Protocol) << 1 << 4 << 3000 << true;
            *row("overloaded event before content, then ok") << p
                << QList<FakeReply>{fault(F::ErrorEvent, 1), okReply()} << true << ok << 2 << 4 << 3000 << false;
            *row("overloaded event mid-stream, then ok") << p << QList<FakeReply>{fault(F::ErrorEvent, 4), okReply()}
                                                         << true << ok << 2 << 4 << 3000 << true;
            *row("disconnect mid-stream until attempts run out") << p
                << QList<FakeReply>{fault(F::Disconnect, 4), fault(F::Disconnect, 4)} << false << int(K::Network) << 2 << 2
                << 3000 << true;
            *row("hang, twice: timeout") << p << QList<FakeReply>{fault(F::Hang, -1), fault(F::Hang, -1)} << false
                                         << int(K::Timeout) << 2 << 2 << 300 << false;
            *row("hang mid-stream: timeout, then ok") << p << QList<FakeReply>{fault(F::Hang, 4), okReply()} << true
                                                      << ok << 2 << 4 << 300 << true;
            FakeReply drip = okReply();
            drip.delayMs = 60; // ~10 events: the call outlasts the transfer timeout, no gap does
            *row("slow drip within the transfer timeout") << p << QList<FakeReply>{drip} << true << ok << 1 << 1 << 300
                                                          << false;
            FakeReply bytes = okReply();
            bytes.splitEveryByte = true;
            *row("stream split at every byte") << p << QList<FakeReply>{bytes} << true << ok << 1 << 1 << 3000 << false;
            FakeReply whole = okReply();
            whole.wholeJson = true;
            *row("server ignores stream:true") << p << QList<FakeReply>{whole} << true << ok << 1 << 1 << 3000 << false;
        }
    }
    void faults()
    {
        QFETCH(QString, protocol);
        QFETCH(QList<FakeReply>, replies);
        QFETCH(bool, succeeds);
        QFETCH(int, kind);
        QFETCH(int, attempts);
        QFETCH(int, maxAttempts);
        QFETCH(int, timeoutMs);
        QFETCH(bool, partialText);

        FakeLlmServer server;
        QVERIFY(server.start());
        for (const FakeReply &r : std::as_const(replies))
            server.enqueue(r);
        auto client = makeClient(protocol, server, maxAttempts, timeoutMs);
        CallLog log;
        attach(client.get(), &log);
        client->send(simpleRequest());
        QTRY_VERIFY_WITH_TIMEOUT(log.done(), 15000);

        QCOMPARE(server.requestCount(), attempts);
        QCOMPARE(log.attemptsStarted, attempts);
        QCOMPARE(client->attempt(), attempts);
        QCOMPARE(log.retryAttempts.size(), attempts - 1);
        for (int i = 0; i < log.retryAttempts.size(); ++i)
            QCOMPARE(log.retryAttempts[i], i + 2);
        QCOMPARE(log.cancelledCount, 0);
        if (succeeds) {
            QVERIFY2(log.message, log.error ? qPrintable(log.error->displayText()) : "no result");
            QCOMPARE(log.message->content, kReplyText);
            QCOMPARE(log.text, kReplyText);
            QCOMPARE(log.finish, u"stop"_s);
            QVERIFY(log.usage.inputKnown);
            QCOMPARE(log.discarded > 0, partialText);
        } else {
            QVERIFY2(log.error, "expected a failure");
            QCOMPARE(ChatError::kindName(ChatError::Kind(log.error->kind)), ChatError::kindName(ChatError::Kind(kind)));
            QVERIFY(!log.error->message.isEmpty());
            QCOMPARE(!log.text.isEmpty(), partialText);
            QVERIFY(!log.message);
        }
        // Exactly one terminal signal.
        QTest::qWait(50);
        QCOMPARE(log.order.count(u"finished"_s) + log.order.count(u"failed"_s), 1);
    }

    void retryAfterIsHonoured()
    {
        FakeLlmServer server;
        QVERIFY(server.start());
        server.enqueue(status(429, test::readData(u"llm/errors/azure-ai-429-rate-limit-retry-after.json"_s),
                              {{"Retry-After", "1"}, {"Retry-After-Ms", "0"}}));
        server.enqueue(okReply());
        auto client = makeClient(u"openai-chat"_s, server);
        CallLog log;
        attach(client.get(), &log);
        QElapsedTimer timer;
        timer.start();
        client->send(simpleRequest());
        QTRY_VERIFY_WITH_TIMEOUT(log.done(), 10000);
        QVERIFY(log.message);
        QCOMPARE(log.retryDelays, QList<int>{1000});
        QVERIFY(timer.elapsed() >= 950);
    }

    // A 307 re-sends the POST with its headers; to another origin it would carry the key away.
    void redirectToAnotherOriginIsRefused_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::newRow("openai-chat") << u"openai-chat"_s;
        QTest::newRow("anthropic") << u"anthropic"_s;
    }
    void redirectToAnotherOriginIsRefused()
    {
        QFETCH(QString, protocol);
        FakeLlmServer thief;
        QVERIFY(thief.start());
        thief.enqueue(okReply());
        FakeLlmServer server;
        QVERIFY(server.start());
        auto client = makeClient(protocol, server);
        const QByteArray target = client->endpoint().toString().replace(server.url().toString(), thief.url().toString()).toUtf8();
        for (int i = 0; i < 4; ++i)
            server.enqueue(status(307, {}, {{"Location", target}}));
        CallLog log;
        attach(client.get(), &log);
        client->send(simpleRequest());
        QTRY_VERIFY_WITH_TIMEOUT(log.done(), 10000);
        QVERIFY(log.error);
        QCOMPARE(log.error->kind, ChatError::Kind::BadRequest);
        QVERIFY2(log.error->message.contains(thief.url().authority()), qPrintable(log.error->message));
        QCOMPARE(server.requestCount(), 1); // not retried: the next try would be redirected again
        QCOMPARE(thief.requestCount(), 0);
    }

    void redirectWithinTheOriginIsFollowed()
    {
        FakeLlmServer server;
        QVERIFY(server.start());
        auto client = makeClient(u"openai-chat"_s, server);
        server.enqueue(status(307, {}, {{"Location", "/chat/completions"}}));
        server.enqueue(okReply());
        CallLog log;
        attach(client.get(), &log);
        client->send(simpleRequest());
        QTRY_VERIFY_WITH_TIMEOUT(log.done(), 10000);
        QVERIFY2(log.message, log.error ? qPrintable(log.error->displayText()) : "no result");
        QCOMPARE(server.requestCount(), 2);
        QCOMPARE(server.requests().last().path, QByteArray("/chat/completions"));
        QVERIFY(server.requests().last().hasHeader("authorization"));
    }

    void keyTravelsInClearOnlyToThisMachine_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("https") << u"https://api.openai.com/v1"_s << true;
        QTest::newRow("http 127.0.0.1") << u"http://127.0.0.1:11434/v1"_s << true;
        QTest::newRow("http 127.9.8.7") << u"http://127.9.8.7:8080"_s << true;
        QTest::newRow("http [::1]") << u"http://[::1]:8080/v1"_s << true;
        QTest::newRow("http localhost") << u"http://localhost:11434/v1"_s << true;
        QTest::newRow("http LOCALHOST") << u"http://LOCALHOST:11434/v1"_s << true;
        QTest::newRow("http remote name") << u"http://api.example.com/v1"_s << false;
        QTest::newRow("http private address") << u"http://192.168.1.20:11434/v1"_s << false;
        QTest::newRow("http localhost as a subdomain") << u"http://localhost.attacker.example/v1"_s << false;
        QTest::newRow("http 0.0.0.0") << u"http://0.0.0.0:11434/v1"_s << false;
        QTest::newRow("http 127.0.0.1 in user info") << u"http://127.0.0.1@evil.example/v1"_s << false;
        QTest::newRow("ftp") << u"ftp://127.0.0.1/v1"_s << false;
        QTest::newRow("no scheme") << u"127.0.0.1:11434"_s << false;
    }
    void keyTravelsInClearOnlyToThisMachine()
    {
        QFETCH(QString, url);
        QFETCH(bool, allowed);
        QCOMPARE(ProviderRequest::mayCarryKey(QUrl(url)), allowed);
    }

    void keyIsNotSentOverPlainHttpToAnotherHost()
    {
        OpenAiChatClient client;
        client.setBaseUrl(QUrl(u"http://waterline-key-test.invalid/v1"_s));
        client.setApiKey(u"sk-test-not-a-real-key-0123456789"_s);
        CallLog log;
        attach(&client, &log);
        client.send(simpleRequest());
        QTRY_VERIFY_WITH_TIMEOUT(log.done(), 5000);
        QVERIFY(log.error);
        QCOMPARE(log.error->kind, ChatError::Kind::BadRequest);
        QCOMPARE(log.attemptsStarted, 0); // refused before any connection
        QVERIFY2(log.error->message.contains(u"waterline-key-test.invalid"_s), qPrintable(log.error->message));

        // Without a key (a local server that needs none) the same URL is tried.
        ModelDiscovery discovery;
        QSignalSpy failed(&discovery, &ModelDiscovery::failed);
        ProviderProfile profile;
        profile.baseUrl = QUrl(u"http://waterline-key-test.invalid/v1"_s);
        discovery.fetch(profile, u"sk-test-not-a-real-key-0123456789"_s);
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.first().first().value<ChatError>().kind, ChatError::Kind::BadRequest);
    }

    // A server that keeps the connection alive with comments, or sends events that never end
    // the reply, must not hold the agent forever: the deadline and the size cap end it.
    void neverEndingReplies_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<QByteArray>("trickle");
        QTest::addColumn<int>("deadlineMs");
        QTest::addColumn<qint64>("capBytes");
        QTest::addColumn<int>("kind");
        for (const QString &p : {u"openai-chat"_s, u"anthropic"_s}) {
            QTest::newRow(qPrintable(p + u": keep-alive comments"_s))
                << p << QByteArray(": keep-alive\n\n") << 800 << qint64(64 * 1024 * 1024) << int(ChatError::Kind::Timeout);
            const QByteArray empty = p == u"anthropic" ? QByteArray("event: ping\ndata: {\"type\":\"ping\"}\n\n")
                                                       : QByteArray("data: {\"choices\":[{\"index\":0,\"delta\":{}}]}\n\n");
            QTest::newRow(qPrintable(p + u": endless empty events"_s))
                << p << QByteArray(empty).repeated(200) << 60000 << qint64(256 * 1024) << int(ChatError::Kind::Protocol);
        }
    }
    void neverEndingReplies()
    {
        QFETCH(QString, protocol);
        QFETCH(QByteArray, trickle);
        QFETCH(int, deadlineMs);
        QFETCH(qint64, capBytes);
        QFETCH(int, kind);
        FakeLlmServer server;
        QVERIFY(server.start());
        FakeReply endless = fault(FakeReply::Fault::Trickle, 2);
        endless.trickle = trickle;
        endless.trickleMs = 5;
        server.enqueue(endless);
        auto client = makeClient(protocol, server, 4, 300); // a transfer timeout the trickle never lets fire
        client->setDeadlineMs(deadlineMs);
        client->setMaxReplyBytes(capBytes);
        CallLog log;
        attach(client.get(), &log);
        QElapsedTimer timer;
        timer.start();
        client->send(simpleRequest());
        QTRY_VERIFY_WITH_TIMEOUT(log.done(), 20000);
        QVERIFY(log.error);
        QCOMPARE(ChatError::kindName(log.error->kind), ChatError::kindName(ChatError::Kind(kind)));
        QCOMPARE(log.attemptsStarted, 1); // not retried: the same server would do the same again
        QVERIFY(!log.error->message.isEmpty());
        QVERIFY(!client->isBusy());
    }

    // An error page that never ends is read to its first megabyte, then reported.
    void endlessErrorBodyIsCapped()
    {
        FakeLlmServer server;
        QVERIFY(server.start());
        FakeReply endless = fault(FakeReply::Fault::Trickle, 0);
        endless.status = 500;
        endless.trickle = QByteArray(64 * 1024, 'x');
        endless.trickleMs = 1;
        endless.contentType = "text/html";
        server.enqueue(endless);
        auto client = makeClient(u"openai-chat"_s, server, 1, 3000);
        client->setDeadlineMs(60000);
        CallLog log;
        attach(client.get(), &log);
        client->send(simpleRequest());
        QTRY_VERIFY_WITH_TIMEOUT(log.done(), 20000);
        QVERIFY(log.error);
        QCOMPARE(log.error->httpStatus, 500);
    }

    void cancelDuringStream()
    {
        FakeLlmServer server;
        QVERIFY(server.start());
        FakeReply slow = FakeReply::withText(QString(400, u'x'));
        slow.chunkChars = 10;
        slow.delayMs = 20;
        server.enqueue(slow);
        auto client = makeClient(u"anthropic"_s, server);
        CallLog log;
        attach(client.get(), &log);
        connect(client.get(), &ChatClient::textDelta, client.get(), [&client] { client->cancel(); });
        client->send(simpleRequest());
        QTRY_COMPARE_WITH_TIMEOUT(log.cancelledCount, 1, 5000);
        const QString textAtCancel = log.text;
        QTest::qWait(300);
        QCOMPARE(log.text, textAtCancel);
        QCOMPARE(log.text.size(), 10);
        QCOMPARE(log.order.last(), u"cancelled"_s);
        QVERIFY(!log.message);
        QVERIFY(!log.error);
        QVERIFY(!client->isBusy());
    }

    void cancelDuringRetryWait()
    {
        FakeLlmServer server;
        QVERIFY(server.start());
        server.enqueue(status(503));
        server.enqueue(okReply());
        auto client = makeClient(u"openai-chat"_s, server);
        RetryPolicy slow = client->retryPolicy();
        slow.baseDelayMs = slow.maxDelayMs = 5000;
        client->setRetryPolicy(slow);
        CallLog log;
        attach(client.get(), &log);
        client->send(simpleRequest());
        QTRY_COMPARE_WITH_TIMEOUT(log.retryAttempts.size(), 1, 5000);
        client->cancel();
        QCOMPARE(log.cancelledCount, 1);
        QTest::qWait(200);
        QCOMPARE(server.requestCount(), 1);
        QVERIFY(!log.done() || (!log.message && !log.error));
    }

    void sendAgainFromFinishedSlot()
    {
        FakeLlmServer server;
        QVERIFY(server.start());
        server.enqueue(okReply());
        server.enqueue(FakeReply::withText(u"second"_s));
        auto client = makeClient(u"openai-chat"_s, server);
        QStringList texts;
        connect(client.get(), &ChatClient::finished, client.get(), [&](const Message &m) {
            texts << m.content;
            if (texts.size() == 1)
                client->send(simpleRequest());
        });
        client->send(simpleRequest());
        QTRY_COMPARE_WITH_TIMEOUT(texts.size(), 2, 10000);
        QCOMPARE(texts.last(), u"second"_s);
    }

    void connectionRefusedRetriesThenFails()
    {
        quint16 port = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            port = probe.serverPort();
        }
        OpenAiChatClient client;
        client.setBaseUrl(QUrl(u"http://127.0.0.1:%1/v1"_s.arg(port)));
        RetryPolicy p;
        p.maxAttempts = 3;
        p.baseDelayMs = 5;
        client.setRetryPolicy(p);
        CallLog log;
        attach(&client, &log);
        client.send(simpleRequest());
        QTRY_VERIFY_WITH_TIMEOUT(log.done(), 10000);
        QVERIFY(log.error);
        QCOMPARE(log.error->kind, ChatError::Kind::Network);
        QCOMPARE(log.attemptsStarted, 3);
        QVERIFY(!log.error->providerMessage.isEmpty());
    }

    // Real captured streams served through HTTP, one byte per chunk.
    void capturedStreamsThroughServer_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("callNames");
        QTest::newRow("openai parallel") << u"openai-chat"_s << u"llm/sse/openai-chat/gpt-4o-tool-calls-parallel-include-usage.sse"_s
                                         << QStringList{u"GetWeatherArgs"_s, u"get_stock_price"_s};
        QTest::newRow("anthropic text+tool") << u"anthropic"_s << u"llm/sse/anthropic/sdkpy-text-then-tool-use.sse"_s
                                             << QStringList{u"get_weather"_s};
    }
    void capturedStreamsThroughServer()
    {
        QFETCH(QString, protocol);
        QFETCH(QString, file);
        QFETCH(QStringList, callNames);
        FakeLlmServer server;
        QVERIFY(server.start());
        FakeReply raw;
        raw.rawBody = test::readData(file);
        raw.splitEveryByte = true;
        server.enqueue(raw);
        auto client = makeClient(protocol, server);
        CallLog log;
        attach(client.get(), &log);
        client->send(simpleRequest());
        QTRY_VERIFY_WITH_TIMEOUT(log.done(), 20000);
        QVERIFY2(log.message, log.error ? qPrintable(log.error->displayText()) : "no result");
        QStringList names;
        for (const ToolCall &c : log.message->toolCalls)
            names << c.name;
        QCOMPARE(names, callNames);
        QCOMPARE(log.finish, u"tool_calls"_s);
    }

    void modelDiscovery_data()
    {
        QTest::addColumn<int>("protocol");
        QTest::addColumn<QByteArray>("expectedPath");
        QTest::newRow("openai") << int(ProviderProfile::Protocol::OpenAiChat) << QByteArray("/v1/models");
        QTest::newRow("anthropic") << int(ProviderProfile::Protocol::Anthropic) << QByteArray("/v1/models?limit=1000");
    }
    void modelDiscovery()
    {
        QFETCH(int, protocol);
        QFETCH(QByteArray, expectedPath);
        FakeLlmServer server;
        QVERIFY(server.start());
        server.setModels({u"zeta"_s, u"alpha"_s, u"mid"_s});
        ProviderProfile profile;
        profile.protocol = ProviderProfile::Protocol(protocol);
        profile.baseUrl = profile.protocol == ProviderProfile::Protocol::Anthropic ? server.anthropicBaseUrl()
                                                                                  : server.openAiBaseUrl();
        profile.model = u"alpha"_s;
        ModelDiscovery discovery;
        QSignalSpy found(&discovery, &ModelDiscovery::modelsFound);
        discovery.fetch(profile, u"discovery-key-1234567"_s);
        QVERIFY(found.wait(5000));
        QCOMPARE(found.first().first().toStringList(), (QStringList{u"alpha"_s, u"mid"_s, u"zeta"_s}));
        QCOMPARE(server.requests().first().method, QByteArray("GET"));
        QCOMPARE(server.requests().first().path, expectedPath);

        // Errors come back typed.
        FakeReply unauthorized = status(401);
        unauthorized.when = [](const test::RecordedRequest &r) { return r.protocol() == u"models"; };
        server.addRule(unauthorized);
        QSignalSpy failed(&discovery, &ModelDiscovery::failed);
        discovery.fetch(profile, QString());
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.first().first().value<ChatError>().kind, ChatError::Kind::Auth);
    }

    // A scenario file with a predicate reply for the summariser and ordered replies for the agent.
    void scenarioFile()
    {
        FakeLlmServer server;
        QVERIFY(server.start());
        QString error;
        QVERIFY2(server.loadScenarioFile(test::dataPath(u"llm/scenarios/agent-with-summarizer.json"_s), &error),
                 qPrintable(error));
        QCOMPARE(server.pendingReplies(), 2);
        auto client = makeClient(u"openai-chat"_s, server);
        CallLog summary;
        attach(client.get(), &summary);
        ChatRequest summarize;
        summarize.model = u"fake-model"_s;
        summarize.messages = {Message::system(u"You are a context compaction engine. Output only the result."_s),
                              Message::user(u"[user]: hi"_s)};
        client->send(summarize); // answered by the rule, although queued replies come first
        QTRY_VERIFY_WITH_TIMEOUT(summary.done(), 10000);
        QVERIFY(summary.message);
        QVERIFY(summary.message->content.startsWith(u"## Anchors"_s));
        QVERIFY(server.requests().last().isSummarizerCall());
        QCOMPARE(server.pendingReplies(), 2);

        CallLog agent;
        auto agentClient = makeClient(u"openai-chat"_s, server);
        attach(agentClient.get(), &agent);
        agentClient->send(simpleRequest());
        QTRY_VERIFY_WITH_TIMEOUT(agent.done(), 10000);
        QVERIFY(agent.message);
        QCOMPARE(agent.retryAttempts.size(), 1); // the scripted 503 came first
        QCOMPARE(agent.message->toolCalls.size(), 1);
        QCOMPARE(agent.message->toolCalls.first().name, u"read_file"_s);
        QCOMPARE(agent.usage.input, 321);
        QCOMPARE(server.pendingReplies(), 0);
    }
};

QTEST_GUILESS_MAIN(TestChatClient)
#include "tst_chatclient.moc"
