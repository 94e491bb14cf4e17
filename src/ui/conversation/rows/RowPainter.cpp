#include "RowPainter.h"

#include "common/PaletteColors.h"
#include "conversation/ConversationDelegate.h"

#include <QApplication>
#include <QFontDatabase>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionButton>
#include <QStyleOptionViewItem>

namespace wl {

namespace {

// Labels use ConversationDelegate's translation context, where they have always been.
QString actionText(ConversationAction action)
{
    switch (action) {
    case ConversationAction::AllowOnce: return ConversationDelegate::tr("Allow once");
    case ConversationAction::AllowForSession: return ConversationDelegate::tr("Allow for this session");
    case ConversationAction::Deny: return ConversationDelegate::tr("Deny");
    case ConversationAction::Retry: return ConversationDelegate::tr("Retry");
    case ConversationAction::Skip: return ConversationDelegate::tr("Skip");
    default: return {};
    }
}

const QStyle *styleOf(const QStyleOptionViewItem &option)
{
    return option.widget ? option.widget->style() : QApplication::style();
}

QSize buttonSize(const QStyleOptionViewItem &option, const QString &text)
{
    QStyleOptionButton button;
    button.text = text;
    button.fontMetrics = option.fontMetrics;
    const QSize textSize = option.fontMetrics.size(Qt::TextShowMnemonic, text);
    return styleOf(option)->sizeFromContents(QStyle::CT_PushButton, &button, textSize, option.widget)
        .expandedTo(QSize(72, 0));
}

} // namespace

const RowMetrics &rowMetrics(const QStyleOptionViewItem &option)
{
    static RowMetrics cached;
    static bool valid = false;
    static QFont cachedFor;
    if (valid && cachedFor == option.font)
        return cached;
    cachedFor = option.font;
    valid = true;
    RowMetrics &m = cached;
    m.font = option.font;
    m.bold = option.font;
    m.bold.setBold(true);
    m.small = option.font;
    if (option.font.pointSizeF() > 0)
        m.small.setPointSizeF(option.font.pointSizeF() * 0.85);
    m.mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (option.font.pointSizeF() > 0)
        m.mono.setPointSizeF(option.font.pointSizeF() * 0.95);
    const QFontMetrics fm(m.font);
    const QFontMetrics sfm(m.small);
    const QFontMetrics mfm(m.mono);
    m.line = fm.lineSpacing();
    m.smallLine = sfm.lineSpacing();
    m.monoLine = mfm.lineSpacing();
    m.charWidth = fm.averageCharWidth();
    m.monoCharWidth = mfm.horizontalAdvance(u'M');
    QStyleOptionButton button;
    button.fontMetrics = fm;
    m.buttonHeight = styleOf(option)
                         ->sizeFromContents(QStyle::CT_PushButton, &button, QSize(40, fm.height()), option.widget)
                         .height();
    m.cardHeader = m.line + 12;
    return m;
}

QColor toolStatusColor(ToolCallStatus status, const QPalette &palette)
{
    const bool dark = isDarkPalette(palette);
    switch (status) {
    case ToolCallStatus::Pending: return mixColors(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.5);
    case ToolCallStatus::Running: return palette.color(QPalette::Highlight);
    case ToolCallStatus::Ok: return dark ? QColor(0x66, 0xbb, 0x6a) : QColor(0x2e, 0x7d, 0x32);
    case ToolCallStatus::Error: return dark ? QColor(0xef, 0x53, 0x50) : QColor(0xc6, 0x28, 0x28);
    case ToolCallStatus::Denied: return dark ? QColor(0xff, 0xa7, 0x26) : QColor(0xe6, 0x51, 0x00);
    }
    return palette.color(QPalette::Text);
}

RowPaintContext::RowPaintContext(QPainter *p, const QStyleOptionViewItem &opt, const QModelIndex &row,
                                 const RowMetrics &metrics, RowState rowState)
    : painter(p)
    , option(opt)
    , index(row)
    , m(metrics)
    , palette(opt.palette)
    , style(styleOf(opt))
    , state(rowState)
    , text(opt.palette.color(QPalette::Text))
    , base(option.palette.color(QPalette::Base))
    , border(mixColors(base, text, 0.22))
    , muted(mixColors(text, base, 0.45))
{
}

void RowPaintContext::drawButtons(const RowLayout &layout) const
{
    // CE_PushButton draws its label with the painter's font.
    painter->setFont(option.font);
    for (const RowLayout::Button &button : layout.buttons) {
        QStyleOptionButton opt;
        if (option.widget)
            opt.initFrom(option.widget);
        opt.rect = button.rect;
        opt.text = button.text;
        opt.palette = palette;
        opt.fontMetrics = option.fontMetrics;
        opt.state = QStyle::State_Enabled | QStyle::State_Raised;
        if (button.action == state.hovered)
            opt.state |= QStyle::State_MouseOver;
        if (button.action == state.pressed)
            opt.state |= QStyle::State_Sunken;
        if (button.action == state.focused)
            opt.state |= QStyle::State_HasFocus;
        style->drawControl(QStyle::CE_PushButton, &opt, painter, option.widget);
    }
}

void RowPaintContext::drawFocusFrame(ConversationAction action, const QRect &rect) const
{
    if (action != state.focused)
        return;
    QStyleOptionFocusRect focus;
    if (option.widget)
        focus.initFrom(option.widget);
    focus.rect = rect;
    focus.palette = palette;
    style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, option.widget);
}

QList<ConversationAction> RowPainter::actions(const QModelIndex &) const
{
    return {};
}

ConversationAction RowPainter::actionAt(const RowLayout &layout, const QPoint &pos) const
{
    for (const RowLayout::Button &button : layout.buttons) {
        if (button.rect.contains(pos))
            return button.action;
    }
    return spotAt(layout, pos);
}

QRect RowPainter::actionRect(const RowLayout &layout, ConversationAction action) const
{
    QRect rect;
    for (const RowLayout::Button &button : layout.buttons) {
        if (button.action == action)
            rect = button.rect;
    }
    return rect.isNull() ? spotRect(layout, action) : rect;
}

ConversationAction RowPainter::spotAt(const RowLayout &, const QPoint &) const
{
    return ConversationAction::None;
}

QRect RowPainter::spotRect(const RowLayout &, ConversationAction) const
{
    return {};
}

void RowPainter::placeButtonsFrom(RowLayout &layout, const RowInput &input, const QList<ConversationAction> &actions,
                                  int top, int left)
{
    int x = left;
    for (ConversationAction action : actions) {
        const QString label = actionText(action);
        const QSize size = buttonSize(input.option, label);
        layout.buttons.append({action, QRect(QPoint(x, top), QSize(size.width(), input.metrics.buttonHeight)), label});
        x += size.width() + 6;
    }
}

void RowPainter::placeButtonsUpTo(RowLayout &layout, const RowInput &input, const QList<ConversationAction> &actions,
                                  int top, int right)
{
    // Right to left, so the buttons are appended last action first.
    int x = right;
    for (auto it = actions.crbegin(); it != actions.crend(); ++it) {
        const QString label = actionText(*it);
        const QSize size = buttonSize(input.option, label);
        x -= size.width();
        layout.buttons.append({*it, QRect(QPoint(x, top), QSize(size.width(), input.metrics.buttonHeight)), label});
        x -= 6;
    }
}

} // namespace wl
