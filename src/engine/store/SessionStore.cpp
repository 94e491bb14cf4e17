#include "SessionStore.h"

#include "CompactJson.h"
#include "IdRanges.h"
#include "LoggingCategories.h"
#include "Migrations.h"
#include "Paths.h"
#include "PrivateFiles.h"
#include "SecretFilter.h"
#include "SessionExport.h"
#include "SqlConnection.h"
#include "SqlQuery.h"
#include "model/Utf8.h"
#include "SqlTransaction.h"
#include "compaction/OffloadStore.h"
#include "compaction/PinnedSection.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>
#include <QUuid>

#include <algorithm>
#include <atomic>
#include <optional>
#include <unordered_map>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

bool setError(QString *error, const QString &text)
{
    if (error)
        *error = text;
    return false;
}

// Each open() gets a new serial, so a connection left in another thread by an earlier open()
// (or an earlier store) is never picked up again.
std::atomic<quint64> g_nextSerial{1};

// The connections this thread opened, by store serial. Destroyed when the thread ends, in that
// thread, which is what Qt requires of a QSqlDatabase.
struct ThreadConnections
{
    std::unordered_map<quint64, std::unique_ptr<SqlConnection>> byStore;
};
thread_local ThreadConnections t_connections;

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

// --- row readers (column lists next to the readers that depend on their order) -------------

// Counts and last activity are derived through the (session_id, seq) and (session_id, idx)
// indexes: two seeks per session, no counter to keep in step with the rows.
const QString kSessionColumns =
    u"s.id, s.title, s.workspace, s.created_at, s.updated_at, "
    "coalesce((SELECT m.created_at FROM messages m WHERE m.session_id = s.id ORDER BY m.seq DESC LIMIT 1), s.created_at) "
    "AS last_activity_at, s.policy, s.provider_name, s.provider_profile, s.summarizer_profile, s.approval_policy, "
    "(SELECT coalesce(max(m.seq) + 1, 0) FROM messages m WHERE m.session_id = s.id), "
    "(SELECT coalesce(max(r.idx) + 1, 0) FROM requests r WHERE r.session_id = s.id), s.system_prompt, s.tool_schemas, s.read_only"_s;

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

RequestRecord readRequest(const SqlQuery &q)
{
    RequestRecord r;
    r.id = q.int64(0);
    r.sessionId = q.text(1);
    r.index = int(q.int64(2));
    r.viewCheckpointId = q.int64(3);
    IdRanges::decode(QJsonDocument::fromJson(q.text(4).toUtf8()).array(), &r.viewMessageIds);
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
    o.placeholder = q.text(8);
    o.recordId = q.text(9);
    return o;
}

// Runs a SELECT with `values` bound in order and hands each row to `row`. On failure, returns
// false and `error` says what went wrong: `what` with %1 for `subject` and %2 for SQLite's words.
template<typename Row, typename... Values>
bool selectRows(SqlConnection &c, const QString &sql, Row row, const char *what, const QString &subject, QString *error,
                const Values &...values)
{
    SqlQuery q(c, sql);
    (q.bind(values), ...);
    if (!q.exec())
        return setError(error, QCoreApplication::translate("wl::SessionStore", what).arg(subject, q.error()));
    while (q.next())
        row(q);
    return true;
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
                                    qint64 viewCheckpointId, const QList<qint64> &viewIds, QString *error)
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
    q.bindUtf8(CompactJson::idRanges(viewIds)).bind(r.estimateTokens).bind(r.toolSchemaTokens);
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

std::optional<qint64> insertCheckpointRow(SqlConnection &c, const QString &sessionId, const Checkpoint &cp,
                                          qint64 fromId, qint64 upToId, qint64 nowMs, QString *error);

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

std::optional<qint64> insertOffload(SqlConnection &c, const QString &sessionId, const OffloadOverlay &o,
                                    qint64 messageId, qint64 nowMs, QString *error)
{
    // The message must belong to this session: the INSERT ... SELECT finds no row otherwise.
    SqlQuery q(c, u"INSERT INTO offloads (session_id, message_id, call_id, tool_name, relative_path, bytes, lines, "
                  "gate, placeholder, record_id, created_at) "
                  "SELECT ?, id, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM messages WHERE id = ? AND session_id = ?"_s);
    q.bind(sessionId).bind(o.entry.callId).bind(o.entry.toolName).bind(o.entry.relativePath).bind(o.entry.bytes);
    q.bind(o.entry.lines).bind(o.entry.gate).bind(o.placeholder).bind(o.recordId).bind(nowMs);
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

} // namespace

// importSession: the longest a batch holds the write lock, and the pause after it. The pause is
// longer than the 100 ms SQLite's busy handler sleeps between retries once it has waited a while.
constexpr qint64 kImportBatchMs = 500;
constexpr unsigned long kImportPauseMs = 110;

struct SessionStore::Private
{
    QString path;
    quint64 serial = 0; // 0 while closed
};

SessionStore::SessionStore()
    : d(std::make_unique<Private>())
{
}

SessionStore::~SessionStore()
{
    close();
}

SqlConnection *SessionStore::connection(QString *error)
{
    if (!d->serial) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "no session database is open"));
        return nullptr;
    }
    auto &map = t_connections.byStore;
    if (auto it = map.find(d->serial); it != map.end())
        return it->second.get();
    const QString name = u"waterline-store-%1-thread-%2"_s.arg(d->serial).arg(
        quintptr(QThread::currentThreadId()), 0, 16);
    auto connection = std::make_unique<SqlConnection>(name, d->path);
    QString why;
    if (!connection->open(&why)) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot open %1: %2").arg(d->path, why));
        return nullptr;
    }
    qCDebug(lcStore) << "opened connection" << name;
    return map.emplace(d->serial, std::move(connection)).first->second.get();
}

void SessionStore::releaseThreadConnection()
{
    if (d->serial)
        t_connections.byStore.erase(d->serial);
}

