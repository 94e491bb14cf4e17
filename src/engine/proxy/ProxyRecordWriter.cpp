#include "ProxyRecordWriter.h"

#include "LoggingCategories.h"
#include "Paths.h"
#include "ProxyCompaction.h"
#include "compaction/AuditLog.h"
#include "compaction/TokenEstimate.h"
#include "replay/ImportTitle.h"
#include "store/SessionStore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QHash>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr qsizetype kSummaryChars = 4000; // of the first message after a compaction, kept in the details

// One thing a conversation holds, whatever turn the client put it in: a message's text (but for an
// assistant's beside its calls), one of its tool calls, or a tool result. Clients regroup earlier turns between requests (Claude Code sends
// the calls of several replies in one assistant turn and their results in one user turn), so
// histories are compared item by item, each result right after its call.
struct Item
{
    enum Kind { Text, Call, Result } kind;
    qsizetype message;
    qsizetype call = -1; // Call: its index in the message
};

QList<Item> itemsOf(const QList<Message> &messages)
{
    QList<QList<Item>> groups; // a text, or a call and its results, in the order they began
    QHash<QString, qsizetype> groupOfCall;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const Message &m = messages[i];
        if (m.isToolResult()) {
            const auto it = groupOfCall.constFind(m.toolCallId);
            if (it != groupOfCall.cend())
                groups[*it].append(Item{Item::Result, i});
            else
                groups.append({Item{Item::Result, i}});
            continue;
        }
        // The text an assistant wrote beside its calls is not compared: a client that regroups
        // several replies joins their texts too (Claude Code does), and the calls name the turn.
        const bool textCounts = m.role != Role::Assistant || m.toolCalls.isEmpty();
        if (textCounts && (!m.content.trimmed().isEmpty() || m.toolCalls.isEmpty()))
            groups.append({Item{Item::Text, i}});
        for (qsizetype c = 0; c < m.toolCalls.size(); ++c) {
            groupOfCall.insert(m.toolCalls[c].id, groups.size());
            groups.append({Item{Item::Call, i, c}});
        }
    }
    QList<Item> out;
    for (const QList<Item> &group : std::as_const(groups))
        out += group;
    return out;
}

bool sameItem(const QList<Message> &a, const Item &x, const QList<Message> &b, const Item &y)
{
    if (x.kind != y.kind)
        return false;
    const Message &m = a[x.message];
    const Message &n = b[y.message];
    switch (x.kind) {
    case Item::Text:
        return m.role == n.role && m.content.trimmed() == n.content.trimmed();
    case Item::Call:
        return WireConversation::sameCall(m.toolCalls[x.call], n.toolCalls[y.call]);
    case Item::Result:
        return m.toolCallId == n.toolCallId && m.content.trimmed() == n.content.trimmed();
    }
    return false;
}

// How far a request goes along what was stored of its conversation, whatever turns either
// grouped it in.
struct Overlap
{
    qsizetype items = 0;        // leading items in common
    qsizetype storedItems = 0;
    qsizetype requestItems = 0;
    qsizetype storedKept = 0;   // leading stored messages all of whose items are in common
    QList<qsizetype> fresh;     // the request's messages with an item past the common ones
};

Overlap overlapOf(const QList<Message> &stored, const QList<Message> &request)
{
    const QList<Item> a = itemsOf(stored);
    const QList<Item> b = itemsOf(request);
    Overlap o;
    o.storedItems = a.size();
    o.requestItems = b.size();
    const qsizetype n = std::min(a.size(), b.size());
    while (o.items < n && sameItem(stored, a[o.items], request, b[o.items]))
        ++o.items;
    QList<bool> storedPast(stored.size(), false);
    for (qsizetype i = o.items; i < a.size(); ++i)
        storedPast[a[i].message] = true;
    while (o.storedKept < stored.size() && !storedPast[o.storedKept])
        ++o.storedKept;
    QList<bool> requestPast(request.size(), false);
    for (qsizetype i = o.items; i < b.size(); ++i)
        requestPast[b[i].message] = true;
    for (qsizetype i = 0; i < request.size(); ++i) {
        if (requestPast[i])
            o.fresh.append(i);
    }
    return o;
}

std::optional<qint64> known(bool isKnown, qint64 value)
{
    return isKnown ? std::optional<qint64>(value) : std::nullopt;
}

// Message i of both lists is the same turn, as far as positions go: same role, same result, same calls.
bool samePlace(const Message &a, const Message &b)
{
    if (a.role != b.role || a.toolCallId != b.toolCallId || a.toolCalls.size() != b.toolCalls.size())
        return false;
    for (qsizetype i = 0; i < a.toolCalls.size(); ++i) {
        if (a.toolCalls[i].id != b.toolCalls[i].id)
            return false;
    }
    return true;
}

