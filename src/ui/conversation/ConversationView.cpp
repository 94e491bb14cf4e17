#include "ConversationView.h"

#include "conversation/ConversationDelegate.h"
#include "conversation/ConversationModel.h"

#include <QApplication>
#include <QClipboard>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

quint64 idOf(const QModelIndex &index)
{
    return index.isValid() ? index.data(ConversationModel::ItemIdRole).toULongLong() : 0;
}

ConversationRowKind kindOf(const QModelIndex &index)
{
    return ConversationRowKind(index.data(ConversationModel::KindRole).toInt());
}

} // namespace

ConversationView::ConversationView(QWidget *parent)
    : QListView(parent)
    , m_delegate(new ConversationDelegate(this))
    , m_ticker(new QTimer(this))
{
    setObjectName(u"ConversationView"_s);
    setItemDelegate(m_delegate);
    setUniformItemSizes(false);
    // Sizes come from the delegate: exact for rows seen, cheap estimates for the rest,
    // so one synchronous pass over all rows is affordable and keeps the scroll range right.
    setLayoutMode(QListView::SinglePass);
    setResizeMode(QListView::Adjust);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Always on: a scroll bar that comes and goes would change the width rows are laid out for.
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSpacing(0);
    setMouseTracking(true);
    setFrameShape(QFrame::NoFrame);
    setAccessibleName(tr("Conversation"));
    verticalScrollBar()->setSingleStep(24);

    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &ConversationView::onScrollValueChanged);
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, &ConversationView::onScrollRangeChanged);
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, &ConversationView::tick);
}

ConversationView::~ConversationView() = default;

void ConversationView::setModel(QAbstractItemModel *model)
{
    if (this->model())
        disconnect(this->model(), &QAbstractItemModel::rowsAboutToBeInserted, this,
                   &ConversationView::onRowsAboutToBeInserted);
    m_delegate->clear();
    m_pressedIndex = QPersistentModelIndex();
    m_hoverIndex = QPersistentModelIndex();
    m_followBottom = true;
    QListView::setModel(model);
    if (model)
        connect(model, &QAbstractItemModel::rowsAboutToBeInserted, this, &ConversationView::onRowsAboutToBeInserted);
}

void ConversationView::onRowsAboutToBeInserted(const QModelIndex &parent, int start, int)
{
    m_prependAnchor = QPersistentModelIndex();
    if (parent.isValid() || start != 0 || m_followBottom || !isVisible())
        return;
    const QList<QModelIndex> rows = visibleIndexes();
    if (rows.isEmpty())
        return;
    m_prependAnchor = rows.constFirst();
    m_prependAnchorTop = visualRect(rows.constFirst()).top();
}

void ConversationView::rowsInserted(const QModelIndex &parent, int start, int end)
{
    QListView::rowsInserted(parent, start, end);
    if (!m_prependAnchor.isValid())
        return;
    // Lay out now and scroll by what was added above, so the rows being read stay put.
    const QPersistentModelIndex anchor = m_prependAnchor;
    m_prependAnchor = QPersistentModelIndex();
    QListView::doItemsLayout();
    const int delta = visualRect(anchor).top() - m_prependAnchorTop;
    if (delta != 0) {
        m_adjustingScroll = true;
        verticalScrollBar()->setValue(verticalScrollBar()->value() + delta);
        m_adjustingScroll = false;
    }
}

int ConversationView::laidOutRowCount() const
{
    return m_delegate->laidOutRowCount();
}

QStyleOptionViewItem ConversationView::optionFor(const QModelIndex &index) const
{
    QStyleOptionViewItem option;
    initViewItemOption(&option);
    option.rect = visualRect(index);
    if (selectionModel() && selectionModel()->isSelected(index))
        option.state |= QStyle::State_Selected;
    return option;
}

