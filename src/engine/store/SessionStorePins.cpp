// SessionStore: the pins of a session (docs/COMPACTION.md section 12).
#include "SessionStore.h"

#include "SqlConnection.h"
#include "SqlQuery.h"
#include "SqlTransaction.h"
#include "StoreRows.h"
#include "compaction/PinnedSection.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace wl {

using namespace storerows;

QList<Pin> SessionStore::pins(const QString &sessionId, QString *error)
{
    QList<Pin> out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    selectRows(*c, u"SELECT "_s + kPinColumns + u" FROM pins WHERE session_id = ? ORDER BY id"_s,
               [&out](const SqlQuery &q) { out.append(readPin(q)); },
               QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read the pins of session %1: %2"), sessionId, error, sessionId);
    return out;
}

std::optional<Pin> SessionStore::addPin(const QString &sessionId, const Pin &pin, qint64 budgetTokens, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    SqlTransaction transaction(*c);
    if (!transaction.isActive()) {
        setError(error, transaction.error());
        return std::nullopt;
    }
    Pin stored = pin;
    stored.id = 0;
    if (pin.kind == Pin::Kind::Note) {
        stored.messageId = 0;
        if (pin.text.trimmed().isEmpty()) {
            setError(error, QCoreApplication::translate("wl::SessionStore", "Not pinned: the note is empty."));
            return std::nullopt;
        }
    } else {
        std::optional<Message> found;
        if (!selectRows(*c, u"SELECT "_s + kMessageColumns + u" FROM messages WHERE id = ? AND session_id = ?"_s,
                        [&found](const SqlQuery &q) { found = readMessage(q); },
                        QT_TRANSLATE_NOOP("wl::SessionStore", "cannot read message %1: %2"), QString::number(pin.messageId),
                        error, pin.messageId, sessionId))
            return std::nullopt;
        if (!found) {
            setError(error, QCoreApplication::translate("wl::SessionStore", "Not pinned: session %1 has no message %2.")
                                .arg(sessionId).arg(pin.messageId));
            return std::nullopt;
        }
        const QString whole = Pin::textOf(*found);
        if (pin.kind == Pin::Kind::Message) {
            stored.text = whole;
        } else if (pin.text.trimmed().isEmpty() || !whole.contains(pin.text)) {
            setError(error, QCoreApplication::translate("wl::SessionStore", "Not pinned: the selection is not part of message %1.")
                                .arg(pin.messageId));
            return std::nullopt;
        }
    }
    QList<Pin> all = pins(sessionId, error);
    all.append(stored);
    if (const QString refused = PinnedSection::refusal(all, budgetTokens); !refused.isEmpty()) {
        setError(error, refused);
        return std::nullopt;
    }
    if (!stored.createdAt.isValid())
        stored.createdAt = QDateTime::currentDateTimeUtc();
    SqlQuery q(*c, u"INSERT INTO pins (session_id, kind, source, message_id, text, reason, created_at) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)"_s);
    q.bind(sessionId).bind(Pin::kindName(stored.kind)).bind(Pin::sourceName(stored.source));
    if (stored.messageId > 0)
        q.bind(stored.messageId);
    else
        q.bindNull();
    q.bind(stored.text).bind(stored.reason).bind(toMs(stored.createdAt));
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot pin in session %1: %2").arg(sessionId, q.error()));
        return std::nullopt;
    }
    stored.id = q.lastInsertId();
    if (!transaction.commit(error))
        return std::nullopt;
    return stored;
}

bool SessionStore::removePin(qint64 pinId, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    SqlQuery q(*c, u"DELETE FROM pins WHERE id = ?"_s);
    q.bind(pinId);
    if (!q.exec())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot unpin %1: %2").arg(pinId).arg(q.error()));
    if (q.rowsAffected() != 1)
        return setError(error, QCoreApplication::translate("wl::SessionStore", "there is no pin %1").arg(pinId));
    return true;
}

} // namespace wl
