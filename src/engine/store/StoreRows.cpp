// The rows of the session database as values, both ways: see StoreRows.h.
#include "StoreRows.h"

#include "CompactJson.h"
#include "SqlConnection.h"
#include "model/Utf8.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

using namespace Qt::StringLiterals;

namespace wl::storerows {

bool setError(QString *error, const QString &text)
{
    if (error)
        *error = text;
    return false;
}

// --- value conversions ---------------------------------------------------------------------

qint64 toMs(const QDateTime &time)
{
    return time.toMSecsSinceEpoch();
}

QVariant toMsOrNull(const QDateTime &time)
{
    return time.isValid() ? QVariant(time.toMSecsSinceEpoch()) : QVariant(QMetaType::fromType<qint64>());
}

QDateTime fromMs(const QVariant &value)
{
    if (value.isNull())
        return {};
    return QDateTime::fromMSecsSinceEpoch(value.toLongLong(), QTimeZone::UTC);
}

QVariant optionalToVariant(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant(QMetaType::fromType<qint64>());
}

std::optional<qint64> optionalFromVariant(const QVariant &value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toLongLong();
}

QString jsonText(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QJsonObject jsonObject(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

// UTF-8 for SqlQuery::bindUtf8; a null QByteArray (stored as NULL) when there are no calls.

namespace {

QByteArray toolCallsText(const QList<ToolCall> &calls)
{
    if (calls.isEmpty())
        return {};
    return CompactJson::toolCalls(calls);
}

QList<ToolCall> toolCallsFromText(const QString &text)
{
    QList<ToolCall> calls;
    if (text.isEmpty())
        return calls;
    const QJsonArray array = QJsonDocument::fromJson(text.toUtf8()).array();
    calls.reserve(array.size());
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        calls.append(ToolCall{o.value(u"id").toString(), o.value(u"name").toString(),
                              o.value(u"arguments").toString(), o.value(u"valid").toBool(true)});
    }
    return calls;
}

} // namespace

// --- row readers (column lists next to the readers that depend on their order) -------------

// Counts and last activity are derived through the (session_id, seq) and (session_id, idx)
// indexes: two seeks per session, no counter to keep in step with the rows.
const QString kSessionColumns =
    u"s.id, s.title, s.workspace, s.created_at, s.updated_at, "
    "coalesce((SELECT m.created_at FROM messages m WHERE m.session_id = s.id ORDER BY m.seq DESC LIMIT 1), s.created_at) "
    "AS last_activity_at, s.policy, s.provider_name, s.provider_profile, s.summarizer_profile, s.approval_policy, "
    "(SELECT coalesce(max(m.seq) + 1, 0) FROM messages m WHERE m.session_id = s.id), "
    "(SELECT coalesce(max(r.idx) + 1, 0) FROM requests r WHERE r.session_id = s.id), s.system_prompt, s.tool_schemas, s.read_only, "
    "(SELECT f.format FROM session_sources f WHERE f.session_id = s.id), s.import_claim IS NOT NULL"_s;

SessionInfo readSession(const SqlQuery &q)
{
    SessionInfo s;
    s.id = q.text(0);
    s.title = q.text(1);
    s.workspace = q.text(2);
    s.createdAt = fromMs(q.value(3));
    s.updatedAt = fromMs(q.value(4));
    s.lastActivityAt = fromMs(q.value(5));
    s.policy = jsonObject(q.text(6));
    s.providerName = q.text(7);
    s.providerProfile = jsonObject(q.text(8));
    s.summarizerProfile = jsonObject(q.text(9));
    s.approvalPolicy = q.text(10);
    s.messageCount = q.int64(11);
    s.requestCount = q.int64(12);
    s.systemPrompt = q.text(13);
    s.toolSchemas = QJsonDocument::fromJson(q.text(14).toUtf8()).array();
    s.readOnly = q.int64(15) != 0;
    s.sourceFormat = q.text(16);
    s.importing = q.int64(17) != 0;
    return s;
}

const QString kMessageColumns =
    u"id, session_id, role, content, tool_calls, tool_call_id, is_error, bytes, created_at, request_id"_s;

Message readMessage(const SqlQuery &q)
{
    Message m;
    m.id = q.int64(0);
    m.sessionId = q.text(1);
    roleFromName(q.text(2), &m.role);
    m.content = q.text(3);
    m.toolCalls = toolCallsFromText(q.text(4));
    m.toolCallId = q.text(5);
    m.isError = q.int64(6) != 0;
    m.cachedBytes = q.int64(7);
    if (m.isToolResult())
        m.cachedLines = lineCount(m.content); // not stored: counted while the text is at hand
    m.createdAt = fromMs(q.value(8));
    m.origin = q.int64(9);
    return m;
}

const QString kRequestColumns =
    u"id, session_id, idx, view_checkpoint_id, view_message_ids, estimate_tokens, tool_schema_tokens, "
    "input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, tier, model, started_at, finished_at, error, "
    "tool_schema_bytes"_s;

RequestRecord readRequest(const SqlQuery &q, QString *problem)
{
    RequestRecord r;
    r.id = q.int64(0);
    r.sessionId = q.text(1);
    r.index = int(q.int64(2));
    r.viewCheckpointId = q.int64(3);
    QString why;
    if (std::optional<ViewIds> view = ViewIds::fromJsonText(q.text(4).toUtf8(), &why))
        r.viewMessageIds = std::move(*view);
    else if (problem)
        *problem = QCoreApplication::translate("wl::SessionStore", "request %1 has a damaged view list (%2)").arg(r.index).arg(why);
    r.estimateTokens = q.int64(5);
    r.toolSchemaTokens = q.int64(6);
    r.inputTokens = optionalFromVariant(q.value(7));
    r.outputTokens = optionalFromVariant(q.value(8));
    r.cacheReadTokens = optionalFromVariant(q.value(9));
    r.cacheWriteTokens = optionalFromVariant(q.value(10));
    r.tier = Tier(q.int64(11));
    r.model = q.text(12);
    r.startedAt = fromMs(q.value(13));
    r.finishedAt = fromMs(q.value(14));
    r.error = q.text(15);
    r.toolSchemaBytes = optionalFromVariant(q.value(16));
    return r;
}

const QString kCheckpointColumns =
    u"id, covers_from_message_id, covers_up_to_message_id, text, summary, anchor_user_intent, "
    "anchor_execution_progress, anchor_key_decision, anchor_tried_solution, anchor_next_step, record_id, tier, created_at"_s;

Checkpoint readCheckpoint(const SqlQuery &q)
{
    Checkpoint c;
    c.id = q.int64(0);
    c.coversFromMessageId = q.int64(1);
    c.coversUpToMessageId = q.int64(2);
    c.text = q.text(3);
    c.summary = q.text(4);
    for (int k = 0; k < kAnchorCount; ++k)
        c.anchors.values[size_t(k)] = q.text(5 + k);
    c.recordId = q.text(10);
    c.tier = Tier(q.int64(11));
    c.createdAt = fromMs(q.value(12));
    return c;
}

const QString kVersionColumns = u"version, text, summary, anchors, from_request_index, created_at, undone_at"_s;

// A checkpoint_versions row read from kVersionColumns starting at column `at`.
CheckpointVersion readVersion(const SqlQuery &q, int at)
{
    CheckpointVersion v;
    v.version = int(q.int64(at));
    v.text = q.text(at + 1);
    v.summary = q.text(at + 2);
    v.anchors = Anchors::fromJson(jsonObject(q.text(at + 3)));
    v.fromRequestIndex = int(q.int64(at + 4));
    v.createdAt = fromMs(q.value(at + 5));
    v.undoneAt = fromMs(q.value(at + 6));
    return v;
}

const QString kOffloadColumns =
    u"id, message_id, call_id, tool_name, relative_path, bytes, lines, gate, placeholder, record_id"_s;

// A message Emergency cut (gate 3) keeps its shown content and its calls' shown arguments in the
// placeholder column as one JSON object {"content": "...", "arguments": ["...", ...]}; the other
// gates keep the placeholder text itself.
namespace {
QString storedPlaceholder(const OffloadOverlay &o)
{
    if (!o.isCut())
        return o.placeholder;
    return QString::fromUtf8(QJsonDocument(QJsonObject{{u"content"_s, o.placeholder},
                                                       {u"arguments"_s, QJsonArray::fromStringList(o.arguments)}})
                                 .toJson(QJsonDocument::Compact));
}

void readStoredPlaceholder(const QString &column, OffloadOverlay *o)
{
    if (!o->isCut()) {
        o->placeholder = column;
        return;
    }
    const QJsonObject cut = QJsonDocument::fromJson(column.toUtf8()).object();
    o->placeholder = cut.value(u"content"_s).toString();
    for (const QJsonValue &argument : cut.value(u"arguments"_s).toArray())
        o->arguments.append(argument.toString());
}
} // namespace

OffloadOverlay readOffload(const SqlQuery &q)
{
    OffloadOverlay o;
    o.id = q.int64(0);
    o.messageId = q.int64(1);
    o.entry.messageId = o.messageId;
    o.entry.callId = q.text(2);
    o.entry.toolName = q.text(3);
    o.entry.relativePath = q.text(4);
    o.entry.bytes = q.int64(5);
    o.entry.lines = int(q.int64(6));
    o.entry.gate = int(q.int64(7));
    readStoredPlaceholder(q.text(8), &o);
    o.recordId = q.text(9);
    return o;
}

const QString kPinColumns = u"id, kind, source, message_id, text, reason, created_at"_s;

Pin readPin(const SqlQuery &q)
{
    Pin p;
    p.id = q.int64(0);
    Pin::kindFromName(q.text(1), &p.kind);
    Pin::sourceFromName(q.text(2), &p.source);
    p.messageId = q.value(3).isNull() ? 0 : q.int64(3);
    p.text = q.text(4);
    p.reason = q.text(5);
    p.createdAt = fromMs(q.value(6));
    return p;
}

// --- row writers shared by appendStep and importSession ------------------------------------

std::optional<qint64> insertMessage(SqlConnection &c, const QString &sessionId, qint64 seq, const Message &m,
                                    qint64 origin, qint64 nowMs, QString *error)
{
    // content and tool_calls go in as UTF-8 (see SqlQuery::bindUtf8): most of a step's bytes.
    SqlQuery q(c, u"INSERT INTO messages (session_id, seq, role, content, tool_calls, tool_call_id, is_error, "
                  "bytes, created_at, request_id) VALUES (?, ?, ?, CAST(? AS TEXT), CAST(? AS TEXT), ?, ?, ?, ?, ?)"_s);
    q.bind(sessionId).bind(seq).bind(roleName(m.role)).bindText(m.content).bindUtf8(toolCallsText(m.toolCalls));
    q.bind(m.toolCallId.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(m.toolCallId));
    q.bind(m.isError).bind(m.cachedBytes >= 0 ? m.cachedBytes : m.computeBytes());
    q.bind(m.createdAt.isValid() ? toMs(m.createdAt) : nowMs);
    if (origin > 0)
        q.bind(origin);
    else
        q.bindNull();
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store a message: %1").arg(q.error()));
        return std::nullopt;
    }
    return q.lastInsertId();
}

std::optional<qint64> insertRequest(SqlConnection &c, const QString &sessionId, const RequestRecord &r, int index,
                                    qint64 viewCheckpointId, const ViewIds &viewIds, QString *error)
{
    SqlQuery q(c, u"INSERT INTO requests (session_id, idx, view_checkpoint_id, view_message_ids, estimate_tokens, "
                  "tool_schema_tokens, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, tier, "
                  "model, started_at, finished_at, error, tool_schema_bytes) "
                  "VALUES (?, ?, ?, CAST(? AS TEXT), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    q.bind(sessionId).bind(index);
    if (viewCheckpointId > 0)
        q.bind(viewCheckpointId);
    else
        q.bindNull();
    q.bindUtf8(viewIds.toJsonText()).bind(r.estimateTokens).bind(r.toolSchemaTokens);
    q.bind(optionalToVariant(r.inputTokens)).bind(optionalToVariant(r.outputTokens));
    q.bind(optionalToVariant(r.cacheReadTokens)).bind(optionalToVariant(r.cacheWriteTokens));
    q.bind(int(r.tier)).bind(r.model).bind(toMsOrNull(r.startedAt)).bind(toMsOrNull(r.finishedAt)).bind(r.error);
    q.bind(optionalToVariant(r.toolSchemaBytes));
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store request %1: %2").arg(index).arg(q.error()));
        return std::nullopt;
    }
    return q.lastInsertId();
}

std::optional<qint64> insertCheckpointVersion(SqlConnection &c, const QString &sessionId, qint64 checkpointId,
                                              const CheckpointVersion &v, qint64 nowMs, QString *error)
{
    SqlQuery q(c, u"INSERT INTO checkpoint_versions (session_id, checkpoint_id, version, text, summary, anchors, "
                  "from_request_index, created_at, undone_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    q.bind(sessionId).bind(checkpointId).bind(v.version).bind(v.text).bind(v.summary).bind(jsonText(v.anchors.toJson()));
    q.bind(v.fromRequestIndex).bind(v.createdAt.isValid() ? toMs(v.createdAt) : nowMs);
    if (v.undoneAt.isValid())
        q.bind(toMs(v.undoneAt));
    else
        q.bindNull();
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store version %1 of checkpoint %2: %3")
                            .arg(v.version)
                            .arg(checkpointId)
                            .arg(q.error()));
        return std::nullopt;
    }
    return q.lastInsertId();
}

