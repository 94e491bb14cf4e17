#include "SqlConnection.h"

#include "LoggingCategories.h"
#include "SqlQuery.h"

#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace wl {

QString sqlErrorText(const QSqlError &error)
{
    const QString db = error.databaseText().trimmed();
    const QString driver = error.driverText().trimmed();
    if (db.isEmpty())
        return driver;
    if (driver.isEmpty())
        return db;
    return db + u" ("_s + driver + u')';
}

SqlConnection::SqlConnection(const QString &connectionName, const QString &path)
    : m_name(connectionName)
    , m_path(path)
{
}

SqlConnection::~SqlConnection()
{
    for (auto it = m_cache.begin(); it != m_cache.end(); ++it)
        delete it->query;
    m_cache.clear();
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase(); // the last handle must go before removeDatabase
        QSqlDatabase::removeDatabase(m_name);
    }
}

bool SqlConnection::open(QString *error)
{
    m_db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_name);
    if (!m_db.isValid()) {
        if (error)
            *error = sqlErrorText(m_db.lastError());
        return false;
    }
    m_db.setDatabaseName(m_path);
    // Writers wait up to 5 s for each other (several threads, or the CLI next to the GUI).
    m_db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=%1"_s.arg(kBusyTimeoutMs));
    if (!m_db.open()) {
        if (error)
            *error = sqlErrorText(m_db.lastError());
        return false;
    }
    // foreign_keys makes ON DELETE CASCADE work; it is off by default in SQLite, per connection.
    // synchronous=NORMAL: in WAL mode a commit is durable against a crash of Waterline (the WAL
    // write has reached the OS before COMMIT returns) and the file can never be corrupted; only a
    // power loss can drop the last few commits. FULL would fsync every step for little gain.
    // wal_autocheckpoint: copy the WAL back into the database every 8000 pages (about 32 MB)
    // instead of SQLite's 1000. Each checkpoint fsyncs twice and rewrites every page the WAL
    // holds; the pages a session's appends touch (the right edge of a few B-trees) are the same
    // from step to step, so a longer interval copies each of them once instead of eight times.
    // Measured on BM_AppendPerTurn: wall time -25 %, CPU -5 %. Durability is unchanged (a
    // commit is durable once in the WAL); the WAL file may grow to that size while in use.
    // journal_size_limit: a long transaction (an import) can grow the WAL far past that; the next
    // checkpoint that resets it truncates it back to kJournalSizeLimit instead of keeping it.
    return execute(u"PRAGMA foreign_keys = ON"_s, error) && execute(u"PRAGMA synchronous = NORMAL"_s, error)
        && execute(u"PRAGMA wal_autocheckpoint = 8000"_s, error)
        && execute(u"PRAGMA journal_size_limit = %1"_s.arg(kJournalSizeLimit), error);
}

bool SqlConnection::execute(const QString &sql, QString *error)
{
    QSqlQuery query(m_db);
    if (!query.exec(sql)) {
        if (error)
            *error = sqlErrorText(query.lastError());
        qCWarning(lcStore) << "statement failed:" << sql << sqlErrorText(query.lastError());
        return false;
    }
    return true;
}

QSqlQuery *SqlConnection::borrowStatement(const QString &sql)
{
    auto it = m_cache.find(sql);
    if (it == m_cache.end()) {
        auto *query = new QSqlQuery(m_db);
        query->setForwardOnly(true);
        if (!query->prepare(namedPlaceholders(sql))) {
            qCWarning(lcStore) << "prepare failed:" << sql << sqlErrorText(query->lastError());
            delete query;
            return nullptr;
        }
        it = m_cache.insert(sql, Cached{query, false});
    }
    if (it->busy)
        return nullptr;
    it->busy = true;
    return it->query;
}

void SqlConnection::returnStatement(const QString &sql)
{
    auto it = m_cache.find(sql);
    if (it != m_cache.end()) {
        it->query->finish(); // resets the statement: a pending SELECT must not pin a WAL snapshot
        it->busy = false;
    }
}

} // namespace wl