bool SessionStore::open(const QString &path, QString *error)
{
    close();
    if (path.isEmpty())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "no database path given"));
    const QFileInfo info(path);
    if (info.exists() && !info.isFile())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "%1 is not a file").arg(path));
    // Only the user may read the sessions: folders we create are 0700 and a new database file
    // is 0600 before SQLite opens it (its -wal and -shm files take the database file's mode).
    QString folderError;
    if (!PrivateFiles::ensureFolder(info.absolutePath(), &folderError))
        return setError(error, folderError);
    if (!info.exists() && !PrivateFiles::ensureFile(path, &folderError))
        return setError(error, folderError);

    d->path = path;
    d->serial = g_nextSerial.fetch_add(1);
    auto fail = [&](const QString &text) {
        close();
        return setError(error, text);
    };

    SqlConnection *c = connection(error);
    if (!c) {
        d->serial = 0;
        return false;
    }

    // Everything up to the journal mode only reads, so a file we refuse is left as it was.
    QString why;
    const int version = Migrations::schemaVersion(*c, &why);
    if (version < 0)
        return fail(QCoreApplication::translate("wl::SessionStore", "%1 cannot be read: %2").arg(path, why));
    qint64 objects = 0;
    qint64 applicationId = 0;
    {
        SqlQuery probe(*c, u"SELECT (SELECT count(*) FROM sqlite_master), (SELECT application_id FROM pragma_application_id)"_s);
        if (!probe.exec() || !probe.next())
            return fail(QCoreApplication::translate("wl::SessionStore", "%1 cannot be read: %2").arg(path, probe.error()));
        objects = probe.int64(0);
        applicationId = probe.int64(1);
    }
    if (version > Migrations::latestVersion())
        return fail(QCoreApplication::translate("wl::SessionStore", "this database was written by a newer Waterline (schema %1); this version reads up to %2")
                        .arg(version)
                        .arg(Migrations::latestVersion()));
    if ((version == 0 && objects > 0) || (version > 0 && applicationId != Migrations::kApplicationId))
        return fail(QCoreApplication::translate("wl::SessionStore", "%1 is not a Waterline session database").arg(path));

    {
        SqlQuery journal(*c, u"PRAGMA journal_mode = WAL"_s);
        if (!journal.exec() || !journal.next())
            return fail(QCoreApplication::translate("wl::SessionStore", "%1 cannot be opened for writing: %2").arg(path, journal.error()));
        if (journal.text(0).compare(u"wal", Qt::CaseInsensitive) != 0)
            return fail(QCoreApplication::translate("wl::SessionStore", "%1 cannot use write-ahead logging (journal mode %2)").arg(path, journal.text(0)));
    }

    if (!Migrations::migrate(*c, Migrations::latestVersion(), &why))
        return fail(QCoreApplication::translate("wl::SessionStore", "%1 cannot be upgraded: %2").arg(path, why));
    // A database (and its WAL) created by an older Waterline may be readable by others.
    for (const QString &file : QStringList{path, path + u"-wal"_s, path + u"-shm"_s})
        if (!PrivateFiles::restrictFile(file))
            qCWarning(lcStore) << "cannot make" << file << "private";
    qCInfo(lcStore) << "session database open:" << path << "schema" << Migrations::latestVersion();
    return true;
}

void SessionStore::close()
{
    if (d->serial)
        t_connections.byStore.erase(d->serial);
    d->serial = 0;
    d->path.clear();
}

bool SessionStore::isOpen() const
{
    return d->serial != 0;
}

QString SessionStore::path() const
{
    return d->path;
}

QStringList SessionStore::integrityProblems(QString *error)
{
    QStringList problems;
    SqlConnection *c = connection(error);
    if (!c)
        return problems;
    SqlQuery q(*c, u"PRAGMA quick_check"_s);
    if (!q.exec()) {
        problems << q.error();
        setError(error, q.error());
        return problems;
    }
    while (q.next()) {
        if (q.text(0) != u"ok")
            problems << q.text(0);
    }
    if (!q.error().isEmpty())
        problems << q.error();
    return problems;
}

int SessionStore::schemaVersion(QString *error)
{
    SqlConnection *c = connection(error);
    return c ? Migrations::schemaVersion(*c, error) : -1;
}

// --- sessions ------------------------------------------------------------------------------

std::optional<SessionInfo> SessionStore::createSession(const SessionInfo &fields, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QDateTime created = fields.createdAt.isValid() ? fields.createdAt : now;
    SqlQuery q(*c, u"INSERT INTO sessions (id, title, workspace, created_at, updated_at, policy, provider_name, "
                   "provider_profile, summarizer_profile, approval_policy, system_prompt, tool_schemas, read_only) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    q.bind(id).bind(fields.title).bind(fields.workspace).bind(toMs(created));
    q.bind(toMs(fields.updatedAt.isValid() ? fields.updatedAt : created));
    q.bind(jsonText(fields.policy)).bind(fields.providerName);
    q.bind(jsonText(SecretFilter::withoutSecrets(fields.providerProfile)));
    q.bind(jsonText(SecretFilter::withoutSecrets(fields.summarizerProfile))).bind(fields.approvalPolicy);
    q.bind(fields.systemPrompt).bind(QString::fromUtf8(QJsonDocument(fields.toolSchemas).toJson(QJsonDocument::Compact)));
    q.bind(fields.readOnly ? 1 : 0);
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot create a session: %1").arg(q.error()));
        return std::nullopt;
    }
    return session(id, error);
}

QList<SessionInfo> SessionStore::listSessions(QString *error)
{
    QList<SessionInfo> out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    SqlQuery q(*c, u"SELECT "_s + kSessionColumns + u" FROM sessions s ORDER BY last_activity_at DESC, s.created_at DESC"_s);
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot list sessions: %1").arg(q.error()));
        return out;
    }
    while (q.next())
        out.append(readSession(q));
    return out;
}

std::optional<SessionInfo> SessionStore::session(const QString &id, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    SqlQuery q(*c, u"SELECT "_s + kSessionColumns + u" FROM sessions s WHERE s.id = ?"_s);
    q.bind(id);
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot read session %1: %2").arg(id, q.error()));
        return std::nullopt;
    }
    if (!q.next()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "there is no session %1").arg(id));
        return std::nullopt;
    }
    return readSession(q);
}

namespace {
bool updateSession(SqlConnection *c, const QString &sql, const QVariant &value, const QString &id, QString *error)
{
    if (!c)
        return false;
    SqlQuery q(*c, sql);
    q.bind(value).bind(QDateTime::currentMSecsSinceEpoch()).bind(id);
    if (!q.exec())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot update session %1: %2").arg(id, q.error()));
    if (q.rowsAffected() != 1)
        return setError(error, QCoreApplication::translate("wl::SessionStore", "there is no session %1").arg(id));
    return true;
}
} // namespace

bool SessionStore::renameSession(const QString &id, const QString &title, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?"_s, title, id,
                         error);
}

bool SessionStore::setSessionCreatedAt(const QString &id, const QDateTime &createdAt, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET created_at = ?, updated_at = ? WHERE id = ?"_s,
                         toMs(createdAt), id, error);
}

bool SessionStore::setSessionPolicy(const QString &id, const QJsonObject &policy, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET policy = ?, updated_at = ? WHERE id = ?"_s,
                         jsonText(policy), id, error);
}

