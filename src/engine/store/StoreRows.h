#pragma once

// The rows of the session database as values, both ways, for the files of SessionStore
// (SessionStore*.cpp) and no one else: nothing outside src/engine/store includes this header.
// How a table's columns map to a struct is written once, here: the column lists next to the
// readers that depend on their order, and the INSERTs that appendStep and importSession share.
// Each member's own statements stay in its file.

#include "RequestRecord.h"
#include "SessionInfo.h"
#include "SqlQuery.h"
#include "compaction/CompactionRecord.h"
#include "compaction/ContextOverlays.h"
#include "model/Message.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVariant>

#include <optional>

namespace wl {

class SqlConnection;

namespace storerows {

// Sets *error (when given) and returns false, so a failure is one statement.
bool setError(QString *error, const QString &text);

// --- value conversions ---------------------------------------------------------------------
// Times are INTEGER ms since the epoch (UTC); NULL is an invalid QDateTime / no value.
qint64 toMs(const QDateTime &time);
QVariant toMsOrNull(const QDateTime &time);
QDateTime fromMs(const QVariant &value);
QVariant optionalToVariant(const std::optional<qint64> &value);
std::optional<qint64> optionalFromVariant(const QVariant &value);
// JSON columns hold compact JSON text.
QString jsonText(const QJsonObject &object);
QJsonObject jsonObject(const QString &text);

// --- row readers: SELECT <kXColumns> ... and readX(q) of each row --------------------------
extern const QString kSessionColumns; // from "sessions s"
SessionInfo readSession(const SqlQuery &q);
extern const QString kMessageColumns;
Message readMessage(const SqlQuery &q);
extern const QString kRequestColumns;
// A damaged view list (not ascending runs of ids) leaves the view empty and says so in `problem`.
RequestRecord readRequest(const SqlQuery &q, QString *problem);
extern const QString kCheckpointColumns;
Checkpoint readCheckpoint(const SqlQuery &q);
extern const QString kVersionColumns;
// A checkpoint_versions row read from kVersionColumns starting at column `at`.
CheckpointVersion readVersion(const SqlQuery &q, int at);
extern const QString kOffloadColumns;
OffloadOverlay readOffload(const SqlQuery &q);
extern const QString kPinColumns;
Pin readPin(const SqlQuery &q);

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
// Each returns the new row's id, or nothing with `error` set (translated, SQLite's words in it).
// `nowMs` is the time of a row whose value has none.
std::optional<qint64> insertMessage(SqlConnection &c, const QString &sessionId, qint64 seq, const Message &m,
                                    qint64 origin, qint64 nowMs, QString *error);
std::optional<qint64> insertRequest(SqlConnection &c, const QString &sessionId, const RequestRecord &r, int index,
                                    qint64 viewCheckpointId, const ViewIds &viewIds, QString *error);
std::optional<qint64> insertCheckpointVersion(SqlConnection &c, const QString &sessionId, qint64 checkpointId,
                                              const CheckpointVersion &v, qint64 nowMs, QString *error);
std::optional<qint64> insertCheckpoint(SqlConnection &c, const QString &sessionId, const Checkpoint &cp,
                                       qint64 fromId, qint64 upToId, qint64 nowMs, QString *error);
std::optional<qint64> insertOffload(SqlConnection &c, const QString &sessionId, const OffloadOverlay &o,
                                    qint64 messageId, qint64 nowMs, QString *error);
// The record and its five anchor_history rows.
bool insertRecord(SqlConnection &c, const QString &sessionId, CompactionRecord record, QString *error);

} // namespace storerows
} // namespace wl
