#include "SqlQuery.h"

#include "LoggingCategories.h"
#include "SqlConnection.h"

#include <QSqlError>
#include <QSqlQuery>

namespace wl {

SqlQuery::SqlQuery(SqlConnection &connection, const QString &sql)
    : m_connection(connection)
    , m_sql(sql)
{
    m_query = connection.borrowStatement(sql);
    if (m_query) {
        m_borrowed = true;
        return;
    }
    m_own = std::make_unique<QSqlQuery>(connection.database());
    m_own->setForwardOnly(true);
    if (m_own->prepare(sql)) {
        m_query = m_own.get();
    } else {
        m_error = sqlErrorText(m_own->lastError());
        qCWarning(lcStore) << "prepare failed:" << sql << m_error;
    }
}

SqlQuery::~SqlQuery()
{
    if (m_borrowed)
        m_connection.returnStatement(m_sql);
}

SqlQuery &SqlQuery::bind(const QVariant &value)
{
    if (m_query)
        m_query->addBindValue(value);
    return *this;
}

SqlQuery &SqlQuery::bindNull()
{
    return bind(QVariant(QMetaType::fromType<qint64>()));
}

bool SqlQuery::exec()
{
    if (!m_query)
        return false;
    if (!m_query->exec()) {
        m_error = sqlErrorText(m_query->lastError());
        qCWarning(lcStore) << "query failed:" << m_sql << m_error;
        return false;
    }
    return true;
}

bool SqlQuery::next()
{
    return m_query && m_query->next();
}

QVariant SqlQuery::value(int column) const
{
    return m_query->value(column);
}

qint64 SqlQuery::int64(int column) const
{
    return m_query->value(column).toLongLong();
}

QString SqlQuery::text(int column) const
{
    return m_query->value(column).toString();
}

bool SqlQuery::isNull(int column) const
{
    return m_query->isNull(column);
}

qint64 SqlQuery::lastInsertId() const
{
    return m_query ? m_query->lastInsertId().toLongLong() : 0;
}

int SqlQuery::rowsAffected() const
{
    return m_query ? m_query->numRowsAffected() : 0;
}

} // namespace wl