bool SessionStore::setProviderProfile(const QString &id, const QString &name, const QJsonObject &profile,
                                      QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    SqlTransaction transaction(*c);
    if (!updateSession(c, u"UPDATE sessions SET provider_name = ?, updated_at = ? WHERE id = ?"_s, name, id, error)
        || !updateSession(c, u"UPDATE sessions SET provider_profile = ?, updated_at = ? WHERE id = ?"_s,
                          jsonText(SecretFilter::withoutSecrets(profile)), id, error))
        return false;
    return transaction.commit(error);
}

bool SessionStore::setSummarizerProfile(const QString &id, const QJsonObject &profile, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET summarizer_profile = ?, updated_at = ? WHERE id = ?"_s,
                         jsonText(SecretFilter::withoutSecrets(profile)), id, error);
}

bool SessionStore::setApprovalPolicy(const QString &id, const QString &policy, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET approval_policy = ?, updated_at = ? WHERE id = ?"_s,
                         policy, id, error);
}

bool SessionStore::setSystemPrompt(const QString &id, const QString &systemPrompt, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET system_prompt = ?, updated_at = ? WHERE id = ?"_s,
                         systemPrompt, id, error);
}

bool SessionStore::setToolSchemas(const QString &id, const QJsonArray &schemas, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET tool_schemas = ?, updated_at = ? WHERE id = ?"_s,
                         QString::fromUtf8(QJsonDocument(schemas).toJson(QJsonDocument::Compact)),
                         id, error);
}

bool SessionStore::deleteSession(const QString &id, QString *error)
{
    if (!Paths::isSafePathComponent(id))
        return setError(error, QCoreApplication::translate("wl::SessionStore", "refusing to delete \"%1\": not a session id").arg(id));
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    QString workspace;
    {
        SqlTransaction transaction(*c);
        if (!transaction.isActive())
            return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot delete session %1: %2").arg(id, transaction.error()));
        SqlQuery find(*c, u"SELECT workspace FROM sessions WHERE id = ?"_s);
        find.bind(id);
        if (!find.exec())
            return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot delete session %1: %2").arg(id, find.error()));
        if (!find.next())
            return setError(error, QCoreApplication::translate("wl::SessionStore", "there is no session %1").arg(id));
        workspace = find.text(0);
        SqlQuery remove(*c, u"DELETE FROM sessions WHERE id = ?"_s);
        remove.bind(id);
        if (!remove.exec())
            return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot delete session %1: %2").arg(id, remove.error()));
        QString why;
        if (!transaction.commit(&why))
            return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot delete session %1: %2").arg(id, why));
    }
    // The rows are gone; the files follow. A failure here is reported, the rest still removed.
    bool ok = true;
    QStringList problems;
    if (!workspace.isEmpty()) {
        QString why;
        // Walked from the workspace with O_NOFOLLOW: a link at .waterline, tool_results or the
        // session's folder never takes the removal elsewhere.
        if (!PrivateFiles::removeTree(workspace, Paths::offloadRelativeDir(id), &why)) {
            ok = false;
            problems << why;
        }
    }
    const QString audit = Paths::auditFile(id);
    if (QFileInfo::exists(audit) && !QFile::remove(audit)) {
        ok = false;
        problems << QCoreApplication::translate("wl::SessionStore", "cannot remove %1").arg(audit);
    }
    if (!ok)
        setError(error, problems.join(u"; "));
    qCInfo(lcStore) << "deleted session" << id;
    return ok;
}

// --- steps and history ---------------------------------------------------------------------

