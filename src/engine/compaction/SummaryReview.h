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
    QList<OffloadEntry> hiddenOffloads;
    OffloadFolder folder;

    // The checkpoint message these anchors and this summary make.
    QString checkpointText(const Anchors &edited, const QString &editedSummary) const;
    // The view's tokens with that checkpoint.
    qint64 tokensAfter(const Anchors &edited, const QString &editedSummary) const;
    qint64 tokensAfter() const { return tokensAfter(anchors, summary); }
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
