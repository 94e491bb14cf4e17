#pragma once

#include "compaction/ContextOverlays.h"
#include "whatif/Simulator.h"

#include <QList>
#include <QSet>

#include <functional>
#include <utility>

namespace wl {

class ContextView;
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
    // The pins each request carried (ReplayInput::pinsFrom): a pin made while the session was
    // recorded, from the first request sent after it; one made after the recording, never.
    QList<std::pair<qsizetype, Pin>> pins;

    static RecordedRun fromImport(const ImportedSession &session, const ReplayInput &input);
    static RecordedRun fromStored(const ReplayInput &input, const QList<RequestRecord> &requests,
                                  const ContextOverlays &overlays, const QList<CompactionRecord> &records);

    // Hands `observer` each request's recorded view, in order (as a replay would).
    void replay(const ReplayInput &input, const std::function<void(const Simulator::Step &)> &observer) const;

    // What filled the window of each recorded request (by position), its view as replay() gives
    // it, measured under `policy` (its window, reserved output and whether schemas count): the one
    // composition of a recorded request that the gauge, the Context dock, the timeline, the status
    // bar and `waterline-cli show` read (issue 31, section 3).
    QList<ViewComposition> compositions(const ReplayInput &input, const CompactionPolicy &policy) const;
    // The composition of `view` sent as request `position` of `input`: the schemas and the
    // overhead that request carried (ReplayInput::schemaBytesAt, overheadAt), under `policy`.
    static ViewComposition compositionOf(const ReplayInput &input, const CompactionPolicy &policy,
                                         const ContextView &view, qsizetype position);
};

} // namespace wl
