#include "RecordedRun.h"

#include "compaction/CompactionRecord.h"
#include "compaction/ContextView.h"
#include "compaction/TokenEstimate.h"
#include "replay/ImportedSession.h"
#include "store/RequestRecord.h"
#include "whatif/ReplayInput.h"

#include <QHash>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

template<typename T>
void sortByRequest(QList<std::pair<qsizetype, T>> &list)
{
    std::stable_sort(list.begin(), list.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
}

} // namespace

RecordedRun RecordedRun::fromImport(const ImportedSession &, const ReplayInput &input)
{
    RecordedRun run;
    run.checkpoints = input.sourceCheckpoints;
    run.offloads = input.sourceOffloads;
    sortByRequest(run.checkpoints);
    sortByRequest(run.offloads);
    return run;
}

RecordedRun RecordedRun::fromStored(const ReplayInput &input, const QList<RequestRecord> &requests,
                                    const ContextOverlays &overlays, const QList<CompactionRecord> &records)
{
    RecordedRun run;
    // Positions are those of ReplayInput (one per request record, in the same order).
    QHash<int, qsizetype> positionOfIndex;
    for (qsizetype r = 0; r < input.requestIndexes.size(); ++r)
        positionOfIndex.insert(input.requestIndexes[r], r);
    for (const Checkpoint &cp : overlays.checkpoints) {
        qsizetype from = -1;
        for (qsizetype r = 0; r < requests.size(); ++r) {
            if (requests[r].viewCheckpointId == cp.id) {
                from = r;
                break;
            }
        }
        if (from < 0)
            continue;
        // An edited checkpoint: each request carried the version in force when it was sent, so a
        // later version comes in (replacing the earlier one) at the first request that sent it.
        Checkpoint shown = cp.asSent(requests[from].index, requests[from].startedAt);
        run.checkpoints.append({from, shown});
        for (qsizetype r = from + 1; r < requests.size() && !cp.versions.isEmpty(); ++r) {
            Checkpoint sent = cp.asSent(requests[r].index, requests[r].startedAt);
            if (sent.version != shown.version) {
                shown = sent;
                run.checkpoints.append({r, std::move(sent)});
            }
        }
    }
    QHash<QString, int> requestOfRecord;
    for (const CompactionRecord &rec : records)
        requestOfRecord.insert(rec.id, rec.requestIndex);
    for (const OffloadOverlay &o : overlays.offloads) {
        qsizetype from = 0; // gate 1: from the moment the tool finished
        if (!o.recordId.isEmpty()) {
            const auto it = requestOfRecord.constFind(o.recordId);
            from = it == requestOfRecord.cend() ? 0 : positionOfIndex.value(*it, 0);
        }
        run.offloads.append({from, o});
    }
    for (qsizetype i = 0; i < input.pins.size(); ++i) {
        const qsizetype from = input.pinsFrom.value(i, ReplayInput::kPinnedAfterRecording);
        if (from >= 0)
            run.pins.append({from, input.pins[i]});
    }
    // An import's views: the source agent's own compactions.
    run.checkpoints.append(input.sourceCheckpoints);
    run.offloads.append(input.sourceOffloads);
    sortByRequest(run.checkpoints);
    sortByRequest(run.offloads);
    sortByRequest(run.pins);
    return run;
}

void RecordedRun::replay(const ReplayInput &input, const std::function<void(const Simulator::Step &)> &observer) const
{
    const QList<Message> &history = input.history;
    ContextOverlays overlays;
    ContextView view = ContextView::build(input.systemPrompt, history, overlays, 0);
    qsizetype nextCheckpoint = 0, nextOffload = 0, nextPin = 0;
    qint64 coveredUpTo = 0;
    for (qsizetype r = 0; r < input.requestEnds.size(); ++r) {
        const qsizetype end = std::clamp<qsizetype>(input.requestEnds[r], view.historyEnd(), history.size());
        bool changed = false;
        qint64 summaryRead = 0;
        for (; nextCheckpoint < checkpoints.size() && checkpoints[nextCheckpoint].first <= r; ++nextCheckpoint) {
            const Checkpoint &cp = checkpoints[nextCheckpoint].second;
            changed = true;
            // Another version of a checkpoint in force (an edit) replaces it: nothing was summarised.
            const auto same = std::find_if(overlays.checkpoints.begin(), overlays.checkpoints.end(),
                                           [&cp](const Checkpoint &c) { return cp.id != 0 && c.id == cp.id; });
            if (same != overlays.checkpoints.end()) {
                *same = cp;
                continue;
            }
            // What its summariser read: the messages of the view before it that it now covers, as
            // the view showed them (the previous checkpoint is never summarised again).
            view.appendUpTo(history, overlays, end);
            qint64 bytes = 0;
            for (const ViewItem &item : view.items()) {
                if (item.kind != ViewItem::Kind::System && item.kind != ViewItem::Kind::Checkpoint
                    && item.kind != ViewItem::Kind::Pinned && item.sourceMessageId > coveredUpTo && item.sourceMessageId <= cp.coversUpToMessageId)
                    bytes += item.bytes;
            }
            // Which checkpoints no LLM wrote: the replay input's rule (ReplayInput::noteRecords).
            if (!input.unbilledRecordIds.contains(cp.recordId))
                summaryRead += TokenEstimate::tokensForBytes(bytes);
            coveredUpTo = std::max(coveredUpTo, cp.coversUpToMessageId);
            overlays.checkpoints.append(cp);
        }
        for (; nextOffload < offloads.size() && offloads[nextOffload].first <= r; ++nextOffload) {
            const OffloadOverlay &o = offloads[nextOffload].second;
            overlays.offloads.insert(o.messageId, o);
            changed = true;
        }
        for (; nextPin < pins.size() && pins[nextPin].first <= r; ++nextPin) {
            overlays.pins.append(pins[nextPin].second);
            changed = true;
        }
        if (changed)
            view = ContextView::build(input.systemPrompt, history, overlays, end);
        else
            view.appendUpTo(history, overlays, end);
        observer(Simulator::Step{int(r), history, view, overlays,
                                 TokenEstimate::tokensForBytes(input.schemaBytesAt(r)) + input.overheadAt(r), summaryRead});
    }
}

ViewComposition RecordedRun::compositionOf(const ReplayInput &input, const CompactionPolicy &policy, const ContextView &view,
                                           qsizetype position)
{
    return ViewComposition::of(view, TokenEstimate(view.bytes(), input.schemaBytesAt(position), policy, input.overheadAt(position), input.tokenScale));
}

QList<ViewComposition> RecordedRun::compositions(const ReplayInput &input, const CompactionPolicy &policy) const
{
    QList<ViewComposition> out;
    out.reserve(input.requestEnds.size());
    replay(input, [&](const Simulator::Step &step) { out.append(compositionOf(input, policy, step.view, step.request)); });
    return out;
}

} // namespace wl
