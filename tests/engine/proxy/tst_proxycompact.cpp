// Compact mode of the proxy: a real ProxyServer with the compaction hook in front of the fake
// provider; what the provider received is checked as the provider's API would check it.
#include "FakeLlmServer.h"
#include "ProxyRig.h"

#include "proxy/ProxyCompactor.h"
#include "proxy/ProxyRecorder.h"
#include "proxy/ProxyServer.h"
#include "proxy/WireConversation.h"
#include "compaction/AuditLog.h"
#include "compaction/ContextView.h"
#include "compaction/TokenEstimate.h"
#include "store/SessionStore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QFileInfo>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QString bigOutput(int round)
{
    QString text;
    for (int line = 0; line < 120; ++line)
        text += u"round %1 line %2: some build output that goes on for a while\n"_s.arg(round).arg(line);
    return text;
}

// A task of `rounds` tool calls with large results, in Anthropic's shape, ending with a user turn.
QJsonArray anthropicConversation(int rounds)
{
    QJsonArray messages{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Fix the failing build in src/"_s}}};
    for (int i = 0; i < rounds; ++i) {
        const QString id = u"toolu_%1"_s.arg(i);
        messages.append(QJsonObject{{u"role"_s, u"assistant"_s},
                                    {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"Running step %1."_s.arg(i)}},
                                                              QJsonObject{{u"type"_s, u"tool_use"_s}, {u"id"_s, id}, {u"name"_s, u"Bash"_s},
                                                                          {u"input"_s, QJsonObject{{u"command"_s, u"make step%1"_s.arg(i)}}}}}}});
        messages.append(QJsonObject{{u"role"_s, u"user"_s},
                                    {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, id},
                                                                          {u"content"_s, bigOutput(i)}}}}});
    }
    messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Carry on."_s}});
    return messages;
}

QJsonArray chatConversation(int rounds)
{
    QJsonArray messages{QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"You fix builds."_s}},
                        QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Fix the failing build in src/"_s}}};
    for (int i = 0; i < rounds; ++i) {
        const QString id = u"call_%1"_s.arg(i);
        messages.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, QJsonValue()},
                                    {u"tool_calls"_s, QJsonArray{QJsonObject{{u"id"_s, id}, {u"type"_s, u"function"_s},
                                                                             {u"function"_s, QJsonObject{{u"name"_s, u"shell"_s},
                                                                                                         {u"arguments"_s, u"{\"cmd\":\"make\"}"_s}}}}}}});
        messages.append(QJsonObject{{u"role"_s, u"tool"_s}, {u"tool_call_id"_s, id}, {u"content"_s, bigOutput(i)}});
    }
    messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Carry on."_s}});
    return messages;
}

// Codex's shape: a developer message, the task, reasoning items, shell calls with large outputs,
// one free-text (custom) tool call.
QJsonArray responsesConversation(int rounds)
{
    QJsonArray input{QJsonObject{{u"type"_s, u"message"_s}, {u"role"_s, u"developer"_s},
                                 {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"input_text"_s}, {u"text"_s, u"sandbox: workspace-write"_s}}}}},
                     QJsonObject{{u"type"_s, u"message"_s}, {u"role"_s, u"user"_s},
                                 {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"input_text"_s}, {u"text"_s, u"Fix the failing build in src/"_s}}}}}};
    input.append(QJsonObject{{u"type"_s, u"custom_tool_call"_s}, {u"call_id"_s, u"patch_0"_s}, {u"name"_s, u"apply_patch"_s},
                             {u"input"_s, u"*** Begin Patch\n*** End Patch"_s}});
    input.append(QJsonObject{{u"type"_s, u"custom_tool_call_output"_s}, {u"call_id"_s, u"patch_0"_s}, {u"output"_s, u"Done"_s}});
    for (int i = 0; i < rounds; ++i) {
        const QString id = u"call_%1"_s.arg(i);
        input.append(QJsonObject{{u"type"_s, u"reasoning"_s}, {u"summary"_s, QJsonArray()}, {u"encrypted_content"_s, u"gAAAA"_s}});
        input.append(QJsonObject{{u"type"_s, u"function_call"_s}, {u"call_id"_s, id}, {u"name"_s, u"shell"_s},
                                 {u"arguments"_s, u"{\"command\":[\"make\"]}"_s}});
        input.append(QJsonObject{{u"type"_s, u"function_call_output"_s}, {u"call_id"_s, id}, {u"output"_s, bigOutput(i)}});
    }
    input.append(QJsonObject{{u"type"_s, u"message"_s}, {u"role"_s, u"user"_s},
                             {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"input_text"_s}, {u"text"_s, u"Carry on."_s}}}}});
    return input;
}

// The text of the checkpoint among an Anthropic body's messages, empty for none.
QString anthropicCheckpointText(const QJsonArray &messages)
{
    for (const QJsonValue &m : messages) {
        for (const QJsonValue &b : m.toObject().value(u"content").toArray()) {
            const QString text = b.toObject().value(u"text").toString();
            if (text.startsWith(u"[Context Compaction]"_s))
                return text;
        }
    }
    return {};
}

