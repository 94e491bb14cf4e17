#pragma once

#include "Anchors.h"
#include "Checkpoint.h"
#include "CompactionRecord.h"
#include "OffloadStore.h"
#include "Tier.h"
#include "model/Message.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace wl {

// A Soft or Full checkpoint waiting for the user's review (issue #22 item 7): what it would
// commit, next to what it replaces, with the view's tokens before and after.
struct SummaryDraft
{
    QString recordId;
    int requestIndex = 0;
    Tier tier = Tier::None;
    Anchors anchors;             // merged with the previous checkpoint's, as they would commit
    QString summary;
    Anchors previousAnchors;     // the checkpoint it follows ("N/A" when none)
    bool hasPrevious = false;
    QList<Message> replaced;     // what the summariser read (placeholders as shown)
    SummarizerStep step = SummarizerStep::None;
    QString model;
    qint64 tokensBefore = 0;     // the view now
    // Everything the view keeps besides the checkpoint, and what the checkpoint text lists besides
    // its anchors and summary: tokensAfter() of any edit without the engine.
    qint64 keptBytes = 0;
    // The bytes the checkpoint replaces (the messages, and the checkpoint before them): one that is
    // not smaller is never added (docs/COMPACTION.md section 5), so the review cannot accept it.
    qint64 replacedBytes = 0;
    QList<OffloadEntry> hiddenOffloads;
    OffloadFolder folder;
    // Drafted ahead (ReadyDraft): the request whose Warn preflight last brought the draft up to
    // date, -1 when the summary was written only when the tier fired; and how many of the
    // replaced messages were summarised at the tier on top of it (0: none, no call at the tier).
    int draftedAtRequest = -1;
    int summarisedAtTier = 0;
    bool draftedAhead() const { return draftedAtRequest >= 0; }

    // The checkpoint message these anchors and this summary make.
    QString checkpointText(const Anchors &edited, const QString &editedSummary) const;
    // The view's tokens with that checkpoint.
    qint64 tokensAfter(const Anchors &edited, const QString &editedSummary) const;
    qint64 tokensAfter() const { return tokensAfter(anchors, summary); }
    // True when that checkpoint is smaller than what it replaces: only then can it be committed.
    bool shrinks(const Anchors &edited, const QString &editedSummary) const;
};

// A summary written in the background from the Warn tier (policy.reviewSummaries) of what a Soft
// compaction would replace then: when Soft or Full fires, the review opens with it (topped up
// with what the tier's range adds) instead of waiting for a whole summary call. Nothing of it is
// committed until the review accepts it.
struct ReadyDraft
{
    ParsedSummary parsed;                // the summariser's answer (merged with `previous` by it)
    std::optional<Checkpoint> previous;  // the checkpoint it extends, as it was when drafted
    qint64 coversFrom = 0;               // the first history message id it covers
    qint64 coversUpTo = 0;               // the last history message id it covers
    int requestIndex = 0;                // the request whose Warn preflight last brought it up to date
    SummarizerStep step = SummarizerStep::None;
    QString model;

    // The draft as the "previous" checkpoint of a summary of what follows it: the prompt merges it.
    Checkpoint asPrevious() const;
    // True when it extends the same checkpoint as a range [coversFrom, coversUpTo] after `previous`
    // (not removed, replaced or revised since) and covers a prefix of that range.
    bool isPrefixOf(const std::optional<Checkpoint> &rangePrevious, qint64 rangeFrom, qint64 rangeUpTo) const;
};

// The user's answer to a SummaryDraft. Accept commits `anchors` and `summary` (edited or not);
// Reject keeps the history as it is and waits for the next tier.
struct ReviewDecision
{
    enum class Verdict { Accept, Reject };
    Verdict verdict = Verdict::Accept;
    Anchors anchors;
    QString summary;

    static ReviewDecision accept(const Anchors &anchors, const QString &summary)
    {
        return ReviewDecision{Verdict::Accept, anchors, summary};
    }
    static ReviewDecision reject() { return ReviewDecision{Verdict::Reject, {}, {}}; }
};

} // namespace wl

Q_DECLARE_METATYPE(wl::SummaryDraft)
Q_DECLARE_METATYPE(wl::ReviewDecision)