QList<QModelIndex> ConversationView::visibleIndexes() const
{
    QList<QModelIndex> rows;
    if (!model() || model()->rowCount() == 0)
        return rows;
    const QRect area = viewport()->rect();
    QModelIndex first = indexAt(QPoint(area.width() / 2, 0));
    if (!first.isValid())
        first = model()->index(0, 0);
    for (int row = first.row(); row < model()->rowCount(); ++row) {
        const QModelIndex index = model()->index(row, 0);
        if (visualRect(index).top() > area.bottom())
            break;
        rows.append(index);
    }
    return rows;
}

void ConversationView::ensureVisibleLayouts()
{
    if (m_preparing || !model())
        return;
    m_preparing = true;
    if (m_delegate->width() != viewport()->width())
        m_delegate->setWidth(viewport()->width());
    for (int pass = 0; pass < 4; ++pass) {
        const QList<QModelIndex> rows = visibleIndexes();
        if (rows.size() * 2 > m_delegate->cacheCapacity())
            m_delegate->setCacheCapacity(int(rows.size()) * 2);
        // The first row whose height was already exact stays where it is on screen, so rows
        // entering at the top while scrolling up do not push the content around.
        QPersistentModelIndex anchor;
        int anchorTop = 0;
        bool changed = false;
        for (const QModelIndex &index : rows) {
            const bool rowChanged = m_delegate->prepare(optionFor(index), index);
            if (!rowChanged && !anchor.isValid()) {
                anchor = index;
                anchorTop = visualRect(index).top();
            }
            changed = changed || rowChanged;
        }
        if (!changed)
            break;
        QListView::doItemsLayout();
        if (m_followBottom) {
            scrollToEnd();
        } else if (anchor.isValid()) {
            const int delta = visualRect(anchor).top() - anchorTop;
            if (delta != 0) {
                m_adjustingScroll = true;
                verticalScrollBar()->setValue(verticalScrollBar()->value() + delta);
                m_adjustingScroll = false;
            }
        }
    }
    m_preparing = false;
}

