#pragma once

#include "compaction/AnchorLineage.h"
#include "compaction/CompactionPolicy.h"
#include "conversation/ConversationTypes.h"
#include "compaction/CompactionRecord.h"
#include "compaction/ContextOverlays.h"
#include "compaction/ViewComposition.h"
#include "model/Message.h"
#include "model/ToolSpec.h"
#include "store/AnchorHistoryEntry.h"
#include "store/RequestRecord.h"
#include "store/SessionInfo.h"
#include "store/SessionSource.h"
#include "whatif/ReplayInput.h"
#include "whatif/Simulator.h"

#include <optional>

#include <QList>
#include <QSet>

namespace wl {

class ContextView;
struct ContextSnapshot;
struct AnchorSnapshot;
struct TimelineRow;
struct OffloadRow;

// Everything the docks show of one session, loaded at once (off the GUI thread).
struct LoadedSession
{
    SessionInfo info;
    QString systemPrompt;
    QList<ToolSpec> tools;
    CompactionPolicy policy;
    QList<Message> history;               // ascending ids
    QList<RequestRecord> requests;        // by index
    QList<CompactionRecord> records;      // in time order
    ContextOverlays overlays;             // every overlay ever added (checkpoints oldest first)
    QList<AnchorHistoryEntry> anchorHistory;
    // The anchors' items followed through anchorSnapshots(), one step per snapshot (traceLineage(),
    // made by the loader off the GUI thread).
    QList<LineageItem> anchorLineage;
    std::optional<SessionSource> source;  // imported sessions: where they came from, the source agent's compactions
    // What each request carried, as every replay reads it (ReplayInput::fromStored): the history
    // each request saw, schemas, overhead. `systemPrompt`, `history` and `tools` are its own.
    ReplayInput replay;
    // What filled the window of each request, by position (recordedCompositions(), made by the
    // loader off the GUI thread; empty for a session put together by hand).
    QList<ViewComposition> compositions;

    bool isEmpty() const { return info.id.isEmpty(); }
    int requestCount() const { return int(requests.size()); }

    // How many history messages request `index` saw (ReplayInput's rule).
    qsizetype historyEndOf(int index) const;
    // Where the conversation shows each compaction: before history[at], for every record with a tier.
    QList<std::pair<qsizetype, CompactionMarker>> compactionMarkers() const;
    // The overlays in force when request `index` was sent.
    ContextOverlays overlaysAt(int index) const;
    // The record of the compaction that ran before request `index`, if any.
    const CompactionRecord *recordFor(int index) const;

    QList<TimelineRow> timelineRows() const;
    // What filled the window of each recorded request (by position), its views replayed from the
    // stored overlays (RecordedRun) and measured as the preflight measures them. O(history) per
    // compaction: the loader calls it, the window reads `compositions`.
    QList<ViewComposition> recordedCompositions() const;
    // `compositions` when the loader made them, else recordedCompositions().
    QList<ViewComposition> compositionsOrComputed() const;
    // The composition of `view`, sent as request `position`: its schemas, the overhead, the policy.
    ViewComposition compositionOf(const ContextView &view, int position) const;
    // Offloaded results with how often the agent read each one back (read_file on its path).
    QList<OffloadRow> offloadRows() const;
    // The history messages (tool results) compaction offloaded, at any time of the session.
    QSet<qint64> offloadedMessageIds() const;
    QList<AnchorSnapshot> anchorSnapshots() const;
    // The items of anchorSnapshots() followed through them, with the message each came from.
    QList<LineageItem> traceLineage() const;
    ContextSnapshot contextSnapshot(int index) const;
    // The recorded session as the what-if simulator's input (with the stored policy), from `replay`.
    Simulator::Input simulatorInput() const;
    // Totals of what actually happened, in the simulator's terms.
    SimulationTotals recordedTotals() const;
};

} // namespace wl

Q_DECLARE_METATYPE(wl::LoadedSession)