// Round `round`'s call and its large result, in Anthropic's shape, with call ids of `prefix`.
void appendAnthropicRound(QJsonArray &messages, const QString &prefix, int round)
{
    const QString id = prefix + QString::number(round);
    messages.append(QJsonObject{{u"role"_s, u"assistant"_s},
                                {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"tool_use"_s}, {u"id"_s, id}, {u"name"_s, u"Bash"_s},
                                                                      {u"input"_s, QJsonObject{{u"command"_s, u"make again%1"_s.arg(round)}}}}}}});
    messages.append(QJsonObject{{u"role"_s, u"user"_s},
                                {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, id},
                                                                      {u"content"_s, bigOutput(100 + round)}}}}});
}

// The stored view of request `index` rebuilt with the stored overlays, as the Context dock reads it:
// the history up to the request's last message, the overlays of records up to it, no system prompt item.
QList<Message> storedCompactedView(SessionStore &store, const QString &id, int index)
{
    const QList<RequestRecord> requests = store.requests(id);
    const QList<qint64> viewIds = requests.at(index).viewMessageIds.toList();
    QList<Message> history;
    for (const Message &m : store.history(id))
        if (!viewIds.isEmpty() && m.id <= viewIds.last())
            history.append(m);
    QHash<QString, int> requestOfRecord;
    for (const CompactionRecord &r : store.records(id))
        requestOfRecord.insert(r.id, r.requestIndex);
    ContextOverlays inForce;
    const ContextOverlays all = store.overlays(id);
    for (const Checkpoint &cp : all.checkpoints)
        if (requestOfRecord.value(cp.recordId, index + 1) <= index)
            inForce.checkpoints.append(cp);
    for (const OffloadOverlay &o : all.offloads)
        if (requestOfRecord.value(o.recordId, index + 1) <= index)
            inForce.offloads.insert(o.messageId, o);
    QList<Message> view = ContextView::view(store.session(id)->systemPrompt, history, inForce);
    view.removeIf([](const Message &m) { return m.role == Role::System && m.id == 0 && !m.isToolResult(); });
    return view;
}

const QJsonArray kTools{QJsonObject{{u"name"_s, u"Bash"_s}, {u"input_schema"_s, QJsonObject{{u"type"_s, u"object"_s}}}}};
} // namespace

class TestProxyCompact : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void anOverWindowAnthropicRequestIsCompactedWithPairsValid();
    void anOverWindowChatRequestIsCompactedWithPairsValid();
    void anOverWindowResponsesRequestIsCompactedWithPairsValid();
    void theNextRequestReusesTheCheckpoint();
    void theRecordedCompactionReproducesWhatWasSent();
    void aClientThatRewritesItsHistoryIsCompactedAfresh();
    void aHistoryWithAResultWithoutItsCallGoesUnchanged();
    void turnsRegroupedByTheClientAreNotMappedWrongly();
    void theNewestConversationsAreKept();
    void claudeCodesSystemTurnsStaySystemTurns();
    void aRequestUnderTheThresholdsGoesByteForByte();
    void anUncompactableRequestGoesUnchangedWithItsReason();
    void pairCheckRefusesBrokenViews();

private:
    void send(const QString &path, const QByteArray &body);
    // Every tool_use of an assistant message is answered by the tool_result blocks of the user
    // message right after it, and every tool_result answers one (Anthropic's rule).
    static bool anthropicPairsValid(const QJsonArray &messages, QString *why);
    // Absolute paths the placeholders name, each of which must hold a file.
    QStringList offloadPaths(const QByteArray &body) const;

    // The rig, and its parts by the names the tests use.
    std::unique_ptr<ProxyRig> m_rig;
    QTemporaryDir *m_dir = nullptr;
    FakeLlmServer *m_upstream = nullptr;
    ProxyServer *m_proxy = nullptr;
    ProxyRecorder *m_recorder = nullptr;
};

void TestProxyCompact::init()
{
    m_rig = std::make_unique<ProxyRig>();
    const QString problem = m_rig->start(m_rig->dir.filePath(u"audit"_s));
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    m_dir = &m_rig->dir;
    m_upstream = &m_rig->upstream;
    m_proxy = &m_rig->proxy;
    m_recorder = m_rig->recorder.get();
    CompactionPolicy policy;
    policy.contextWindow = 16000; // the conversations below hold about 20,000 tokens
    policy.tailMessages = 4;
    m_proxy->setRequestRewriter(ProxyCompactor::rewriter(std::make_shared<ProxyCompactor>(policy, m_dir->filePath(u"offloads"_s))));
}

void TestProxyCompact::cleanup()
{
    m_rig.reset();
}

void TestProxyCompact::send(const QString &path, const QByteArray &body)
{
    QNetworkReply *reply = m_rig->post(path, body);
    QVERIFY(reply);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    reply->deleteLater();
}

bool TestProxyCompact::anthropicPairsValid(const QJsonArray &messages, QString *why)
{
    QSet<QString> open;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject m = messages[i].toObject();
        QSet<QString> answered;
        for (const QJsonValue &b : m.value(u"content").toArray()) {
            const QJsonObject block = b.toObject();
            if (block.value(u"type").toString() == u"tool_result")
                answered.insert(block.value(u"tool_use_id").toString());
        }
        if (answered != open) {
            *why = u"message %1 answers %2 of %3 open calls"_s.arg(i).arg(answered.size()).arg(open.size());
            return false;
        }
        open.clear();
        if (m.value(u"role").toString() == u"assistant")
            for (const QJsonValue &b : m.value(u"content").toArray())
                if (b.toObject().value(u"type").toString() == u"tool_use")
                    open.insert(b.toObject().value(u"id").toString());
    }
    if (!open.isEmpty())
        *why = u"calls left open at the end"_s;
    return open.isEmpty();
}

