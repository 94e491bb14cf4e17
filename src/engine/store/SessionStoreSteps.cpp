// SessionStore: appending a step, reading the history back, and the requests and compaction
// records of a session.
#include "SessionStore.h"

#include "CompactJson.h"
#include "SqlConnection.h"
#include "SqlQuery.h"
#include "SqlTransaction.h"
#include "StoreRows.h"

#include <QCoreApplication>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

using namespace storerows;

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
        q.bindUtf8(r.viewMessageIds.toJsonText()).bind(r.estimateTokens).bind(r.toolSchemaTokens);
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
    // The whole history is sized first: a list grown by doubling holds up to twice a long
    // session's messages, three times while it moves.
    if (limit > 0)
        out.reserve(std::min(limit, 4096));
    else if (const qint64 count = messageCount(sessionId); count > offset)
        out.reserve(qsizetype(std::min<qint64>(count - std::max<qint64>(offset, 0), 10'000'000)));
    // Every row names the same session: one shared string, not a copy per message.
    const QString session = sessionId;
    selectRows(*c, u"SELECT "_s + kMessageColumns + u" FROM messages WHERE session_id = ? AND seq >= ? ORDER BY seq LIMIT ?"_s,
               [&out, &session](const SqlQuery &q) {
                   out.append(readMessage(q));
                   if (out.constLast().sessionId == session)
                       out.last().sessionId = session;
               },
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

// --- requests and records ------------------------------------------------------------------

QList<RequestRecord> SessionStore::requests(const QString &sessionId, QString *error)
{
    QList<RequestRecord> out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    QStringList problems;
    if (!selectRows(*c, u"SELECT "_s + kRequestColumns + u" FROM requests WHERE session_id = ? ORDER BY idx"_s,
                    [&](const SqlQuery &q) {
                        QString problem;
                        out.append(readRequest(q, &problem));
                        if (!problem.isEmpty())
                            problems << problem;
                    },
                    QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the requests of session %1: %2"), sessionId, error,
                    sessionId))
        return out;
    if (!problems.isEmpty())
        setError(error, problems.join(u"; "));
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

} // namespace wl
