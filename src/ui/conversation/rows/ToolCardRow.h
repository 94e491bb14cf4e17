#pragma once

#include "conversation/rows/RowPainter.h"

namespace wl {

// A tool call card: a header line (status, tool, the telling argument, duration, the
// "offloaded" badge) that toggles the arguments and the result preview below it.
class ToolCardRow final : public RowPainter
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
