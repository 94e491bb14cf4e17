#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

namespace wl::test {

// Another program holding the database's write lock: store writes wait for it (SQLite's busy
// timeout) until release(); the window must not.
class WriteLock
{
public:
    explicit WriteLock(const QString &path)
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("locker"));
        db.setDatabaseName(path);
        m_held = db.open() && QSqlQuery(db).exec(QStringLiteral("BEGIN IMMEDIATE"));
    }
    ~WriteLock()
    {
        QSqlDatabase::database(QStringLiteral("locker"), false).close();
        QSqlDatabase::removeDatabase(QStringLiteral("locker"));
    }
    bool isHeld() const { return m_held; }
    bool release()
    {
        m_held = false;
        return QSqlQuery(QSqlDatabase::database(QStringLiteral("locker"), false)).exec(QStringLiteral("COMMIT"));
    }

private:
    bool m_held = false;
};

} // namespace wl::test