QStringList TestProxyCompact::offloadPaths(const QByteArray &body) const
{
    QStringList paths;
    // Every path to an offloaded result (in a placeholder or the checkpoint's references).
    static const QRegularExpression pattern(u"([^ \\n\"]*\\.waterline/tool_results/[^ \\n|\"]+\\.txt)"_s);
    auto it = pattern.globalMatch(QString::fromUtf8(body).replace(u"\\/"_s, u"/"_s));
    while (it.hasNext())
        paths.append(it.next().captured(1));
    return paths;
}

void TestProxyCompact::anOverWindowAnthropicRequestIsCompactedWithPairsValid()
{
    m_upstream->enqueue(FakeReply::withText(u"done"_s));
    QSignalSpy updates(m_recorder, &ProxyRecorder::sessionUpdated);
    const QJsonObject body{{u"model"_s, u"claude-test"_s}, {u"max_tokens"_s, 1024}, {u"system"_s, u"You fix builds."_s},
                           {u"tools"_s, kTools}, {u"metadata"_s, QJsonObject{{u"user_id"_s, u"session_1"_s}}},
                           {u"messages"_s, anthropicConversation(10)}};
    const QByteArray sent = json(body);
    send(u"/v1/messages?beta=true"_s, sent);
    QCOMPARE(m_upstream->requestCount(), 1);
    const RecordedRequest received = m_upstream->requests().first();
    QVERIFY(received.body != sent);
    QVERIFY(received.body.size() < sent.size() / 2);
    const QJsonObject upstream = received.json();
    // Every other field as the client sent it.
    for (const QString &key : {u"model"_s, u"max_tokens"_s, u"system"_s, u"tools"_s, u"metadata"_s})
        QCOMPARE(upstream.value(key), body.value(key));
    const QJsonArray messages = upstream.value(u"messages").toArray();
    QVERIFY(messages.size() < body.value(u"messages").toArray().size());
    QCOMPARE(messages.first().toObject().value(u"role").toString(), u"user"_s);
    QCOMPARE(messages.last().toObject().value(u"content").toArray().last().toObject().value(u"text").toString(), u"Carry on."_s);
    QString why;
    QVERIFY2(anthropicPairsValid(messages, &why), qPrintable(why));
    // The offloaded results are files the client's own tool can read, by absolute path.
    const QStringList paths = offloadPaths(received.body);
    if (qEnvironmentVariableIsSet("WATERLINE_DUMP_COMPACTED"))
        qInfo().noquote() << QJsonDocument(upstream).toJson();
    QVERIFY(!paths.isEmpty());
    for (const QString &path : paths) {
        QVERIFY2(QDir::isAbsolutePath(path), qPrintable(path));
        QVERIFY2(path.startsWith(m_dir->filePath(u"offloads"_s)), qPrintable(path));
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
        QVERIFY(file.readAll().contains("some build output"));
    }

    // Recorded: the client's whole view, and what was sent instead.
    QVERIFY(QTest::qWaitFor([&] { return updates.size() == 1; }, 5000));
    SessionStore store;
    QVERIFY(store.open(m_dir->filePath(u"sessions.db"_s)));
    const QString id = updates.first().first().toString();
    QCOMPARE(store.requests(id).first().viewMessageIds.size(), 22);
    QVERIFY(store.requests(id).first().tier != Tier::None);
    // What went to the model is what the request counts as sent (the timeline's "sent" line, the
    // totals): the compacted body's estimate, not the client's.
    const std::optional<WireRequest> upstreamRequest = WireConversation::parseRequest(WireProtocol::AnthropicMessages, received.body);
    QVERIFY(upstreamRequest);
    const qint64 sentEstimate = TokenEstimate::tokensForBytes(TokenEstimate::messageBytes(upstreamRequest->messages)
                                                              + upstreamRequest->systemPrompt.toUtf8().size());
    QCOMPARE(store.requests(id).first().estimateTokens, sentEstimate);
    // Waterline's compaction is the session's own: its record, checkpoint and offloads, on the
    // stored messages; the record counts what the view held before and after.
    const QList<CompactionRecord> records = store.records(id);
    QCOMPARE(records.size(), 1);
    QCOMPARE(records[0].requestIndex, 0);
    QCOMPARE(records[0].tier, store.requests(id).first().tier);
    QVERIFY(records[0].tokensAfter < records[0].tokensBefore);
    QVERIFY(records[0].summarized > 0);
    QCOMPARE(records[0].summarizerStep, SummarizerStep::Extractive);
    // Each record goes to the session's JSONL audit too, as the agent's do.
    const AuditLog::ReadResult audit = AuditLog::read(QDir(m_dir->filePath(u"audit"_s)).filePath(id + u".jsonl"_s));
    QCOMPARE(audit.records.size(), 1);
    QCOMPARE(audit.records[0].id, records[0].id);
    QCOMPARE(audit.records[0].tier, records[0].tier);
    QCOMPARE(audit.records[0].requestIndex, 0);
    const ContextOverlays overlays = store.overlays(id);
    QCOMPARE(overlays.checkpoints.size(), 1);
    QCOMPARE(overlays.checkpoints[0].recordId, records[0].id);
    QVERIFY(!overlays.offloads.isEmpty());
    const QList<qint64> viewIds = store.requests(id).first().viewMessageIds.toList();
    QVERIFY(viewIds.contains(overlays.checkpoints[0].coversUpToMessageId));
    QVERIFY(viewIds.contains(overlays.checkpoints[0].coversFromMessageId));
    for (const OffloadOverlay &o : overlays.offloads) {
        QVERIFY(viewIds.contains(o.messageId));
        QCOMPARE(o.recordId, records[0].id);
        // Stored by the file's own path, which the Offloads dock opens.
        QVERIFY2(QFileInfo(o.entry.relativePath).isAbsolute() && QFileInfo::exists(o.entry.relativePath),
                 qPrintable(o.entry.relativePath));
    }
    QCOMPARE(store.requests(id).first().viewCheckpointId, overlays.checkpoints[0].id);
    // The checkpoint as it went upstream, and as the Context dock rebuilds it.
    const QString sentCheckpoint = anthropicCheckpointText(messages);
    QVERIFY(!sentCheckpoint.isEmpty());
    QCOMPARE(overlays.checkpoints[0].text, sentCheckpoint);
    const QList<Message> rebuilt = storedCompactedView(store, id, 0);
    QCOMPARE(rebuilt.first().content, sentCheckpoint);
    // Nothing is noted besides: the record says it all.
    QVERIFY(store.sessionSource(id)->details.value(u"waterline_compactions").toArray().isEmpty());
    // The session measures against the window it was compacted under (the timeline, the what-if).
    CompactionPolicy stored;
    QString policyError;
    QVERIFY2(CompactionPolicy::fromJson(store.session(id)->policy, &stored, &policyError), qPrintable(policyError));
    QCOMPARE(stored.contextWindow, 16000);
}

