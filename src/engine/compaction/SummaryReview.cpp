#include "SummaryReview.h"

#include "CompactionPass.h"
#include "TokenEstimate.h"

namespace wl {

QString SummaryDraft::checkpointText(const Anchors &edited, const QString &editedSummary) const
{
    return checkpointMessageText(edited, editedSummary, hiddenOffloads, folder);
}

qint64 SummaryDraft::tokensAfter(const Anchors &edited, const QString &editedSummary) const
{
    return TokenEstimate::tokensForBytes(keptBytes + TokenEstimate::utf8Bytes(checkpointText(edited, editedSummary)));
}

bool SummaryDraft::shrinks(const Anchors &edited, const QString &editedSummary) const
{
    return CompactionPass::replaces(TokenEstimate::utf8Bytes(checkpointText(edited, editedSummary)), replacedBytes);
}

Checkpoint ReadyDraft::asPrevious() const
{
    // Anchors as a commit would merge them, so what the answer leaves unknown keeps the earlier value.
    Checkpoint cp;
    cp.anchors = mergeAnchors(previous ? previous->anchors : Anchors{}, parsed.anchors).anchors;
    cp.summary = parsed.summary;
    cp.coversFromMessageId = coversFrom;
    cp.coversUpToMessageId = coversUpTo;
    return cp;
}

bool ReadyDraft::isPrefixOf(const std::optional<Checkpoint> &rangePrevious, qint64 rangeFrom, qint64 rangeUpTo) const
{
    if (previous.has_value() != rangePrevious.has_value() || coversFrom != rangeFrom || coversUpTo > rangeUpTo)
        return false;
    return !previous
        || (previous->id == rangePrevious->id && previous->coversUpToMessageId == rangePrevious->coversUpToMessageId
            && previous->version == rangePrevious->version && previous->text == rangePrevious->text);
}

} // namespace wl
