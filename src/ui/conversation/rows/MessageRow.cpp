#include "MessageRow.h"

#include "common/PaletteColors.h"
#include "conversation/ConversationDelegate.h"
#include "conversation/ConversationModel.h"
#include "conversation/rows/RowText.h"

#include <QDateTime>
#include <QLocale>
#include <QPainter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

struct MessageLayout : RowLayout
{
    QRect header;
    std::unique_ptr<QTextDocument> body;
    QPoint bodyPos;
};

ConversationRowKind kindOf(const QModelIndex &index)
{
    return ConversationRowKind(index.data(ConversationModel::KindRole).toInt());
}

QString roleTitle(ConversationRowKind kind, const QString &text)
{
    switch (kind) {
    case ConversationRowKind::User: return ConversationDelegate::tr("You");
    case ConversationRowKind::Assistant: return ConversationDelegate::tr("Assistant");
    case ConversationRowKind::System:
        return text.startsWith("[Context Compaction]"_L1) ? ConversationDelegate::tr("Compaction checkpoint")
                                                          : ConversationDelegate::tr("System note");
    default: return {};
    }
}

void shadeCodeBlocks(QTextDocument *doc, const QPalette &palette)
{
    const QColor background = mixColors(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.07);
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const QTextBlockFormat format = block.blockFormat();
        if (format.hasProperty(QTextFormat::BlockCodeFence) || format.hasProperty(QTextFormat::BlockCodeLanguage)
            || format.nonBreakableLines()) {
            QTextBlockFormat shaded;
            shaded.setBackground(background);
            QTextCursor(block).mergeBlockFormat(shaded);
        }
    }
}

} // namespace

int MessageRow::estimateHeight(const RowInput &input) const
{
    const RowMetrics &m = input.metrics;
    const int textWidth = input.width - 2 * kRowSide - 2 * kRowPad;
    const QString text = input.index.data(ConversationModel::TextRole).toString();
    const int lines = estimateLines(text, textWidth - input.width / 8, m.charWidth);
    return 2 * kRowGap + 2 * kRowPad + m.smallLine + 4 + lines * m.line;
}

std::unique_ptr<RowLayout> MessageRow::layout(const RowInput &input) const
{
    const RowMetrics &m = input.metrics;
    auto layout = std::make_unique<MessageLayout>();
    MessageLayout &l = *layout;
    const QRect outer = input.outer();
    QRect frame = outer;
    if (kindOf(input.index) == ConversationRowKind::User)
        frame.setLeft(outer.left() + std::min(96, input.width / 8));
    const int textWidth = frame.width() - 2 * kRowPad;
    l.header = QRect(frame.left() + kRowPad, frame.top() + kRowPad, textWidth, m.smallLine);
    l.body = makeRowDocument(m.font, textWidth);
    const QString text = input.index.data(ConversationModel::TextRole).toString();
    if (kindOf(input.index) == ConversationRowKind::User) {
        // What the user typed, as typed: a prompt's "# ..." is not a heading (imported prompts
        // often start with an agent's "# AGENTS.md instructions" block).
        l.body->setPlainText(text);
    } else {
        l.body->setMarkdown(text, QTextDocument::MarkdownDialectGitHub);
        capHeadingSizes(l.body.get());
        shadeCodeBlocks(l.body.get(), input.option.palette);
    }
    l.bodyPos = QPoint(frame.left() + kRowPad, l.header.bottom() + 1 + 4);
    frame.setBottom(l.bodyPos.y() + rowDocumentHeight(l.body.get()) + kRowPad - 1);
    l.frame = frame;
    return layout;
}

void MessageRow::paint(const RowPaintContext &c, const RowLayout &layout) const
{
    const auto &l = static_cast<const MessageLayout &>(layout);
    QPainter *painter = c.painter;
    const ConversationRowKind kind = kindOf(c.index);
    const QString body = c.index.data(ConversationModel::TextRole).toString();
    if (kind == ConversationRowKind::User) {
        painter->setPen(Qt::NoPen);
        const qreal tint = isDarkPalette(c.palette) ? 0.22 : 0.10;
        painter->setBrush(mixColors(c.base, c.palette.color(QPalette::Highlight), tint));
        painter->drawRoundedRect(QRectF(l.frame).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8);
    } else if (kind == ConversationRowKind::System) {
        painter->setPen(QPen(c.border, 1, Qt::DashLine));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(QRectF(l.frame).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    }
    painter->setFont(c.m.small);
    painter->setPen(c.muted);
    QString title = roleTitle(kind, body);
    if (c.index.data(ConversationModel::StreamingRole).toBool())
        title = ConversationDelegate::tr("%1 · writing…").arg(title);
    if (c.index.data(ConversationModel::PinnedRole).toBool())
        title = ConversationDelegate::tr("%1 · pinned").arg(title);
    painter->drawText(l.header, Qt::AlignLeft | Qt::AlignVCenter, title);
    const QDateTime when = c.index.data(ConversationModel::TimestampRole).toDateTime();
    if (when.isValid())
        painter->drawText(l.header, Qt::AlignRight | Qt::AlignVCenter,
                          formatRowTime(when, QDate::currentDate()));
    drawRowDocument(painter, l.body.get(), l.bodyPos, c.palette,
                    kind == ConversationRowKind::System ? c.muted : QColor());
}

} // namespace wl
