#include "RecordedTotals.h"

#include "compaction/CompactionPolicy.h"
#include "compaction/CompactionRecord.h"
#include "compaction/ContextOverlays.h"
#include "compaction/TokenEstimate.h"
#include "store/RequestRecord.h"

#include <QHash>

#include <algorithm>

namespace wl {

qint64 RecordedTotals::sentTokens(const RequestRecord &r, const CompactionPolicy &policy, qint64 overheadTokens)
{
    return r.estimateTokens + (policy.countToolSchemas ? r.toolSchemaTokens : 0) + overheadTokens;
}

SimulationTotals RecordedTotals::of(const QList<RequestRecord> &requests, const QList<CompactionRecord> &records,
                                    const ContextOverlays &overlays, const CompactionPolicy &policy, qint64 overheadTokens)
{
    SimulationTotals t;
    t.window = policy.contextWindow;
    t.requests = int(requests.size());
    t.summaryInputTokens = -1;
    t.offloads = int(overlays.offloads.size());

    QHash<int, qint64> viewBefore; // request index -> the view's tokens before its compaction
    for (const CompactionRecord &r : records) {
        if (r.tier == Tier::None)
            continue;
        qint64 &before = viewBefore[r.requestIndex];
        before = std::max(before, r.tokensBefore);
        if ((r.tier == Tier::Soft || r.tier == Tier::Full) && r.summarizerStep != SummarizerStep::None)
            ++t.summaryCalls;
    }

    for (const RequestRecord &r : requests) {
        const qint64 sent = sentTokens(r, policy, overheadTokens);
        const qint64 besides = sent - r.estimateTokens; // schemas and overhead
        t.tokensSent += sent;
        const double after = TokenEstimate::ratioFor(sent + policy.reservedOutput, policy.contextWindow);
        const qint64 before = std::max(r.estimateTokens, viewBefore.value(r.index, 0));
        t.peakRatio = std::max(t.peakRatio, after);
        t.peakRatioBefore = std::max(t.peakRatioBefore,
                                     TokenEstimate::ratioFor(before + besides + policy.reservedOutput, policy.contextWindow));
        ++t.tiers[size_t(r.tier)];
    }
    t.emergencies = t.tiers[size_t(Tier::Emergency)];
    return t;
}

} // namespace wl
