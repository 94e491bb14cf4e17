#include "SqlQuery.h"

#include "LoggingCategories.h"
#include "SqlConnection.h"

#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Placeholder names for positional values. QtSql turns every positional bind into a named
// one anyway, formatting ":<n>" with QString::arg for each bound value; that formatting was
// a fifth of the CPU time of appending a step. Binding by a name built once skips it.
constexpr int kPrebuiltNames = 64;

QString makePlaceholderName(int index)
{
    return u":p"_s + QString::number(index);
}

const QString &placeholderName(int index, QString *spare)
{
    static const QList<QString> names = [] {
        QList<QString> list;
        list.reserve(kPrebuiltNames);
        for (int i = 0; i < kPrebuiltNames; ++i)
            list.append(makePlaceholderName(i));
        return list;
    }();
    if (index < kPrebuiltNames)
        return names[index];
    *spare = makePlaceholderName(index);
    return *spare;
}

} // namespace

QString namedPlaceholders(const QString &sql)
{
    // Same lexing as QtSql's own rewrite: a '?' inside a quoted literal or identifier stays.
    QString out;
    out.reserve(sql.size() + sql.size() / 4);
    QChar closingQuote;
    int count = 0;
    for (const QChar ch : sql) {
        if (!closingQuote.isNull()) {
            if (ch == closingQuote)
                closingQuote = QChar();
            out += ch;
        } else if (ch == u'?') {
            out += makePlaceholderName(count++);
        } else {
            if (ch == u'\'' || ch == u'"' || ch == u'`')
                closingQuote = ch;
            else if (ch == u'[')
                closingQuote = u']';
            out += ch;
        }
    }
    return out;
}

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
    if (m_own->prepare(namedPlaceholders(sql))) {
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
    if (m_query) {
        QString spare;
        m_query->bindValue(placeholderName(m_bound++, &spare), value);
    }
    return *this;
}

SqlQuery &SqlQuery::bindNull()
{
    return bind(QVariant(QMetaType::fromType<qint64>()));
}

SqlQuery &SqlQuery::bindUtf8(const QByteArray &utf8)
{
    return bind(QVariant(utf8));
}

SqlQuery &SqlQuery::bindText(QStringView text)
{
    QByteArray utf8 = text.toUtf8();
    if (utf8.isNull())
        utf8 = QByteArray("", 0); // empty, not null: the column gets ''
    return bindUtf8(utf8);
}

bool SqlQuery::exec()
{
    if (!m_query)
        return false;
    m_bound = 0; // a re-execution binds from the first placeholder again
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