void TestProxyCompact::anOverWindowChatRequestIsCompactedWithPairsValid()
{
    m_upstream->enqueue(FakeReply::withText(u"done"_s));
    const QJsonObject body{{u"model"_s, u"gpt-test"_s}, {u"stream"_s, true}, {u"messages"_s, chatConversation(10)}};
    const QByteArray sent = json(body);
    send(u"/v1/chat/completions"_s, sent);
    const RecordedRequest received = m_upstream->requests().first();
    QVERIFY(received.body.size() < sent.size() / 2);
    const QJsonArray messages = received.json().value(u"messages").toArray();
    QCOMPARE(messages.first().toObject().value(u"content").toString(), u"You fix builds."_s);
    QCOMPARE(received.json().value(u"stream"), QJsonValue(true));
    // OpenAI's rule: tool messages right after the assistant message that called them, all answered.
    QSet<QString> open;
    for (const QJsonValue &value : messages) {
        const QJsonObject m = value.toObject();
        const QString role = m.value(u"role").toString();
        if (role == u"tool") {
            QVERIFY2(open.remove(m.value(u"tool_call_id").toString()), "a tool message that answers no open call");
            continue;
        }
        QVERIFY2(open.isEmpty(), "a call without its result");
        for (const QJsonValue &call : m.value(u"tool_calls").toArray())
            open.insert(call.toObject().value(u"id").toString());
    }
    QVERIFY(open.isEmpty());
    QVERIFY(!offloadPaths(received.body).isEmpty() || messages.size() < 10);
}

void TestProxyCompact::anOverWindowResponsesRequestIsCompactedWithPairsValid()
{
    FakeReply capture;
    QFile file(QStringLiteral(WATERLINE_TEST_DATA) + u"/llm/sse/openai-responses/gpt-5.5-text-streaming.sse"_s);
    QVERIFY(file.open(QIODevice::ReadOnly));
    capture.rawBody = file.readAll();
    capture.when = [](const RecordedRequest &r) { return r.path.contains("/responses"); };
    m_upstream->addRule(capture);
    const QJsonObject body{{u"model"_s, u"gpt-5.5"_s}, {u"instructions"_s, u"You are Codex."_s}, {u"stream"_s, true},
                           {u"store"_s, false}, {u"prompt_cache_key"_s, u"conv-1"_s}, {u"input"_s, responsesConversation(10)}};
    const QByteArray sent = json(body);
    send(u"/v1/responses"_s, sent);
    const RecordedRequest received = m_upstream->requests().first();
    QVERIFY(received.body.size() < sent.size() / 2);
    const QJsonObject upstream = received.json();
    for (const QString &key : {u"model"_s, u"instructions"_s, u"stream"_s, u"store"_s, u"prompt_cache_key"_s})
        QCOMPARE(upstream.value(key), body.value(key));
    const QJsonArray input = upstream.value(u"input").toArray();
    QCOMPARE(input.first(), body.value(u"input").toArray().first()); // the developer message as sent
    // Every output follows the call it answers (same kind), every call is answered.
    QHash<QString, QString> open; // call id -> the output type it needs
    for (const QJsonValue &value : input) {
        const QJsonObject item = value.toObject();
        const QString type = item.value(u"type").toString();
        const QString id = item.value(u"call_id").toString();
        if (type == u"function_call" || type == u"custom_tool_call") {
            open.insert(id, type + u"_output"_s);
        } else if (type.endsWith(u"_output"_s)) {
            QVERIFY2(open.value(id) == type, qPrintable(u"%1 answers no open call %2"_s.arg(type, id)));
            open.remove(id);
        } else {
            QVERIFY2(open.isEmpty(), "a call without its output");
        }
    }
    QVERIFY(open.isEmpty());
    QCOMPARE(input.last().toObject().value(u"content").toArray().first().toObject().value(u"text").toString(), u"Carry on."_s);
    QVERIFY(!offloadPaths(received.body).isEmpty());
}

