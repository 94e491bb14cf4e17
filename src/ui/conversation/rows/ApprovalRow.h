#pragma once

#include "conversation/rows/RowPainter.h"

namespace wl {

// An approval request: what the tool wants to do (the exact command, or a diff coloured by +/-),
// with Allow once / Allow for this session / Deny while pending and the outcome once decided.
class ApprovalRow final : public RowPainter
{
public:
    int estimateHeight(const RowInput &input) const override;
    std::unique_ptr<RowLayout> layout(const RowInput &input) const override;
    void paint(const RowPaintContext &context, const RowLayout &layout) const override;
    QList<ConversationAction> actions(const QModelIndex &index) const override;
};

} // namespace wl