std::optional<StepIds> SessionStore::appendStep(const QString &sessionId, const StepAppend &step, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    auto fail = [&](const QString &text) -> std::optional<StepIds> {
        setError(error, text);
        return std::nullopt;
    };
    SqlTransaction transaction(*c);
    if (!transaction.isActive())
        return fail(QCoreApplication::translate("wl::SessionStore", "cannot append to session %1: %2").arg(sessionId, transaction.error()));

    qint64 nextSeq = 0;
    {
        SqlQuery q(*c, u"SELECT (SELECT coalesce(max(seq) + 1, 0) FROM messages WHERE session_id = ?) "
                       "FROM sessions WHERE id = ?"_s);
        q.bind(sessionId).bind(sessionId);
        if (!q.exec())
            return fail(QCoreApplication::translate("wl::SessionStore", "cannot append to session %1: %2").arg(sessionId, q.error()));
        if (!q.next())
            return fail(QCoreApplication::translate("wl::SessionStore", "there is no session %1").arg(sessionId));
        nextSeq = q.int64(0);
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    StepIds ids;
    QString why;

    for (const Checkpoint &cp : step.checkpoints) {
        const auto id = insertCheckpoint(*c, sessionId, cp, cp.coversFromMessageId, cp.coversUpToMessageId, now, &why);
        if (!id)
            return fail(why);
        ids.checkpointIds.append(*id);
    }

    if (step.requestUpdate) {
        const RequestRecord &r = *step.requestUpdate;
        qint64 viewCheckpoint = r.viewCheckpointId;
        if (viewCheckpoint == ThisStep::kRow) {
            if (ids.checkpointIds.isEmpty())
                return fail(QCoreApplication::translate("wl::SessionStore", "the request names this step's checkpoint, but the step has none"));
            viewCheckpoint = ids.checkpointIds.last();
        }
        SqlQuery q(*c, u"UPDATE requests SET view_checkpoint_id = ?, view_message_ids = CAST(? AS TEXT), estimate_tokens = ?, "
                       "tool_schema_tokens = ?, tier = ? WHERE session_id = ? AND idx = ?"_s);
        if (viewCheckpoint > 0)
            q.bind(viewCheckpoint);
        else
            q.bindNull();
        q.bindUtf8(CompactJson::idRanges(r.viewMessageIds)).bind(r.estimateTokens).bind(r.toolSchemaTokens);
        q.bind(int(r.tier)).bind(sessionId).bind(r.index);
        if (!q.exec())
            return fail(QCoreApplication::translate("wl::SessionStore", "cannot update request %1: %2").arg(r.index).arg(q.error()));
        if (q.rowsAffected() != 1)
            return fail(QCoreApplication::translate("wl::SessionStore", "there is no request %1 in session %2").arg(r.index).arg(sessionId));
    }

    if (step.request) {
        const RequestRecord &r = *step.request;
        int index = r.index;
        if (index < 0) {
            SqlQuery q(*c, u"SELECT coalesce(max(idx) + 1, 0) FROM requests WHERE session_id = ?"_s);
            q.bind(sessionId);
            if (!q.exec() || !q.next())
                return fail(QCoreApplication::translate("wl::SessionStore", "cannot append to session %1: %2").arg(sessionId, q.error()));
            index = int(q.int64(0));
        }
        qint64 viewCheckpoint = r.viewCheckpointId;
        if (viewCheckpoint == ThisStep::kRow) {
            if (ids.checkpointIds.isEmpty())
                return fail(QCoreApplication::translate("wl::SessionStore", "the request names this step's checkpoint, but the step has none"));
            viewCheckpoint = ids.checkpointIds.last();
        }
        const auto id = insertRequest(*c, sessionId, r, index, viewCheckpoint, r.viewMessageIds, &why);
        if (!id)
            return fail(why);
        ids.requestId = *id;
        ids.requestIndex = index;
    }

    ids.messageIds.reserve(step.messages.size());
    for (const Message &m : step.messages) {
        qint64 origin = m.origin;
        if (origin == ThisStep::kRow) {
            if (!ids.requestId)
                return fail(QCoreApplication::translate("wl::SessionStore", "a message names this step's request, but the step has none"));
            origin = ids.requestId;
        }
        const auto id = insertMessage(*c, sessionId, nextSeq++, m, origin, now, &why);
        if (!id)
            return fail(why);
        ids.messageIds.append(*id);
    }

    for (const OffloadOverlay &off : step.offloads) {
        qint64 messageId = off.messageId;
        if (const qsizetype i = ThisStep::messageIndex(messageId); i >= 0) {
            if (i >= ids.messageIds.size())
                return fail(QCoreApplication::translate("wl::SessionStore", "an offload names message %1 of this step, which has %2").arg(i).arg(ids.messageIds.size()));
            messageId = ids.messageIds[i];
        }
        const auto id = insertOffload(*c, sessionId, off, messageId, now, &why);
        if (!id)
            return fail(why);
        ids.offloadIds.append(*id);
    }

    if (step.record && !insertRecord(*c, sessionId, *step.record, &why))
        return fail(why);

    if (!transaction.commit(&why))
        return fail(QCoreApplication::translate("wl::SessionStore", "cannot append to session %1: %2").arg(sessionId, why));
    return ids;
}

QList<Message> SessionStore::messages(const QString &sessionId, qint64 offset, int limit, QString *error)
{
    QList<Message> out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    // seq is dense from 0, so a page is a range seek on (session_id, seq), not an OFFSET scan.
    if (limit > 0)
        out.reserve(std::min(limit, 4096));
    selectRows(*c, u"SELECT "_s + kMessageColumns + u" FROM messages WHERE session_id = ? AND seq >= ? ORDER BY seq LIMIT ?"_s,
               [&out](const SqlQuery &q) { out.append(readMessage(q)); },
               QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the messages of session %1: %2"), sessionId, error,
               sessionId, std::max<qint64>(offset, 0), limit);
    return out;
}

qint64 SessionStore::messageCount(const QString &sessionId, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return 0;
    SqlQuery q(*c, u"SELECT (SELECT coalesce(max(seq) + 1, 0) FROM messages WHERE session_id = ?) "
                   "FROM sessions WHERE id = ?"_s);
    q.bind(sessionId).bind(sessionId);
    if (!q.exec() || !q.next()) {
        setError(error, q.error().isEmpty() ? QCoreApplication::translate("wl::SessionStore", "there is no session %1").arg(sessionId) : q.error());
        return 0;
    }
    return q.int64(0);
}

QList<Message> SessionStore::history(const QString &sessionId, QString *error)
{
    return messages(sessionId, 0, -1, error);
}

std::optional<Message> SessionStore::message(qint64 id, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    SqlQuery q(*c, u"SELECT "_s + kMessageColumns + u" FROM messages WHERE id = ?"_s);
    q.bind(id);
    if (!q.exec() || !q.next()) {
        setError(error, q.error().isEmpty() ? QCoreApplication::translate("wl::SessionStore", "there is no message %1").arg(id) : q.error());
        return std::nullopt;
    }
    return readMessage(q);
}

std::optional<Message> SessionStore::toolResult(const QString &sessionId, const QString &callId, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    // Served by the messages_by_tool_call index (schema 2).
    SqlQuery q(*c, u"SELECT "_s + kMessageColumns
                       + u" FROM messages WHERE session_id = ? AND tool_call_id = ? ORDER BY seq LIMIT 1"_s);
    q.bind(sessionId).bind(callId);
    if (!q.exec() || !q.next()) {
        setError(error, q.error().isEmpty() ? QCoreApplication::translate("wl::SessionStore", "no result for tool call %1").arg(callId) : q.error());
        return std::nullopt;
    }
    return readMessage(q);
}

// --- overlays, requests, records -----------------------------------------------------------

ContextOverlays SessionStore::overlays(const QString &sessionId, QString *error)
{
    ContextOverlays out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    if (!selectRows(*c, u"SELECT "_s + kCheckpointColumns + u" FROM checkpoints WHERE session_id = ? ORDER BY id"_s,
                    [&out](const SqlQuery &q) { out.checkpoints.append(readCheckpoint(q)); },
                    QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the checkpoints of session %1: %2"), sessionId, error,
                    sessionId))
        return out;
    // Each checkpoint as its newest version not undone, with every version when it has more than one.
    if (!out.checkpoints.isEmpty()) {
        QHash<qint64, qsizetype> byId;
        for (qsizetype i = 0; i < out.checkpoints.size(); ++i)
            byId.insert(out.checkpoints[i].id, i);
        if (!selectRows(*c, u"SELECT (SELECT r.request_index FROM checkpoints c JOIN compaction_records r "
                            "ON r.session_id = c.session_id AND r.record_id = c.record_id WHERE c.id = checkpoint_id), "
                            "checkpoint_id, "_s + kVersionColumns
                            + u" FROM checkpoint_versions WHERE session_id = ? ORDER BY checkpoint_id, version"_s,
                        [&](const SqlQuery &q) {
                            const auto it = byId.constFind(q.int64(1));
                            if (it == byId.cend())
                                return;
                            Checkpoint &cp = out.checkpoints[*it];
                            if (cp.versions.isEmpty()) {
                                // Version 1 is the row itself, for the requests from its compaction's on.
                                CheckpointVersion first;
                                first.text = cp.text;
                                first.anchors = cp.anchors;
                                first.summary = cp.summary;
                                first.fromRequestIndex = int(q.int64(0));
                                first.createdAt = cp.createdAt;
                                cp.versions.append(first);
                            }
                            const CheckpointVersion v = readVersion(q, 2);
                            cp.versions.append(v);
                            if (!v.undoneAt.isValid()) {
                                cp.version = v.version;
                                cp.text = v.text;
                                cp.textBytes = -1;
                                cp.summary = v.summary;
                                cp.anchors = v.anchors;
                            }
                        },
                        QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the checkpoint versions of session %1: %2"),
                        sessionId, error, sessionId))
            return out;
    }
    selectRows(*c, u"SELECT "_s + kOffloadColumns + u" FROM offloads WHERE session_id = ? ORDER BY id"_s,
               [&out](const SqlQuery &q) {
                   const OffloadOverlay o = readOffload(q);
                   out.offloads.insert(o.messageId, o);
               },
               QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the offloads of session %1: %2"), sessionId, error,
               sessionId);
    out.pins = pins(sessionId, error);
    return out;
}

namespace {
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
} // namespace

QList<Pin> SessionStore::pins(const QString &sessionId, QString *error)
{
    QList<Pin> out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    selectRows(*c, u"SELECT "_s + kPinColumns + u" FROM pins WHERE session_id = ? ORDER BY id"_s,
               [&out](const SqlQuery &q) { out.append(readPin(q)); },
               QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the pins of session %1: %2"), sessionId, error, sessionId);
    return out;
}

std::optional<Pin> SessionStore::addPin(const QString &sessionId, const Pin &pin, qint64 budgetTokens, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    SqlTransaction transaction(*c);
    if (!transaction.isActive()) {
        setError(error, transaction.error());
        return std::nullopt;
    }
    Pin stored = pin;
    stored.id = 0;
    if (pin.kind == Pin::Kind::Note) {
        stored.messageId = 0;
        if (pin.text.trimmed().isEmpty()) {
            setError(error, QCoreApplication::translate("wl::SessionStore", "Not pinned: the note is empty."));
            return std::nullopt;
        }
    } else {
        std::optional<Message> found;
        if (!selectRows(*c, u"SELECT "_s + kMessageColumns + u" FROM messages WHERE id = ? AND session_id = ?"_s,
                        [&found](const SqlQuery &q) { found = readMessage(q); },
                        QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read message %1: %2"), QString::number(pin.messageId),
                        error, pin.messageId, sessionId))
            return std::nullopt;
        if (!found) {
            setError(error, QCoreApplication::translate("wl::SessionStore", "Not pinned: session %1 has no message %2.")
                                .arg(sessionId).arg(pin.messageId));
            return std::nullopt;
        }
        const QString whole = Pin::textOf(*found);
        if (pin.kind == Pin::Kind::Message) {
            stored.text = whole;
        } else if (pin.text.trimmed().isEmpty() || !whole.contains(pin.text)) {
            setError(error, QCoreApplication::translate("wl::SessionStore", "Not pinned: the selection is not part of message %1.")
                                .arg(pin.messageId));
            return std::nullopt;
        }
    }
    QList<Pin> all = pins(sessionId, error);
    all.append(stored);
    if (const QString refused = PinnedSection::refusal(all, budgetTokens); !refused.isEmpty()) {
        setError(error, refused);
        return std::nullopt;
    }
    if (!stored.createdAt.isValid())
        stored.createdAt = QDateTime::currentDateTimeUtc();
    SqlQuery q(*c, u"INSERT INTO pins (session_id, kind, source, message_id, text, reason, created_at) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)"_s);
    q.bind(sessionId).bind(Pin::kindName(stored.kind)).bind(Pin::sourceName(stored.source));
    if (stored.messageId > 0)
        q.bind(stored.messageId);
    else
        q.bindNull();
    q.bind(stored.text).bind(stored.reason).bind(toMs(stored.createdAt));
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot pin in session %1: %2").arg(sessionId, q.error()));
        return std::nullopt;
    }
    stored.id = q.lastInsertId();
    if (!transaction.commit(error))
        return std::nullopt;
    return stored;
}

bool SessionStore::removePin(qint64 pinId, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    SqlQuery q(*c, u"DELETE FROM pins WHERE id = ?"_s);
    q.bind(pinId);
    if (!q.exec())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot unpin %1: %2").arg(pinId).arg(q.error()));
    if (q.rowsAffected() != 1)
        return setError(error, QCoreApplication::translate("wl::SessionStore", "there is no pin %1").arg(pinId));
    return true;
}

bool SessionStore::removeCheckpoint(qint64 checkpointId, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    SqlTransaction transaction(*c);
    // The compaction that made the checkpoint: its offloads go with it (an undo restores the view
    // before that compaction, placeholders it put in the head and the tail included).
    QString sessionId;
    QString recordId;
    bool found = false;
    if (!selectRows(*c, u"SELECT session_id, record_id FROM checkpoints WHERE id = ?"_s,
                    [&](const SqlQuery &q) {
                        sessionId = q.text(0);
                        recordId = q.text(1);
                        found = true;
                    },
                    QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read checkpoint %1: %2"), QString::number(checkpointId),
                    error, checkpointId))
        return false;
    if (!found)
        return setError(error, QCoreApplication::translate("wl::SessionStore", "there is no checkpoint %1").arg(checkpointId));
    SqlQuery q(*c, u"DELETE FROM checkpoints WHERE id = ?"_s);
    q.bind(checkpointId);
    if (!q.exec())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot remove checkpoint %1: %2").arg(checkpointId).arg(q.error()));
    if (q.rowsAffected() != 1)
        return setError(error, QCoreApplication::translate("wl::SessionStore", "there is no checkpoint %1").arg(checkpointId));
    if (!recordId.isEmpty()) {
        SqlQuery offloads(*c, u"DELETE FROM offloads WHERE session_id = ? AND record_id = ?"_s);
        offloads.bind(sessionId).bind(recordId);
        if (!offloads.exec())
            return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot remove the offloads of checkpoint %1: %2")
                                       .arg(checkpointId).arg(offloads.error()));
    }
    return transaction.commit(error);
}

