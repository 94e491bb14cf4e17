#include "RecordedTotals.h"

#include "compaction/CompactionRecord.h"
#include "compaction/ContextOverlays.h"
#include "compaction/TokenEstimate.h"
#include "store/RequestRecord.h"

#include <QHash>

#include <algorithm>

namespace wl {

SimulationTotals RecordedTotals::of(const QList<RequestRecord> &requests, const QList<CompactionRecord> &records,
                                    const ContextOverlays &overlays, const QList<ViewComposition> &compositions, qint64 window)
{
    SimulationTotals t;
    t.window = window;
    t.requests = int(requests.size());
    t.summaryInputTokens = -1;
    t.offloads = int(overlays.offloads.size());

    QHash<int, qint64> viewBefore; // request index -> the view's tokens before its compaction
    for (const CompactionRecord &r : records) {
        if (r.tier == Tier::None)
            continue;
        qint64 &before = viewBefore[r.requestIndex];
        before = std::max(before, r.reason.estimateTokens); // as the tier decision counted it (calibrated)
        if ((r.tier == Tier::Soft || r.tier == Tier::Full) && r.summarizerStep != SummarizerStep::None)
            ++t.summaryCalls;
    }

    for (qsizetype i = 0; i < requests.size(); ++i) {
        const RequestRecord &r = requests[i];
        const ViewComposition c = compositions.value(i);
        const qint64 before = std::max(c.viewTokens(), viewBefore.value(r.index, 0));
        // Over the window even after Emergency: never sent (CompactionPass::overWindow), as the
        // what-if counts it.
        if (window > 0 && c.used() > window) {
            ++t.notSent;
        } else {
            t.tokensSent += c.sent();
            t.peakRatio = std::max(t.peakRatio, c.ratio());
        }
        t.peakRatioBefore = std::max(t.peakRatioBefore, TokenEstimate::ratioFor(before + c.besidesView(), window));
        ++t.tiers[size_t(r.tier)];
    }
    t.emergencies = t.tiers[size_t(Tier::Emergency)];
    return t;
}

} // namespace wl