void ConversationView::paintEvent(QPaintEvent *event)
{
    ensureVisibleLayouts();
    syncFocusState();
    QListView::paintEvent(event);
    if (m_emptyText.isEmpty() || (model() && model()->rowCount() > 0))
        return;
    QPainter painter(viewport());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    const QRect area = viewport()->rect().adjusted(24, 24, -24, -24);
    const int width = std::min(area.width(), fontMetrics().averageCharWidth() * 60);
    painter.drawText(QRect(area.center().x() - width / 2, area.top(), width, area.height()),
                     Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
}

void ConversationView::setEmptyText(const QString &text)
{
    m_emptyText = text;
    viewport()->update();
}

void ConversationView::resizeEvent(QResizeEvent *event)
{
    QListView::resizeEvent(event);
    if (viewport()->width() != m_delegate->width()) {
        m_delegate->setWidth(viewport()->width());
        QListView::doItemsLayout();
        if (m_followBottom)
            scrollToEnd();
    }
}

void ConversationView::scrollToEnd()
{
    m_adjustingScroll = true;
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    m_adjustingScroll = false;
}

void ConversationView::setFollowingBottom(bool follow)
{
    m_followBottom = follow;
    if (follow) {
        scrollToEnd();
        ensureVisibleLayouts();
    }
}

void ConversationView::onScrollValueChanged(int value)
{
    if (m_adjustingScroll)
        return;
    // Only the user moves the bar without the flag: follow again once they are back at the end.
    m_followBottom = value >= verticalScrollBar()->maximum() - 4;
}

void ConversationView::onScrollRangeChanged(int, int)
{
    if (m_followBottom)
        scrollToEnd();
}

ConversationAction ConversationView::hitTest(const QModelIndex &index, const QPoint &pos)
{
    if (!index.isValid())
        return ConversationAction::None;
    return m_delegate->actionAt(optionFor(index), index, pos);
}

QRect ConversationView::actionRect(const QModelIndex &index, ConversationAction action)
{
    if (!index.isValid())
        return {};
    return m_delegate->actionRect(optionFor(index), index, action);
}

void ConversationView::updateRow(const QModelIndex &index)
{
    if (index.isValid())
        viewport()->update(visualRect(index));
}

void ConversationView::syncFocusState()
{
    const QModelIndex current = currentIndex();
    m_delegate->setFocused(idOf(current), m_focusAction, hasFocus());
}

void ConversationView::trigger(const QModelIndex &index, ConversationAction action)
{
    if (!index.isValid())
        return;
    switch (action) {
    case ConversationAction::None:
        return;
    case ConversationAction::ToggleExpanded:
        model()->setData(index, !index.data(ConversationModel::ExpandedRole).toBool(), ConversationModel::ExpandedRole);
        return;
    case ConversationAction::OpenOffload:
        Q_EMIT offloadActivated(index.data(ConversationModel::CallIdRole).toString());
        return;
    case ConversationAction::OpenCompaction:
        Q_EMIT compactionActivated(index.data(ConversationModel::RecordIdRole).toString());
        return;
    case ConversationAction::AllowOnce:
    case ConversationAction::AllowForSession:
    case ConversationAction::Deny: {
        if (ApprovalState(index.data(ConversationModel::ApprovalStateRole).toInt()) != ApprovalState::Pending)
            return;
        const ApprovalDecision decision = action == ConversationAction::AllowOnce ? ApprovalDecision::AllowOnce
                                          : action == ConversationAction::AllowForSession
                                              ? ApprovalDecision::AllowForSession
                                              : ApprovalDecision::Deny;
        Q_EMIT approvalDecided(index.data(ConversationModel::ApprovalIdRole).toString(), decision);
        return;
    }
    case ConversationAction::Retry:
        if (index.data(ConversationModel::RetryableRole).toBool())
            Q_EMIT retryRequested(index.data(ConversationModel::ErrorIdRole).toString());
        return;
    case ConversationAction::Skip:
        if (index.data(ConversationModel::SkippableRole).toBool())
            Q_EMIT skipRequested();
        return;
    }
}

void ConversationView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        const QPoint pos = event->position().toPoint();
        const QModelIndex index = indexAt(pos);
        const ConversationAction action = hitTest(index, pos);
        if (action != ConversationAction::None) {
            m_pressedIndex = index;
            m_pressedAction = action;
            m_delegate->setPressed(idOf(index), action);
            if (selectionModel())
                selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
            if (ConversationDelegate::actions(index).contains(action))
                m_focusAction = action;
            syncFocusState();
            updateRow(index);
            // A marker's button activates it on release; any other button chooses its row too.
            if (action != ConversationAction::OpenCompaction)
                reportChoice(index);
            event->accept();
            return;
        }
    }
    QListView::mousePressEvent(event);
    // A click chooses the row under it, also the one already current.
    const QModelIndex clicked = indexAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && clicked.isValid() && clicked == currentIndex())
        reportChoice(clicked);
}

void ConversationView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_pressedIndex.isValid()) {
        const QModelIndex index = m_pressedIndex;
        const ConversationAction action = m_pressedAction;
        m_pressedIndex = QPersistentModelIndex();
        m_pressedAction = ConversationAction::None;
        m_delegate->setPressed(0, ConversationAction::None);
        updateRow(index);
        const QPoint pos = event->position().toPoint();
        if (indexAt(pos) == index && hitTest(index, pos) == action)
            trigger(index, action);
        event->accept();
        return;
    }
    QListView::mouseReleaseEvent(event);
}

void ConversationView::mouseDoubleClickEvent(QMouseEvent *event)
{
    // A double click on a button or header is one press, not two.
    const QPoint pos = event->position().toPoint();
    if (hitTest(indexAt(pos), pos) != ConversationAction::None) {
        event->accept();
        return;
    }
    QListView::mouseDoubleClickEvent(event);
}

void ConversationView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    const QModelIndex index = indexAt(pos);
    const ConversationAction action = hitTest(index, pos);
    if (index != m_hoverIndex || action != m_hoverAction) {
        const QModelIndex old = m_hoverIndex;
        m_hoverIndex = index;
        m_hoverAction = action;
        m_delegate->setHovered(idOf(index), action);
        updateRow(old);
        updateRow(index);
        if (action != ConversationAction::None)
            viewport()->setCursor(Qt::PointingHandCursor);
        else
            viewport()->unsetCursor();
    }
    if (!m_pressedIndex.isValid())
        QListView::mouseMoveEvent(event);
}