QList<CheckpointVersion> SessionStore::checkpointVersions(qint64 checkpointId, QString *error)
{
    QList<CheckpointVersion> out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    if (!selectRows(*c, u"SELECT "_s + kCheckpointColumns + u" FROM checkpoints WHERE id = ?"_s,
                    [&out](const SqlQuery &q) {
                        const Checkpoint cp = readCheckpoint(q);
                        CheckpointVersion v;
                        v.text = cp.text;
                        v.anchors = cp.anchors;
                        v.summary = cp.summary;
                        v.createdAt = cp.createdAt;
                        out.append(v);
                    },
                    QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read checkpoint %1: %2"), QString::number(checkpointId),
                    error, checkpointId))
        return out;
    if (out.isEmpty()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "there is no checkpoint %1").arg(checkpointId));
        return out;
    }
    // Version 1 is for the requests from the one its compaction ran before.
    selectRows(*c, u"SELECT r.request_index FROM checkpoints c JOIN compaction_records r "
                   "ON r.session_id = c.session_id AND r.record_id = c.record_id WHERE c.id = ?"_s,
               [&out](const SqlQuery &q) { out.first().fromRequestIndex = int(q.int64(0)); },
               QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read checkpoint %1: %2"), QString::number(checkpointId), error,
               checkpointId);
    selectRows(*c, u"SELECT "_s + kVersionColumns + u" FROM checkpoint_versions WHERE checkpoint_id = ? ORDER BY version"_s,
               [&out](const SqlQuery &q) { out.append(readVersion(q, 0)); },
               QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the versions of checkpoint %1: %2"),
               QString::number(checkpointId), error, checkpointId);
    return out;
}

