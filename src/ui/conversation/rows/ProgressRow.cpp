#include "ProgressRow.h"

#include "common/PaletteColors.h"
#include "conversation/ConversationDelegate.h"
#include "conversation/ConversationModel.h"
#include "conversation/rows/RowText.h"

#include <QDateTime>
#include <QPainter>

namespace wl {

namespace {

struct ProgressLayout : RowLayout
{
    QRect statusLine; // label and elapsed time, between the ring and the buttons
};

} // namespace

QList<ConversationAction> ProgressRow::actions(const QModelIndex &index) const
{
    if (index.data(ConversationModel::SkippableRole).toBool())
        return {ConversationAction::Skip};
    return {};
}

int ProgressRow::estimateHeight(const RowInput &input) const
{
    return 2 * kRowGap + 2 * 6 + std::max(input.metrics.buttonHeight, input.metrics.line);
}

std::unique_ptr<RowLayout> ProgressRow::layout(const RowInput &input) const
{
    const RowMetrics &m = input.metrics;
    auto layout = std::make_unique<ProgressLayout>();
    ProgressLayout &l = *layout;
    QRect frame = input.outer();
    frame.setHeight(std::max(m.buttonHeight, m.line) + 12);
    placeButtonsUpTo(l, input, actions(input.index), frame.top() + (frame.height() - m.buttonHeight) / 2,
                     frame.right() - kRowPad);
    const int textRight = l.buttons.isEmpty() ? frame.right() - kRowPad : l.buttons.constFirst().rect.left() - 8;
    const int textLeft = frame.left() + kRowPad + 22; // after the ring
    l.statusLine = QRect(textLeft, frame.top(), textRight - textLeft, frame.height());
    l.frame = frame;
    return layout;
}

void ProgressRow::paint(const RowPaintContext &c, const RowLayout &layout) const
{
    const auto &l = static_cast<const ProgressLayout &>(layout);
    QPainter *painter = c.painter;
    const QColor highlight = c.palette.color(QPalette::Highlight);
    painter->setPen(QPen(mixColors(c.base, highlight, 0.5), 1));
    painter->setBrush(mixColors(c.base, highlight, 0.08));
    painter->drawRoundedRect(QRectF(l.frame).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    // An hourglass-like ring: a circle with a quarter arc in the highlight colour.
    const QRectF ring(l.frame.left() + kRowPad, l.frame.center().y() - 6, 12, 12);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(mixColors(c.base, highlight, 0.35), 2));
    painter->drawEllipse(ring);
    painter->setPen(QPen(highlight, 2));
    const int phase = int(QDateTime::currentMSecsSinceEpoch() / 1000 % 4);
    painter->drawArc(ring, (90 - phase * 90) * 16, -90 * 16);

    const QString label = c.index.data(Qt::DisplayRole).toString();
    const QDateTime started = c.index.data(ConversationModel::StartedAtRole).toDateTime();
    const QString elapsed = started.isValid() ? ConversationDelegate::tr("%1 elapsed").arg(formatElapsed(started))
                                              : QString();
    painter->setFont(c.m.font);
    painter->setPen(c.text);
    const QFontMetrics fm(c.m.font);
    const int elapsedWidth = QFontMetrics(c.m.small).horizontalAdvance(elapsed) + 12;
    const QRect labelRect = l.statusLine.adjusted(0, 0, -elapsedWidth, 0);
    painter->drawText(labelRect, Qt::AlignLeft | Qt::AlignVCenter,
                      fm.elidedText(label, Qt::ElideRight, labelRect.width()));
    painter->setFont(c.m.small);
    painter->setPen(c.muted);
    painter->drawText(l.statusLine, Qt::AlignRight | Qt::AlignVCenter, elapsed);
    c.drawButtons(l);
}

} // namespace wl
