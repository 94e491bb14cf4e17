#include "PinsBinding.h"

#include "MessagePinMenu.h"
#include "PinSelectionDialog.h"
#include "PinsPanel.h"
#include "compaction/PinnedSection.h"
#include "conversation/ConversationModel.h"
#include "store/PinBudget.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLifecycle.h"

#include <QAbstractItemView>
#include <QMessageBox>

namespace wl {

PinsBinding::PinsBinding(SessionLifecycle *sessions, QAbstractItemView *conversation, PinsPanel *panel,
                         QWidget *dialogParent)
    : QObject(panel), m_sessions(sessions), m_panel(panel), m_conversation(conversation),
      m_menu(new MessagePinMenu(conversation)), m_dialogParent(dialogParent)
{
    auto pinOf = [](Pin::Kind kind, qint64 messageId, const QString &text) {
        Pin pin;
        pin.kind = kind;
        pin.messageId = messageId;
        pin.text = text;
        return pin;
    };
    connect(m_menu, &MessagePinMenu::pinMessageRequested, this, [this, pinOf](qint64 messageId) {
        m_sessions->pin(pinOf(Pin::Kind::Message, messageId, {}));
    });
    connect(m_menu, &MessagePinMenu::pinSelectionRequested, this, &PinsBinding::pinSelection);
    connect(m_menu, &MessagePinMenu::unpinRequested, m_sessions, &SessionLifecycle::unpin);
    connect(m_panel, &PinsPanel::unpinRequested, m_sessions, &SessionLifecycle::unpin);
    connect(m_panel, &PinsPanel::noteRequested, this, [this, pinOf](const QString &text) {
        m_sessions->pin(pinOf(Pin::Kind::Note, 0, text));
    });
    connect(m_sessions, &SessionLifecycle::writeFailed, this,
            [this](SessionLifecycle::Write write, const QString &, const QString &error) {
        if (write == SessionLifecycle::Write::Pin)
            QMessageBox::warning(m_dialogParent, tr("Could not pin"), error);
        else if (write == SessionLifecycle::Write::Unpin)
            QMessageBox::warning(m_dialogParent, tr("Could not unpin"), error);
    });
}

void PinsBinding::setSession(const LoadedSession &session)
{
    const QList<Pin> &pins = session.overlays.pins;
    QHash<qint64, qint64> pinByMessage;
    for (const Pin &pin : pins) {
        if (pin.kind == Pin::Kind::Message)
            pinByMessage.insert(pin.messageId, pin.id);
    }
    m_menu->setPinnedMessages(pinByMessage);
    m_menu->setSession(session.history, pins);
    if (auto *model = m_conversation ? qobject_cast<ConversationModel *>(m_conversation->model()) : nullptr) {
        const QList<qint64> ids = pinByMessage.keys();
        model->setPinnedMessages(QSet<qint64>(ids.cbegin(), ids.cend()));
    }
    m_panel->setPins(pins, PinnedSection::tokens(pins), session.isEmpty() ? 0 : PinBudget::forSession(session.info),
                     !session.isEmpty());
}

void PinsBinding::pinSelection(qint64 messageId, const QString &messageText)
{
    PinSelectionDialog dialog(messageId, messageText, m_dialogParent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString selected = dialog.selectedText();
    if (selected.trimmed().isEmpty())
        return;
    Pin pin;
    pin.kind = Pin::Kind::Selection;
    pin.messageId = messageId;
    pin.text = selected;
    m_sessions->pin(pin);
}

} // namespace wl
