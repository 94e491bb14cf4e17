#include "ToolCardRow.h"

#include "common/PaletteColors.h"
#include "conversation/ConversationDelegate.h"
#include "conversation/ConversationModel.h"
#include "conversation/JsonHighlighting.h"
#include "conversation/rows/RowText.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QPainter>
#include <QStyle>
#include <QStyleOption>
#include <QTextDocument>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr int kMaxArgumentChars = 20000;
constexpr int kMaxResultLines = 60;

struct ToolCardLayout : RowLayout
{
    QRect header;
    QString headerSummary; // the argument worth showing on the collapsed line
    QRect badge;           // "offloaded", when the result is
    std::unique_ptr<QTextDocument> arguments;
    QRect argumentsBox;
    QPoint argumentsCaption;
    std::unique_ptr<QTextDocument> result;
    QRect resultBox;
    QPoint resultCaption;
};

// The argument a reader wants on a collapsed card: the command, the path, the query...
QString argumentSummary(const QString &arguments)
{
    const QJsonObject object = QJsonDocument::fromJson(arguments.left(kMaxArgumentChars).toUtf8()).object();
    for (const auto key : {"command"_L1, "cmd"_L1, "path"_L1, "file_path"_L1, "pattern"_L1, "url"_L1, "query"_L1}) {
        const QJsonValue value = object.value(key);
        if (value.isString())
            return value.toString().simplified();
    }
    return arguments.left(300).simplified();
}

QString prettyArguments(const QString &arguments)
{
    const QString head = arguments.left(kMaxArgumentChars);
    const QJsonDocument document = QJsonDocument::fromJson(head.toUtf8());
    QString text = document.isNull() ? head : QString::fromUtf8(document.toJson(QJsonDocument::Indented)).trimmed();
    if (arguments.size() > kMaxArgumentChars)
        text += u'\n' % ConversationDelegate::tr("… %1 more characters").arg(arguments.size() - kMaxArgumentChars);
    return text;
}

// The header minus the badge, so a click on its centre toggles.
QRect toggleRect(const ToolCardLayout &l)
{
    QRect rect = l.header;
    if (l.badge.isValid())
        rect.setRight(l.badge.left() - 1);
    return rect;
}

} // namespace

QList<ConversationAction> ToolCardRow::actions(const QModelIndex &index) const
{
    if (index.data(ConversationModel::OffloadedRole).toBool())
        return {ConversationAction::ToggleExpanded, ConversationAction::OpenOffload};
    return {ConversationAction::ToggleExpanded};
}

int ToolCardRow::estimateHeight(const RowInput &input) const
{
    const RowMetrics &m = input.metrics;
    int height = 2 * kRowGap + m.cardHeader;
    if (input.index.data(ConversationModel::ExpandedRole).toBool()) {
        const int textWidth = input.width - 2 * kRowSide - 2 * kRowPad;
        const QString args = input.index.data(ConversationModel::ToolArgumentsRole).toString();
        const QString result = input.index.data(ConversationModel::TextRole).toString();
        const int argLines = std::min(estimateLines(args, textWidth, m.monoCharWidth) + 4, 800);
        const int resultLines = std::min(estimateLines(result, textWidth, m.monoCharWidth), kMaxResultLines + 1);
        height += kRowPad + 2 * (m.smallLine + 4 + 12 + kRowPad) + (argLines + resultLines) * m.monoLine;
    }
    return height;
}

