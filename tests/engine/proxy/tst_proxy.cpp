// The local provider proxy against real sockets: the fake provider upstream, Qt's HTTP client and
// raw TCP clients (for what a hostile local program would send).
#include "FakeLlmServer.h"

#include "proxy/HttpRequestReader.h"
#include "proxy/ProxyServer.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
QByteArray readData(const QString &relative)
{
    QFile file(QStringLiteral(WATERLINE_TEST_DATA) + u'/' + relative);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// An upstream that keeps the raw bytes it was sent (no redaction) and answers 200 "{}".
class RawUpstream : public QTcpServer
{
public:
    RawUpstream()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            QTcpSocket *socket = nextPendingConnection();
            connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                received += socket->readAll();
                if (received.contains("\r\n\r\n") && received.endsWith("}")) {
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
                    socket->disconnectFromHost();
                }
            });
        });
        listen(QHostAddress::LocalHost);
    }
    QUrl url() const { return QUrl(u"http://127.0.0.1:%1"_s.arg(serverPort())); }
    QByteArray received;
};

struct SseEvent
{
    QByteArray type;
    QJsonObject data;
};

QList<SseEvent> parseSse(const QByteArray &stream)
{
    QList<SseEvent> events;
    for (const QByteArray &block : stream.split('\n')) {
        if (block.startsWith("event: "))
            events.append({block.mid(7).trimmed(), {}});
        else if (block.startsWith("data: ") && !events.isEmpty())
            events.last().data = QJsonDocument::fromJson(block.mid(6)).object();
    }
    return events;
}

// The event types in order, a run of the same type counted once (deltas are split differently).
QList<QByteArray> shape(const QList<SseEvent> &events)
{
    QList<QByteArray> types;
    for (const SseEvent &event : events) {
        if (types.isEmpty() || types.constLast() != event.type)
            types << event.type;
    }
    return types;
}

// Sends `bytes` on a fresh connection and returns everything the proxy answered until it closed
// (or `waitMs` passed).
QByteArray rawExchange(quint16 port, const QByteArray &bytes, int waitMs = 5000)
{
    // The proxy runs on this thread: wait with the event loop running, never in a blocking call.
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!QTest::qWaitFor([&] { return socket.state() == QAbstractSocket::ConnectedState; }, 3000))
        return "not connected";
    socket.write(bytes);
    QByteArray answer;
    const bool closed = QTest::qWaitFor([&] {
        answer += socket.readAll();
        return socket.state() != QAbstractSocket::ConnectedState;
    }, waitMs);
    Q_UNUSED(closed); // a proxy that keeps the connection open answers all the same
    answer += socket.readAll();
    return answer;
}
} // namespace

class TestProxy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void aStreamPassesThroughByteForByte_data();
    void aStreamPassesThroughByteForByte();
    void theFakeResponsesStreamHasTheCapturedShape_data();
    void theFakeResponsesStreamHasTheCapturedShape();
    void credentialsReachTheUpstreamOnlyUntouched();
    void destroyedWithARequestInFlight();
    void providerErrorsPassThrough();
    void requestsWithoutTheTokenAreRefused();
    void theTokenMayComeAsAHeader();
    void listensOnLoopbackOnly();
    void hostileRequestsAreRefusedBeforeForwarding_data();
    void hostileRequestsAreRefusedBeforeForwarding();
    void chunkedRequestBodiesAreForwardedWhole();
    void oneConnectionCarriesSeveralRequests();
    void anUnreachableUpstreamIsABadGateway();
    void aConnectionThatSendsNothingWholeIsClosed();
    void aClientThatLeavesStopsTheUpstreamRequest();

private:
    QUrl url(const QString &path) const { return QUrl(m_proxy->baseUrl().toString() + path); }
    QNetworkReply *post(const QString &path, const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers = {});

    FakeLlmServer *m_upstream = nullptr;
    ProxyServer *m_proxy = nullptr;
    QNetworkAccessManager *m_client = nullptr;
};

void TestProxy::init()
{
    m_upstream = new FakeLlmServer;
    QVERIFY(m_upstream->start());
    m_proxy = new ProxyServer;
    ProxyServer::Options options;
    options.upstream = m_upstream->url();
    QString error;
    QVERIFY2(m_proxy->listen(options, &error), qPrintable(error));
    m_client = new QNetworkAccessManager;
}

