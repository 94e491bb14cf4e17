// SessionStore: the compaction overlays of a session (checkpoints, offloads), undoing a compaction,
// and the versions of a checkpoint (review edits, later edits, undo).
#include "SessionStore.h"

#include "SqlConnection.h"
#include "SqlQuery.h"
#include "SqlTransaction.h"
#include "StoreRows.h"

#include <QCoreApplication>
#include <QHash>

using namespace Qt::StringLiterals;

namespace wl {

using namespace storerows;

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

// --- undoing a compaction, versions of a checkpoint ----------------------------------------

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

} // namespace wl