std::unique_ptr<RowLayout> ToolCardRow::layout(const RowInput &input) const
{
    const RowMetrics &m = input.metrics;
    const QModelIndex &index = input.index;
    auto layout = std::make_unique<ToolCardLayout>();
    ToolCardLayout &l = *layout;
    QRect frame = input.outer();
    l.header = QRect(frame.left(), frame.top(), frame.width(), m.cardHeader);
    l.headerSummary = argumentSummary(index.data(ConversationModel::ToolArgumentsRole).toString());
    if (index.data(ConversationModel::OffloadedRole).toBool()) {
        const QFontMetrics sfm(m.small);
        const int badgeWidth = sfm.horizontalAdvance(ConversationDelegate::tr("offloaded")) + 14;
        l.badge = QRect(frame.right() - kRowPad - badgeWidth, frame.top() + (m.cardHeader - sfm.height() - 4) / 2,
                        badgeWidth, sfm.height() + 4);
    }
    int bottom = l.header.bottom();
    if (index.data(ConversationModel::ExpandedRole).toBool()) {
        const int textWidth = frame.width() - 2 * kRowPad - 12;
        l.argumentsCaption = QPoint(frame.left() + kRowPad, bottom + 1 + kRowPad);
        l.arguments = makeRowDocument(m.mono, textWidth);
        l.arguments->setPlainText(prettyArguments(index.data(ConversationModel::ToolArgumentsRole).toString()));
        attachJsonHighlighting(l.arguments.get(), input.option.palette);
        l.argumentsBox = QRect(frame.left() + kRowPad, l.argumentsCaption.y() + m.smallLine + 4,
                               frame.width() - 2 * kRowPad, rowDocumentHeight(l.arguments.get()) + 12);
        l.resultCaption = QPoint(frame.left() + kRowPad, l.argumentsBox.bottom() + 1 + kRowPad);
        bool cut = false;
        const QString text = index.data(ConversationModel::TextRole).toString();
        QString resultText = firstLines(text, kMaxResultLines, &cut);
        const auto status = ToolCallStatus(index.data(ConversationModel::ToolStatusRole).toInt());
        if (status == ToolCallStatus::Pending)
            resultText = ConversationDelegate::tr("No result yet.");
        else if (status == ToolCallStatus::Running)
            resultText = ConversationDelegate::tr("Running…");
        else if (resultText.isEmpty())
            resultText = ConversationDelegate::tr("(empty result)");
        if (cut || index.data(ConversationModel::ToolResultTruncatedRole).toBool())
            resultText += u"\n…"_s;
        l.result = makeRowDocument(m.mono, textWidth);
        l.result->setPlainText(resultText);
        l.resultBox = QRect(frame.left() + kRowPad, l.resultCaption.y() + m.smallLine + 4, frame.width() - 2 * kRowPad,
                            rowDocumentHeight(l.result.get()) + 12);
        bottom = l.resultBox.bottom() + kRowPad;
    }
    frame.setBottom(bottom);
    l.frame = frame;
    return layout;
}

