#include "SqlTransaction.h"

#include "SqlConnection.h"
#include "SqlQuery.h"

using namespace Qt::StringLiterals;

namespace wl {

SqlTransaction::SqlTransaction(SqlConnection &connection)
    : m_connection(connection)
{
    SqlQuery begin(m_connection, u"BEGIN IMMEDIATE"_s);
    m_active = begin.exec();
    m_error = begin.error();
}

SqlTransaction::~SqlTransaction()
{
    if (m_active)
        SqlQuery(m_connection, u"ROLLBACK"_s).exec();
}

bool SqlTransaction::commit(QString *error)
{
    if (!m_active) {
        if (error)
            *error = m_error;
        return false;
    }
    // Transaction control goes through the statement cache too: a step is a few dozen microseconds.
    SqlQuery commitStatement(m_connection, u"COMMIT"_s);
    if (!commitStatement.exec()) {
        m_error = commitStatement.error();
        if (error)
            *error = m_error;
        return false; // still active: the destructor rolls back
    }
    m_active = false;
    return true;
}

} // namespace wl
