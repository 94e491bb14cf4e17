#include "MessagePinMenu.h"

#include "compaction/PinnedSection.h"
#include "conversation/ConversationModel.h"

#include <QAbstractItemView>
#include <QLocale>
#include <QMenu>
#include <QStringList>

#include <algorithm>

#include <memory>

using namespace Qt::StringLiterals;

namespace wl {

MessagePinMenu::MessagePinMenu(QAbstractItemView *view) : QObject(view), m_view(view)
{
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        if (!m_view)
            return;
        std::unique_ptr<QMenu> menu(menuFor(m_view->indexAt(pos), m_view));
        if (menu)
            menu->exec(m_view->viewport()->mapToGlobal(pos));
    });
}

void MessagePinMenu::setPinnedMessages(const QHash<qint64, qint64> &pinByMessage)
{
    m_pinByMessage = pinByMessage;
}

void MessagePinMenu::setSession(const QList<Message> &history, const QList<Pin> &pins)
{
    m_history = history;
    m_pins = pins;
}

QString MessagePinMenu::pinMessageLabel(qint64 messageId) const
{
    const auto it = std::lower_bound(m_history.cbegin(), m_history.cend(), messageId,
                                     [](const Message &m, qint64 id) { return m.id < id; });
    if (it == m_history.cend() || it->id != messageId)
        return tr("Pin Message");
    Pin pin;
    pin.kind = Pin::Kind::Message;
    pin.messageId = messageId;
    pin.text = Pin::textOf(*it);
    const qint64 tokens = PinnedSection::addedTokens(m_pins, pin);
    QStringList calls;
    for (const ToolCall &call : it->toolCalls)
        calls << call.name;
    QString what;
    if (calls.isEmpty())
        what = tr("its text");
    else if (it->content.trimmed().isEmpty())
        what = tr("the arguments of %1").arg(calls.join(u", "_s));
    else
        what = tr("its text and the arguments of %1").arg(calls.join(u", "_s));
    return tr("Pin Message: %1, %2 tokens").arg(what, QLocale().toString(tokens));
}

MessagePinMenu::Target MessagePinMenu::targetAt(const QModelIndex &index)
{
    Target t;
    if (!index.isValid())
        return t;
    const auto kind = ConversationRowKind(index.data(ConversationModel::KindRole).toInt());
    switch (kind) {
    case ConversationRowKind::User:
    case ConversationRowKind::Assistant:
        t.messageId = index.data(ConversationModel::MessageIdRole).toLongLong();
        t.text = index.data(ConversationModel::TextRole).toString();
        break;
    case ConversationRowKind::ToolCall: {
        const qint64 result = index.data(ConversationModel::ResultMessageIdRole).toLongLong();
        t.messageId = result > 0 ? result : index.data(ConversationModel::MessageIdRole).toLongLong();
        t.text = result > 0 ? index.data(ConversationModel::TextRole).toString()
                            : index.data(ConversationModel::ToolArgumentsRole).toString();
        break;
    }
    default:
        break;
    }
    if (t.messageId <= 0)
        return {};
    return t;
}

QMenu *MessagePinMenu::menuFor(const QModelIndex &index, QWidget *parent)
{
    const Target target = targetAt(index);
    if (target.messageId <= 0)
        return nullptr;
    auto *menu = new QMenu(parent);
    menu->setObjectName(u"MessagePinMenu"_s);
    const auto pinned = m_pinByMessage.constFind(target.messageId);
    if (pinned != m_pinByMessage.cend()) {
        const qint64 pinId = *pinned;
        QAction *unpin = menu->addAction(tr("Unpin Message"));
        unpin->setObjectName(u"UnpinMessageAction"_s);
        connect(unpin, &QAction::triggered, this, [this, pinId] { Q_EMIT unpinRequested(pinId); });
    } else {
        QAction *pin = menu->addAction(pinMessageLabel(target.messageId));
        pin->setObjectName(u"PinMessageAction"_s);
        pin->setToolTip(tr("Keep this message verbatim in every request (what it pins and the tokens it adds to each "
                           "request are in the label); compaction never summarises or offloads it"));
        const qint64 id = target.messageId;
        connect(pin, &QAction::triggered, this, [this, id] { Q_EMIT pinMessageRequested(id); });
    }
    QAction *selection = menu->addAction(tr("Pin Selection..."));
    selection->setObjectName(u"PinSelectionAction"_s);
    selection->setEnabled(!target.text.trimmed().isEmpty());
    connect(selection, &QAction::triggered, this,
            [this, target] { Q_EMIT pinSelectionRequested(target.messageId, target.text); });
    return menu;
}

} // namespace wl
