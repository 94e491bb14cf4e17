#pragma once

#include <QHash>
#include <QSqlDatabase>
#include <QString>

class QSqlError;
class QSqlQuery;

namespace wl {

// One named QSqlDatabase connection, used only by the thread that opened it
// (Qt's rule), with a cache of prepared statements so hot paths skip re-parsing SQL.
class SqlConnection
{
public:
    // After a checkpoint the WAL is truncated to at most this size (PRAGMA journal_size_limit):
    // without it the file keeps the size of the largest transaction it ever held.
    static constexpr qint64 kJournalSizeLimit = 64 * 1024 * 1024;
    // How long a writer waits for another one (another thread, or a second Waterline) before failing.
    static constexpr int kBusyTimeoutMs = 5000;

    SqlConnection(const QString &connectionName, const QString &path);
    ~SqlConnection(); // drops cached statements, closes and removes the connection

    SqlConnection(const SqlConnection &) = delete;
    SqlConnection &operator=(const SqlConnection &) = delete;

    // Opens the file and applies the per-connection settings. Does not write to the file.
    bool open(QString *error);

    QSqlDatabase database() const { return m_db; }
    const QString &name() const { return m_name; }

    // Runs one statement without bound values (PRAGMAs, DDL, BEGIN/COMMIT).
    bool execute(const QString &sql, QString *error);

    // A prepared statement for `sql`, or nullptr while that statement is already in use
    // (nested use of the same SQL); SqlQuery then prepares a private one.
    QSqlQuery *borrowStatement(const QString &sql);
    void returnStatement(const QString &sql);

private:
    struct Cached
    {
        QSqlQuery *query = nullptr;
        bool busy = false;
    };
    QString m_name;
    QString m_path;
    QSqlDatabase m_db;
    QHash<QString, Cached> m_cache;
};

// "driver text (database text)", the SQLite words behind a failure.
QString sqlErrorText(const QSqlError &error);

} // namespace wl
