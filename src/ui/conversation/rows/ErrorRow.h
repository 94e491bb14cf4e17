#pragma once

#include "conversation/rows/RowPainter.h"

namespace wl {

// An error: a red-framed box with a warning sign, the message, and Retry when it can be retried.
class ErrorRow final : public RowPainter
{
public:
    int estimateHeight(const RowInput &input) const override;
    std::unique_ptr<RowLayout> layout(const RowInput &input) const override;
    void paint(const RowPaintContext &context, const RowLayout &layout) const override;
    QList<ConversationAction> actions(const QModelIndex &index) const override;
};

} // namespace wl