std::optional<int> SessionStore::addCheckpointVersion(qint64 checkpointId, const CheckpointVersion &version, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    SqlTransaction transaction(*c);
    QString sessionId;
    int newest = 0;
    if (!selectRows(*c, u"SELECT c.session_id, coalesce((SELECT max(v.version) FROM checkpoint_versions v "
                        "WHERE v.checkpoint_id = c.id), 1) FROM checkpoints c WHERE c.id = ?"_s,
                    [&](const SqlQuery &q) {
                        sessionId = q.text(0);
                        newest = int(q.int64(1));
                    },
                    QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read checkpoint %1: %2"), QString::number(checkpointId),
                    error, checkpointId))
        return std::nullopt;
    if (sessionId.isEmpty()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "there is no checkpoint %1").arg(checkpointId));
        return std::nullopt;
    }
    if (!isCheckpointText(version.text)) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "a checkpoint's text must begin with [Context Compaction]"));
        return std::nullopt;
    }
    CheckpointVersion v = version;
    v.version = newest + 1; // after every version, undone ones included: a number is never reused
    if (!insertCheckpointVersion(*c, sessionId, checkpointId, v, toMs(QDateTime::currentDateTimeUtc()), error))
        return std::nullopt;
    if (!transaction.commit(error))
        return std::nullopt;
    return v.version;
}

std::optional<int> SessionStore::undoCheckpointVersion(qint64 checkpointId, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    SqlTransaction transaction(*c);
    QList<int> active;
    if (!selectRows(*c, u"SELECT version FROM checkpoint_versions WHERE checkpoint_id = ? AND undone_at IS NULL "
                        "ORDER BY version DESC LIMIT 2"_s,
                    [&active](const SqlQuery &q) { active.append(int(q.int64(0))); },
                    QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the versions of checkpoint %1: %2"),
                    QString::number(checkpointId), error, checkpointId))
        return std::nullopt;
    if (active.isEmpty()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "checkpoint %1 has no edit to undo").arg(checkpointId));
        return std::nullopt;
    }
    SqlQuery q(*c, u"UPDATE checkpoint_versions SET undone_at = ? WHERE checkpoint_id = ? AND version = ?"_s);
    q.bind(toMs(QDateTime::currentDateTimeUtc())).bind(checkpointId).bind(active.first());
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot undo the edit of checkpoint %1: %2")
                            .arg(checkpointId)
                            .arg(q.error()));
        return std::nullopt;
    }
    if (!transaction.commit(error))
        return std::nullopt;
    return active.size() > 1 ? active.at(1) : 1;
}

QList<RequestRecord> SessionStore::requests(const QString &sessionId, QString *error)
{
    QList<RequestRecord> out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    selectRows(*c, u"SELECT "_s + kRequestColumns + u" FROM requests WHERE session_id = ? ORDER BY idx"_s,
               [&out](const SqlQuery &q) { out.append(readRequest(q)); },
               QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the requests of session %1: %2"), sessionId, error,
               sessionId);
    return out;
}

QList<CompactionRecord> SessionStore::records(const QString &sessionId, QString *error)
{
    QList<CompactionRecord> out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    QStringList problems;
    if (!selectRows(*c, u"SELECT record_id, json FROM compaction_records WHERE session_id = ? ORDER BY request_index, id"_s,
                    [&](const SqlQuery &q) {
                        CompactionRecord record;
                        QString why;
                        if (CompactionRecord::fromJson(jsonObject(q.text(1)), &record, &why))
                            out.append(record);
                        else
                            problems << QCoreApplication::translate("wl::SessionStore", "record %1: %2").arg(q.text(0), why);
                    },
                    QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the compaction records of session %1: %2"), sessionId,
                    error, sessionId))
        return out;
    if (!problems.isEmpty())
        setError(error, problems.join(u"; "));
    return out;
}

QList<AnchorHistoryEntry> SessionStore::anchorHistory(const QString &sessionId, QString *error)
{
    QList<AnchorHistoryEntry> out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    qint64 currentRow = -1;
    selectRows(*c, u"SELECT h.record_row, r.record_id, h.request_index, h.kind, h.value, h.change "
                   "FROM anchor_history h JOIN compaction_records r ON r.id = h.record_row "
                   "WHERE h.session_id = ? ORDER BY h.request_index, h.record_row, h.kind"_s,
               [&](const SqlQuery &q) {
                   if (q.int64(0) != currentRow) {
                       currentRow = q.int64(0);
                       AnchorHistoryEntry entry;
                       entry.recordId = q.text(1);
                       entry.requestIndex = int(q.int64(2));
                       out.append(entry);
                   }
                   const qint64 kind = q.int64(3);
                   if (kind < 0 || kind >= kAnchorCount)
                       return;
                   out.last().anchors.values[size_t(kind)] = q.text(4);
                   out.last().changes[size_t(kind)] = AnchorChange(q.int64(5));
               },
               QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the anchor history of session %1: %2"), sessionId, error,
               sessionId);
    return out;
}

// --- imports -------------------------------------------------------------------------------