namespace {

// The checkpoints row alone; insertCheckpoint adds its versions.
std::optional<qint64> insertCheckpointRow(SqlConnection &c, const QString &sessionId, const Checkpoint &cp,
                                          qint64 fromId, qint64 upToId, qint64 nowMs, QString *error)
{
    // A checkpoint covers messages of its own session: the INSERT ... SELECT finds no row otherwise.
    SqlQuery q(c, u"INSERT INTO checkpoints (session_id, covers_from_message_id, covers_up_to_message_id, text, "
                  "summary, anchor_user_intent, anchor_execution_progress, anchor_key_decision, "
                  "anchor_tried_solution, anchor_next_step, record_id, tier, created_at) "
                  "SELECT ?, ?, id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM messages WHERE id = ? AND session_id = ?"_s);
    q.bind(sessionId).bind(fromId).bind(cp.text).bind(cp.summary);
    for (const QString &value : cp.anchors.values)
        q.bind(value);
    q.bind(cp.recordId).bind(int(cp.tier)).bind(cp.createdAt.isValid() ? toMs(cp.createdAt) : nowMs);
    q.bind(upToId).bind(sessionId);
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store a checkpoint: %1").arg(q.error()));
        return std::nullopt;
    }
    if (q.rowsAffected() != 1) {
        setError(error, QCoreApplication::translate("wl::SessionStore",
                                                    "cannot store a checkpoint: it covers message %1, which is not in this session")
                            .arg(upToId));
        return std::nullopt;
    }
    return q.lastInsertId();
}

} // namespace

