// Sessions from proxied traffic: a real ProxyServer in front of the fake provider, a real HTTP
// client, and the recorder writing into a database the test reads back.
#include "FakeLlmServer.h"
#include "ProxyRig.h"

#include "proxy/ProxyRecorder.h"
#include "proxy/ProxyServer.h"
#include "store/SessionStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
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

QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

const QJsonArray kAnthropicTools{QJsonObject{{u"name"_s, u"Read"_s}, {u"input_schema"_s, QJsonObject{{u"type"_s, u"object"_s}}}}};

QJsonObject anthropicBody(const QJsonArray &messages, const QString &session = {})
{
    QJsonObject body{{u"model"_s, u"claude-test"_s}, {u"stream"_s, true}, {u"max_tokens"_s, 100},
                     {u"system"_s, u"You are a careful agent."_s}, {u"tools"_s, kAnthropicTools}, {u"messages"_s, messages}};
    if (!session.isEmpty())
        body.insert(u"metadata"_s, QJsonObject{{u"user_id"_s, session}}); // as Claude Code names its session
    return body;
}

QJsonObject user(const QString &text)
{
    return {{u"role"_s, u"user"_s}, {u"content"_s, text}};
}

QJsonObject chatBody(const QJsonArray &messages)
{
    QJsonArray all{QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"Chat system."_s}}};
    for (const QJsonValue &m : messages)
        all.append(m);
    return {{u"model"_s, u"gpt-test"_s}, {u"stream"_s, true}, {u"messages"_s, all}};
}
} // namespace

class TestProxyRecorder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void aConversationBecomesOneSessionStoredOnce();
    void regroupedEarlierTurnsAreNotStoredAgain();
    void hostileCallIdsAreRecordedAsSent();
    void aClientSideCompactionIsTheSourceAgentsCompaction();
    void anEditedHistoryIsACompactionAtTheFirstChange();
    void interleavedConversationsAreTwoSessions();
    void responsesTrafficIsRecorded();
    void chainedResponsesContinueTheirConversation();
    void nonConversationPathsAreNotSessions();
    void anUnreadableBodyIsForwardedAndReported();
    void whatWasHandedOverIsWrittenBeforeTheRecorderGoes();

private:
    QByteArray post(const QString &path, const QByteArray &body, int *status = nullptr);
    bool waitForUpdates(int count);
    QString onlySession();

    // The rig, and its parts by the names the tests use.
    std::unique_ptr<ProxyRig> m_rig;
    QTemporaryDir *m_dir = nullptr;
    FakeLlmServer *m_upstream = nullptr;
    ProxyServer *m_proxy = nullptr;
    ProxyRecorder *m_recorder = nullptr;
    QSignalSpy *m_updates = nullptr;
    SessionStore *m_store = nullptr;
};

void TestProxyRecorder::init()
{
    m_rig = std::make_unique<ProxyRig>();
    const QString problem = m_rig->start();
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    m_dir = &m_rig->dir;
    m_upstream = &m_rig->upstream;
    m_proxy = &m_rig->proxy;
    m_recorder = m_rig->recorder.get();
    m_updates = new QSignalSpy(m_recorder, &ProxyRecorder::sessionUpdated);
    m_store = new SessionStore;
}

void TestProxyRecorder::cleanup()
{
    delete m_store;
    delete m_updates;
    m_rig.reset();
}

QByteArray TestProxyRecorder::post(const QString &path, const QByteArray &body, int *status)
{
    QNetworkReply *reply = m_rig->post(path, body, {{"x-api-key", "sk-ant-secret-never-stored"}});
    if (!reply)
        return "timed out";
    if (status)
        *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray answer = reply->readAll();
    reply->deleteLater();
    return answer;
}

bool TestProxyRecorder::waitForUpdates(int count)
{
    return QTest::qWaitFor([this, count] { return m_updates->size() >= count; }, 10000);
}

QString TestProxyRecorder::onlySession()
{
    if (!m_store->isOpen() && !m_store->open(m_dir->filePath(u"sessions.db"_s)))
        return {};
    const QList<SessionInfo> sessions = m_store->listSessions();
    return sessions.size() == 1 ? sessions.first().id : QString();
}