// `compaction` (in the request's terms: ids are positions + 1) on the stored messages `byPosition`
// (index for index with the request's messages). False, leaving the step as it was, when some id
// names no position.
bool mapCompaction(const ProxyCompaction &compaction, const QList<qint64> &byPosition, StepAppend &step)
{
    bool ok = true;
    const auto stored = [&](qint64 position) {
        if (position < 1 || position > byPosition.size()) {
            ok = false;
            return qint64(0);
        }
        return byPosition[position - 1];
    };
    QList<Checkpoint> checkpoints = compaction.checkpoints;
    for (Checkpoint &cp : checkpoints) {
        cp.coversUpToMessageId = stored(cp.coversUpToMessageId);
        cp.coversFromMessageId = stored(cp.coversFromMessageId);
    }
    QList<OffloadOverlay> offloads = compaction.offloads;
    for (OffloadOverlay &o : offloads) {
        o.messageId = stored(o.messageId);
        o.entry.messageId = o.messageId;
    }
    std::optional<CompactionRecord> record = compaction.record;
    if (record) {
        for (OffloadEntry &e : record->offloaded)
            e.messageId = stored(e.messageId);
    }
    if (!ok)
        return false;
    step.checkpoints = checkpoints;
    step.offloads = offloads;
    step.record = record;
    return true;
}

QString titleOf(const WireRequest &request)
{
    for (const Message &m : request.messages) {
        if (m.role != Role::User)
            continue;
        const QString title = ImportTitle::fromUserText(m.content);
        if (!title.isEmpty())
            return title;
    }
    return QCoreApplication::translate("ProxyRecorder", "Proxied %1 conversation").arg(request.model);
}
} // namespace

ProxyRecordWriter::ProxyRecordWriter(const QString &databasePath, const QString &upstream, const QString &auditDir)
    : m_databasePath(databasePath)
    , m_upstream(upstream)
    , m_auditDir(auditDir)
{
}

ProxyRecordWriter::~ProxyRecordWriter()
{
    if (m_store)
        m_store->close();
}

void ProxyRecordWriter::fail(const QString &message)
{
    qCWarning(lcProxy).noquote() << "recording:" << message;
    Q_EMIT failed(message);
}

bool ProxyRecordWriter::ensureOpen()
{
    if (m_store)
        return true;
    if (m_openFailed)
        return false;
    auto store = std::make_unique<SessionStore>();
    QString error;
    if (!store->open(m_databasePath, &error)) {
        m_openFailed = true; // said once, not for every request
        fail(QCoreApplication::translate("ProxyRecorder", "cannot record the proxied traffic: %1").arg(error));
        return false;
    }
    m_store = std::move(store);
    return true;
}

void ProxyRecordWriter::record(const ProxiedExchange &exchange)
{
    const WireProtocol protocol = WireConversation::protocolFor(exchange.method, exchange.path);
    if (protocol == WireProtocol::None)
        return; // not a turn of a conversation: model lists, token counts
    QString error;
    const std::optional<WireRequest> request = WireConversation::parseRequest(protocol, exchange.requestBody, &error);
    if (!request) {
        // The client's body went upstream all the same; only its recording is lost.
        fail(QCoreApplication::translate("ProxyRecorder", "request %1 %2 was forwarded but not recorded: %3")
                 .arg(exchange.id).arg(QString::fromUtf8(exchange.path), error));
        return;
    }
    if (request->messages.isEmpty())
        return;
    if (!ensureOpen())
        return;
    const QByteArray toolsDigest = QCryptographicHash::hash(QJsonDocument(request->tools).toJson(QJsonDocument::Compact),
                                                            QCryptographicHash::Sha256);
    Match found = match(*request, toolsDigest);
    if (!found.conversation) {
        found.conversation = start(*request, toolsDigest, exchange);
        if (!found.conversation)
            return;
    }
    Conversation &conversation = *found.conversation;
    if (!write(conversation, found, *request, exchange))
        return;
    Q_EMIT written(conversation.key, conversation.sessionId, conversation.requestCount);
}

