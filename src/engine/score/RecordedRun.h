#pragma once

#include "compaction/ContextOverlays.h"
#include "whatif/Simulator.h"

#include <QList>
#include <QSet>

#include <functional>
#include <utility>

namespace wl {

struct CompactionRecord;
struct ImportedSession;
struct ReplayInput;
struct RequestRecord;

// The views a recorded session really sent, rebuilt request by request for scoring (issue 21):
// the history each request saw with the compaction overlays in force then. For an imported
// transcript those are the source agent's own compactions (its summary replaced what came before);
// for a session Waterline ran, the checkpoint each request record names and the offloads made by
// then (at tool time, or by a compaction of an earlier or the same request).
struct RecordedRun
{
    // Each overlay with the first request (position in ReplayInput's lists) it is in force for.
    QList<std::pair<qsizetype, Checkpoint>> checkpoints;
    QList<std::pair<qsizetype, OffloadOverlay>> offloads;

    static RecordedRun fromImport(const ImportedSession &session, const ReplayInput &input);
    static RecordedRun fromStored(const ReplayInput &input, const QList<RequestRecord> &requests,
                                  const ContextOverlays &overlays, const QList<CompactionRecord> &records);

    // Hands `observer` each request's recorded view, in order (as a replay would).
    void replay(const ReplayInput &input, const std::function<void(const Simulator::Step &)> &observer) const;
};

} // namespace wl