void TestProxyRecorder::aConversationBecomesOneSessionStoredOnce()
{
    m_upstream->enqueue(FakeReply::withToolCalls({FakeToolCall{u"toolu_1"_s, u"Read"_s, uR"({"path": "a.c"})"_s}}, u"Reading."_s));
    m_upstream->enqueue(FakeReply::withText(u"It is fine."_s));
    FakeReply third = FakeReply::withText(u"Bye."_s);
    third.inputTokens = 321;
    third.cacheReadTokens = 300;
    m_upstream->enqueue(third);

    const QJsonObject first = user(u"Check a.c please"_s);
    post(u"/v1/messages?beta=true"_s, json(anthropicBody({first})));
    QVERIFY(waitForUpdates(1));
    // The client sends the call back with its input as an object, keys reordered by nobody.
    const QJsonObject call{{u"role"_s, u"assistant"_s},
                           {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"Reading."_s}},
                                                      QJsonObject{{u"type"_s, u"tool_use"_s}, {u"id"_s, u"toolu_1"_s}, {u"name"_s, u"Read"_s},
                                                                  {u"input"_s, QJsonObject{{u"path"_s, u"a.c"_s}}}}}}};
    const QJsonObject result{{u"role"_s, u"user"_s},
                             {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, u"toolu_1"_s},
                                                                    {u"content"_s, u"int main() {}"_s}}}}};
    post(u"/v1/messages?beta=true"_s, json(anthropicBody({first, call, result})));
    QVERIFY(waitForUpdates(2));
    const QJsonObject answer{{u"role"_s, u"assistant"_s}, {u"content"_s, u"It is fine."_s}};
    post(u"/v1/messages?beta=true"_s, json(anthropicBody({first, call, result, answer, user(u"Thanks"_s)})));
    QVERIFY(waitForUpdates(3));
    QCOMPARE(m_updates->at(2).at(1).toInt(), 3);
    QCOMPARE(m_updates->at(0).at(0), m_updates->at(2).at(0));

    const QString id = onlySession();
    QVERIFY(!id.isEmpty());
    QCOMPARE(m_updates->at(0).at(0).toString(), id);
    // u1, a1 (the reply), tool result, a2 (the reply), u2, a3 (the reply): each once.
    const QList<Message> history = m_store->history(id);
    QCOMPARE(history.size(), 6);
    QCOMPARE(history[0].content, u"Check a.c please"_s);
    QCOMPARE(history[1].toolCalls.size(), 1);
    QCOMPARE(history[2].toolCallId, u"toolu_1"_s);
    QCOMPARE(history[3].content, u"It is fine."_s);
    QCOMPARE(history[4].content, u"Thanks"_s);
    QCOMPARE(history[5].content, u"Bye."_s);

    const QList<RequestRecord> requests = m_store->requests(id);
    QCOMPARE(requests.size(), 3);
    QCOMPARE(requests[0].viewMessageIds, ViewIds{history[0].id});
    QCOMPARE(requests[1].viewMessageIds, (ViewIds{history[0].id, history[1].id, history[2].id}));
    QCOMPARE(requests[2].viewMessageIds.size(), 5);
    QCOMPARE(requests[2].model, u"claude-test"_s);
    QCOMPARE(requests[2].inputTokens, 321);
    QCOMPARE(requests[2].cacheReadTokens, 300);
    QCOMPARE(requests[0].outputTokens, 20);
    QVERIFY(requests[0].toolSchemaBytes.value_or(0) > 0);
    QVERIFY(requests[2].startedAt.isValid());
    QVERIFY(requests[2].finishedAt >= requests[2].startedAt);
    QCOMPARE(history[1].origin, requests[0].id);
    QCOMPARE(history[5].origin, requests[2].id);
    for (int i = 0; i < 3; ++i) {
        const std::optional<RequestContext> context = m_store->requestContext(id, i);
        QVERIFY(context);
        QCOMPARE(context->systemPrompt, u"You are a careful agent."_s);
        QCOMPARE(context->toolSchemas, kAnthropicTools);
    }
    const std::optional<SessionSource> source = m_store->sessionSource(id);
    QVERIFY(source);
    QCOMPARE(source->format, u"proxy"_s);
    QVERIFY(source->details.value(u"compactions").toArray().isEmpty());
    QCOMPARE(m_store->session(id)->title, u"Check a.c please"_s);

    // No header reached the database (the key went upstream only).
    QFile file(m_dir->filePath(u"sessions.db"_s));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains("sk-ant-secret"));
}