// A checkpoint edited in review before it committed keeps the summariser's draft as version 1
// (the checkpoints row) and the edit as version 2. One with versions (an import) keeps them all.
std::optional<qint64> insertCheckpoint(SqlConnection &c, const QString &sessionId, const Checkpoint &cp,
                                       qint64 fromId, qint64 upToId, qint64 nowMs, QString *error)
{
    if (!cp.versions.isEmpty()) {
        Checkpoint original = cp;
        original.text = cp.versions.constFirst().text;
        original.anchors = cp.versions.constFirst().anchors;
        original.summary = cp.versions.constFirst().summary;
        const auto id = insertCheckpointRow(c, sessionId, original, fromId, upToId, nowMs, error);
        if (!id)
            return std::nullopt;
        for (qsizetype v = 1; v < cp.versions.size(); ++v)
            if (!insertCheckpointVersion(c, sessionId, *id, cp.versions[v], nowMs, error))
                return std::nullopt;
        return id;
    }
    if (!cp.reviewedDraft)
        return insertCheckpointRow(c, sessionId, cp, fromId, upToId, nowMs, error);
    Checkpoint original = cp;
    original.text = cp.reviewedDraft->text;
    original.anchors = cp.reviewedDraft->anchors;
    original.summary = cp.reviewedDraft->summary;
    const auto id = insertCheckpointRow(c, sessionId, original, fromId, upToId, nowMs, error);
    if (!id)
        return std::nullopt;
    CheckpointVersion edit;
    edit.version = 2;
    edit.text = cp.text;
    edit.anchors = cp.anchors;
    edit.summary = cp.summary;
    edit.fromRequestIndex = cp.reviewedDraft->fromRequestIndex;
    edit.createdAt = cp.createdAt;
    if (!insertCheckpointVersion(c, sessionId, *id, edit, nowMs, error))
        return std::nullopt;
    return id;
}

