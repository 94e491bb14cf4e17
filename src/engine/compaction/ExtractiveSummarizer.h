#pragma once

#include "Anchors.h"

#include <QList>
#include <QString>

namespace wl {

struct Message;

// The summariser that needs no LLM (spec section 5): the last step of the fallback chain, the
// Emergency tier's checkpoint and the what-if replay's default. Deterministic, linear in its input
// (at most the first 4 KB and last 1 KB of any one message or call argument are scanned) and bounded
// in its output (each anchor at most 600 characters, the summary at most 2,500).
class ExtractiveSummarizer
{
public:
    static constexpr qsizetype kMaxAnchorChars = 600;
    static constexpr qsizetype kMaxSummaryChars = 2500;

    // Anchors it cannot fill are "N/A". A previous checkpoint among `messages` is not summarised
    // again: its anchors fill what the new messages do not, and its summary leads the new one.
    static ParsedSummary summarize(const QList<Message> &messages);

    // The summariser-answer shape ("## Anchors", five "### " sections, "## Summary"), so that
    // parseAnchorsAndSummary(toText(x)) gives back x's anchors and summary.
    static QString toText(const ParsedSummary &summary);
};

} // namespace wl
