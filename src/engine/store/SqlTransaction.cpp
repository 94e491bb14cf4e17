#include "SqlTransaction.h"

#include "SqlConnection.h"

using namespace Qt::StringLiterals;

namespace wl {

SqlTransaction::SqlTransaction(SqlConnection &connection)
    : m_connection(connection)
{
    m_active = m_connection.execute(u"BEGIN IMMEDIATE"_s, &m_error);
}

SqlTransaction::~SqlTransaction()
{
    if (m_active)
        m_connection.execute(u"ROLLBACK"_s, nullptr);
}

bool SqlTransaction::commit(QString *error)
{
    if (!m_active) {
        if (error)
            *error = m_error;
        return false;
    }
    if (!m_connection.execute(u"COMMIT"_s, &m_error)) {
        if (error)
            *error = m_error;
        return false; // still active: the destructor rolls back
    }
    m_active = false;
    return true;
}

} // namespace wl