std::optional<qint64> insertOffload(SqlConnection &c, const QString &sessionId, const OffloadOverlay &o,
                                    qint64 messageId, qint64 nowMs, QString *error)
{
    // The message must belong to this session: the INSERT ... SELECT finds no row otherwise.
    SqlQuery q(c, u"INSERT INTO offloads (session_id, message_id, call_id, tool_name, relative_path, bytes, lines, "
                  "gate, placeholder, record_id, created_at) "
                  "SELECT ?, id, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM messages WHERE id = ? AND session_id = ?"_s);
    q.bind(sessionId).bind(o.entry.callId).bind(o.entry.toolName).bind(o.entry.relativePath).bind(o.entry.bytes);
    q.bind(o.entry.lines).bind(o.entry.gate).bind(storedPlaceholder(o)).bind(o.recordId).bind(nowMs);
    q.bind(messageId).bind(sessionId);
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store the offload of message %1: %2").arg(messageId).arg(q.error()));
        return std::nullopt;
    }
    if (q.rowsAffected() != 1) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store the offload of message %1: no such message in this session").arg(messageId));
        return std::nullopt;
    }
    return q.lastInsertId();
}

bool insertRecord(SqlConnection &c, const QString &sessionId, CompactionRecord record, QString *error)
{
    record.sessionId = sessionId;
    SqlQuery q(c, u"INSERT INTO compaction_records (session_id, record_id, request_index, timestamp, tier, changed, "
                  "tokens_before, tokens_after, msgs_before, msgs_after, summarized, offloaded, duration_ms, error, json) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    q.bind(sessionId).bind(record.id).bind(record.requestIndex).bind(toMs(record.timestamp)).bind(int(record.tier));
    q.bind(record.changed).bind(record.tokensBefore).bind(record.tokensAfter).bind(record.msgsBefore);
    q.bind(record.msgsAfter).bind(record.summarized).bind(int(record.offloaded.size())).bind(record.durationMs);
    q.bind(record.error).bind(jsonText(record.toJson()));
    if (!q.exec())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store compaction record %1: %2").arg(record.id, q.error()));
    const qint64 row = q.lastInsertId();
    for (int k = 0; k < kAnchorCount; ++k) {
        SqlQuery h(c, u"INSERT INTO anchor_history (record_row, session_id, request_index, kind, value, change) "
                      "VALUES (?, ?, ?, ?, ?, ?)"_s);
        h.bind(row).bind(sessionId).bind(record.requestIndex).bind(k).bind(record.anchors.values[size_t(k)]);
        h.bind(int(record.anchorChanges[size_t(k)]));
        if (!h.exec())
            return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store the anchor history of record %1: %2").arg(record.id, h.error()));
    }
    return true;
}

} // namespace wl::storerows
