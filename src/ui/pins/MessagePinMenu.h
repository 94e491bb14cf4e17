#pragma once

#include "compaction/Pin.h"
#include "model/Message.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>

class QAbstractItemView;
class QMenu;
class QModelIndex;
class QWidget;

namespace wl {

// The conversation's context menu for pins (docs/COMPACTION.md section 12): on a message, "Pin
// Message" or "Unpin Message", and "Pin Selection..." to pin a part of it. Works on any view whose
// model has ConversationModel's roles; it only asks (signals), the window stores.
class MessagePinMenu : public QObject
{
    Q_OBJECT
public:
    explicit MessagePinMenu(QAbstractItemView *view);

    // Whole-message pins of the open session: message id -> pin id.
    void setPinnedMessages(const QHash<qint64, qint64> &pinByMessage);
    // The open session's history (ids ascending) and pins: "Pin Message" says what a whole-message
    // pin of a message holds (its text, its calls' arguments) and the tokens it adds.
    void setSession(const QList<Message> &history, const QList<Pin> &pins);
    // That label for message `messageId` ("Pin Message" alone when the history does not hold it).
    QString pinMessageLabel(qint64 messageId) const;

    // The message a row stands for (a tool card: its stored result, else the call) and its text;
    // id 0 when the row shows no pinnable message (markers, errors, approvals, progress).
    struct Target
    {
        qint64 messageId = 0;
        QString text;
    };
    static Target targetAt(const QModelIndex &index);
    // The menu for `index` (null when nothing there can be pinned); the caller owns it.
    QMenu *menuFor(const QModelIndex &index, QWidget *parent);

Q_SIGNALS:
    void pinMessageRequested(qint64 messageId);
    void pinSelectionRequested(qint64 messageId, const QString &messageText);
    void unpinRequested(qint64 pinId);

private:
    QPointer<QAbstractItemView> m_view;
    QHash<qint64, qint64> m_pinByMessage;
    QList<Message> m_history;
    QList<Pin> m_pins;
};

} // namespace wl
