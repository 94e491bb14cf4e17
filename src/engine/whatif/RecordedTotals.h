#pragma once

#include "whatif/Simulator.h"

#include <QList>

namespace wl {

struct CompactionPolicy;
struct CompactionRecord;
struct ContextOverlays;
struct RequestRecord;

// What a recorded session did, in a replay's terms (SimulationTotals), read from the store's rows:
//   - tokens sent, peaks and requests per tier: each request as the agent recorded it (its view's
//     estimate, the schema tokens it carried when `policy` counts them, `overheadTokens`), the
//     ratio against `policy`'s window with its reserved output, as TokenEstimate counts;
//   - the peak before compaction: a request's compaction record says what its view weighed before;
//   - summary calls: the Soft and Full compactions that made a summary; offloads: every offload overlay;
//   - what the summaries read is not stored: summaryInputTokens is -1.
// Under the policy the session was recorded with, the what-if of the session has the same totals.
class RecordedTotals
{
public:
    // What request `r` carried, in tokens, as a replay counts it: its view's estimate, its schema
    // tokens when `policy` counts them, and `overheadTokens` (reserved output not included).
    static qint64 sentTokens(const RequestRecord &r, const CompactionPolicy &policy, qint64 overheadTokens);

    static SimulationTotals of(const QList<RequestRecord> &requests, const QList<CompactionRecord> &records,
                               const ContextOverlays &overlays, const CompactionPolicy &policy, qint64 overheadTokens);
};

} // namespace wl
