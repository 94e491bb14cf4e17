#include "CompactionRow.h"

#include "conversation/ConversationModel.h"

#include <QPainter>

using namespace Qt::StringLiterals;

namespace wl {

QList<ConversationAction> CompactionRow::actions(const QModelIndex &) const
{
    return {ConversationAction::OpenCompaction};
}

int CompactionRow::estimateHeight(const RowInput &input) const
{
    return 2 * kRowGap + input.metrics.line + 6;
}

std::unique_ptr<RowLayout> CompactionRow::layout(const RowInput &input) const
{
    auto layout = std::make_unique<RowLayout>();
    const QRect outer = input.outer();
    layout->frame = QRect(outer.left(), outer.top(), outer.width(), input.metrics.line + 6);
    return layout;
}

void CompactionRow::paint(const RowPaintContext &c, const RowLayout &l) const
{
    QPainter *painter = c.painter;
    const QModelIndex &index = c.index;
    const CompactionMarker marker{index.data(ConversationModel::RecordIdRole).toString(),
                                  Tier(index.data(ConversationModel::TierRole).toInt()),
                                  index.data(ConversationModel::TokensBeforeRole).toLongLong(),
                                  index.data(ConversationModel::TokensAfterRole).toLongLong(),
                                  index.data(ConversationModel::AnchorsChangedRole).toInt(),
                                  index.data(ConversationModel::OffloadCountRole).toInt(),
                                  index.data(ConversationModel::SourceAgentRole).toString(),
                                  index.data(ConversationModel::TextRole).toString()};
    QFont font = c.m.small;
    font.setUnderline(c.state.hovered == ConversationAction::OpenCompaction);
    const QFontMetrics sfm(font);
    const QString label = sfm.elidedText(u"⟲ "_s % ConversationModel::compactionLabel(marker), Qt::ElideMiddle,
                                         l.frame.width() - 60);
    const int labelWidth = sfm.horizontalAdvance(label) + 16;
    const QRect labelRect(l.frame.center().x() - labelWidth / 2, l.frame.top(), labelWidth, l.frame.height());
    const QColor link = c.palette.color(QPalette::Link);
    const int y = l.frame.center().y();
    QColor line = link;
    line.setAlphaF(0.5f);
    painter->setPen(QPen(line, 1));
    painter->drawLine(l.frame.left(), y, labelRect.left(), y);
    painter->drawLine(labelRect.right(), y, l.frame.right(), y);
    painter->setFont(font);
    painter->setPen(link);
    painter->drawText(labelRect, Qt::AlignCenter, label);
    c.drawFocusFrame(ConversationAction::OpenCompaction, labelRect);
}

ConversationAction CompactionRow::spotAt(const RowLayout &l, const QPoint &pos) const
{
    return l.frame.contains(pos) ? ConversationAction::OpenCompaction : ConversationAction::None;
}

QRect CompactionRow::spotRect(const RowLayout &l, ConversationAction action) const
{
    return action == ConversationAction::OpenCompaction ? l.frame : QRect();
}

} // namespace wl