void TestProxyCompact::theNextRequestReusesTheCheckpoint()
{
    // Like the live agent: the checkpoint made for the first request opens the view of the next
    // one, unchanged, until the tier fires again. The upstream's prompt cache holds.
    m_upstream->enqueue(FakeReply::withText(u"one"_s));
    m_upstream->enqueue(FakeReply::withText(u"two"_s));
    QSignalSpy updates(m_recorder, &ProxyRecorder::sessionUpdated);
    QJsonArray messages = anthropicConversation(10);
    const QJsonObject body{{u"model"_s, u"claude-test"_s}, {u"max_tokens"_s, 1024}, {u"messages"_s, messages}};
    send(u"/v1/messages"_s, json(body));
    messages.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"one"_s}});
    messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"And the tests?"_s}});
    QJsonObject next = body;
    next.insert(u"messages"_s, messages);
    const QByteArray sent = json(next);
    send(u"/v1/messages"_s, sent);
    QCOMPARE(m_upstream->requestCount(), 2);
    const QJsonArray firstSent = m_upstream->requests().at(0).json().value(u"messages").toArray();
    const RecordedRequest second = m_upstream->requests().at(1);
    QVERIFY(second.body.size() < sent.size() / 2);
    const QJsonArray secondSent = second.json().value(u"messages").toArray();
    QString why;
    QVERIFY2(anthropicPairsValid(secondSent, &why), qPrintable(why));
    QVERIFY(!offloadPaths(second.body).isEmpty());
    const QString checkpoint = anthropicCheckpointText(firstSent);
    QVERIFY(!checkpoint.isEmpty());
    QCOMPARE(anthropicCheckpointText(secondSent), checkpoint);
    // The second body goes on from the first, message for message.
    QVERIFY(secondSent.size() > firstSent.size());
    for (qsizetype i = 0; i < firstSent.size(); ++i)
        QCOMPARE(secondSent[i], firstSent[i]);

    QVERIFY(QTest::qWaitFor([&] { return updates.size() == 2; }, 5000));
    SessionStore store;
    QVERIFY(store.open(m_dir->filePath(u"sessions.db"_s)));
    const QString id = updates.last().first().toString();
    QCOMPARE(updates.first().first().toString(), id);
    const ContextOverlays overlays = store.overlays(id);
    QCOMPARE(overlays.checkpoints.size(), 1);
    const QList<CompactionRecord> records = store.records(id);
    QCOMPARE(std::count_if(records.cbegin(), records.cend(), [](const CompactionRecord &r) { return r.summarized > 0; }), 1);
    QCOMPARE(records.first().requestIndex, 0);
    const QList<RequestRecord> requests = store.requests(id);
    QCOMPARE(requests.size(), 2);
    QCOMPARE(requests[1].viewCheckpointId, overlays.checkpoints[0].id);
    QCOMPARE(storedCompactedView(store, id, 1).first().content, checkpoint);
}

// What the Context dock rebuilds from the stored messages and overlays is what went upstream,
// message for message (Chat keeps one message per turn, so they can be compared one to one).
void TestProxyCompact::theRecordedCompactionReproducesWhatWasSent()
{
    m_upstream->enqueue(FakeReply::withText(u"done"_s));
    QSignalSpy updates(m_recorder, &ProxyRecorder::sessionUpdated);
    send(u"/v1/chat/completions"_s, json(QJsonObject{{u"model"_s, u"gpt-test"_s}, {u"messages"_s, chatConversation(10)}}));
    const std::optional<WireRequest> sent = WireConversation::parseRequest(WireProtocol::OpenAiChat, m_upstream->requests().first().body);
    QVERIFY(sent);
    QVERIFY(sent->messages.size() < 20);
    QVERIFY(QTest::qWaitFor([&] { return updates.size() == 1; }, 5000));
    SessionStore store;
    QVERIFY(store.open(m_dir->filePath(u"sessions.db"_s)));
    const QString id = updates.first().first().toString();
    QCOMPARE(store.records(id).size(), 1);
    QCOMPARE(store.requests(id).first().viewMessageIds.size(), 22); // the client's own view
    const QList<Message> rebuilt = storedCompactedView(store, id, 0);
    QCOMPARE(rebuilt.size(), sent->messages.size());
    for (qsizetype i = 0; i < rebuilt.size(); ++i) {
        QCOMPARE(rebuilt[i].role, sent->messages[i].role);
        QCOMPARE(rebuilt[i].content, sent->messages[i].content);
        QCOMPARE(rebuilt[i].toolCallId, sent->messages[i].toolCallId);
    }
}