// Claude Code (2.1) sends its earlier turns regrouped: the texts and tool calls of two replies in
// one assistant turn, their results in one user turn. The same calls and results are the same
// conversation: nothing is stored twice and no compaction is seen.
void TestProxyRecorder::regroupedEarlierTurnsAreNotStoredAgain()
{
    m_upstream->enqueue(FakeReply::withToolCalls({FakeToolCall{u"toolu_r"_s, u"Read"_s, uR"({"path": "a.c"})"_s}}, u"Reading."_s));
    m_upstream->enqueue(FakeReply::withToolCalls({FakeToolCall{u"toolu_b"_s, u"Bash"_s, uR"({"command": "ls"})"_s}}, u"Listing."_s));
    m_upstream->enqueue(FakeReply::withText(u"Done."_s));
    auto textBlock = [](const QString &text) { return QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, text}}; };
    auto useBlock = [](const QString &id, const QString &name, const QJsonObject &input) {
        return QJsonObject{{u"type"_s, u"tool_use"_s}, {u"id"_s, id}, {u"name"_s, name}, {u"input"_s, input}};
    };
    auto resultBlock = [](const QString &id, const QString &text) {
        return QJsonObject{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, id}, {u"content"_s, text}};
    };
    const QJsonObject first = user(u"Look around"_s);
    const QJsonObject read = useBlock(u"toolu_r"_s, u"Read"_s, {{u"path"_s, u"a.c"_s}});
    const QJsonObject bash = useBlock(u"toolu_b"_s, u"Bash"_s, {{u"command"_s, u"ls"_s}});
    const QJsonObject readResult = resultBlock(u"toolu_r"_s, u"int main() {}"_s);
    const QJsonObject bashResult = resultBlock(u"toolu_b"_s, u"a.c b.c"_s);
    auto turn = [](const QString &role, const QJsonArray &blocks) { return QJsonObject{{u"role"_s, role}, {u"content"_s, blocks}}; };

    post(u"/v1/messages"_s, json(anthropicBody({first})));
    QVERIFY(waitForUpdates(1));
    post(u"/v1/messages"_s, json(anthropicBody({first, turn(u"assistant"_s, {textBlock(u"Reading."_s), read}), turn(u"user"_s, {readResult})})));
    QVERIFY(waitForUpdates(2));
    // Regrouped: both calls in one assistant turn with both replies' texts, both results in one
    // user turn.
    post(u"/v1/messages"_s, json(anthropicBody({first, turn(u"assistant"_s, {textBlock(u"Reading."_s), textBlock(u"Listing."_s), read, bash}),
                                                 turn(u"user"_s, {readResult, bashResult})})));
    QVERIFY(waitForUpdates(3));

    const QString id = onlySession();
    QVERIFY(!id.isEmpty());
    const QList<Message> history = m_store->history(id);
    QStringList shape;
    for (const Message &m : history)
        shape << roleName(m.role) + u':' + (m.isToolResult() ? m.toolCallId : QString::number(m.toolCalls.size()));
    // u, a1 (Read), its result, a2 (Bash), its result, a3: each once.
    QCOMPARE(shape, (QStringList{u"user:0"_s, u"assistant:1"_s, u"tool:toolu_r"_s, u"assistant:1"_s, u"tool:toolu_b"_s, u"assistant:0"_s}));
    QCOMPARE(history.last().content, u"Done."_s);
    const std::optional<SessionSource> source = m_store->sessionSource(id);
    QVERIFY(source);
    QVERIFY(source->details.value(u"compactions"_s).toArray().isEmpty());
    // The third request's view: everything stored before its reply.
    const QList<RequestRecord> requests = m_store->requests(id);
    QCOMPARE(requests.size(), 3);
    QCOMPARE(requests[2].viewMessageIds.size(), 5);
}

