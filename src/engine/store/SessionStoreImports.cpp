// SessionStore: imports in progress (schema 10). An import creates its sessions claimed
// (SessionInfo::importing, the claim naming its process) and clears the claim once every part
// is stored; until then listSessions() leaves them out. What a killed import left is removed at
// the next open, in small transactions, so that it also works when the disk is nearly full.
#include "SessionStore.h"

#include "ImportClaim.h"
#include "LoggingCategories.h"
#include "SqlConnection.h"
#include "SqlQuery.h"
#include "SqlTransaction.h"
#include "StoreRows.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace wl {

using namespace storerows;

namespace {

// Rows per transaction while removing an abandoned import: each batch needs only a few pages
// of the WAL (which is reused after each checkpoint), never room for the whole session.
constexpr int kRemoveBatchRows = 500;

// Deletes the session's rows of `table` a batch at a time; false with SQLite's words on failure.
bool removeInBatches(SqlConnection &c, const QString &table, const QString &sessionId, QString *why)
{
    for (;;) {
        SqlTransaction transaction(c);
        if (!transaction.isActive()) {
            *why = transaction.error();
            return false;
        }
        SqlQuery remove(c, u"DELETE FROM %1 WHERE id IN (SELECT id FROM %1 WHERE session_id = ? LIMIT %2)"_s
                               .arg(table)
                               .arg(kRemoveBatchRows));
        remove.bind(sessionId);
        if (!remove.exec()) {
            *why = remove.error();
            return false;
        }
        const int removed = remove.rowsAffected();
        if (!transaction.commit(why))
            return false;
        if (removed < kRemoveBatchRows)
            return true;
        // Lets the next batch reuse the WAL from its start instead of growing it.
        c.execute(u"PRAGMA wal_checkpoint(PASSIVE)"_s, nullptr);
    }
}

} // namespace

bool SessionStore::finishImport(const QStringList &ids, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    auto fail = [&](const QString &why) {
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot complete the import: %1").arg(why));
    };
    SqlTransaction transaction(*c);
    if (!transaction.isActive())
        return fail(transaction.error());
    for (const QString &id : ids) {
        SqlQuery q(*c, u"UPDATE sessions SET import_claim = NULL WHERE id = ?"_s);
        q.bind(id);
        if (!q.exec())
            return fail(q.error());
        if (q.rowsAffected() != 1)
            return fail(QCoreApplication::translate("wl::SessionStore", "there is no session %1").arg(id));
    }
    QString why;
    if (!transaction.commit(&why))
        return fail(why);
    return true;
}

std::optional<int> SessionStore::removeAbandonedImports(QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    QStringList abandoned;
    {
        SqlQuery q(*c, u"SELECT id, import_claim FROM sessions WHERE import_claim IS NOT NULL"_s);
        if (!q.exec()) {
            setError(error, QCoreApplication::translate("wl::SessionStore", "cannot find unfinished imports: %1").arg(q.error()));
            return std::nullopt;
        }
        while (q.next()) {
            if (ImportClaim::isAbandoned(q.text(1)))
                abandoned.append(q.text(0));
        }
    }
    int removed = 0;
    for (const QString &id : std::as_const(abandoned)) {
        // The big tables first, a batch at a time; then the session row takes the small rest
        // (ON DELETE CASCADE) and deleteSession its files.
        QString why;
        if (!removeInBatches(*c, u"messages"_s, id, &why) || !removeInBatches(*c, u"requests"_s, id, &why)
            || !deleteSession(id, &why)) {
            // Still claimed, so still never listed: the next open tries again.
            setError(error, QCoreApplication::translate("wl::SessionStore", "cannot remove the unfinished import %1: %2").arg(id, why));
            return std::nullopt;
        }
        qCInfo(lcStore) << "removed the unfinished import" << id;
        ++removed;
    }
    return removed;
}

} // namespace wl