void ConversationView::leaveEvent(QEvent *event)
{
    const QModelIndex old = m_hoverIndex;
    m_hoverIndex = QPersistentModelIndex();
    m_hoverAction = ConversationAction::None;
    m_delegate->setHovered(0, ConversationAction::None);
    updateRow(old);
    viewport()->unsetCursor();
    QListView::leaveEvent(event);
}

QString ConversationView::selectedText() const
{
    if (!selectionModel())
        return {};
    QModelIndexList rows = selectionModel()->selectedIndexes();
    if (rows.isEmpty() && currentIndex().isValid())
        rows.append(currentIndex());
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QStringList parts;
    parts.reserve(rows.size());
    for (const QModelIndex &index : std::as_const(rows))
        parts.append(index.data(Qt::DisplayRole).toString());
    return parts.join(u"\n\n"_s);
}

void ConversationView::keyPressEvent(QKeyEvent *event)
{
    const QScopedValueRollback<bool> userInput(m_userInput, true);
    if (event->matches(QKeySequence::Copy)) {
        const QString text = selectedText();
        if (!text.isEmpty())
            QGuiApplication::clipboard()->setText(text);
        event->accept();
        return;
    }
    const QModelIndex current = currentIndex();
    const QList<ConversationAction> actions =
        current.isValid() ? ConversationDelegate::actions(current) : QList<ConversationAction>();
    if (!actions.isEmpty() && event->modifiers() == Qt::NoModifier) {
        qsizetype at = actions.indexOf(m_focusAction);
        switch (event->key()) {
        case Qt::Key_Left:
        case Qt::Key_Right:
            if (actions.size() > 1) {
                at = at < 0 ? 0 : (at + (event->key() == Qt::Key_Right ? 1 : actions.size() - 1)) % actions.size();
                m_focusAction = actions[at];
                syncFocusState();
                updateRow(current);
                event->accept();
                return;
            }
            break;
        case Qt::Key_Return:
        case Qt::Key_Enter:
        case Qt::Key_Space:
        case Qt::Key_Select:
            trigger(current, at < 0 ? actions.constFirst() : actions[at]);
            event->accept();
            return;
        default:
            break;
        }
    }
    QListView::keyPressEvent(event);
}

void ConversationView::currentChanged(const QModelIndex &current, const QModelIndex &previous)
{
    QListView::currentChanged(current, previous);
    const QList<ConversationAction> actions =
        current.isValid() ? ConversationDelegate::actions(current) : QList<ConversationAction>();
    m_focusAction = actions.value(0, ConversationAction::None);
    syncFocusState();
    updateRow(previous);
    updateRow(current);
    if (m_userInput)
        reportChoice(current);
}

void ConversationView::reportChoice(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    if (kindOf(index) == ConversationRowKind::Compaction) {
        Q_EMIT compactionActivated(index.data(ConversationModel::RecordIdRole).toString());
        return;
    }
    const qint64 result = index.data(ConversationModel::ResultMessageIdRole).toLongLong();
    const qint64 message = result != 0 ? result : index.data(ConversationModel::MessageIdRole).toLongLong();
    if (message != 0)
        Q_EMIT messageChosen(message);
}

bool ConversationView::selectMessage(qint64 messageId)
{
    if (!model() || messageId == 0)
        return false;
    // The first row that shows the message, as a message of its own or as a card's result.
    const QModelIndex start = model()->index(0, 0);
    const QModelIndexList own = model()->match(start, ConversationModel::MessageIdRole, messageId, 1, Qt::MatchExactly);
    const QModelIndexList result = model()->match(start, ConversationModel::ResultMessageIdRole, messageId, 1, Qt::MatchExactly);
    QModelIndex index = own.value(0);
    if (!index.isValid() || (!result.isEmpty() && result.constFirst().row() < index.row()))
        index = result.value(0);
    return showRow(index);
}