std::optional<QList<qint64>> SessionStore::appendRequests(const QString &sessionId, const QList<RequestRecord> &requests,
                                                          const QList<qint64> &producedBy, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    auto fail = [&](const QString &text) -> std::optional<QList<qint64>> {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot add requests to session %1: %2").arg(sessionId, text));
        return std::nullopt;
    };
    SqlTransaction transaction(*c);
    if (!transaction.isActive())
        return fail(transaction.error());
    int nextIndex = 0;
    {
        SqlQuery q(*c, u"SELECT (SELECT coalesce(max(idx) + 1, 0) FROM requests WHERE session_id = ?) "
                       "FROM sessions WHERE id = ?"_s);
        q.bind(sessionId).bind(sessionId);
        if (!q.exec())
            return fail(q.error());
        if (!q.next())
            return fail(QCoreApplication::translate("wl::SessionStore", "there is no such session"));
        nextIndex = int(q.int64(0));
    }
    QList<qint64> rows;
    rows.reserve(requests.size());
    QString why;
    for (qsizetype i = 0; i < requests.size(); ++i) {
        const RequestRecord &r = requests[i];
        const int index = r.index >= 0 ? r.index : nextIndex;
        nextIndex = std::max(nextIndex, index + 1);
        const auto row = insertRequest(*c, sessionId, r, index, r.viewCheckpointId, r.viewMessageIds, &why);
        if (!row)
            return fail(why);
        rows.append(*row);
        const qint64 produced = producedBy.value(i);
        if (produced > 0) {
            SqlQuery q(*c, u"UPDATE messages SET request_id = ? WHERE id = ? AND session_id = ?"_s);
            q.bind(*row).bind(produced).bind(sessionId);
            if (!q.exec())
                return fail(q.error());
            if (q.rowsAffected() != 1)
                return fail(QCoreApplication::translate("wl::SessionStore", "message %1 is not in this session").arg(produced));
        }
    }
    if (!transaction.commit(&why))
        return fail(why);
    return rows;
}

bool SessionStore::setSessionSource(const QString &sessionId, const SessionSource &source, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    SqlQuery q(*c, u"INSERT OR REPLACE INTO session_sources (session_id, format, source_path, imported_at, details) "
                   "VALUES (?, ?, ?, ?, ?)"_s);
    q.bind(sessionId).bind(source.format).bind(source.sourcePath);
    q.bind(toMs(source.importedAt.isValid() ? source.importedAt : QDateTime::currentDateTimeUtc()));
    q.bind(jsonText(source.details));
    if (!q.exec())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store the source of session %1: %2").arg(sessionId, q.error()));
    return true;
}

std::optional<SessionSource> SessionStore::sessionSource(const QString &sessionId, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    SqlQuery q(*c, u"SELECT format, source_path, imported_at, details FROM session_sources WHERE session_id = ?"_s);
    q.bind(sessionId);
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot read the source of session %1: %2").arg(sessionId, q.error()));
        return std::nullopt;
    }
    if (!q.next())
        return std::nullopt;
    SessionSource source;
    source.format = q.text(0);
    source.sourcePath = q.text(1);
    source.importedAt = fromMs(q.value(2));
    source.details = jsonObject(q.text(3));
    return source;
}

// --- export / import -----------------------------------------------------------------------

bool SessionStore::exportSession(const QString &sessionId, const QString &path, QString *error)
{
    SessionDocument doc;
    QString why;
    const auto info = session(sessionId, &why);
    if (!info)
        return setError(error, why);
    doc.session = *info;
    // One read transaction: the parts of the file agree with each other even while a step is appended.
    SqlConnection *c = connection(error);
    if (!c || !c->execute(u"BEGIN"_s, &why))
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot export session %1: %2").arg(sessionId, why));
    why.clear();
    doc.messages = history(sessionId, &why);
    if (why.isEmpty())
        doc.requests = requests(sessionId, &why);
    ContextOverlays overlays;
    if (why.isEmpty())
        overlays = this->overlays(sessionId, &why);
    if (why.isEmpty())
        doc.records = records(sessionId, &why);
    c->execute(u"COMMIT"_s, nullptr);
    if (!why.isEmpty())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot export session %1: %2").arg(sessionId, why));
    doc.checkpoints = overlays.checkpoints;
    doc.offloads = overlays.offloads.values();
    std::sort(doc.offloads.begin(), doc.offloads.end(),
              [](const OffloadOverlay &a, const OffloadOverlay &b) { return a.id < b.id; });
    doc.pins = overlays.pins;
    return SessionExport::write(doc, path, error);
}

QString SessionStore::importFolder(QString *error) const
{
    if (d->path.isEmpty()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "no database is open"));
        return {};
    }
    const QString folder = QFileInfo(d->path).absoluteDir().filePath(u"imported"_s);
    QString why;
    if (!PrivateFiles::ensureFolder(folder, &why)) {
        setError(error, why);
        return {};
    }
    return folder;
}

bool SessionStore::continueSession(const QString &id, const Continuation &choice, QString *error)
{
    const std::optional<SessionInfo> info = session(id, error);
    if (!info)
        return false;
    if (!info->readOnly)
        return setError(error, QCoreApplication::translate("wl::SessionStore", "session %1 is not an import waiting to be continued").arg(id));
    const QFileInfo folder(choice.workspace);
    if (choice.workspace.isEmpty() || !folder.isAbsolute() || !folder.isDir())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "the workspace %1 is not a folder").arg(choice.workspace));
    const QString workspace = folder.canonicalFilePath();
    QString why;
    if (!OffloadStore::moveSessionFolder(info->workspace, workspace, id, &why))
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot continue session %1: %2").arg(id, why));
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    SqlQuery q(*c, u"UPDATE sessions SET workspace = ?, provider_name = ?, provider_profile = ?, summarizer_profile = '{}', "
                   "approval_policy = '', system_prompt = ?, read_only = 0, updated_at = ? WHERE id = ? AND read_only = 1"_s);
    q.bind(workspace).bind(choice.providerName).bind(jsonText(SecretFilter::withoutSecrets(choice.providerProfile)));
    q.bind(choice.systemPrompt).bind(QDateTime::currentMSecsSinceEpoch()).bind(id);
    if (!q.exec() || q.rowsAffected() != 1) {
        // Put the results back where the stored workspace still points.
        QString back;
        if (!OffloadStore::moveSessionFolder(workspace, info->workspace, id, &back))
            qCWarning(lcStore) << "cannot move the offloaded results of" << id << "back:" << back;
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot continue session %1: %2")
                                   .arg(id, q.error().isEmpty() ? QCoreApplication::translate("wl::SessionStore", "it changed meanwhile") : q.error()));
    }
    qCInfo(lcStore) << "continued imported session" << id << "in" << workspace;
    return true;
}