void ToolCardRow::paint(const RowPaintContext &c, const RowLayout &layout) const
{
    const auto &l = static_cast<const ToolCardLayout &>(layout);
    QPainter *painter = c.painter;
    const QModelIndex &index = c.index;
    const RowMetrics &m = c.m;
    const auto status = ToolCallStatus(index.data(ConversationModel::ToolStatusRole).toInt());
    const bool expanded = index.data(ConversationModel::ExpandedRole).toBool();
    const QColor accent = toolStatusColor(status, c.palette);
    painter->setPen(QPen(c.border, 1));
    painter->setBrush(mixColors(c.base, c.text, 0.035));
    painter->drawRoundedRect(QRectF(l.frame).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    if (c.state.hovered == ConversationAction::ToggleExpanded) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(mixColors(c.base, c.text, 0.07));
        painter->drawRoundedRect(QRectF(l.header).adjusted(1, 1, -1, -1), 5, 5);
    }
    // Accent bar in the status colour.
    painter->fillRect(QRect(l.frame.left() + 1, l.frame.top() + 4, 3, l.frame.height() - 8), accent);

    int x = l.header.left() + kRowPad;
    const int midY = l.header.center().y();
    QStyleOption arrow;
    if (c.option.widget)
        arrow.initFrom(c.option.widget);
    arrow.palette = c.palette;
    arrow.rect = QRect(x, midY - 5, 10, 10);
    c.style->drawPrimitive(expanded ? QStyle::PE_IndicatorArrowDown : QStyle::PE_IndicatorArrowRight, &arrow, painter,
                           c.option.widget);
    x += 16;
    painter->setPen(Qt::NoPen);
    painter->setBrush(accent);
    painter->drawEllipse(QPointF(x + 4, midY + 0.5), 4, 4);
    x += 14;

    QString statusText = ConversationModel::statusLabel(status);
    if (status == ToolCallStatus::Running) {
        const QDateTime started = index.data(ConversationModel::StartedAtRole).toDateTime();
        if (started.isValid())
            statusText = ConversationDelegate::tr("running %1").arg(formatElapsed(started));
    }
    if (const int removed = index.data(ConversationModel::RedactedRole).toInt(); removed > 0)
        statusText += u" · "_s + ConversationDelegate::tr("%n secret(s) removed", nullptr, removed);
    painter->setFont(m.small);
    painter->setPen(accent);
    const QFontMetrics sfm(m.small);
    painter->drawText(QRect(x, l.header.top(), sfm.horizontalAdvance(statusText) + 2, l.header.height()),
                      Qt::AlignLeft | Qt::AlignVCenter, statusText);
    x += sfm.horizontalAdvance(statusText) + 10;

    int right = l.header.right() - kRowPad;
    if (l.badge.isValid()) {
        const QColor link = c.palette.color(QPalette::Link);
        painter->setPen(QPen(link, 1));
        QColor fill = link;
        fill.setAlphaF(c.state.hovered == ConversationAction::OpenOffload ? 0.25f : 0.12f);
        painter->setBrush(fill);
        painter->drawRoundedRect(QRectF(l.badge).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
        painter->drawText(l.badge, Qt::AlignCenter, ConversationDelegate::tr("offloaded"));
        c.drawFocusFrame(ConversationAction::OpenOffload, l.badge.adjusted(-2, -2, 2, 2));
        right = l.badge.left() - 8;
    }
    const qint64 duration = index.data(ConversationModel::ToolDurationRole).toLongLong();
    if (duration >= 0) {
        const QString durationText = formatDuration(duration);
        painter->setPen(c.muted);
        const int w = sfm.horizontalAdvance(durationText);
        painter->drawText(QRect(right - w, l.header.top(), w + 1, l.header.height()), Qt::AlignRight | Qt::AlignVCenter,
                          durationText);
        right -= w + 10;
    }

    const QString name = index.data(ConversationModel::ToolNameRole).toString();
    painter->setFont(m.bold);
    painter->setPen(c.text);
    const QFontMetrics bfm(m.bold);
    const QString elidedName = bfm.elidedText(name, Qt::ElideRight, std::max(0, right - x));
    painter->drawText(QRect(x, l.header.top(), right - x, l.header.height()), Qt::AlignLeft | Qt::AlignVCenter,
                      elidedName);
    x += bfm.horizontalAdvance(elidedName) + 10;
    if (right - x > 20) {
        painter->setFont(m.mono);
        painter->setPen(c.muted);
        const QFontMetrics mfm(m.mono);
        painter->drawText(QRect(x, l.header.top(), right - x, l.header.height()), Qt::AlignLeft | Qt::AlignVCenter,
                          mfm.elidedText(l.headerSummary, Qt::ElideRight, right - x));
    }
    QRect focusRect = l.header.adjusted(2, 2, -2, -2);
    if (l.badge.isValid())
        focusRect.setRight(l.badge.left() - 4);
    c.drawFocusFrame(ConversationAction::ToggleExpanded, focusRect);

    if (expanded && l.arguments) {
        const QColor codeBackground = mixColors(c.base, c.text, 0.06);
        painter->setFont(m.small);
        painter->setPen(c.muted);
        painter->drawText(QRect(l.argumentsCaption, QSize(l.argumentsBox.width(), m.smallLine)),
                          Qt::AlignLeft | Qt::AlignVCenter, ConversationDelegate::tr("Arguments"));
        painter->fillRect(l.argumentsBox, codeBackground);
        drawRowDocument(painter, l.arguments.get(), l.argumentsBox.topLeft() + QPoint(6, 6), c.palette);

        QString resultCaption = ConversationDelegate::tr("Result");
        const qint64 length = index.data(ConversationModel::ToolResultLengthRole).toLongLong();
        if (index.data(ConversationModel::ToolResultTruncatedRole).toBool())
            resultCaption =
                ConversationDelegate::tr("Result (preview of %1 characters)").arg(QLocale().toString(length));
        painter->setPen(c.muted);
        painter->drawText(QRect(l.resultCaption, QSize(l.resultBox.width(), m.smallLine)),
                          Qt::AlignLeft | Qt::AlignVCenter, resultCaption);
        painter->fillRect(l.resultBox, codeBackground);
        drawRowDocument(painter, l.result.get(), l.resultBox.topLeft() + QPoint(6, 6), c.palette,
                        status == ToolCallStatus::Error ? accent : QColor());
    }
}

ConversationAction ToolCardRow::spotAt(const RowLayout &layout, const QPoint &pos) const
{
    const auto &l = static_cast<const ToolCardLayout &>(layout);
    if (l.badge.isValid() && l.badge.contains(pos))
        return ConversationAction::OpenOffload;
    if (l.header.contains(pos))
        return ConversationAction::ToggleExpanded;
    return ConversationAction::None;
}

QRect ToolCardRow::spotRect(const RowLayout &layout, ConversationAction action) const
{
    const auto &l = static_cast<const ToolCardLayout &>(layout);
    switch (action) {
    case ConversationAction::OpenOffload: return l.badge;
    case ConversationAction::ToggleExpanded: return toggleRect(l);
    default: return {};
    }
}

} // namespace wl
