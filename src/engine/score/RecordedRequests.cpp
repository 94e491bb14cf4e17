#include "RecordedRequests.h"

#include "RecordedRun.h"
#include "compaction/CompactionPolicy.h"
#include "compaction/ContextView.h"
#include "compaction/TokenEstimate.h"
#include "store/RequestRecord.h"
#include "store/SessionInfo.h"
#include "store/SessionSource.h"
#include "store/SessionStore.h"
#include "whatif/ReplayInput.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

CompactionPolicy RecordedRequests::policyOf(const SessionInfo &info, const ReplayInput &replay)
{
    CompactionPolicy saved;
    if (!info.policy.isEmpty() && CompactionPolicy::fromJson(info.policy, &saved) && saved.isValid())
        return saved;
    return replay.defaultPolicy();
}

QString RecordedRequests::partKey(ViewComposition::Part part)
{
    switch (part) {
    case ViewComposition::Part::SystemPrompt: return u"system_prompt"_s;
    case ViewComposition::Part::ToolSchemas: return u"tool_schemas"_s;
    case ViewComposition::Part::Checkpoint: return u"checkpoint"_s;
    case ViewComposition::Part::Pinned: return u"pinned"_s;
    case ViewComposition::Part::History: return u"history"_s;
    case ViewComposition::Part::Offloaded: return u"offloaded"_s;
    case ViewComposition::Part::Reserved: return u"reserved_output"_s;
    case ViewComposition::Part::Free: return u"free"_s;
    }
    return u"unknown"_s;
}

ViewComposition RecordedRequests::compositionOf(const ReplayInput &replay, const CompactionPolicy &policy,
                                                const ContextView &view, int position)
{
    const qint64 recordedSchemaBytes = replay.requestSchemaBytes.value(position, -1);
    const qint64 schemaBytes = recordedSchemaBytes >= 0 ? recordedSchemaBytes : TokenEstimate::toolSchemaBytes(replay.tools);
    return ViewComposition::of(view, TokenEstimate(view.bytes(), schemaBytes, policy, replay.overheadAt(position)));
}

QList<RecordedRequestRow> RecordedRequests::of(const ReplayInput &replay, const QList<RequestRecord> &requests,
                                               const ContextOverlays &overlays, const QList<CompactionRecord> &records,
                                               const CompactionPolicy &policy)
{
    QList<RecordedRequestRow> rows;
    if (requests.isEmpty())
        return rows;
    rows.reserve(requests.size());
    const int lead = replay.systemMessageId > 0 ? 1 : 0;
    // One view grown request by request, rebuilt only where an overlay came in force.
    RecordedRun::fromStored(replay, requests, overlays, records).replay(replay, [&](const Simulator::Step &step) {
        const RequestRecord &r = requests.value(step.request);
        RecordedRequestRow row;
        row.index = r.index;
        row.tier = r.tier;
        row.window = policy.contextWindow;
        row.composition = compositionOf(replay, policy, step.view, step.request);
        row.gaugeTokens = row.composition.used();
        row.sentTokens = row.gaugeTokens - row.composition.tokens(ViewComposition::Part::Reserved);
        row.sourceCompacted = replay.requestSourceCompacted.value(step.request, false);
        row.viewMessages = lead + int(std::count_if(step.view.items().cbegin(), step.view.items().cend(), [](const ViewItem &item) {
                               return item.kind == ViewItem::Kind::Original || item.kind == ViewItem::Kind::Placeholder;
                           }));
        row.historyMessages = lead + int(replay.requestEnds.value(step.request, 0));
        row.providerInputTokens = r.inputTokens;
        rows.append(row);
    });
    return rows;
}

std::optional<RecordedRequests::StoredRequests> RecordedRequests::ofStored(SessionStore &store, const QString &sessionId,
                                                                          QString *error)
{
    QString why;
    const std::optional<SessionInfo> info = store.session(sessionId, &why);
    if (!info) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    QList<Message> history = store.history(sessionId, &why);
    const QList<RequestRecord> requests = why.isEmpty() ? store.requests(sessionId, &why) : QList<RequestRecord>();
    const ContextOverlays overlays = why.isEmpty() ? store.overlays(sessionId, &why) : ContextOverlays();
    const QList<CompactionRecord> records = why.isEmpty() ? store.records(sessionId, &why) : QList<CompactionRecord>();
    const std::optional<SessionSource> source = why.isEmpty() ? store.sessionSource(sessionId, &why) : std::nullopt;
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    StoredRequests out;
    out.info = *info;
    out.replay = ReplayInput::fromStored(*info, std::move(history), requests, overlays, source);
    out.replay.noteRecords(records);
    out.policy = policyOf(*info, out.replay);
    out.rows = of(out.replay, requests, overlays, records, out.policy);
    return out;
}

} // namespace wl