std::optional<QString> SessionStore::importSession(const QString &path, const QString &workspace, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    auto fail = [&](const QString &why) -> std::optional<QString> {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot import %1: %2").arg(path, why));
        return std::nullopt;
    };

    // Batches of transactions: one transaction for a long import would hold the write lock for
    // all of it, and a second Waterline (or this one's GUI thread) would give up after its busy
    // timeout. Each batch ends after kImportBatchMs and the lock is left free for kImportPauseMs,
    // longer than SQLite's longest wait between retries, so a waiting writer gets its turn.
    // A failure part way removes what was already committed: an import is all or nothing.
    std::optional<SqlTransaction> transaction(std::in_place, *c);
    if (!transaction->isActive())
        return fail(transaction->error());
    QString why;
    QString id;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    bool committedSome = false;
    QElapsedTimer batch;
    batch.start();
    auto dropStarted = [&]() {
        transaction.reset();  // rolls back the open batch
        if (committedSome) {
            SqlQuery remove(*c, u"DELETE FROM sessions WHERE id = ?"_s);
            remove.bind(id);
            if (!remove.exec())
                qCWarning(lcStore) << "cannot remove the partly imported session" << id << remove.error();
        }
    };
    auto failAfterStart = [&](const QString &text) -> std::optional<QString> {
        dropStarted();
        return fail(text);
    };
    auto nextBatch = [&]() -> bool {
        if (batch.elapsed() < kImportBatchMs)
            return true;
        if (!transaction->commit(&why))
            return false;
        committedSome = true;
        transaction.reset();
        QThread::msleep(kImportPauseMs);
        transaction.emplace(*c);
        batch.restart();
        if (!transaction->isActive()) {
            why = transaction->error();
            return false;
        }
        return true;
    };

    // Messages are stored as they are read, so the file is never held whole; whatever fails
    // later (a damaged line, a missing end line) removes them again.
    QHash<qint64, qint64> messageIds; // document id -> row id
    QString storeError;               // a failure of the store, not of the file
    SessionExport::Streaming streaming;
    streaming.session = [&](const SessionInfo &session, QString *) {
        // Someone else's file must not choose where the agent works, which server gets a key, or
        // what runs without asking: those come from the user, as for a new session.
        SessionInfo fields = session;
        fields.workspace = workspace;
        fields.providerName.clear();
        fields.providerProfile = {};
        fields.summarizerProfile = {};
        fields.approvalPolicy.clear();
        fields.readOnly = true; // until the user continues it (continueSession)
        const auto created = createSession(fields, &storeError);
        if (created)
            id = created->id;
        return created.has_value();
    };
    streaming.message = [&](Message &&message, QString *) {
        const auto row = insertMessage(*c, id, messageIds.size(), message, 0, now, &storeError);
        if (!row)
            return false;
        messageIds.insert(message.id, *row);
        if (!nextBatch()) {
            storeError = why;
            return false;
        }
        return true;
    };
    std::optional<SessionDocument> doc = SessionExport::read(path, streaming, &why);
    if (!doc) {
        if (!storeError.isEmpty())
            return id.isEmpty() ? fail(storeError) : failAfterStart(storeError);
        dropStarted();
        setError(error, why); // SessionExport names the file, the line and the field
        return std::nullopt;
    }
    QHash<qint64, qint64> checkpointIds;
    for (const Checkpoint &cp : doc->checkpoints) {
        const auto row = insertCheckpoint(*c, id, cp, messageIds.value(cp.coversFromMessageId),
                                          messageIds.value(cp.coversUpToMessageId), now, &why);
        if (!row)
            return failAfterStart(why);
        checkpointIds.insert(cp.id, *row);
    }
    for (const Pin &pin : doc->pins) {
        // Kept as the file has them: the budget is the importing user's to apply when they pin more.
        SqlQuery q(*c, u"INSERT INTO pins (session_id, kind, source, message_id, text, reason, created_at) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)"_s);
        q.bind(id).bind(Pin::kindName(pin.kind)).bind(Pin::sourceName(pin.source));
        if (pin.kind != Pin::Kind::Note)
            q.bind(messageIds.value(pin.messageId));
        else
            q.bindNull();
        q.bind(pin.text).bind(pin.reason).bind(pin.createdAt.isValid() ? toMs(pin.createdAt) : now);
        if (!q.exec())
            return failAfterStart(q.error());
    }
    QHash<qint64, qint64> requestIds;
    for (const RequestRecord &r : doc->requests) {
        QList<qint64> view;
        view.reserve(r.viewMessageIds.size());
        for (qint64 m : r.viewMessageIds)
            view.append(messageIds.value(m));
        const auto row = insertRequest(*c, id, r, r.index, checkpointIds.value(r.viewCheckpointId), view, &why);
        if (!row)
            return failAfterStart(why);
        requestIds.insert(r.id, *row);
        if (!nextBatch())
            return failAfterStart(why);
    }
    for (auto it = doc->streamedOrigins.cbegin(); it != doc->streamedOrigins.cend(); ++it) {
        SqlQuery q(*c, u"UPDATE messages SET request_id = ? WHERE id = ?"_s);
        q.bind(requestIds.value(it.value())).bind(messageIds.value(it.key()));
        if (!q.exec())
            return failAfterStart(q.error());
        if (!nextBatch())
            return failAfterStart(why);
    }
    // An offload path from the file is resolved inside this session's own offload folder: only
    // its file name is kept, and only a plain one ("../../.ssh/id_rsa" names nothing here).
    auto ownPath = [&](const QString &exported, QString *resolved) {
        const QString name = exported.section(u'/', -1);
        if (!Paths::isSafePathComponent(name) || exported.contains(u'\\'))
            return false;
        *resolved = Paths::offloadRelativeDir(id) + u'/' + name;
        return true;
    };
    for (OffloadOverlay off : doc->offloads) {
        if (!ownPath(off.entry.relativePath, &off.entry.relativePath))
            return failAfterStart(QCoreApplication::translate("wl::SessionStore", "the offload of message %1 names the file \"%2\", which is not a file name")
                            .arg(off.messageId).arg(off.entry.relativePath));
        if (!insertOffload(*c, id, off, messageIds.value(off.messageId), now, &why))
            return failAfterStart(why);
    }
    for (CompactionRecord record : doc->records) {
        for (OffloadEntry &entry : record.offloaded) {
            entry.messageId = messageIds.value(entry.messageId);
            if (!ownPath(entry.relativePath, &entry.relativePath))
                return failAfterStart(QCoreApplication::translate("wl::SessionStore", "a compaction record names the offload file \"%1\", which is not a file name")
                                .arg(entry.relativePath));
        }
        if (!insertRecord(*c, id, record, &why))
            return failAfterStart(why);
    }
    if (!transaction->commit(&why))
        return failAfterStart(why);
    qCInfo(lcStore) << "imported" << path << "as session" << id;
    return id;
}

} // namespace wl
