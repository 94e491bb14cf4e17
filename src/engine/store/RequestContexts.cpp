// SessionStore: the per-request system prompt and tool schemas of recorded traffic (schema 7).
#include "SessionStore.h"

#include "SqlConnection.h"
#include "SqlQuery.h"
#include "SqlTransaction.h"
#include "StoreRows.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace wl {

using storerows::setError;

bool SessionStore::setRequestContext(const QString &sessionId, int requestIndex, const RequestContext &context,
                                     QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    const auto fail = [&](const QString &why) {
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store what request %1 of session %2 was sent with: %3")
                                   .arg(requestIndex).arg(sessionId, why));
    };
    const QByteArray schemas = QJsonDocument(context.toolSchemas).toJson(QJsonDocument::Compact);
    const QByteArray prompt = context.systemPrompt.toUtf8();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArray::number(prompt.size()));
    hash.addData(QByteArrayView(":"));
    hash.addData(prompt);
    hash.addData(schemas);
    const QString digest = QString::fromLatin1(hash.result().toHex());

    SqlTransaction transaction(*c);
    if (!transaction.isActive())
        return fail(transaction.error());
    {
        SqlQuery q(*c, u"INSERT OR IGNORE INTO request_contexts (session_id, digest, system_prompt, tool_schemas) "
                       "VALUES (?, ?, ?, CAST(? AS TEXT))"_s);
        q.bind(sessionId).bind(digest).bind(context.systemPrompt).bindUtf8(schemas);
        if (!q.exec())
            return fail(q.error());
    }
    SqlQuery q(*c, u"UPDATE requests SET context_id = (SELECT id FROM request_contexts WHERE session_id = ? AND digest = ?) "
                   "WHERE session_id = ? AND idx = ?"_s);
    q.bind(sessionId).bind(digest).bind(sessionId).bind(requestIndex);
    if (!q.exec())
        return fail(q.error());
    if (q.rowsAffected() != 1)
        return fail(QCoreApplication::translate("wl::SessionStore", "there is no such request"));
    QString why;
    if (!transaction.commit(&why))
        return fail(why);
    return true;
}

std::optional<RequestContext> SessionStore::requestContext(const QString &sessionId, int requestIndex, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    SqlQuery q(*c, u"SELECT x.system_prompt, x.tool_schemas FROM requests r JOIN request_contexts x ON x.id = r.context_id "
                   "WHERE r.session_id = ? AND r.idx = ?"_s);
    q.bind(sessionId).bind(requestIndex);
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot read what request %1 of session %2 was sent with: %3")
                            .arg(requestIndex).arg(sessionId, q.error()));
        return std::nullopt;
    }
    if (!q.next())
        return std::nullopt;
    RequestContext context;
    context.systemPrompt = q.text(0);
    context.toolSchemas = QJsonDocument::fromJson(q.text(1).toUtf8()).array();
    return context;
}

} // namespace wl