// A client that compacts or edits its own history: what Waterline compacted before no longer
// lines up, so its state goes and the request is compacted from scratch, and the note says so.
void TestProxyCompact::aClientThatRewritesItsHistoryIsCompactedAfresh()
{
    m_upstream->enqueue(FakeReply::withText(u"one"_s));
    m_upstream->enqueue(FakeReply::withText(u"two"_s));
    QSignalSpy updates(m_recorder, &ProxyRecorder::sessionUpdated);
    const QJsonObject body{{u"model"_s, u"claude-test"_s}, {u"max_tokens"_s, 1024}, {u"messages"_s, anthropicConversation(10)}};
    send(u"/v1/messages"_s, json(body));
    // The client's own summary replaces everything after the task; then it works on.
    QJsonArray rewritten{anthropicConversation(0).first(),
                         QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"Summary so far: steps 0 to 9 ran."_s}}};
    for (int i = 0; i < 10; ++i)
        appendAnthropicRound(rewritten, u"toolu_b"_s, i);
    rewritten.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Carry on again."_s}});
    QJsonObject next = body;
    next.insert(u"messages"_s, rewritten);
    send(u"/v1/messages"_s, json(next));
    QCOMPARE(m_upstream->requestCount(), 2);
    const QString first = anthropicCheckpointText(m_upstream->requests().at(0).json().value(u"messages").toArray());
    const QString second = anthropicCheckpointText(m_upstream->requests().at(1).json().value(u"messages").toArray());
    QVERIFY(!first.isEmpty());
    QVERIFY(!second.isEmpty());
    QVERIFY(second != first);
    // The new checkpoint summarises the client's new history, not the one it dropped.
    QVERIFY2(first.contains(u"make step3"_s), qPrintable(first.left(2000)));
    QVERIFY2(!second.contains(u"make step3"_s), qPrintable(second.left(2000)));

    QVERIFY(QTest::qWaitFor([&] { return updates.size() == 2; }, 5000));
    SessionStore store;
    QVERIFY(store.open(m_dir->filePath(u"sessions.db"_s)));
    const QString id = updates.last().first().toString();
    QCOMPARE(updates.first().first().toString(), id);
    const QList<CompactionRecord> records = store.records(id);
    QCOMPARE(records.size(), 2);
    QCOMPARE(records[0].requestIndex, 0);
    QCOMPARE(records[1].requestIndex, 1);
    QCOMPARE(store.overlays(id).checkpoints.size(), 2);
    QCOMPARE(store.overlays(id).checkpoints.last().text, second);
    QCOMPARE(storedCompactedView(store, id, 1).first().content, second);
    const QJsonArray notes = store.sessionSource(id)->details.value(u"waterline_compactions").toArray();
    QCOMPARE(notes.size(), 1);
    QCOMPARE(notes[0].toObject().value(u"request").toInt(), 1);
    const QString note = notes[0].toObject().value(u"note").toString();
    QVERIFY2(note.contains(u"afresh"_s), qPrintable(note));
}

// A result that answers no call: forwarded as sent, with the reason; nothing recorded as compacted.
void TestProxyCompact::aHistoryWithAResultWithoutItsCallGoesUnchanged()
{
    m_upstream->enqueue(FakeReply::withText(u"ok"_s));
    QSignalSpy updates(m_recorder, &ProxyRecorder::sessionUpdated);
    QJsonArray messages = anthropicConversation(10);
    // An orphan result early on (in the head the summary would replace), its call never made.
    messages.insert(1, QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"Let me look."_s}});
    messages.insert(2, QJsonObject{{u"role"_s, u"user"_s},
                                   {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, u"toolu_nobody"_s},
                                                                         {u"content"_s, u"stray"_s}}}}});
    const QByteArray sent = json(QJsonObject{{u"model"_s, u"claude-test"_s}, {u"max_tokens"_s, 1024}, {u"messages"_s, messages}});
    send(u"/v1/messages"_s, sent);
    QCOMPARE(m_upstream->requests().first().body, sent);
    QVERIFY(QTest::qWaitFor([&] { return updates.size() == 1; }, 5000));
    SessionStore store;
    QVERIFY(store.open(m_dir->filePath(u"sessions.db"_s)));
    const QString id = updates.first().first().toString();
    QVERIFY(store.records(id).isEmpty());
    QVERIFY(store.overlays(id).checkpoints.isEmpty());
    QVERIFY(store.overlays(id).offloads.isEmpty());
    const QJsonArray notes = store.sessionSource(id)->details.value(u"waterline_compactions").toArray();
    QCOMPARE(notes.size(), 1);
    const QString note = notes[0].toObject().value(u"note").toString();
    QVERIFY2(note.contains(u"forwarded unchanged"_s) && note.contains(u"toolu_nobody"_s), qPrintable(note));
}