// A client (or anything local that reaches the proxy) may send results for calls nobody made and
// two calls with one id: the matching of regrouped turns must neither crash nor lose a turn.
void TestProxyRecorder::hostileCallIdsAreRecordedAsSent()
{
    m_upstream->enqueue(FakeReply::withText(u"One."_s));
    m_upstream->enqueue(FakeReply::withText(u"Two."_s));
    auto turn = [](const QString &role, const QJsonArray &blocks) { return QJsonObject{{u"role"_s, role}, {u"content"_s, blocks}}; };
    auto use = [](const QString &id) {
        return QJsonObject{{u"type"_s, u"tool_use"_s}, {u"id"_s, id}, {u"name"_s, u"Read"_s}, {u"input"_s, QJsonObject{}}};
    };
    auto result = [](const QString &id, const QString &text) {
        return QJsonObject{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, id}, {u"content"_s, text}};
    };
    const QJsonArray first{user(u"start"_s), turn(u"user"_s, {result(u"toolu_nobody"_s, u"orphan"_s)}),
                           turn(u"assistant"_s, {use(u"toolu_same"_s), use(u"toolu_same"_s)}),
                           turn(u"user"_s, {result(u"toolu_same"_s, u"a"_s), result(u"toolu_same"_s, u"b"_s)})};
    post(u"/v1/messages"_s, json(anthropicBody(first)));
    QVERIFY(waitForUpdates(1));
    QJsonArray second = first;
    second.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"One."_s}});
    second.append(user(u"again"_s));
    post(u"/v1/messages"_s, json(anthropicBody(second)));
    QVERIFY(waitForUpdates(2));

    const QString id = onlySession();
    QVERIFY(!id.isEmpty());
    const QList<Message> history = m_store->history(id);
    // start, the orphan result, the assistant with its two calls, both results, One., again, Two.
    QCOMPARE(history.size(), 8);
    QCOMPARE(history[1].toolCallId, u"toolu_nobody"_s);
    QCOMPARE(history[2].toolCalls.size(), 2);
    QCOMPARE(history[6].content, u"again"_s);
    QCOMPARE(history[7].content, u"Two."_s);
}

void TestProxyRecorder::aClientSideCompactionIsTheSourceAgentsCompaction()
{
    for (const QString &text : {u"one"_s, u"two"_s, u"three"_s})
        m_upstream->enqueue(FakeReply::withText(text));
    const QJsonObject first = user(u"Write the report"_s);
    const QJsonObject one{{u"role"_s, u"assistant"_s}, {u"content"_s, u"one"_s}};
    const QString session = u"user_abc_account__session_42"_s;
    post(u"/v1/messages"_s, json(anthropicBody({first}, session)));
    post(u"/v1/messages"_s, json(anthropicBody({first, one, user(u"more"_s)}, session)));
    QVERIFY(waitForUpdates(2));
    // The client replaced its history with a summary: nothing in common from the first message.
    post(u"/v1/messages"_s, json(anthropicBody({user(u"Summary of the conversation so far: a report."_s)}, session)));
    QVERIFY(waitForUpdates(3));

    const QString id = onlySession();
    QVERIFY2(!id.isEmpty(), "the compacted request continues the same session");
    const QList<Message> history = m_store->history(id);
    QCOMPARE(history.size(), 6);
    const QList<RequestRecord> requests = m_store->requests(id);
    QCOMPARE(requests.size(), 3);
    QCOMPARE(requests[2].viewMessageIds, ViewIds{history[4].id});
    const QJsonArray compactions = m_store->sessionSource(id)->details.value(u"compactions").toArray();
    QCOMPARE(compactions.size(), 1);
    const QJsonObject c = compactions[0].toObject();
    QCOMPARE(c.value(u"message").toInteger(), 4);
    QCOMPARE(c.value(u"request").toInt(), 2);
    QCOMPARE(c.value(u"tokens_before").toInteger(), 100); // the fake's input tokens of request 2
    QVERIFY(c.value(u"summary").toString().startsWith(u"Summary of the conversation"_s));

    // The same shrinking request from another session of the client is a conversation of its own.
    m_upstream->enqueue(FakeReply::withText(u"other"_s));
    post(u"/v1/messages"_s, json(anthropicBody({user(u"A fresh start"_s)}, u"user_abc_account__session_43"_s)));
    QVERIFY(waitForUpdates(4));
    QCOMPARE(m_store->listSessions().size(), 2);
    QCOMPARE(m_store->sessionSource(id)->details.value(u"compactions").toArray().size(), 1);
}

void TestProxyRecorder::anEditedHistoryIsACompactionAtTheFirstChange()
{
    for (const QString &text : {u"one"_s, u"two"_s, u"three"_s})
        m_upstream->enqueue(FakeReply::withText(text));
    const QJsonObject first = user(u"Plan the trip"_s);
    const QJsonObject one{{u"role"_s, u"assistant"_s}, {u"content"_s, u"one"_s}};
    post(u"/v1/messages"_s, json(anthropicBody({first})));
    post(u"/v1/messages"_s, json(anthropicBody({first, one, user(u"a long detour"_s)})));
    QVERIFY(waitForUpdates(2));
    // The client kept its first message and replaced the rest with a summary.
    post(u"/v1/messages"_s, json(anthropicBody({first, user(u"Earlier: one, a detour, two."_s), user(u"go on"_s)})));
    QVERIFY(waitForUpdates(3));
    const QString id = onlySession();
    QVERIFY(!id.isEmpty());
    const QList<Message> history = m_store->history(id);
    QCOMPARE(history.size(), 7); // 4 before, the summary, "go on", the reply
    const QList<RequestRecord> requests = m_store->requests(id);
    QCOMPARE(requests[2].viewMessageIds, (ViewIds{history[0].id, history[4].id, history[5].id}));
    const QJsonArray compactions = m_store->sessionSource(id)->details.value(u"compactions").toArray();
    QCOMPARE(compactions.size(), 1);
    QCOMPARE(compactions[0].toObject().value(u"message").toInteger(), 4);
}

