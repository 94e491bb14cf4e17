#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <algorithm>
#include <functional>
#include <optional>

class QTcpServer;
class QTcpSocket;

namespace wl::test {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// One HTTP request as the fake server received it. Credential headers
// (Authorization, x-api-key, ...) and anything key-shaped in the body are
// redacted before the request is stored, so a dump can never leak a key.
struct RecordedRequest
{
    int number = 0;            // 1, 2, ... in arrival order
    QByteArray method;
    QByteArray path;           // with the query, as sent
    HeaderList headers;        // names as sent, secrets redacted
    QByteArray body;

    QByteArray header(QByteArrayView name) const;   // case-insensitive; empty when absent
    bool hasHeader(QByteArrayView name) const;
    QJsonObject json() const;                        // the body as a JSON object ({} if not one)
    // "openai-chat", "anthropic", "openai-responses", "models" or "other", from the path.
    QString protocol() const;
    // The system prompt in any protocol (OpenAI system messages joined; Anthropic `system`;
    // Responses `instructions` and system or developer input messages).
    QString systemPrompt() const;
    // Text of the last user message (OpenAI content; Anthropic text blocks; Responses input_text).
    QString lastUserText() const;
    // The summariser's call (its system prompt says "context compaction engine").
    bool isSummarizerCall() const;
    // Request line, headers and body as text (already redacted).
    QString dump() const;
};

struct FakeToolCall
{
    QString id;
    QString name;
    QString arguments;   // JSON text, streamed in pieces
};

// What the server answers to one request: a streamed reply (text, thinking,
// tool calls, usage) in the protocol the request used, or a fault.
struct FakeReply
{
    enum class Fault {
        None,
        Status,             // answer `status` with `headers` and `body`, nothing streamed
        Disconnect,         // stream `faultAfterEvents` events, then close the connection mid-body
        MalformedJson,      // stream `faultAfterEvents` events, then a data line that is not JSON
        ErrorEvent,         // stream `faultAfterEvents` events, then an in-stream error (`errorType`)
        Hang,               // send nothing (faultAfterEvents < 0) or stop after that many events; never close
        Trickle,            // stream `faultAfterEvents` events, then `trickle` every `trickleMs`, forever
    };

    // Content of a normal reply.
    QString text;
    QString thinking;
    QList<FakeToolCall> toolCalls;
    QString finishReason;           // protocol value; empty: derived (stop / tool_calls, end_turn / tool_use)
    bool sendUsage = true;
    qint64 inputTokens = 100;       // all prompt tokens (the client's ChatUsage::input)
    qint64 outputTokens = 20;
    qint64 cacheReadTokens = 0;
    qint64 cacheWriteTokens = 0;    // Anthropic only
    bool includeDone = true;        // OpenAI: end with "data: [DONE]"
    bool wholeJson = false;         // answer a single JSON body, as if `stream` had been ignored

    // Pacing.
    int chunkChars = 8;             // text, thinking and arguments go out in pieces of this many characters
    int delayMs = 0;                // pause before each event (a slow drip)
    bool splitEveryByte = false;    // write the body one byte per HTTP chunk, one per event-loop turn

    // A verbatim body (a captured stream); replaces the generated events.
    QByteArray rawBody;
    QByteArray contentType = "text/event-stream";

    // Faults.
    Fault fault = Fault::None;
    int status = 200;
    HeaderList headers;             // extra response headers (Retry-After, x-should-retry, ...)
    QByteArray body;                // for Fault::Status
    int faultAfterEvents = -1;
    QByteArray trickle = ": keep-alive\n\n"; // Trickle: a comment, or an event that adds nothing
    int trickleMs = 20;
    QString errorType = QStringLiteral("overloaded_error");

    // Matching: without `when` the reply is used by the next chat request, in
    // queue order. With `when` it answers the first request it matches,
    // before the queue is consulted (once, or always when `persistent`).
    std::function<bool(const RecordedRequest &)> when;
    bool persistent = false;

    static FakeReply withText(const QString &text);
    static FakeReply withToolCalls(const QList<FakeToolCall> &calls, const QString &text = {});
    static FakeReply withStatus(int status, const QByteArray &body = {}, const HeaderList &headers = {});
    static FakeReply withFault(Fault fault, int afterEvents = -1);