// A client that sends its earlier turns grouped otherwise (two replies' calls in one turn): the
// stored view does not line up with the request's positions, so the compaction is not recorded on
// the wrong messages; it is noted instead, and every stored overlay names a stored message.
void TestProxyCompact::turnsRegroupedByTheClientAreNotMappedWrongly()
{
    m_upstream->enqueue(FakeReply::withText(u"one"_s));
    m_upstream->enqueue(FakeReply::withText(u"two"_s));
    QSignalSpy updates(m_recorder, &ProxyRecorder::sessionUpdated);
    const QJsonArray messages = chatConversation(10);
    send(u"/v1/chat/completions"_s, json(QJsonObject{{u"model"_s, u"gpt-test"_s}, {u"messages"_s, messages}}));
    // The first two rounds as one assistant turn with both calls, then both results.
    QJsonArray regrouped{messages[0], messages[1]};
    QJsonObject both = messages[2].toObject();
    both.insert(u"tool_calls"_s, QJsonArray{messages[2].toObject().value(u"tool_calls").toArray().first(),
                                            messages[4].toObject().value(u"tool_calls").toArray().first()});
    regrouped.append(both);
    regrouped.append(messages[3]);
    regrouped.append(messages[5]);
    for (qsizetype i = 6; i < messages.size(); ++i)
        regrouped.append(messages[i]);
    regrouped.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"one"_s}});
    regrouped.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"And the tests?"_s}});
    send(u"/v1/chat/completions"_s, json(QJsonObject{{u"model"_s, u"gpt-test"_s}, {u"messages"_s, regrouped}}));
    QCOMPARE(m_upstream->requestCount(), 2);

    QVERIFY(QTest::qWaitFor([&] { return updates.size() == 2; }, 5000));
    SessionStore store;
    QVERIFY(store.open(m_dir->filePath(u"sessions.db"_s)));
    const QString id = updates.last().first().toString();
    QCOMPARE(updates.first().first().toString(), id);
    QSet<qint64> stored;
    for (const Message &m : store.history(id))
        stored.insert(m.id);
    const ContextOverlays overlays = store.overlays(id);
    for (const Checkpoint &cp : overlays.checkpoints)
        QVERIFY(stored.contains(cp.coversUpToMessageId) && stored.contains(cp.coversFromMessageId));
    for (const OffloadOverlay &o : overlays.offloads)
        QVERIFY(stored.contains(o.messageId));
    const QList<CompactionRecord> records = store.records(id);
    QCOMPARE(records.size(), 1);
    QCOMPARE(records[0].requestIndex, 0);
    const QJsonArray notes = store.sessionSource(id)->details.value(u"waterline_compactions").toArray();
    QVERIFY(!notes.isEmpty());
    QCOMPARE(notes.last().toObject().value(u"request").toInt(), 1);
    const QString note = notes.last().toObject().value(u"note").toString();
    QVERIFY2(note.contains(u"not recorded"_s), qPrintable(note));
}

// The compactor keeps the state of ProxyCompactor::kMaxConversations conversations: one that
// many others have come after since its last request is compacted from scratch again.
void TestProxyCompact::theNewestConversationsAreKept()
{
    CompactionPolicy policy;
    policy.contextWindow = 16000;
    policy.tailMessages = 4;
    for (const qsizetype others : {ProxyCompactor::kMaxConversations - 1, ProxyCompactor::kMaxConversations}) {
        ProxyCompactor compactor(policy, m_dir->filePath(u"offloads"_s));
        QJsonArray messages = anthropicConversation(10);
        const QJsonObject body{{u"model"_s, u"claude-test"_s}, {u"max_tokens"_s, 1024}, {u"messages"_s, messages}};
        const ProxyCompactor::Outcome first = compactor.compact(WireProtocol::AnthropicMessages, json(body));
        QCOMPARE(first.kind, ProxyCompactor::Outcome::Kind::Compacted);
        QCOMPARE(first.compaction->checkpoints.size(), 1);
        for (qsizetype i = 0; i < others; ++i) {
            const QJsonArray other{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Another task %1"_s.arg(i)}}};
            QCOMPARE(compactor.compact(WireProtocol::AnthropicMessages, json(QJsonObject{{u"messages"_s, other}})).kind,
                     ProxyCompactor::Outcome::Kind::Unchanged);
        }
        messages.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"one"_s}});
        messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"And the tests?"_s}});
        QJsonObject next = body;
        next.insert(u"messages"_s, messages);
        const ProxyCompactor::Outcome second = compactor.compact(WireProtocol::AnthropicMessages, json(next));
        QCOMPARE(second.kind, ProxyCompactor::Outcome::Kind::Compacted);
        const bool kept = others < ProxyCompactor::kMaxConversations;
        QVERIFY2(second.compaction->checkpoints.isEmpty() == kept, qPrintable(u"after %1 others"_s.arg(others)));
        QCOMPARE(second.compaction->viewOpensWithCheckpoint, true);
    }
}

// Claude Code sends system turns among its messages (its environment after the first user turn):
// the request is compacted all the same, and a system turn the view keeps goes upstream as one.
void TestProxyCompact::claudeCodesSystemTurnsStaySystemTurns()
{
    m_upstream->enqueue(FakeReply::withText(u"done"_s));
    QJsonArray messages = anthropicConversation(10);
    const QJsonObject environment{{u"role"_s, u"system"_s},
                                  {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"# Environment\nPlatform: linux"_s}}}}};
    messages.insert(1, environment);
    messages.insert(messages.size() - 1, QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"Reminder: be brief."_s}});
    const QJsonObject body{{u"model"_s, u"claude-test"_s}, {u"max_tokens"_s, 1024}, {u"messages"_s, messages}};
    const QByteArray sent = json(body);
    send(u"/v1/messages?beta=true"_s, sent);
    QCOMPARE(m_upstream->requestCount(), 1);
    const RecordedRequest received = m_upstream->requests().first();
    QVERIFY(received.body.size() < sent.size() / 2);
    const QJsonArray upstream = received.json().value(u"messages").toArray();
    QString why;
    QVERIFY2(anthropicPairsValid(upstream, &why), qPrintable(why));
    // The reminder is in the tail: a system turn still, right before the last user turn.
    QVERIFY(upstream.size() >= 2);
    const QJsonObject reminder = upstream[upstream.size() - 2].toObject();
    QCOMPARE(reminder.value(u"role").toString(), u"system"_s);
    QCOMPARE(reminder.value(u"content").toArray().first().toObject().value(u"text").toString(), u"Reminder: be brief."_s);
    // Nothing of Waterline's own (the checkpoint's summary) went up as a system turn.
    for (const QJsonValue &m : upstream) {
        if (m.toObject().value(u"role").toString() != u"system")
            continue;
        const QString text = m.toObject().value(u"content").toArray().first().toObject().value(u"text").toString();
        QVERIFY2(text == u"Reminder: be brief." || text.startsWith(u"# Environment"), qPrintable(text.left(200)));
    }
}

