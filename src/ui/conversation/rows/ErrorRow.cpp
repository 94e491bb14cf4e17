#include "ErrorRow.h"

#include "common/PaletteColors.h"
#include "conversation/ConversationModel.h"
#include "conversation/rows/RowText.h"

#include <QPainter>
#include <QPainterPath>
#include <QTextDocument>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr int kIconWidth = 28; // the warning sign and the space after it

struct ErrorLayout : RowLayout
{
    std::unique_ptr<QTextDocument> body;
    QPoint bodyPos;
};

} // namespace

QList<ConversationAction> ErrorRow::actions(const QModelIndex &index) const
{
    if (index.data(ConversationModel::RetryableRole).toBool())
        return {ConversationAction::Retry};
    return {};
}

int ErrorRow::estimateHeight(const RowInput &input) const
{
    const RowMetrics &m = input.metrics;
    const int textWidth = input.width - 2 * kRowSide - 2 * kRowPad;
    const QString text = input.index.data(ConversationModel::TextRole).toString();
    int height = 2 * kRowGap + 2 * kRowPad + estimateLines(text, textWidth - kIconWidth, m.charWidth) * m.line;
    if (input.index.data(ConversationModel::RetryableRole).toBool())
        height += 8 + m.buttonHeight;
    return height;
}

std::unique_ptr<RowLayout> ErrorRow::layout(const RowInput &input) const
{
    auto layout = std::make_unique<ErrorLayout>();
    ErrorLayout &l = *layout;
    QRect frame = input.outer();
    const int textWidth = frame.width() - 2 * kRowPad - kIconWidth;
    l.body = makeRowDocument(input.metrics.font, textWidth);
    l.body->setPlainText(input.index.data(ConversationModel::TextRole).toString());
    l.bodyPos = QPoint(frame.left() + kRowPad + kIconWidth, frame.top() + kRowPad);
    int bottom = l.bodyPos.y() + rowDocumentHeight(l.body.get());
    const QList<ConversationAction> acts = actions(input.index);
    if (!acts.isEmpty()) {
        placeButtonsUpTo(l, input, acts, bottom + 8, frame.right() - kRowPad);
        bottom += 8 + input.metrics.buttonHeight;
    }
    frame.setBottom(bottom + kRowPad - 1);
    l.frame = frame;
    return layout;
}

void ErrorRow::paint(const RowPaintContext &c, const RowLayout &layout) const
{
    const auto &l = static_cast<const ErrorLayout &>(layout);
    QPainter *painter = c.painter;
    const QColor red = toolStatusColor(ToolCallStatus::Error, c.palette);
    painter->setPen(QPen(red, 1));
    painter->setBrush(mixColors(c.base, red, isDarkPalette(c.palette) ? 0.18 : 0.08));
    painter->drawRoundedRect(QRectF(l.frame).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    // A warning sign drawn as a triangle with "!" so it needs no icon theme.
    const QRectF sign(l.frame.left() + kRowPad, l.bodyPos.y() + 1, 16, 15);
    QPainterPath triangle;
    triangle.moveTo(sign.center().x(), sign.top());
    triangle.lineTo(sign.right(), sign.bottom());
    triangle.lineTo(sign.left(), sign.bottom());
    triangle.closeSubpath();
    painter->setPen(Qt::NoPen);
    painter->setBrush(red);
    painter->drawPath(triangle);
    painter->setPen(c.base);
    painter->setFont(c.m.bold);
    painter->drawText(sign.adjusted(0, 3, 0, 0), Qt::AlignCenter, u"!"_s);
    drawRowDocument(painter, l.body.get(), l.bodyPos, c.palette);
    c.drawButtons(l);
}

} // namespace wl