    // Scenario-file form of a reply: see FakeLlmServer::loadScenario().
    static std::optional<FakeReply> fromJson(const QJsonObject &object, QString *error = nullptr);
};

// An HTTP/1.1 server on 127.0.0.1 (ephemeral port) that speaks OpenAI Chat
// Completions (POST /v1/chat/completions, /chat/completions), Anthropic
// Messages (POST /v1/messages), OpenAI Responses (POST /v1/responses,
// /responses; see FakeResponses.h) and model listing (GET /models, /v1/models),
// answering from scripted replies and recording every request.
//
//   FakeLlmServer server;
//   QVERIFY(server.start());
//   server.enqueue(FakeReply::withStatus(429, {}, {{"Retry-After", "0"}}));
//   server.enqueue(FakeReply::withText(u"Hello"_s));
//   client.setBaseUrl(server.openAiBaseUrl());   // or anthropicBaseUrl()
//   ... send, wait for finished ...
//   QCOMPARE(server.requestCount(), 2);
//   QCOMPARE(server.requests().last().json()["model"], ...);
//
// A chat request with no scripted reply left gets HTTP 501 and a warning, so
// a test that forgot a reply fails fast (501 is never retried). Each response
// ends with `Connection: close`.
class FakeLlmServer : public QObject
{
    Q_OBJECT

public:
    explicit FakeLlmServer(QObject *parent = nullptr);
    ~FakeLlmServer() override;

    bool start();
    quint16 port() const;
    QUrl url() const;                 // http://127.0.0.1:<port>
    QUrl openAiBaseUrl() const;       // url() + "/v1"
    QUrl anthropicBaseUrl() const;    // url()

    void enqueue(const FakeReply &reply);
    void addRule(const FakeReply &reply);  // reply.when must be set
    // Asked first for every request: a reply made from what the request carries (an agent CLI's
    // tool names, the result of the call it just ran), or nothing to fall back on the rules and
    // the queue. An empty function removes it.
    using Responder = std::function<std::optional<FakeReply>(const RecordedRequest &)>;
    void setResponder(Responder responder) { m_responder = std::move(responder); }
    void setModels(const QStringList &ids) { m_models = ids; }
    void clear();                          // replies, rules and recorded requests

    // Scenario file (JSON):
    // {
    //   "models": ["m1", "m2"],
    //   "replies": [
    //     {"text": "Hello", "usage": {"input": 10, "output": 3, "cacheRead": 0, "cacheWrite": 0},
    //      "chunkChars": 4, "delayMs": 0, "splitEveryByte": false, "thinking": "..."},
    //     {"toolCalls": [{"id": "call_1", "name": "read_file", "arguments": "{\"path\":\"a\"}"}]},
    //     {"status": 429, "headers": {"Retry-After": "1"}, "body": {"error": {"message": "slow down"}}},
    //     {"fault": "disconnect" | "malformed-json" | "error-event" | "hang", "afterEvents": 2, "text": "..."},
    //     {"when": {"systemContains": "context compaction engine"}, "persistent": true, "text": "## Anchors ..."},
    //     {"rawBodyFile": "llm/openai-chat/x.sse"}   (relative to tests/data)
    //   ]
    // }
    // `when` keys: systemContains, lastUserContains, pathContains, model; all given must hold.
    bool loadScenario(const QJsonObject &scenario, QString *error = nullptr);
    bool loadScenarioFile(const QString &path, QString *error = nullptr);

    QList<RecordedRequest> requests() const { return m_requests; }
    int requestCount() const { return int(m_requests.size()); }
    int pendingReplies() const { return int(m_queue.size()); }

Q_SIGNALS:
    void requestReceived(const wl::test::RecordedRequest &request);

private:
    class Connection;
    void onNewConnection();
    void handleRequest(Connection *connection, RecordedRequest request);

    QTcpServer *m_server = nullptr;
    QList<FakeReply> m_queue;
    QList<FakeReply> m_rules;
    Responder m_responder;
    QList<RecordedRequest> m_requests;
    QStringList m_models{QStringLiteral("fake-model")};
};

} // namespace wl::test