void TestProxyCompact::aRequestUnderTheThresholdsGoesByteForByte()
{
    m_upstream->enqueue(FakeReply::withText(u"ok"_s));
    // Odd spacing and key order: a re-encoded body would not keep them.
    const QByteArray sent = R"({ "messages" : [ {"content":"hi","role":"user"} ], "model":"claude-test", "max_tokens":5 })";
    send(u"/v1/messages"_s, sent);
    QCOMPARE(m_upstream->requests().first().body, sent);
}

void TestProxyCompact::anUncompactableRequestGoesUnchangedWithItsReason()
{
    m_upstream->enqueue(FakeReply::withText(u"ok"_s));
    QSignalSpy updates(m_recorder, &ProxyRecorder::sessionUpdated);
    // Over the window, with extended thinking on and a signed thinking block in the conversation:
    // it cannot be written back.
    QJsonArray messages = anthropicConversation(10);
    QJsonObject thinkingTurn = messages[1].toObject();
    QJsonArray blocks = thinkingTurn.value(u"content").toArray();
    blocks.prepend(QJsonObject{{u"type"_s, u"thinking"_s}, {u"thinking"_s, u"Let me see."_s}, {u"signature"_s, u"c2ln"_s}});
    thinkingTurn.insert(u"content"_s, blocks);
    messages.replace(1, thinkingTurn);
    const QJsonObject thinkingOn{{u"type"_s, u"enabled"_s}, {u"budget_tokens"_s, 1024}};
    const QJsonObject body{{u"model"_s, u"claude-test"_s}, {u"max_tokens"_s, 2048}, {u"thinking"_s, thinkingOn},
                           {u"messages"_s, messages}};
    const QByteArray sent = json(body);
    send(u"/v1/messages"_s, sent);
    QCOMPARE(m_upstream->requests().first().body, sent);
    QVERIFY(QTest::qWaitFor([&] { return updates.size() == 1; }, 5000));
    SessionStore store;
    QVERIFY(store.open(m_dir->filePath(u"sessions.db"_s)));
    const QString id = updates.first().first().toString();
    const QJsonArray entries = store.sessionSource(id)->details.value(u"waterline_compactions").toArray();
    QCOMPARE(entries.size(), 1);
    QVERIFY(!entries[0].toObject().value(u"compacted").toBool());
    const QString note = entries[0].toObject().value(u"note").toString();
    QVERIFY2(note.contains(u"forwarded unchanged"_s) && note.contains(u"thinking"_s), qPrintable(note));

    // A Responses request whose history the provider holds: unchanged, with the reason.
    ProxyCompactor compactor(CompactionPolicy{}, m_dir->filePath(u"offloads"_s));
    const QByteArray chained = R"({"previous_response_id":"resp_1","input":[{"role":"user","content":"hi"}]})";
    const ProxyCompactor::Outcome responses = compactor.compact(WireProtocol::OpenAiResponses, chained);
    QCOMPARE(responses.kind, ProxyCompactor::Outcome::Kind::Refused);
    QCOMPARE(responses.body, chained);
    QVERIFY(responses.reason.contains(u"previous_response_id"_s));
    // Thinking on, but no thinking block in the conversation (the provider sent none; Claude Code
    // against the fake upstream): nothing to lose, so it is compacted.
    const QJsonObject unthought{{u"model"_s, u"claude-test"_s}, {u"max_tokens"_s, 2048}, {u"thinking"_s, thinkingOn},
                                {u"messages"_s, anthropicConversation(10)}};
    CompactionPolicy small;
    small.contextWindow = 16000;
    small.tailMessages = 4;
    ProxyCompactor smallCompactor(small, m_dir->filePath(u"offloads"_s));
    const ProxyCompactor::Outcome plain = smallCompactor.compact(WireProtocol::AnthropicMessages, json(unthought));
    QCOMPARE(plain.kind, ProxyCompactor::Outcome::Kind::Compacted);
    QCOMPARE(QJsonDocument::fromJson(plain.body).object().value(u"thinking"_s).toObject(), thinkingOn);
    const ProxyCompactor::Outcome broken = compactor.compact(WireProtocol::AnthropicMessages, "not json");
    QCOMPARE(broken.kind, ProxyCompactor::Outcome::Kind::Refused);
    QCOMPARE(broken.body, QByteArray("not json"));
}

void TestProxyCompact::pairCheckRefusesBrokenViews()
{
    const Message call = Message::assistant(u"x"_s, {ToolCall{u"c1"_s, u"ls"_s, u"{}"_s, true}});
    const Message result = Message::toolResult(u"c1"_s, u"a"_s);
    QString why;
    QVERIFY(ProxyCompactor::pairsValid({Message::user(u"u"_s), call, result}, &why));
    QVERIFY(!ProxyCompactor::pairsValid({Message::user(u"u"_s), call}, &why));
    QVERIFY(!ProxyCompactor::pairsValid({Message::user(u"u"_s), result}, &why));
    QVERIFY(!ProxyCompactor::pairsValid({call, Message::user(u"u"_s), result}, &why));
    QVERIFY(!ProxyCompactor::pairsValid({call, result, result}, &why));
    QVERIFY(!why.isEmpty());
}

QTEST_GUILESS_MAIN(TestProxyCompact)
#include "tst_proxycompact.moc"
