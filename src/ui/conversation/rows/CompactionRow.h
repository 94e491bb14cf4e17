#pragma once

#include "conversation/rows/RowPainter.h"

namespace wl {

// The one-line marker of a compaction event: a centred link-coloured label between two rules.
// The whole line opens the compaction's record.
class CompactionRow final : public RowPainter
{
public:
    int estimateHeight(const RowInput &input) const override;
    std::unique_ptr<RowLayout> layout(const RowInput &input) const override;
    void paint(const RowPaintContext &context, const RowLayout &layout) const override;
    QList<ConversationAction> actions(const QModelIndex &index) const override;

protected:
    ConversationAction spotAt(const RowLayout &layout, const QPoint &pos) const override;
    QRect spotRect(const RowLayout &layout, ConversationAction action) const override;
};

} // namespace wl
