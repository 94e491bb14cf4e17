#pragma once

#include "Anchors.h"
#include "ExtractiveFacts.h"

#include <QList>
#include <QString>

namespace wl {

struct Message;

// The summariser that needs no LLM (docs/COMPACTION.md section 5): the last step of the fallback chain, the
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
    // The same summary, byte for byte, with per-message facts taken from (and added to) `facts`.
    static ParsedSummary summarize(const QList<Message> &messages, const ExtractiveFacts *facts);
    // The same, reading the messages where they are (no copies). `previous`: the anchors of the
    // checkpoint these messages follow (the caller carries its summary), used as a checkpoint
    // message among `messages` would be: User Intent starts from its intent, and the anchors the
    // new messages cannot fill keep its values.
    // `positions` (optional, one per message): where each stands in its session (1 is the first),
    // which the summary names messages by ("Messages 12-30"); without them, their store ids.
    static ParsedSummary summarize(const QList<const Message *> &messages, const ExtractiveFacts *facts,
                                   const Anchors *previous = nullptr, const QList<qint64> *positions = nullptr);

    // The summariser-answer shape ("## Anchors", five "### " sections, "## Summary"), so that
    // parseAnchorsAndSummary(toText(x)) gives back x's anchors and summary.
    static QString toText(const ParsedSummary &summary);
};

} // namespace wl
