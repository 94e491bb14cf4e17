#include "LoadedSession.h"

#include "conversation/ConversationModel.h"

#include "anchors/AnchorHistoryModel.h"
#include "context/ContextModels.h"
#include "offloads/OffloadListModel.h"
#include "timeline/TimelineModel.h"

#include "compaction/ContextView.h"
#include "compaction/AnchorItemSources.h"
#include "compaction/TokenEstimate.h"
#include "replay/ImportMetadata.h"
#include "replay/ImportedSession.h"
#include "score/RecordedRequests.h"
#include "score/RecordedRun.h"
#include "whatif/RecordedTotals.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>
#include <QHash>
#include <QLocale>

#include <algorithm>

namespace wl {

namespace {
qsizetype rowOfId(const QList<Message> &history, qint64 id)
{
    const auto it = std::lower_bound(history.cbegin(), history.cend(), id,
                                     [](const Message &m, qint64 value) { return m.id < value; });
    return it - history.cbegin();
}

QString recordSummary(const CompactionRecord &r)
{
    const QLocale locale;
    QString text = QCoreApplication::translate("LoadedSession", "%1 compaction: %2 → %3 tokens, %4 → %5 messages, %6 summarised, %7 offloaded, %8 ms")
                       .arg(tierDisplayName(r.tier), locale.toString(r.tokensBefore), locale.toString(r.tokensAfter))
                       .arg(r.msgsBefore).arg(r.msgsAfter).arg(r.summarized).arg(r.offloaded.size()).arg(r.durationMs);
    if (r.summarizerStep != SummarizerStep::None)
        text += u'\n' + QCoreApplication::translate("LoadedSession", "Anchors changed: %1 of 5; summary by %2").arg(r.changedAnchorCount()).arg(summarizerStepName(r.summarizerStep));
    if (!r.error.isEmpty())
        text += u'\n' + QCoreApplication::translate("LoadedSession", "Error: %1").arg(r.error);
    return text;
}
} // namespace

QList<std::pair<qsizetype, CompactionMarker>> LoadedSession::compactionMarkers() const
{
    QList<std::pair<qsizetype, CompactionMarker>> out;
    qsizetype cursor = 0;
    for (const CompactionRecord &record : records) {
        if (record.tier == Tier::None)
            continue;
        cursor = std::max(cursor, historyEndOf(record.requestIndex));
        out.append({cursor, ConversationModel::compactionMarker(record)});
    }
    // The source agent's own compactions (imports), where they happened, with the summary it sent.
    if (source && !source->details.value(ReplayInput::kReplayedKey).toBool(false)) {
        ImportedSession details;
        ImportMetadata::fromJson(source->details, &details);
        const qsizetype lead = replay.systemMessageId > 0 ? 1 : 0;
        for (const ExternalCompaction &c : std::as_const(details.compactions)) {
            CompactionMarker marker;
            marker.sourceAgent = source->format;
            marker.tokensBefore = std::max<qint64>(0, c.tokensBefore);
            marker.summary = c.summary;
            out.append({std::clamp<qsizetype>(c.messageIndex - lead, 0, history.size()), marker});
        }
        std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    }
    return out;
}

qsizetype LoadedSession::historyEndOf(int index) const
{
    if (index < 0 || index >= replay.requestEnds.size())
        return 0;
    return std::min(history.size(), replay.requestEnds.at(index));
}

const CompactionRecord *LoadedSession::recordFor(int index) const
{
    for (const CompactionRecord &r : records)
        if (r.requestIndex == index)
            return &r;
    return nullptr;
}

ContextOverlays LoadedSession::overlaysAt(int index) const
{
    QHash<QString, int> requestOfRecord;
    for (const CompactionRecord &r : records)
        requestOfRecord.insert(r.id, r.requestIndex);
    auto inForce = [&](const QString &recordId) {
        return recordId.isEmpty() || requestOfRecord.value(recordId, index + 1) <= index;
    };
    ContextOverlays out;
    // An edited checkpoint as this request carried it: requests before the edit sent the older text.
    const QDateTime sentAt = index >= 0 && index < requests.size() ? requests.at(index).startedAt : QDateTime();
    for (const Checkpoint &cp : overlays.checkpoints)
        if (inForce(cp.recordId))
            out.checkpoints.append(cp.versions.isEmpty() ? cp : cp.asSent(index, sentAt));
    const qsizetype end = historyEndOf(index);
    const qint64 newestId = end > 0 ? history.at(end - 1).id : 0;
    for (auto it = overlays.offloads.cbegin(); it != overlays.offloads.cend(); ++it)
        if (it.key() <= newestId && inForce(it.value().recordId))
            out.offloads.insert(it.key(), it.value());
    // The pins the request carried: those made before it was sent (ReplayInput::pinsFrom).
    for (qsizetype i = 0; i < replay.pins.size(); ++i) {
        const qsizetype from = replay.pinsFrom.value(i, ReplayInput::kPinnedAfterRecording);
        if (from >= 0 && from <= index)
            out.pins.append(replay.pins[i]);
    }
    // An import: the source agent's own compactions in force then (the views it recorded).
    for (const auto &[from, cp] : replay.sourceCheckpoints)
        if (from <= index)
            out.checkpoints.append(cp);
    for (const auto &[from, o] : replay.sourceOffloads)
        if (from <= index)
            out.offloads.insert(o.messageId, o);
    return out;
}

QList<TimelineRow> LoadedSession::timelineRows() const
{
    QList<TimelineRow> rows;
    rows.reserve(requests.size());
    const double window = policy.contextWindow > 0 ? double(policy.contextWindow) : 0.0;
    // The source agent's own compactions (imports), by the request they happened before.
    QHash<int, QString> sourceCompactions;
    if (source) {
        const QString agent = source->format;
        for (const QJsonValue &value : source->details.value(u"compactions").toArray()) {
            const QJsonObject c = value.toObject();
            if (!c.value(u"request").isDouble())
                continue;
            const qint64 before = c.value(u"tokens_before").toInteger(-1);
            QString text = before >= 0
                ? QCoreApplication::translate("LoadedSession", "%1 compacted its own context here (%2 tokens before, %3)")
                      .arg(agent, QLocale().toString(before), c.value(u"trigger").toString())
                : QCoreApplication::translate("LoadedSession", "%1 compacted its own context here").arg(agent);
            sourceCompactions.insert(c.value(u"request").toInt(), text);
        }
    }
    const QList<ViewComposition> byPosition = compositionsOrComputed();
    // Running byte sum of the history, advanced as requests move forward.
    qint64 historyBytes = 0;
    qsizetype counted = 0;
    for (const RequestRecord &r : requests) {
        TimelineRow row;
        const ViewComposition &c = byPosition.at(rows.size());
        row.composition = c;
        row.requestIndex = r.index;
        const qsizetype end = historyEndOf(r.index);
        for (; counted < end; ++counted)
            historyBytes += history.at(counted).byteCount();
        // The sent line is the request's composition; the history line puts the whole history in
        // the place of its view (with the same schemas, overhead, reserved output and calibration).
        row.historyTokens = TokenEstimate::scaledBy(TokenEstimate::tokensForBytes(historyBytes), replay.tokenScale) + c.besidesView();
        row.sentTokens = c.used();
        if (r.inputTokens)
            row.reportedTokens = *r.inputTokens;
        if (window > 0) {
            row.historyRatio = TokenEstimate::ratioFor(row.historyTokens, policy.contextWindow);
            row.sentRatio = c.ratio();
            if (r.inputTokens)
                row.reportedRatio = double(*r.inputTokens) / window;
        }
        row.tier = r.tier;
        if (const auto it = sourceCompactions.constFind(r.index); it != sourceCompactions.cend())
            row.sourceCompaction = it.value();
        if (const CompactionRecord *record = recordFor(r.index)) {
            row.tier = record->tier;
            row.recordId = record->id;
            row.recordSummary = recordSummary(*record);
        }
        rows.append(row);
    }
    return rows;
}

ViewComposition LoadedSession::compositionOf(const ContextView &view, int position) const
{
    return RecordedRun::compositionOf(replay, policy, view, position);
}

QList<ViewComposition> LoadedSession::recordedCompositions() const
{
    if (requests.isEmpty())
        return {};
    // One view grown request by request, rebuilt only where an overlay came in force.
    return RecordedRun::fromStored(replay, requests, overlays, records).compositions(replay, policy);
}

QList<ViewComposition> LoadedSession::compositionsOrComputed() const
{
    return compositions.size() == requests.size() ? compositions : recordedCompositions();
}

QList<AnchorSnapshot> LoadedSession::anchorSnapshots() const
{
    QHash<QString, const CompactionRecord *> byId;
    for (const CompactionRecord &r : records)
        byId.insert(r.id, &r);
    QList<AnchorSnapshot> out;
    for (const AnchorHistoryEntry &e : anchorHistory) {
        AnchorSnapshot s;
        s.recordId = e.recordId;
        s.requestIndex = e.requestIndex;
        s.anchors = e.anchors;
        s.changes = e.changes;
        const CompactionRecord *r = byId.value(e.recordId);
        // Only compactions that wrote a summary have anchors to show (Warn only offloads).
        if (r && r->summarizerStep == SummarizerStep::None)
            continue;
        if (r) {
            s.tier = r->tier;
            s.timestamp = r->timestamp;
        }
        out.append(s);
    }
    return out;
}

QList<LineageItem> LoadedSession::traceLineage() const
{
    QHash<QString, const Checkpoint *> checkpoints;
    for (const Checkpoint &c : overlays.checkpoints)
        checkpoints.insert(c.recordId, &c);
    QList<LineageStep> steps;
    const QList<AnchorSnapshot> snapshots = anchorSnapshots();
    for (const AnchorSnapshot &s : snapshots) {
        LineageStep step;
        step.recordId = s.recordId;
        step.requestIndex = s.requestIndex;
        step.anchors = s.anchors;
        if (const Checkpoint *c = checkpoints.value(s.recordId)) {
            step.coversFromMessageId = c->coversFromMessageId;
            step.coversUpToMessageId = c->coversUpToMessageId;
        }
        steps.append(step);
    }
    QList<LineageItem> items = traceAnchorLineage(steps);
    findItemSources(&items, steps, history);
    return items;
}

QList<OffloadRow> LoadedSession::offloadRows() const
{
    // Read-backs: read_file calls whose path names the offloaded file.
    QHash<QString, int> reads;
    QHash<QString, const ToolCall *> calls; // what produced each result, by call id
    for (const Message &m : history) {
        for (const ToolCall &call : m.toolCalls) {
            calls.insert(call.id, &call);
            if (call.name != u"read_file")
                continue;
            const QString path = QJsonDocument::fromJson(call.arguments.toUtf8()).object().value(u"path").toString();
            const qsizetype at = path.indexOf(u".waterline/tool_results/");
            if (at >= 0)
                ++reads[QDir::cleanPath(path.mid(at))];
        }
    }
    QHash<QString, QDateTime> recordTimes;
    for (const CompactionRecord &r : records)
        recordTimes.insert(r.id, r.timestamp);
    QList<OffloadRow> rows;
    rows.reserve(overlays.offloads.size());
    for (const OffloadOverlay &o : overlays.offloads) {
        OffloadRow row;
        row.entry = o.entry;
        if (const ToolCall *call = calls.value(o.entry.callId))
            row.source = OffloadSource::of(*call);
        row.time = recordTimes.value(o.recordId);
        if (!row.time.isValid()) {
            const qsizetype at = rowOfId(history, o.messageId);
            if (at < history.size())
                row.time = history.at(at).createdAt;
        }
        row.readBacks = reads.value(QDir::cleanPath(o.entry.relativePath));
        row.absolutePath = QDir(info.workspace).filePath(o.entry.relativePath);
        rows.append(row);
    }
    std::sort(rows.begin(), rows.end(), [](const OffloadRow &a, const OffloadRow &b) { return a.entry.messageId < b.entry.messageId; });
    return rows;
}

QSet<qint64> LoadedSession::offloadedMessageIds() const
{
    QSet<qint64> ids;
    ids.reserve(overlays.offloads.size());
    for (auto it = overlays.offloads.cbegin(); it != overlays.offloads.cend(); ++it)
        ids.insert(it.key());
    return ids;
}

ContextSnapshot LoadedSession::contextSnapshot(int index) const
{
    ContextSnapshot s;
    if (index < 0 || index >= requests.size())
        return s;
    s.requestIndex = index;
    s.systemPrompt = systemPrompt;
    s.history = history;
    s.historyEnd = historyEndOf(index);
    s.overlays = overlaysAt(index);
    s.composition = compositions.size() == requests.size()
        ? compositions.at(index)
        : compositionOf(ContextView::build(s.systemPrompt, s.history, s.overlays, s.historyEnd), index);
    s.windowSource = RecordedRequests::windowOf(replay, policy).source;
    return s;
}

Simulator::Input LoadedSession::simulatorInput() const
{
    return replay.simulatorInput(policy, SummaryModel::extractive());
}

SimulationTotals LoadedSession::recordedTotals() const
{
    return RecordedTotals::of(requests, records, overlays, compositionsOrComputed(), policy.contextWindow);
}

} // namespace wl