ProxyRecordWriter::Match ProxyRecordWriter::match(const WireRequest &request, const QByteArray &toolsDigest)
{
    Match best;
    if (request.chained) {
        // Responses with previous_response_id: the provider holds the history, the body only
        // what comes after the response it names.
        for (const auto &c : m_conversations) {
            if (!c->lastResponseId.isEmpty() && c->lastResponseId == request.previousResponseId) {
                best.conversation = c.get();
                best.prefix = c->known.size();
                best.chained = true;
                return best;
            }
        }
        return best; // its history was not seen: a conversation of its own from here
    }
    Overlap bestOverlap;
    for (const auto &c : m_conversations) {
        if (c->protocol != request.protocol)
            continue;
        Overlap overlap = overlapOf(c->known, request.messages);
        if (overlap.items > bestOverlap.items) {
            best.conversation = c.get();
            bestOverlap = std::move(overlap);
        }
    }
    if (best.conversation) {
        best.prefix = bestOverlap.storedKept;
        best.fresh = bestOverlap.fresh;
        // A request that stops inside what was stored is a retry; one that goes on from a point
        // before its end has rewritten the history.
        best.compacted = bestOverlap.items < bestOverlap.storedItems && bestOverlap.items < bestOverlap.requestItems;
        return best;
    }
    // Nothing in common from the first message: a new conversation, unless the client names the
    // same session and sends, with the same system prompt and tools, fewer messages than that
    // conversation held. That is how agents compact: the history is replaced by a summary that
    // starts the next request. Without the client's session name this cannot be told from a second
    // conversation of the same agent (or a sub-agent), and a new session is the honest answer.
    if (request.conversationHint.isEmpty())
        return best;
    for (auto it = m_conversations.rbegin(); it != m_conversations.rend(); ++it) {
        Conversation *c = it->get();
        if (c->protocol == request.protocol && c->hint == request.conversationHint && c->systemPrompt == request.systemPrompt
            && c->toolsDigest == toolsDigest && request.messages.size() < c->known.size()) {
            best.conversation = c;
            best.compacted = true;
            return best;
        }
    }
    return best;
}

ProxyRecordWriter::Conversation *ProxyRecordWriter::start(const WireRequest &request, const QByteArray &toolsDigest,
                                                          const ProxiedExchange &exchange)
{
    QString error;
    SessionInfo fields;
    fields.title = titleOf(request);
    fields.workspace = m_store->importFolder(&error);
    if (fields.workspace.isEmpty()) {
        fail(error);
        return nullptr;
    }
    // Nothing of Waterline runs on recorded traffic until the user continues it, like an import.
    fields.readOnly = true;
    fields.systemPrompt = request.systemPrompt;
    // Listed only once its source says where it came from (below): a list in between would call it
    // an import.
    fields.importing = true;
    const std::optional<SessionInfo> created = m_store->createSession(fields, &error);
    if (!created) {
        fail(error);
        return nullptr;
    }
    auto conversation = std::make_unique<Conversation>();
    conversation->key = ++m_lastKey;
    conversation->sessionId = created->id;
    conversation->protocol = request.protocol;
    conversation->systemPrompt = request.systemPrompt;
    conversation->toolsDigest = toolsDigest;
    conversation->hint = request.conversationHint;
    conversation->details = QJsonObject{{u"model"_s, request.model},
                                        {u"title"_s, fields.title},
                                        {u"protocol"_s, WireConversation::protocolName(request.protocol)},
                                        {u"user_agent"_s, QString::fromUtf8(exchange.userAgent.left(200))},
                                        {u"compactions"_s, QJsonArray()}};
    SessionSource source{u"proxy"_s, m_upstream, exchange.startedAt, conversation->details};
    if (!m_store->setSessionSource(created->id, source, &error) || !m_store->finishImport({created->id}, &error)) {
        fail(error);
        return nullptr;
    }
    m_conversations.push_back(std::move(conversation));
    return m_conversations.back().get();
}

void ProxyRecordWriter::saveDetails(const Conversation &conversation, const ProxiedExchange &exchange)
{
    QString error;
    const std::optional<SessionSource> source = m_store->sessionSource(conversation.sessionId, &error);
    SessionSource updated = source.value_or(SessionSource{u"proxy"_s, m_upstream, exchange.startedAt, {}});
    updated.details = conversation.details;
    if (!m_store->setSessionSource(conversation.sessionId, updated, &error))
        fail(error);
}