bool ConversationView::selectCompaction(const QString &recordId)
{
    if (!model() || recordId.isEmpty())
        return false;
    return showRow(model()->match(model()->index(0, 0), ConversationModel::RecordIdRole, recordId, 1, Qt::MatchExactly).value(0));
}

bool ConversationView::showRow(const QModelIndex &index)
{
    if (!index.isValid() || !selectionModel())
        return false;
    const QScopedValueRollback<bool> programmatic(m_userInput, false);
    selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
    if (viewport()->rect().contains(visualRect(index)))
        return true;
    // Rows get their exact height once laid out on screen: place, lay out, place again.
    scrollTo(index, QAbstractItemView::PositionAtTop);
    ensureVisibleLayouts();
    scrollTo(index, QAbstractItemView::PositionAtTop);
    return true;
}

void ConversationView::focusInEvent(QFocusEvent *event)
{
    QListView::focusInEvent(event);
    syncFocusState();
    updateRow(currentIndex());
}

void ConversationView::focusOutEvent(QFocusEvent *event)
{
    QListView::focusOutEvent(event);
    syncFocusState();
    updateRow(currentIndex());
}

void ConversationView::changeEvent(QEvent *event)
{
    QListView::changeEvent(event);
    switch (event->type()) {
    case QEvent::PaletteChange:
    case QEvent::FontChange:
    case QEvent::StyleChange:
        // Colours of highlighted JSON, diffs and code blocks are baked into the layouts.
        m_delegate->clear();
        if (model())
            QListView::doItemsLayout();
        viewport()->update();
        break;
    default:
        break;
    }
}

void ConversationView::showEvent(QShowEvent *event)
{
    QListView::showEvent(event);
    m_ticker->start();
}

void ConversationView::hideEvent(QHideEvent *event)
{
    m_ticker->stop();
    QListView::hideEvent(event);
}

void ConversationView::tick()
{
    // Elapsed times and retry countdowns are computed when painted: repaint those rows only.
    for (const QModelIndex &index : visibleIndexes()) {
        const ConversationRowKind kind = kindOf(index);
        if (kind == ConversationRowKind::Progress
            || (kind == ConversationRowKind::ToolCall
                && ToolCallStatus(index.data(ConversationModel::ToolStatusRole).toInt()) == ToolCallStatus::Running))
            updateRow(index);
    }
}

void ConversationView::dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    bool estimated = false;
    if (model()) {
        // Layouts are rebuilt when the rows are painted next, so a burst of streamed pieces
        // costs one layout; the list is laid out again only if a height really changed.
        for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
            const QModelIndex index = model()->index(row, 0);
            estimated = !m_delegate->hasExactHeight(idOf(index)) || estimated;
            m_delegate->invalidate(idOf(index));
        }
        const QModelIndex current = currentIndex();
        if (current.isValid() && current.row() >= topLeft.row() && current.row() <= bottomRight.row()) {
            const QList<ConversationAction> actions = ConversationDelegate::actions(current);
            if (!actions.contains(m_focusAction))
                m_focusAction = actions.value(0, ConversationAction::None);
        }
    }
    QListView::dataChanged(topLeft, bottomRight, roles);
    // Rows known only by estimate have a new estimate now.
    if (estimated)
        scheduleDelayedItemsLayout();
}

void ConversationView::rowsAboutToBeRemoved(const QModelIndex &parent, int start, int end)
{
    if (model() && !parent.isValid()) {
        for (int row = start; row <= end; ++row)
            m_delegate->forget(idOf(model()->index(row, 0)));
    }
    QListView::rowsAboutToBeRemoved(parent, start, end);
}

void ConversationView::reset()
{
    m_delegate->clear();
    m_pressedIndex = QPersistentModelIndex();
    m_hoverIndex = QPersistentModelIndex();
    QListView::reset();
}

} // namespace wl
