#pragma once

#include "conversation/ConversationTypes.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QPalette>
#include <QRect>
#include <QString>

#include <memory>

class QModelIndex;
class QPainter;
class QStyle;
class QStyleOptionViewItem;

// The parts every row kind of the conversation shares. ConversationDelegate picks one
// RowPainter per ConversationRowKind; each painter lays out, paints and hit-tests its kind.
namespace wl {

class RowPainter;

constexpr int kRowSide = 12; // left/right margin of a row
constexpr int kRowGap = 5;   // vertical margin above and below a row's frame
constexpr int kRowPad = 10;  // padding inside a frame

// Fonts and line heights for the view's font (computed once per font).
struct RowMetrics
{
    QFont font;
    QFont bold;
    QFont small;
    QFont mono;
    int line = 0;
    int smallLine = 0;
    int monoLine = 0;
    qreal charWidth = 7;
    qreal monoCharWidth = 7;
    int buttonHeight = 0;
    int cardHeader = 0;
};
const RowMetrics &rowMetrics(const QStyleOptionViewItem &option);

// What a visible row keeps to paint and hit-test, built once per width. Each painter derives
// the layout of its kind from it; rects are in row coordinates (0,0 is the row's top left).
struct RowLayout
{
    struct Button
    {
        ConversationAction action = ConversationAction::None;
        QRect rect;
        QString text;
    };

    virtual ~RowLayout() = default;

    const RowPainter *painter = nullptr; // the painter that built it and alone reads it
    int width = 0;
    int height = 0;
    QRect frame;
    QList<Button> buttons;
};

// A row to lay out or estimate: the view's option, the row, and the width rows are laid out for.
struct RowInput
{
    const QStyleOptionViewItem &option;
    const QModelIndex &index;
    const RowMetrics &metrics;
    int width = 0;

    // The frame rect before the painter sets its height: the full width minus the side margins.
    QRect outer() const { return {kRowSide, kRowGap, width - 2 * kRowSide, 0}; }
};

// The view's interaction state on one row: the action under the mouse, the pressed one, and the
// one with keyboard focus (None when the view has no focus).
struct RowState
{
    ConversationAction hovered = ConversationAction::None;
    ConversationAction pressed = ConversationAction::None;
    ConversationAction focused = ConversationAction::None;
};

// One row being painted: the painter (already translated to row coordinates and clipped), the
// colours every kind uses, and the drawing of buttons and focus frames.
struct RowPaintContext
{
    RowPaintContext(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index,
                    const RowMetrics &metrics, RowState state);

    // The layout's buttons as push buttons, with hover, press and focus.
    void drawButtons(const RowLayout &layout) const;
    // The style's focus frame around `rect` when `action` has the keyboard focus.
    void drawFocusFrame(ConversationAction action, const QRect &rect) const;

    QPainter *painter;
    const QStyleOptionViewItem &option;
    const QModelIndex &index;
    const RowMetrics &m;
    const QPalette &palette;
    const QStyle *style;
    RowState state;
    QColor text;   // QPalette::Text
    QColor base;   // QPalette::Base
    QColor border; // frames: text faintly over base
    QColor muted;  // captions, times, summaries
};

// Lays out, paints and hit-tests one kind of row. Painters hold no state: the delegate keeps
// layouts and interaction state, so one instance serves every row of its kind.
class RowPainter
{
public:
    virtual ~RowPainter() = default;

    // A cheap height for a row never laid out, from its text length.
    virtual int estimateHeight(const RowInput &input) const = 0;
    // The row's layout for input.width. The caller sets width, height and painter.
    virtual std::unique_ptr<RowLayout> layout(const RowInput &input) const = 0;
    // Paints the row from a layout this painter built.
    virtual void paint(const RowPaintContext &context, const RowLayout &layout) const = 0;
    // What the keyboard can reach on the row, in tab order, from the row's data alone.
    virtual QList<ConversationAction> actions(const QModelIndex &index) const;

    // The action at `pos` (row coordinates): a button, else a spot of the kind.
    ConversationAction actionAt(const RowLayout &layout, const QPoint &pos) const;
    // The rect of `action` (row coordinates), null when the row has none.
    QRect actionRect(const RowLayout &layout, ConversationAction action) const;

protected:
    // Interactive spots that are not buttons (a card header, a badge, a marker).
    virtual ConversationAction spotAt(const RowLayout &layout, const QPoint &pos) const;
    virtual QRect spotRect(const RowLayout &layout, ConversationAction action) const;

    // Appends buttons for `actions` on the line at `top`, in order, from `left` rightwards.
    static void placeButtonsFrom(RowLayout &layout, const RowInput &input, const QList<ConversationAction> &actions,
                                 int top, int left);
    // Appends buttons for `actions` on the line at `top`, the last one ending at `right`.
    static void placeButtonsUpTo(RowLayout &layout, const RowInput &input, const QList<ConversationAction> &actions,
                                 int top, int right);
};

// The colour of a tool call status (cards, approval outcomes), readable on the palette's Base.
QColor toolStatusColor(ToolCallStatus status, const QPalette &palette);

} // namespace wl
