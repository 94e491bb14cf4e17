#include "SummaryReview.h"

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

} // namespace wl
