#include "ConversationDelegate.h"

#include "conversation/ConversationModel.h"
#include "conversation/rows/ApprovalRow.h"
#include "conversation/rows/CompactionRow.h"
#include "conversation/rows/ErrorRow.h"
#include "conversation/rows/MessageRow.h"
#include "conversation/rows/ProgressRow.h"
#include "conversation/rows/ToolCardRow.h"

#include <QPainter>

namespace wl {

namespace {

ConversationRowKind kindOf(const QModelIndex &index)
{
    return ConversationRowKind(index.data(ConversationModel::KindRole).toInt());
}

quint64 idOf(const QModelIndex &index)
{
    return index.data(ConversationModel::ItemIdRole).toULongLong();
}

// The painter of each row kind. Painters hold no state, so one of each serves every delegate.
const RowPainter &painterFor(ConversationRowKind kind)
{
    static const MessageRow message{};
    static const ToolCardRow toolCard{};
    static const CompactionRow compaction{};
    static const ErrorRow error{};
    static const ApprovalRow approval{};
    static const ProgressRow progress{};
    switch (kind) {
    case ConversationRowKind::User:
    case ConversationRowKind::Assistant:
    case ConversationRowKind::System: return message;
    case ConversationRowKind::ToolCall: return toolCard;
    case ConversationRowKind::Compaction: return compaction;
    case ConversationRowKind::Error: return error;
    case ConversationRowKind::Approval: return approval;
    case ConversationRowKind::Progress: return progress;
    }
    return message;
}

const RowPainter &painterFor(const QModelIndex &index)
{
    return painterFor(kindOf(index));
}

} // namespace

ConversationDelegate::ConversationDelegate(QObject *parent)
    : QAbstractItemDelegate(parent)
{
    m_layouts.setMaxCost(256);
}

ConversationDelegate::~ConversationDelegate() = default;

void ConversationDelegate::setWidth(int width)
{
    if (width == m_width)
        return;
    m_width = width;
    clear();
}

int ConversationDelegate::effectiveWidth(const QStyleOptionViewItem &option) const
{
    if (m_width > 0)
        return m_width;
    return option.rect.width() > 0 ? option.rect.width() : 600;
}

void ConversationDelegate::invalidate(quint64 itemId)
{
    m_layouts.remove(itemId);
    m_estimates.remove(itemId);
}

void ConversationDelegate::forget(quint64 itemId)
{
    m_layouts.remove(itemId);
    m_heights.remove(itemId);
    m_estimates.remove(itemId);
}

void ConversationDelegate::clear()
{
    m_layouts.clear();
    m_heights.clear();
    m_estimates.clear();
}

int ConversationDelegate::laidOutRowCount() const
{
    return int(m_layouts.size());
}

void ConversationDelegate::setCacheCapacity(int rows)
{
    m_layouts.setMaxCost(std::max(8, rows));
}

int ConversationDelegate::cacheCapacity() const
{
    return int(m_layouts.maxCost());
}

void ConversationDelegate::setHovered(quint64 itemId, ConversationAction action)
{
    m_hoverItem = itemId;
    m_hoverAction = action;
}

void ConversationDelegate::setPressed(quint64 itemId, ConversationAction action)
{
    m_pressedItem = itemId;
    m_pressedAction = action;
}

void ConversationDelegate::setFocused(quint64 itemId, ConversationAction action, bool viewHasFocus)
{
    m_focusItem = itemId;
    m_focusAction = action;
    m_viewHasFocus = viewHasFocus;
}

QList<ConversationAction> ConversationDelegate::actions(const QModelIndex &index)
{
    return painterFor(index).actions(index);
}

int ConversationDelegate::estimateHeight(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    return painterFor(index).estimateHeight({option, index, rowMetrics(option), effectiveWidth(option)});
}

QSize ConversationDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const int width = effectiveWidth(option);
    const quint64 id = idOf(index);
    if (const auto it = m_heights.constFind(id); it != m_heights.cend())
        return {width, *it};
    // Layouts run over every row: remember estimates so a relayout costs a lookup per row.
    auto estimate = m_estimates.constFind(id);
    if (estimate == m_estimates.cend())
        estimate = m_estimates.insert(id, estimateHeight(option, index));
    return {width, *estimate};
}

bool ConversationDelegate::prepare(const QStyleOptionViewItem &option, const QModelIndex &index)
{
    const quint64 id = idOf(index);
    if (m_layouts.contains(id))
        return false;
    const int before = sizeHint(option, index).height();
    layoutFor(option, index);
    return m_heights.value(id, before) != before;
}

RowLayout *ConversationDelegate::layoutFor(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const quint64 id = idOf(index);
    // A layout is read only by the painter that built it (item ids never change kind; this holds if one did).
    if (RowLayout *layout = m_layouts.object(id); layout && layout->painter == &painterFor(index))
        return layout;
    RowLayout *layout = buildLayout(option, index);
    ++m_layoutsBuilt;
    m_heights.insert(id, layout->height);
    m_layouts.insert(id, layout);
    return layout;
}

RowLayout *ConversationDelegate::buildLayout(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const RowPainter &painter = painterFor(index);
    const int width = effectiveWidth(option);
    std::unique_ptr<RowLayout> layout = painter.layout({option, index, rowMetrics(option), width});
    layout->painter = &painter;
    layout->width = width;
    layout->height = layout->frame.bottom() + 1 + kRowGap;
    return layout.release();
}

RowState ConversationDelegate::stateOf(quint64 itemId) const
{
    RowState state;
    if (itemId == m_hoverItem)
        state.hovered = m_hoverAction;
    if (itemId == m_pressedItem)
        state.pressed = m_pressedAction;
    if (m_viewHasFocus && itemId == m_focusItem)
        state.focused = m_focusAction;
    return state;
}

ConversationAction ConversationDelegate::actionAt(const QStyleOptionViewItem &option, const QModelIndex &index,
                                                  const QPoint &pos)
{
    if (!index.isValid() || !option.rect.contains(pos))
        return ConversationAction::None;
    const RowLayout *layout = layoutFor(option, index);
    return layout->painter->actionAt(*layout, pos - option.rect.topLeft());
}

QRect ConversationDelegate::actionRect(const QStyleOptionViewItem &option, const QModelIndex &index,
                                       ConversationAction action)
{
    if (!index.isValid())
        return {};
    const RowLayout *layout = layoutFor(option, index);
    const QRect rect = layout->painter->actionRect(*layout, action);
    if (rect.isNull())
        return {};
    return rect.translated(option.rect.topLeft());
}

void ConversationDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const RowLayout *layout = layoutFor(option, index);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->translate(option.rect.topLeft());
    painter->setClipRect(QRect(0, 0, option.rect.width(), option.rect.height()));

    if (option.state & QStyle::State_Selected) {
        QColor selection = option.palette.color(QPalette::Highlight);
        selection.setAlphaF(0.18f);
        painter->fillRect(QRect(0, 0, option.rect.width(), option.rect.height()), selection);
    }
    const RowPaintContext context(painter, option, index, rowMetrics(option), stateOf(idOf(index)));
    layout->painter->paint(context, *layout);
    painter->restore();
}

} // namespace wl
