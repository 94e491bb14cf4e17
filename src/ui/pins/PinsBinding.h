#pragma once

#include <QAbstractItemView>
#include <QObject>
#include <QPointer>

class QWidget;

namespace wl {

class MessagePinMenu;
class PinsPanel;
class SessionLifecycle;
struct LoadedSession;

// Wires pinning in the window (docs/COMPACTION.md section 12): the conversation's context menu and
// the Pins panel ask, SessionLifecycle stores off the GUI thread, and every shown session (opened
// or refreshed) updates the panel and the menu. A refused pin (over the budget) is shown as the
// store's message, which says by how much.
class PinsBinding : public QObject
{
    Q_OBJECT
public:
    PinsBinding(SessionLifecycle *sessions, QAbstractItemView *conversation, PinsPanel *panel, QWidget *dialogParent);

    void setSession(const LoadedSession &session);
    MessagePinMenu *menu() const { return m_menu; }

private:
    void pinSelection(qint64 messageId, const QString &messageText);

    SessionLifecycle *m_sessions;
    PinsPanel *m_panel;
    QPointer<QAbstractItemView> m_conversation;
    MessagePinMenu *m_menu;
    QPointer<QWidget> m_dialogParent;
};

} // namespace wl
