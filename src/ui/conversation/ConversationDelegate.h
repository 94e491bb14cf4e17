#pragma once

#include "conversation/ConversationTypes.h"

#include <QAbstractItemDelegate>
#include <QCache>
#include <QHash>

namespace wl {

struct RowLayout;
struct RowState;

// Paints the rows of a ConversationModel. Each row kind has its painter in rows/ (MessageRow,
// ToolCardRow, CompactionRow, ErrorRow, ApprovalRow, ProgressRow) that lays out, paints and
// hit-tests that kind; the delegate picks it by the row's KindRole and keeps what outlives a
// paint: layouts, heights, and the view's hover, press and focus state.
// Rows that have been on screen keep a layout (QTextDocuments for Markdown, highlighted JSON,
// diffs, and the rects of their buttons) in an LRU cache keyed by the model's ItemIdRole; rows
// never shown report a cheap height estimate from their text length, so a 10,000-row
// conversation lays out only what is visible. The view calls prepare() for the visible rows
// before painting and relayouts when an estimate turned out wrong.
class ConversationDelegate : public QAbstractItemDelegate
{
    Q_OBJECT
public:
    explicit ConversationDelegate(QObject *parent = nullptr);
    ~ConversationDelegate() override;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The width rows are laid out for (the view's viewport width). Changing it drops layouts.
    void setWidth(int width);
    int width() const { return m_width; }

    // Lays the row out if it has no layout for the current width. True when its height now
    // differs from what sizeHint() reported before the call.
    bool prepare(const QStyleOptionViewItem &option, const QModelIndex &index);
    // The row's data changed: its layout is rebuilt when next prepared. The height reported
    // until then stays the last exact one, so the list moves only if the new height differs.
    void invalidate(quint64 itemId);
    // The row is gone: drop everything kept for it. clear() does that for all rows.
    void forget(quint64 itemId);
    void clear();
    bool hasExactHeight(quint64 itemId) const { return m_heights.contains(itemId); }

    // Rows that hold a layout now (bounded by the cache capacity, in practice by what was visible).
    int laidOutRowCount() const;
    // Layouts built since construction (each prepare() that had to build one).
    qint64 layoutsBuilt() const { return m_layoutsBuilt; }
    void setCacheCapacity(int rows);
    int cacheCapacity() const;

    // Interactive spots. Rects are relative to option.rect's coordinate system (viewport).
    ConversationAction actionAt(const QStyleOptionViewItem &option, const QModelIndex &index, const QPoint &pos);
    QRect actionRect(const QStyleOptionViewItem &option, const QModelIndex &index, ConversationAction action);
    // What the keyboard can reach on a row, in tab order, from the row's data alone.
    static QList<ConversationAction> actions(const QModelIndex &index);

    // Painting state owned by the view.
    void setHovered(quint64 itemId, ConversationAction action);
    void setPressed(quint64 itemId, ConversationAction action);
    void setFocused(quint64 itemId, ConversationAction action, bool viewHasFocus);

private:
    RowLayout *layoutFor(const QStyleOptionViewItem &option, const QModelIndex &index) const;
    RowLayout *buildLayout(const QStyleOptionViewItem &option, const QModelIndex &index) const;
    int estimateHeight(const QStyleOptionViewItem &option, const QModelIndex &index) const;
    int effectiveWidth(const QStyleOptionViewItem &option) const;
    RowState stateOf(quint64 itemId) const;

    int m_width = 0;
    mutable QCache<quint64, RowLayout> m_layouts;
    mutable QHash<quint64, int> m_heights;   // exact heights at m_width of rows laid out once
    mutable QHash<quint64, int> m_estimates; // estimated heights at m_width of rows never laid out
    mutable qint64 m_layoutsBuilt = 0;

    quint64 m_hoverItem = 0;
    ConversationAction m_hoverAction = ConversationAction::None;
    quint64 m_pressedItem = 0;
    ConversationAction m_pressedAction = ConversationAction::None;
    quint64 m_focusItem = 0;
    ConversationAction m_focusAction = ConversationAction::None;
    bool m_viewHasFocus = false;
};

} // namespace wl
