#pragma once

#include <QString>
#include <QVariant>

#include <memory>

class QSqlQuery;

namespace wl {

class SqlConnection;

// `sql` with each positional '?' (outside quotes) renamed to :p0, :p1, ... in order; what
// SqlQuery prepares, so bind() can name the placeholder without formatting it per value.
QString namedPlaceholders(const QString &sql);

// RAII prepared statement: values are always bound, never interpolated into SQL.
// Borrows a cached statement from the connection and resets it when it goes out of scope.
class SqlQuery
{
public:
    SqlQuery(SqlConnection &connection, const QString &sql);
    ~SqlQuery();

    SqlQuery(const SqlQuery &) = delete;
    SqlQuery &operator=(const SqlQuery &) = delete;

    bool isPrepared() const { return m_query != nullptr; }

    SqlQuery &bind(const QVariant &value);
    // A null QString is bound as '' (QtSql would bind NULL); bind a null QVariant for NULL.
    SqlQuery &bind(const QString &value) { return bind(QVariant(value.isNull() ? QStringLiteral("") : value)); }
    SqlQuery &bind(qint64 value) { return bind(QVariant(value)); }
    SqlQuery &bind(int value) { return bind(QVariant(value)); }
    SqlQuery &bind(bool value) { return bind(QVariant(value ? 1 : 0)); }
    SqlQuery &bindNull(); // NULL of integer type
    // Text handed to SQLite as UTF-8, its own encoding, so it is not converted from UTF-16 on
    // the way in. QtSql binds a QByteArray as a BLOB: the SQL must read the placeholder as
    // CAST(? AS TEXT), which reinterprets the bytes as text without copying or checking them.
    // A null QByteArray binds NULL.
    SqlQuery &bindUtf8(const QByteArray &utf8);
    SqlQuery &bindText(QStringView text); // '' for a null string, like bind(QString); needs the CAST too

    bool exec();
    bool next();
    QVariant value(int column) const;
    qint64 int64(int column) const;
    QString text(int column) const;
    bool isNull(int column) const;
    qint64 lastInsertId() const;
    int rowsAffected() const;

    // What went wrong: the SQLite words, with the statement for the log.
    QString error() const { return m_error; }

private:
    SqlConnection &m_connection;
    QString m_sql;
    QSqlQuery *m_query = nullptr;
    std::unique_ptr<QSqlQuery> m_own; // when the cached statement was busy
    bool m_borrowed = false;
    int m_bound = 0; // values bound so far: the next one goes to placeholder :p<m_bound>
    QString m_error;
};

} // namespace wl