void TestProxy::cleanup()
{
    delete m_client;
    delete m_proxy;
    delete m_upstream;
}

QNetworkReply *TestProxy::post(const QString &path, const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    QNetworkRequest request(url(path));
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    request.setRawHeader("Accept-Encoding", "identity");
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    return m_client->post(request, body);
}

void TestProxy::aStreamPassesThroughByteForByte_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("capture");
    QTest::newRow("anthropic, query kept") << u"/v1/messages?beta=true"_s << u"llm/sse/anthropic/sdkpy-text-then-tool-use.sse"_s;
    QTest::newRow("openai chat") << u"/v1/chat/completions"_s << u"llm/sse/openai-chat/gpt4o-mini-tool-call-stream.sse"_s;
    QTest::newRow("openai responses") << u"/v1/responses"_s << u"llm/sse/openai-responses/gpt-5.5-function-call-streaming.sse"_s;
}

void TestProxy::aStreamPassesThroughByteForByte()
{
    QFETCH(QString, path);
    QFETCH(QString, capture);
    QByteArray stream = readData(capture);
    if (stream.isEmpty()) {
        // Any recorded stream of the protocol will do.
        const QString folder = capture.section(u'/', 0, 2);
        const QStringList files = QDir(QStringLiteral(WATERLINE_TEST_DATA) + u'/' + folder).entryList({u"*.sse"_s}, QDir::Files, QDir::Name);
        QVERIFY2(!files.isEmpty(), qPrintable(folder));
        stream = readData(folder + u'/' + files.constFirst());
    }
    QVERIFY(!stream.isEmpty());
    FakeReply reply;
    reply.rawBody = stream;
    reply.splitEveryByte = true; // the worst case for a proxy that would reassemble events
    m_upstream->enqueue(reply);
    QSignalSpy finished(m_proxy, &ProxyServer::exchangeFinished);
    QNetworkReply *answer = post(path, R"({"model":"m","stream":true,"messages":[]})");
    QSignalSpy done(answer, &QNetworkReply::finished);
    QVERIFY(done.wait(20000));
    QCOMPARE(answer->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(answer->header(QNetworkRequest::ContentTypeHeader).toByteArray(), QByteArray("text/event-stream"));
    QCOMPARE(answer->readAll(), stream);
    answer->deleteLater();
    QCOMPARE(m_upstream->requestCount(), 1);
    QCOMPARE(m_upstream->requests().constFirst().path, path.toUtf8()); // the token is not sent on
    QTRY_COMPARE(finished.size(), 1);
    const auto exchange = finished.at(0).at(0).value<ProxiedExchange>();
    QCOMPARE(exchange.path, path.toUtf8());
    QCOMPARE(exchange.status, 200);
    QCOMPARE(exchange.responseBody, stream);
    QVERIFY(exchange.firstByteMs >= 0);
}

void TestProxy::theFakeResponsesStreamHasTheCapturedShape_data()
{
    QTest::addColumn<QString>("capture");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("arguments");
    QTest::newRow("text") << u"llm/sse/openai-responses/gpt-5.5-text-streaming.sse"_s << u"pong, said in pieces"_s << QString();
    QTest::newRow("function call") << u"llm/sse/openai-responses/gpt-5.5-function-call-streaming.sse"_s << QString()
                                   << uR"({"a":1231,"b":2331})"_s;
}

// What tst_agentclis scripts Codex with: the fake upstream's generated Responses stream has the
// events of the real capture in the same order, numbered, and its usage carries cached tokens.
void TestProxy::theFakeResponsesStreamHasTheCapturedShape()
{
    QFETCH(QString, capture);
    QFETCH(QString, text);
    QFETCH(QString, arguments);
    const QList<SseEvent> recorded = parseSse(readData(capture));
    QVERIFY(recorded.size() > 5);
    FakeReply reply = arguments.isEmpty() ? FakeReply::withText(text)
                                          : FakeReply::withToolCalls({{u"call_fake_1"_s, u"multiply"_s, arguments}});
    reply.chunkChars = 3;
    reply.inputTokens = 58;
    reply.cacheReadTokens = 20;
    reply.outputTokens = 23;
    m_upstream->enqueue(reply);
    QNetworkReply *answer = post(u"/v1/responses"_s, R"({"model":"m","stream":true,"input":"hi"})");
    QSignalSpy done(answer, &QNetworkReply::finished);
    QVERIFY(done.wait(20000));
    QCOMPARE(answer->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    const QList<SseEvent> events = parseSse(answer->readAll());
    answer->deleteLater();
    QCOMPARE(shape(events), shape(recorded));
    QByteArray deltas;
    for (qsizetype i = 0; i < events.size(); ++i) {
        QCOMPARE(events.at(i).data.value(u"type").toString().toUtf8(), events.at(i).type);
        QCOMPARE(events.at(i).data.value(u"sequence_number").toInt(-1), int(i));
        if (events.at(i).type.endsWith(".delta"))
            deltas += events.at(i).data.value(u"delta").toString().toUtf8();
    }
    QCOMPARE(QString::fromUtf8(deltas), arguments.isEmpty() ? text : arguments);
    const QJsonObject completed = events.constLast().data.value(u"response").toObject();
    QCOMPARE(completed.value(u"status").toString(), u"completed"_s);
    const QJsonObject usage = completed.value(u"usage").toObject();
    QCOMPARE(usage.value(u"input_tokens").toInt(), 58);
    QCOMPARE(usage.value(u"input_tokens_details").toObject().value(u"cached_tokens").toInt(), 20);
    QCOMPARE(usage.value(u"output_tokens").toInt(), 23);
    const QJsonObject item = completed.value(u"output").toArray().at(0).toObject();
    if (arguments.isEmpty()) {
        QCOMPARE(item.value(u"type").toString(), u"message"_s);
        QCOMPARE(item.value(u"content").toArray().at(0).toObject().value(u"text").toString(), text);
    } else {
        QCOMPARE(item.value(u"type").toString(), u"function_call"_s);
        QCOMPARE(item.value(u"call_id").toString(), u"call_fake_1"_s);
        QCOMPARE(item.value(u"arguments").toString(), arguments);
    }
    QCOMPARE(m_upstream->requests().constFirst().lastUserText(), u"hi"_s);
}

void TestProxy::credentialsReachTheUpstreamOnlyUntouched()
{
    RawUpstream raw;
    ProxyServer proxy;
    ProxyServer::Options options;
    options.upstream = raw.url();
    QVERIFY(proxy.listen(options));
    QSignalSpy started(&proxy, &ProxyServer::exchangeStarted);
    QSignalSpy finished(&proxy, &ProxyServer::exchangeFinished);
    const QByteArray key = "sk-ant-api03-THIS-IS-THE-USERS-KEY-0123456789";
    QNetworkRequest request(QUrl(proxy.baseUrl().toString() + u"/v1/messages"_s));
    request.setRawHeader("x-api-key", key);
    request.setRawHeader("Authorization", "Bearer " + key);
    request.setRawHeader("anthropic-version", "2023-06-01");
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QNetworkReply *answer = m_client->post(request, QByteArray(R"({"model":"m"})"));
    QSignalSpy done(answer, &QNetworkReply::finished);
    QVERIFY(done.wait(10000));
    QCOMPARE(answer->readAll(), QByteArray("{}"));
    answer->deleteLater();
    // Header names are case-insensitive (Qt's client sends them in lower case); values are exact.
    QVERIFY2(raw.received.contains(QByteArray("x-api-key: " + key + "\r\n")), raw.received.constData());
    QVERIFY2(raw.received.contains(QByteArray("authorization: Bearer " + key + "\r\n")), raw.received.constData());
    QVERIFY(raw.received.contains("anthropic-version: 2023-06-01\r\n"));
    QVERIFY(!raw.received.contains(proxy.token())); // the proxy's own token stays here
    // What observers get holds no credential.
    QTRY_COMPARE(finished.size(), 1);
    for (const QSignalSpy *spy : {&started, &finished}) {
        const auto e = spy->at(0).at(0).value<ProxiedExchange>();
        const QByteArray everything = e.method + e.path + e.userAgent + e.requestBody + e.contentType + e.responseBody + e.error.toUtf8();
        QVERIFY(!everything.contains(key));
    }
}

// Closing the window or a test's proxy while an agent waits on the provider: the exchange's upstream
// request is abandoned cleanly (its network manager goes after it, not before), and the client
// sees its connection end.
void TestProxy::destroyedWithARequestInFlight()
{
    FakeReply hang = FakeReply::withText(u"never finished"_s);
    hang.fault = FakeReply::Fault::Hang;
    hang.faultAfterEvents = 1;
    m_upstream->enqueue(hang);
    QNetworkReply *answer = post(u"/v1/messages"_s, R"({"model":"m","stream":true,"messages":[]})");
    QSignalSpy done(answer, &QNetworkReply::finished);
    QTRY_COMPARE_WITH_TIMEOUT(m_upstream->requestCount(), 1, 10000);
    QTest::qWait(50);
    delete m_proxy;
    m_proxy = nullptr;
    QVERIFY(done.wait(10000));
    QVERIFY(answer->error() != QNetworkReply::NoError);
    answer->deleteLater();
}

void TestProxy::providerErrorsPassThrough()
{
    const QByteArray body = R"({"type":"error","error":{"type":"rate_limit_error","message":"slow down"}})";
    m_upstream->enqueue(FakeReply::withStatus(429, body, {{"Retry-After", "7"}, {"x-should-retry", "true"}}));
    QNetworkReply *answer = post(u"/v1/messages"_s, R"({"model":"m","messages":[]})");
    QSignalSpy done(answer, &QNetworkReply::finished);
    QVERIFY(done.wait(10000));
    QCOMPARE(answer->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 429);
    QCOMPARE(answer->rawHeader("Retry-After"), QByteArray("7"));
    QCOMPARE(answer->rawHeader("x-should-retry"), QByteArray("true"));
    QCOMPARE(answer->readAll(), body);
    answer->deleteLater();
}

void TestProxy::requestsWithoutTheTokenAreRefused()
{
    const quint16 port = m_proxy->port();
    const QByteArray token = m_proxy->token();
    QByteArray wrong = token;
    wrong[0] = wrong[0] == 'a' ? 'b' : 'a';
    const QList<QByteArray> targets{"/v1/messages", "/t/" + wrong + "/v1/messages", "/t/" + token.left(token.size() - 1) + "/v1/messages",
                                    "/t//v1/messages", "/t/" + token + "x/v1/messages", "/v1/t/" + token + "/messages"};
    for (const QByteArray &target : targets) {
        const QByteArray answer = rawExchange(port, "POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
        QVERIFY2(answer.startsWith("HTTP/1.1 401 "), QByteArray(target + " => " + answer.left(200)).constData());
        QVERIFY(!answer.contains(token));
    }
    QCOMPARE(m_upstream->requestCount(), 0);
}

void TestProxy::theTokenMayComeAsAHeader()
{
    m_upstream->enqueue(FakeReply::withText(u"hi"_s));
    QNetworkRequest request(QUrl(u"http://127.0.0.1:%1/v1/chat/completions"_s.arg(m_proxy->port())));
    request.setRawHeader("x-waterline-proxy-token", m_proxy->token());
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QNetworkReply *answer = m_client->post(request, QByteArray(R"({"model":"m","stream":true,"messages":[]})"));
    QSignalSpy done(answer, &QNetworkReply::finished);
    QVERIFY(done.wait(10000));
    QCOMPARE(answer->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    answer->deleteLater();
    QCOMPARE(m_upstream->requestCount(), 1);
    QVERIFY(!m_upstream->requests().constFirst().hasHeader("x-waterline-proxy-token")); // not sent on
}

void TestProxy::listensOnLoopbackOnly()
{
    ProxyServer proxy;
    ProxyServer::Options options;
    options.upstream = m_upstream->url();
    QString error;
    for (const QHostAddress &address : {QHostAddress(QHostAddress::Any), QHostAddress(QHostAddress::AnyIPv6), QHostAddress(u"192.168.1.10"_s)}) {
        options.address = address;
        QVERIFY(!proxy.listen(options, &error));
        QVERIFY2(error.contains(u"loopback"_s), qPrintable(error));
    }
    options.address = QHostAddress(QHostAddress::LocalHost);
    for (const QString &bad : {u"ftp://example.com"_s, u"not a url"_s, u"http://user:pass@example.com"_s, u"file:///etc/passwd"_s}) {
        options.upstream = QUrl(bad);
        QVERIFY2(!proxy.listen(options, &error), qPrintable(bad));
        QVERIFY(!error.isEmpty());
    }
    QVERIFY(m_proxy->baseUrl().host() == u"127.0.0.1"_s);
    QCOMPARE(m_proxy->token().size(), 32); // 128 random bits
    ProxyServer another;
    options.upstream = m_upstream->url();
    QVERIFY(another.listen(options));
    QVERIFY(another.token() != m_proxy->token());
}

void TestProxy::hostileRequestsAreRefusedBeforeForwarding_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<QByteArray>("status");
    const QByteArray big(70 * 1024, 'a');
    QTest::newRow("header block too large") << QByteArray("X-Filler: " + big + "\r\n") << QByteArray("431");
    QTest::newRow("body too large") << QByteArray("Content-Length: 999999999999\r\n") << QByteArray("413");
    QTest::newRow("two lengths") << QByteArray("Content-Length: 2\r\nContent-Length: 3\r\n") << QByteArray("400");
    QTest::newRow("length and chunked (smuggling)") << QByteArray("Content-Length: 2\r\nTransfer-Encoding: chunked\r\n") << QByteArray("400");
    QTest::newRow("negative length") << QByteArray("Content-Length: -1\r\n") << QByteArray("400");
    QTest::newRow("length with sign") << QByteArray("Content-Length: +2\r\n") << QByteArray("400");
    QTest::newRow("unknown transfer encoding") << QByteArray("Transfer-Encoding: gzip\r\n") << QByteArray("501");
    QTest::newRow("carriage return inside a header") << QByteArray("X-A: a\rInjected: b\r\n") << QByteArray("400");
    QTest::newRow("folded header") << QByteArray("X-A: a\r\n  folded\r\n") << QByteArray("400");
    QTest::newRow("space before colon") << QByteArray("X-A : a\r\n") << QByteArray("400");
    QTest::newRow("nul in a header") << QByteArray("X-A: a\0b\r\n", 10) << QByteArray("400");
}

void TestProxy::hostileRequestsAreRefusedBeforeForwarding()
{
    QFETCH(QByteArray, head);
    QFETCH(QByteArray, status);
    const QByteArray request = "POST /t/" + m_proxy->token() + "/v1/messages HTTP/1.1\r\nHost: x\r\n" + head + "\r\n{}";
    const QByteArray answer = rawExchange(m_proxy->port(), request);
    QVERIFY2(answer.startsWith(QByteArray("HTTP/1.1 " + status + ' ')), answer.left(80).toPercentEncoding().constData());
    QVERIFY(answer.contains("Connection: close"));
    QCOMPARE(m_upstream->requestCount(), 0);

    // Malformed request lines, too.
    for (const QByteArray &line : {QByteArray("GARBAGE\r\n\r\n"), QByteArray("POST v1/messages HTTP/1.1\r\n\r\n"),
                                   QByteArray("POST /a b HTTP/1.1\r\n\r\n"), QByteArray("PO(ST /x HTTP/1.1\r\n\r\n"),
                                   QByteArray("POST /x SPDY/3\r\n\r\n")}) {
        QVERIFY2(rawExchange(m_proxy->port(), line).startsWith("HTTP/1.1 400 "), line.constData());
    }
    QCOMPARE(m_upstream->requestCount(), 0);
}

void TestProxy::chunkedRequestBodiesAreForwardedWhole()
{
    m_upstream->enqueue(FakeReply::withText(u"ok"_s));
    const QByteArray body = R"({"model":"m","stream":true,"messages":[{"role":"user","content":"hello"}]})";
    QByteArray chunked;
    for (qsizetype i = 0; i < body.size(); i += 7) {
        const QByteArray piece = body.mid(i, 7);
        chunked += QByteArray::number(piece.size(), 16) + ";ext=1\r\n" + piece + "\r\n";
    }
    chunked += "0\r\n\r\n";
    const QByteArray answer = rawExchange(m_proxy->port(), "POST /t/" + m_proxy->token()
        + "/v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked);
    QVERIFY2(answer.startsWith("HTTP/1.1 200 "), answer.left(80).constData());
    QCOMPARE(m_upstream->requestCount(), 1);
    QCOMPARE(m_upstream->requests().constFirst().body, body);
}

void TestProxy::oneConnectionCarriesSeveralRequests()
{
    // Two requests written at once (pipelined) on one keep-alive connection: both answered, in order.
    m_upstream->enqueue(FakeReply::withStatus(400, R"({"first":true})"));
    m_upstream->enqueue(FakeReply::withStatus(404, R"({"second":true})"));
    const QByteArray one = "POST /t/" + m_proxy->token() + "/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}";
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
    QTRY_COMPARE(socket.state(), QAbstractSocket::ConnectedState);
    socket.write(one + one);
    QByteArray answer;
    QTRY_VERIFY_WITH_TIMEOUT((answer += socket.readAll()).contains(R"({"second":true})"), 10000);
    QVERIFY(answer.startsWith("HTTP/1.1 400 "));
    QVERIFY(answer.indexOf(R"({"first":true})") < answer.indexOf("HTTP/1.1 404 "));
    QCOMPARE(m_upstream->requestCount(), 2);
    QCOMPARE(socket.state(), QAbstractSocket::ConnectedState); // still open for more
}

void TestProxy::anUnreachableUpstreamIsABadGateway()
{
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const quint16 port = closed.serverPort();
    closed.close(); // nothing listens there now
    ProxyServer proxy;
    ProxyServer::Options options;
    options.upstream = QUrl(u"http://127.0.0.1:%1"_s.arg(port));
    QVERIFY(proxy.listen(options));
    QNetworkRequest request(QUrl(proxy.baseUrl().toString() + u"/v1/messages"_s));
    QNetworkReply *answer = m_client->post(request, QByteArray("{}"));
    QSignalSpy done(answer, &QNetworkReply::finished);
    QVERIFY(done.wait(10000));
    QCOMPARE(answer->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 502);
    const QByteArray body = answer->readAll();
    QVERIFY2(body.contains("waterline_proxy") && body.contains("could not be reached"), body.constData());
    answer->deleteLater();
}

// A local program that opens connections and never finishes a request (or leaves them idle) does
// not hold them forever.
void TestProxy::aConnectionThatSendsNothingWholeIsClosed()
{
    ProxyServer proxy;
    ProxyServer::Options options;
    options.upstream = m_upstream->url();
    options.idleTimeoutMs = 300;
    QVERIFY(proxy.listen(options));
    QElapsedTimer clock;
    clock.start();
    const QByteArray partial = rawExchange(proxy.port(), "POST /t/" + proxy.token() + "/v1/messages HTTP/1.1\r\nHost: x\r\n", 5000);
    QVERIFY2(partial.startsWith("HTTP/1.1 408 "), partial.constData());
    QVERIFY(clock.elapsed() < 4000);
    const QByteArray idle = rawExchange(proxy.port(), QByteArray(), 5000);
    QVERIFY(idle.isEmpty()); // closed without a word
    QTRY_COMPARE(proxy.openConnections(), 0);
    QCOMPARE(m_upstream->requestCount(), 0);
}

void TestProxy::aClientThatLeavesStopsTheUpstreamRequest()
{
    m_upstream->enqueue(FakeReply::withFault(FakeReply::Fault::Trickle, 1));
    QSignalSpy finished(m_proxy, &ProxyServer::exchangeFinished);
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
        QTRY_COMPARE(socket.state(), QAbstractSocket::ConnectedState);
        const QByteArray body = R"({"model":"m","stream":true,"messages":[]})";
        socket.write("POST /t/" + m_proxy->token() + "/v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                     + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QByteArray got;
        QTRY_VERIFY_WITH_TIMEOUT((got += socket.readAll()).contains("data:"), 10000);
        QCOMPARE(m_proxy->openConnections(), 1);
        socket.abort();
    }
    QTRY_COMPARE_WITH_TIMEOUT(m_proxy->openConnections(), 0, 10000);
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(!finished.at(0).at(0).value<ProxiedExchange>().error.isEmpty());
}

QTEST_GUILESS_MAIN(TestProxy)
#include "tst_proxy.moc"
