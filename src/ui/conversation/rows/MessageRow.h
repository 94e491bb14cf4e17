#pragma once

#include "conversation/rows/RowPainter.h"

namespace wl {

// User, assistant and system-note rows: a title line (who, time) over the text: the user's as
// plain text, the others' as Markdown with headings no larger than a little above the body.
// The user's bubble is indented and filled, a system note has a dashed frame and muted text.
class MessageRow final : public RowPainter
{
public:
    int estimateHeight(const RowInput &input) const override;
    std::unique_ptr<RowLayout> layout(const RowInput &input) const override;
    void paint(const RowPaintContext &context, const RowLayout &layout) const override;
};

} // namespace wl
