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

ReplayInput::Window RecordedRequests::windowOf(const ReplayInput &replay, const CompactionPolicy &policy)
{
    ReplayInput::Window window = replay.window();
    if (policy.contextWindow != window.tokens)
        window = {policy.contextWindow, u"session policy"_s};
    return window;
}

QList<RecordedRequestRow> RecordedRequests::of(const ReplayInput &replay, const QList<RequestRecord> &requests,
                                               const ContextOverlays &overlays, const QList<CompactionRecord> &records,
                                               const CompactionPolicy &policy)
{
    QList<RecordedRequestRow> rows;
    if (requests.isEmpty())
        return rows;
    rows.reserve(requests.size());
    // The one composition of each recorded request (RecordedRun::compositions); the rows add what
    // the workbench shows beside it.
    const QList<ViewComposition> compositions = RecordedRun::fromStored(replay, requests, overlays, records).compositions(replay, policy);
    for (qsizetype i = 0; i < compositions.size() && i < requests.size(); ++i) {
        const RequestRecord &r = requests[i];
        RecordedRequestRow row;
        row.index = r.index;
        row.tier = r.tier;
        row.window = policy.contextWindow;
        row.composition = compositions[i];
        row.gaugeTokens = row.composition.used();
        row.sentTokens = row.composition.sent();
        row.sourceCompacted = replay.requestSourceCompacted.value(i, false);
        row.viewMessages = row.composition.viewMessages();
        row.historyMessages = row.composition.historyMessages();
        row.providerInputTokens = r.inputTokens;
        rows.append(row);
    }
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
