#include "ApprovalRow.h"

#include "common/PaletteColors.h"
#include "conversation/ConversationDelegate.h"
#include "conversation/ConversationModel.h"
#include "conversation/rows/RowText.h"

#include <QPainter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr int kMaxDetailLines = 400;

struct ApprovalLayout : RowLayout
{
    QRect header;
    QRect detailBox;
    std::unique_ptr<QTextDocument> detail;
    QPoint detailPos;
    QRect statusLine; // the buttons' line, where the outcome is written once decided
};

ApprovalState stateOf(const QModelIndex &index)
{
    return ApprovalState(index.data(ConversationModel::ApprovalStateRole).toInt());
}

void colourDiff(QTextDocument *doc, const QPalette &palette)
{
    const bool dark = isDarkPalette(palette);
    const QColor added = dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x1b, 0x5e, 0x20);
    const QColor removed = dark ? QColor(0xe5, 0x73, 0x73) : QColor(0xb7, 0x1c, 0x1c);
    const QColor hunk = palette.color(QPalette::Link);
    const QColor fileLine = mixColors(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.45);
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const QString text = block.text();
        QColor colour;
        if (text.startsWith(u"+++"_s) || text.startsWith(u"---"_s))
            colour = fileLine;
        else if (text.startsWith(u'+'))
            colour = added;
        else if (text.startsWith(u'-'))
            colour = removed;
        else if (text.startsWith(u"@@"_s))
            colour = hunk;
        if (!colour.isValid())
            continue;
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat format;
        format.setForeground(colour);
        cursor.mergeCharFormat(format);
    }
}

} // namespace

QList<ConversationAction> ApprovalRow::actions(const QModelIndex &index) const
{
    if (stateOf(index) == ApprovalState::Pending)
        return {ConversationAction::AllowOnce, ConversationAction::AllowForSession, ConversationAction::Deny};
    return {};
}

int ApprovalRow::estimateHeight(const RowInput &input) const
{
    const RowMetrics &m = input.metrics;
    const int textWidth = input.width - 2 * kRowSide - 2 * kRowPad;
    const QString text = input.index.data(ConversationModel::TextRole).toString();
    const int lines = std::min(estimateLines(text, textWidth - 12, m.monoCharWidth), kMaxDetailLines + 1);
    return 2 * kRowGap + 2 * kRowPad + m.line + 6 + lines * m.monoLine + 12 + 8 + std::max(m.buttonHeight, m.line);
}

std::unique_ptr<RowLayout> ApprovalRow::layout(const RowInput &input) const
{
    const RowMetrics &m = input.metrics;
    auto layout = std::make_unique<ApprovalLayout>();
    ApprovalLayout &l = *layout;
    QRect frame = input.outer();
    l.header = QRect(frame.left() + kRowPad, frame.top() + kRowPad, frame.width() - 2 * kRowPad, m.line);
    const int textWidth = frame.width() - 2 * kRowPad - 12;
    const QString text = input.index.data(ConversationModel::TextRole).toString();
    bool cut = false;
    QString detail = firstLines(text, kMaxDetailLines, &cut);
    if (cut)
        detail += u'\n' % ConversationDelegate::tr("… %1 more lines").arg(text.count(u'\n') + 1 - kMaxDetailLines);
    l.detail = makeRowDocument(m.mono, textWidth);
    l.detail->setPlainText(detail);
    if (input.index.data(ConversationModel::DetailIsDiffRole).toBool())
        colourDiff(l.detail.get(), input.option.palette);
    l.detailBox = QRect(frame.left() + kRowPad, l.header.bottom() + 1 + 6, frame.width() - 2 * kRowPad,
                        rowDocumentHeight(l.detail.get()) + 12);
    l.detailPos = l.detailBox.topLeft() + QPoint(6, 6);
    const int top = l.detailBox.bottom() + 1 + 8;
    const QList<ConversationAction> acts = actions(input.index);
    placeButtonsFrom(l, input, acts, top, frame.left() + kRowPad);
    const int lineHeight = acts.isEmpty() ? m.line : m.buttonHeight;
    l.statusLine = QRect(frame.left() + kRowPad, top, frame.width() - 2 * kRowPad, lineHeight);
    frame.setBottom(top + lineHeight + kRowPad - 1);
    l.frame = frame;
    return layout;
}

void ApprovalRow::paint(const RowPaintContext &c, const RowLayout &layout) const
{
    const auto &l = static_cast<const ApprovalLayout &>(layout);
    QPainter *painter = c.painter;
    const ApprovalState state = stateOf(c.index);
    const bool pending = state == ApprovalState::Pending;
    const QColor highlight = c.palette.color(QPalette::Highlight);
    painter->setPen(QPen(pending ? highlight : c.border, pending ? 2 : 1));
    painter->setBrush(mixColors(c.base, highlight, pending ? 0.06 : 0.0));
    painter->drawRoundedRect(QRectF(l.frame).adjusted(1, 1, -1, -1), 6, 6);
    painter->setFont(c.m.bold);
    painter->setPen(c.text);
    const QString tool = c.index.data(ConversationModel::ToolNameRole).toString();
    const QString title = c.index.data(ConversationModel::DetailIsDiffRole).toBool()
                              ? ConversationDelegate::tr("Approval needed: %1 wants to change files").arg(tool)
                              : ConversationDelegate::tr("Approval needed: %1 wants to run").arg(tool);
    painter->drawText(l.header, Qt::AlignLeft | Qt::AlignVCenter,
                      QFontMetrics(c.m.bold).elidedText(title, Qt::ElideRight, l.header.width()));
    painter->fillRect(l.detailBox, mixColors(c.base, c.text, 0.06));
    drawRowDocument(painter, l.detail.get(), l.detailPos, c.palette);
    if (pending) {
        c.drawButtons(l);
    } else {
        painter->setFont(c.m.font);
        painter->setPen(toolStatusColor(state == ApprovalState::Denied ? ToolCallStatus::Denied : ToolCallStatus::Ok,
                                        c.palette));
        painter->drawText(l.statusLine, Qt::AlignLeft | Qt::AlignVCenter, ConversationModel::approvalStateLabel(state));
    }
}

} // namespace wl