void TestProxyRecorder::interleavedConversationsAreTwoSessions()
{
    for (const QString &text : {u"A1"_s, u"B1"_s, u"A2"_s, u"B2"_s})
        m_upstream->enqueue(FakeReply::withText(text));
    const QJsonObject a = {{u"role"_s, u"user"_s}, {u"content"_s, u"Conversation A"_s}};
    const QJsonObject b = {{u"role"_s, u"user"_s}, {u"content"_s, u"Conversation B"_s}};
    auto said = [](const QString &text) { return QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, text}}; };
    post(u"/v1/chat/completions"_s, json(chatBody({a})));
    post(u"/v1/chat/completions"_s, json(chatBody({b})));
    post(u"/v1/chat/completions"_s, json(chatBody({a, said(u"A1"_s), user(u"A again"_s)})));
    post(u"/v1/chat/completions"_s, json(chatBody({b, said(u"B1"_s), user(u"B again"_s)})));
    QVERIFY(waitForUpdates(4));
    QVERIFY(m_store->open(m_dir->filePath(u"sessions.db"_s)));
    const QList<SessionInfo> sessions = m_store->listSessions();
    QCOMPARE(sessions.size(), 2);
    for (const SessionInfo &s : sessions) {
        QCOMPARE(s.requestCount, 2);
        const QList<Message> history = m_store->history(s.id);
        QCOMPARE(history.size(), 4);
        const QChar letter = history[0].content.back();
        QCOMPARE(history[1].content, QString(letter) + u'1');
        QCOMPARE(history[3].content, QString(letter) + u'2');
        QCOMPARE(m_store->requestContext(s.id, 1)->systemPrompt, u"Chat system."_s);
        QVERIFY(m_store->sessionSource(s.id)->details.value(u"compactions").toArray().isEmpty());
    }
    QCOMPARE(m_updates->at(0).at(0), m_updates->at(2).at(0));
    QVERIFY(m_updates->at(0).at(0) != m_updates->at(1).at(0));
}

void TestProxyRecorder::responsesTrafficIsRecorded()
{
    FakeReply capture;
    capture.rawBody = readData(u"llm/sse/openai-responses/gpt-5.5-function-call-streaming.sse"_s);
    QVERIFY(!capture.rawBody.isEmpty());
    capture.when = [](const RecordedRequest &r) { return r.path.contains("/responses"); };
    m_upstream->addRule(capture);
    const QJsonObject body{{u"model"_s, u"gpt-5.5"_s}, {u"instructions"_s, u"Multiply."_s}, {u"stream"_s, true},
                           {u"tools"_s, QJsonArray{QJsonObject{{u"type"_s, u"function"_s}, {u"name"_s, u"multiply"_s}}}},
                           {u"input"_s, QJsonArray{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"1231 * 2331?"_s}}}}};
    post(u"/v1/responses"_s, json(body));
    QVERIFY(waitForUpdates(1));
    const QString id = onlySession();
    QVERIFY(!id.isEmpty());
    const QList<Message> history = m_store->history(id);
    QCOMPARE(history.size(), 2);
    QCOMPARE(history[1].toolCalls.value(0).id, u"call_sVidsfFJ6zlzRpelrPkTPlpd"_s);
    const RequestRecord request = m_store->requests(id).value(0);
    QCOMPARE(request.inputTokens, 58);
    QCOMPARE(request.cacheReadTokens, 0);
    QCOMPARE(m_store->requestContext(id, 0)->systemPrompt, u"Multiply."_s);
}