bool ProxyRecordWriter::write(Conversation &conversation, const Match &match, const WireRequest &request,
                              const ProxiedExchange &exchange)
{
    QString error;
    const QString &sessionId = conversation.sessionId;
    // 1. What the conversation gained since it was stored (all of it after a compaction).
    QList<Message> fresh;
    if (match.chained) {
        fresh = request.messages;
    } else if (match.fresh) {
        for (const qsizetype i : *match.fresh)
            fresh.append(request.messages[i]);
    } else {
        fresh = request.messages.mid(match.prefix);
    }
    QList<qint64> view = conversation.ids.mid(0, match.prefix);
    qint64 firstFreshSeq = -1;
    if (!fresh.isEmpty()) {
        firstFreshSeq = m_store->messageCount(sessionId, &error);
        StepAppend step;
        step.messages = fresh;
        const std::optional<StepIds> ids = m_store->appendStep(sessionId, step, &error);
        if (!ids || firstFreshSeq < 0) {
            fail(error);
            return false;
        }
        view += ids->messageIds;
    }

    // 2. The request with its view, and the reply it produced.
    const std::optional<WireResponse> response = WireConversation::parseResponse(request.protocol, exchange.status,
                                                                                 exchange.contentType, exchange.responseBody, &error);
    const QByteArray tools = QJsonDocument(request.tools).toJson(QJsonDocument::Compact);
    RequestRecord r;
    if (std::optional<ViewIds> ids = ViewIds::fromList(view, &error)) {
        r.viewMessageIds = std::move(*ids);
    } else {
        fail(error);
        return false;
    }
    // The system prompt weighs on the window like the messages: it is counted with them.
    const qint64 viewBytes = TokenEstimate::messageBytes(request.messages)
        + (match.chained ? TokenEstimate::messageBytes(conversation.known) : 0);
    r.estimateTokens = TokenEstimate::tokensForBytes(viewBytes + request.systemPrompt.toUtf8().size());
    // Compact mode: what went to the model is the compacted body, and that is what the request
    // counts as sent (the timeline's line, the totals); the view ids stay the client's.
    if (!exchange.forwardedBody.isEmpty()) {
        if (const std::optional<WireRequest> sent = WireConversation::parseRequest(request.protocol, exchange.forwardedBody))
            r.estimateTokens = TokenEstimate::tokensForBytes(TokenEstimate::messageBytes(sent->messages)
                                                             + sent->systemPrompt.toUtf8().size());
    }
    r.toolSchemaBytes = tools.size();
    r.toolSchemaTokens = TokenEstimate::tokensForBytes(tools.size());
    r.model = request.model;
    // Compact mode: the tier Waterline's preflight chose for what it sent.
    if (Tier tier; tierFromName(exchange.rewriteDetails.value(u"tier").toString(), &tier) && !exchange.forwardedBody.isEmpty())
        r.tier = tier;
    r.startedAt = exchange.startedAt;
    r.finishedAt = exchange.totalMs >= 0 ? exchange.startedAt.addMSecs(exchange.totalMs) : exchange.startedAt;
    if (response) {
        r.inputTokens = known(response->usage.inputKnown, response->usage.input);
        r.outputTokens = known(response->usage.outputKnown, response->usage.output);
        r.cacheReadTokens = known(response->usage.cacheReadKnown, response->usage.cacheRead);
        r.cacheWriteTokens = known(response->usage.cacheWriteKnown, response->usage.cacheWrite);
        r.error = response->error;
    } else {
        r.error = error;
    }
    if (!exchange.error.isEmpty() && r.error.isEmpty())
        r.error = exchange.error;
    if (exchange.responseTruncated && r.error.isEmpty())
        r.error = QCoreApplication::translate("ProxyRecorder", "the answer was too large to record whole");
    // Compact mode: what Waterline made of the request (the client's view is the request's), on
    // the stored messages, in the request's own step: the record, its checkpoint and offloads.
    StepAppend step;
    QString unrecorded; // why a compaction that was sent is not stored as one
    if (exchange.compaction && !exchange.forwardedBody.isEmpty()) {
        const ProxyCompaction &compaction = *exchange.compaction;
        const bool made = compaction.record || !compaction.checkpoints.isEmpty() || !compaction.offloads.isEmpty();
        // The request's positions name the stored ids of `view` when the two line up: they do not
        // when the client regrouped turns that were stored otherwise.
        bool linedUp = !match.chained && compaction.requestMessages == request.messages.size() && view.size() == request.messages.size();
        if (linedUp && match.fresh) {
            for (qsizetype k = 0; k < match.fresh->size() && linedUp; ++k)
                linedUp = match.fresh->at(k) == match.prefix + k;
        }
        for (qsizetype i = 0; linedUp && i < match.prefix; ++i)
            linedUp = samePlace(conversation.known[i], request.messages[i]);
        if (linedUp && made)
            linedUp = mapCompaction(compaction, view, step);
        if (step.record) {
            step.record->sessionId = sessionId;
            step.record->requestIndex = conversation.requestCount; // the index this step's request gets
        }
        if (!linedUp) {
            step = StepAppend();
            conversation.lastCheckpointId = 0; // what the next requests reuse is not stored either
            if (made)
                unrecorded = QCoreApplication::translate("ProxyRecorder", "not recorded as Waterline's compaction: the client grouped its earlier turns otherwise than they were stored, so the request's positions do not name stored messages");
        } else if (!step.checkpoints.isEmpty()) {
            r.viewCheckpointId = ThisStep::kRow;
        } else if (compaction.viewOpensWithCheckpoint) {
            r.viewCheckpointId = conversation.lastCheckpointId;
        }
    }
    step.request = r;
    const bool replied = response && response->hasAssistant && response->error.isEmpty();
    if (replied) {
        Message reply = response->assistant;
        reply.origin = ThisStep::kRow;
        step.messages.append(reply);
    }
    const std::optional<StepIds> ids = m_store->appendStep(sessionId, step, &error);
    if (!ids) {
        fail(error);
        return false;
    }
    if (!ids->checkpointIds.isEmpty())
        conversation.lastCheckpointId = ids->checkpointIds.constLast();
    // The record in the JSONL audit as well, after the store took it (as the agent does).
    if (step.record && !m_auditDir.isEmpty() && Paths::isSafePathComponent(sessionId)) {
        QString auditError;
        if (!QDir().mkpath(m_auditDir) || !AuditLog::append(QDir(m_auditDir).filePath(sessionId + u".jsonl"_s), *step.record, &auditError))
            fail(QCoreApplication::translate("ProxyRecorder", "cannot append to the compaction audit in %1: %2").arg(m_auditDir, auditError));
    }
    // Compact mode's policy is the session's: its timeline and what-if start from the window and
    // thresholds the requests were compacted under. Stored once, with the first rewritten request.
    if (exchange.compaction && !exchange.forwardedBody.isEmpty() && !conversation.policyStored) {
        if (m_store->setSessionPolicy(sessionId, exchange.compaction->policy, &error))
            conversation.policyStored = true;
        else
            fail(error);
    }
    if (!m_store->setRequestContext(sessionId, ids->requestIndex, RequestContext{request.systemPrompt, request.tools}, &error))
        fail(error); // the request itself is stored; carry on

    // 3. Compact mode: what the records do not say. Why a request went unchanged, why its
    // compaction is not stored, or that the conversation's earlier ones were dropped.
    const bool stateDropped = exchange.compaction && !exchange.compaction->stateNote.isEmpty();
    if (!exchange.rewriteNote.isEmpty()
        && (exchange.forwardedBody.isEmpty() || !exchange.compaction || stateDropped || !unrecorded.isEmpty())) {
        const QJsonObject entry{{u"request"_s, ids->requestIndex},
                                {u"note"_s, unrecorded.isEmpty() ? exchange.rewriteNote : exchange.rewriteNote + u"; "_s + unrecorded},
                                {u"compacted"_s, !exchange.forwardedBody.isEmpty()}};
        QJsonArray entries = conversation.details.value(u"waterline_compactions"_s).toArray();
        entries.append(entry);
        conversation.details.insert(u"waterline_compactions"_s, entries);
        saveDetails(conversation, exchange);
    }

    // 4. The client's own compaction, where the timeline draws the source agent's.
    if (match.compacted) {
        QJsonArray compactions = conversation.details.value(u"compactions").toArray();
        const Message first = fresh.value(0);
        compactions.append(QJsonObject{{u"message"_s, firstFreshSeq},
                                       {u"request"_s, ids->requestIndex},
                                       {u"tokens_before"_s, conversation.lastTokens},
                                       {u"trigger"_s, QString()},
                                       {u"summary"_s, first.content.left(kSummaryChars)},
                                       {u"kind"_s, u"prefix_changed"_s},
                                       {u"timestamp"_s, exchange.startedAt.toString(Qt::ISODateWithMs)}});
        conversation.details.insert(u"compactions"_s, compactions);
        saveDetails(conversation, exchange);
    }

    // What is stored of the conversation, in the turns it was stored in, index for index with `ids`.
    if (match.chained)
        conversation.known += request.messages;
    else
        conversation.known = conversation.known.mid(0, match.prefix) + fresh;
    conversation.ids = view;
    if (response && !response->responseId.isEmpty())
        conversation.lastResponseId = response->responseId;
    if (replied) {
        conversation.known.append(response->assistant);
        conversation.ids.append(ids->messageIds.value(0));
    }
    conversation.requestCount = ids->requestIndex + 1;
    conversation.lastTokens = r.inputTokens.value_or(r.estimateTokens);
    return true;
}

} // namespace wl
