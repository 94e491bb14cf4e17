#pragma once

#include "whatif/Simulator.h"

#include <QList>

namespace wl {

struct CompactionRecord;
struct ContextOverlays;
struct RequestRecord;

// What a recorded session did, in a replay's terms (SimulationTotals), read from the store's rows
// and the requests' compositions (RecordedRun::compositions, the one measure of a recorded request):
//   - tokens sent, peaks: each request's composition (sent(), ratio() against its window);
//   - requests per tier: the tier each request recorded;
//   - the peak before compaction: a request's compaction record says what its view weighed before;
//   - summary calls: the Soft and Full compactions that made a summary; offloads: every offload overlay;
//   - what the summaries read is not stored: summaryInputTokens is -1.
// Under the policy the session was recorded with, the what-if of the session has the same totals.
class RecordedTotals
{
public:
    // `compositions` by position, one per request; `window` the policy's.
    static SimulationTotals of(const QList<RequestRecord> &requests, const QList<CompactionRecord> &records,
                               const ContextOverlays &overlays, const QList<ViewComposition> &compositions, qint64 window);
};

} // namespace wl
