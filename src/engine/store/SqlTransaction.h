#pragma once

#include <QString>

namespace wl {

class SqlConnection;

// RAII write transaction: BEGIN IMMEDIATE on construction (takes the write lock up front, so
// two writers wait on the busy timeout instead of failing on a lock upgrade), ROLLBACK on
// destruction unless commit() succeeded.
class SqlTransaction
{
public:
    explicit SqlTransaction(SqlConnection &connection);
    ~SqlTransaction();

    SqlTransaction(const SqlTransaction &) = delete;
    SqlTransaction &operator=(const SqlTransaction &) = delete;

    bool isActive() const { return m_active; }
    bool commit(QString *error = nullptr);
    QString error() const { return m_error; }

private:
    SqlConnection &m_connection;
    bool m_active = false;
    QString m_error;
};

} // namespace wl
