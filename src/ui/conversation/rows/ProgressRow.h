#pragma once

#include "conversation/rows/RowPainter.h"

namespace wl {

// The long-work row (a summary being made, a request waiting to retry): a turning ring, the
// label, the time elapsed, and Skip when the work can be skipped.
class ProgressRow final : public RowPainter
{
public:
    int estimateHeight(const RowInput &input) const override;
    std::unique_ptr<RowLayout> layout(const RowInput &input) const override;
    void paint(const RowPaintContext &context, const RowLayout &layout) const override;
    QList<ConversationAction> actions(const QModelIndex &index) const override;
};

} // namespace wl