void TestProxyRecorder::chainedResponsesContinueTheirConversation()
{
    FakeReply capture;
    capture.rawBody = readData(u"llm/sse/openai-responses/gpt-5.5-text-streaming.sse"_s);
    capture.when = [](const RecordedRequest &r) { return r.path.contains("/responses"); };
    capture.persistent = true;
    m_upstream->addRule(capture);
    post(u"/v1/responses"_s, json({{u"model"_s, u"gpt-5.5"_s}, {u"input"_s, u"ping"_s}}));
    QVERIFY(waitForUpdates(1));
    // The SDK's way: only the new turn, naming the response it follows (the capture's id).
    post(u"/v1/responses"_s, json({{u"model"_s, u"gpt-5.5"_s}, {u"input"_s, u"ping again"_s},
                                   {u"previous_response_id"_s, u"resp_00592e63e61b66660169fab1b9f8e481a2b321356198d7ac1b"_s}}));
    QVERIFY(waitForUpdates(2));
    // One naming a response never seen starts a conversation of its own.
    post(u"/v1/responses"_s, json({{u"model"_s, u"gpt-5.5"_s}, {u"input"_s, u"elsewhere"_s}, {u"previous_response_id"_s, u"resp_unknown"_s}}));
    QVERIFY(waitForUpdates(3));
    QCOMPARE(m_updates->at(0).at(0), m_updates->at(1).at(0));
    QVERIFY(m_updates->at(2).at(0) != m_updates->at(0).at(0));
    QVERIFY(m_store->open(m_dir->filePath(u"sessions.db"_s)));
    const QString id = m_updates->at(0).at(0).toString();
    const QList<Message> history = m_store->history(id);
    QCOMPARE(history.size(), 4);
    QCOMPARE(history[2].content, u"ping again"_s);
    QCOMPARE(history[3].content, u"pong"_s);
    const QList<RequestRecord> requests = m_store->requests(id);
    QCOMPARE(requests.size(), 2);
    QCOMPARE(requests[1].viewMessageIds, (ViewIds{history[0].id, history[1].id, history[2].id}));
}

void TestProxyRecorder::nonConversationPathsAreNotSessions()
{
    int status = 0;
    post(u"/v1/messages/count_tokens"_s, json(anthropicBody({user(u"x"_s)})), &status);
    QNetworkRequest list(QUrl(m_proxy->baseUrl().toString() + u"/v1/models"_s));
    QNetworkReply *reply = m_rig->client.get(list);
    QVERIFY(QTest::qWaitFor([reply] { return reply->isFinished(); }, 5000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    reply->deleteLater();
    // A conversation after them is the first thing recorded.
    m_upstream->enqueue(FakeReply::withText(u"ok"_s));
    post(u"/v1/messages"_s, json(anthropicBody({user(u"real"_s)})));
    QVERIFY(waitForUpdates(1));
    QTest::qWait(50);
    QCOMPARE(m_updates->size(), 1);
    const QString id = onlySession();
    QVERIFY(!id.isEmpty());
    QCOMPARE(m_store->history(id).value(0).content, u"real"_s);
}

void TestProxyRecorder::anUnreadableBodyIsForwardedAndReported()
{
    QSignalSpy failures(m_recorder, &ProxyRecorder::failed);
    m_upstream->enqueue(FakeReply::withText(u"whatever"_s));
    int status = 0;
    const QByteArray answer = post(u"/v1/messages"_s, R"({"messages":[{"role":"wizard","content":"x"}]})", &status);
    QCOMPARE(status, 200); // the proxy forwards what it cannot read
    QVERIFY(answer.contains("whatever"));
    QVERIFY(QTest::qWaitFor([&] { return failures.size() == 1; }, 5000));
    QVERIFY(failures.at(0).at(0).toString().contains(u"wizard"_s));
    QCOMPARE(m_updates->size(), 0);
}

void TestProxyRecorder::whatWasHandedOverIsWrittenBeforeTheRecorderGoes()
{
    for (int i = 0; i < 3; ++i)
        m_upstream->enqueue(FakeReply::withText(u"ok"_s));
    for (int i = 0; i < 3; ++i)
        post(u"/v1/messages"_s, json(anthropicBody({user(u"conversation %1"_s.arg(i))})));
    // No waiting for the writer: deleting the recorder finishes what it was given.
    delete m_updates;
    m_updates = nullptr;
    m_rig->recorder.reset();
    m_recorder = nullptr;
    QVERIFY(m_store->open(m_dir->filePath(u"sessions.db"_s)));
    QCOMPARE(m_store->listSessions().size(), 3);
}

QTEST_GUILESS_MAIN(TestProxyRecorder)
#include "tst_proxyrecorder.moc"
