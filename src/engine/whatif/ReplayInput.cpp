#include "ReplayInput.h"

#include "compaction/CompactionRecord.h"

#include "compaction/ContextOverlays.h"
#include "compaction/ContextView.h"
#include "compaction/TokenEstimate.h"
#include "llm/ModelTable.h"
#include "model/MessageCodec.h"
#include "replay/ImportMetadata.h"
#include "replay/ImportedSession.h"
#include "replay/SourceView.h"
#include "store/RequestRecord.h"
#include "store/SessionInfo.h"
#include "store/SessionSource.h"
#include "store/SessionStore.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// One past the last history position whose message the view holds, -1 for none. `ids` are the
// history's ids; a bisection per run when they ascend, else a pass over them.
qsizetype endOfView(const ViewIds &view, const QList<qint64> &ids, bool ascending)
{
    if (!ascending) {
        for (qsizetype p = ids.size(); p > 0; --p) {
            if (view.contains(ids[p - 1]))
                return p;
        }
        return -1;
    }
    const QList<ViewIds::Range> &runs = view.ranges();
    for (auto run = runs.crbegin(); run != runs.crend(); ++run) {
        const auto after = std::upper_bound(ids.cbegin(), ids.cend(), run->last);
        if (after != ids.cbegin() && *(after - 1) >= run->first)
            return after - ids.cbegin();
    }
    return -1;
}

// Requests never see less than the one before them.
void makeMonotonic(QList<qsizetype> &ends, qsizetype historySize)
{
    qsizetype floor = 0;
    for (qsizetype &end : ends) {
        end = std::clamp<qsizetype>(end, floor, historySize);
        floor = end;
    }
}

void addSummarySizes(ReplayInput &in, const QList<ExternalCompaction> &compactions)
{
    for (const ExternalCompaction &c : compactions) {
        if (!c.summary.isEmpty())
            in.recordedSummaryTokens.append(TokenEstimate::tokensForBytes(TokenEstimate::utf8Bytes(c.summary)));
    }
}

// Follows the source agent's own compactions (SourceView): the overlays of the views it recorded,
// which requests they were in force for, and, when `fit` (an import without its system prompt
// or tool schemas, told no overhead), the fixed overhead of each segment. Message i of the import
// is history[i - lead]; `leadBytes` are the bytes of the leading system message (lead 1).
void followSource(ReplayInput &in, const QList<ExternalCompaction> &compactions, int lead, qint64 leadBytes,
                  const QList<qint64> &reported, bool fit, double knownScale = 0.0)
{
    const SourceView source(compactions);
    const SourceView::Overlays overlays = source.overlays(in.history, lead, in.requestEnds);
    in.sourceCheckpoints = overlays.checkpoints;
    in.sourceOffloads = overlays.offloads;
    in.requestSourceCompacted.clear();
    for (qsizetype end : std::as_const(in.requestEnds))
        in.requestSourceCompacted.append(source.at(int(end) + lead).compacted());
    if (!fit)
        return;

    QList<qint64> prefix{0}; // bytes of history[0, i)
    prefix.reserve(in.history.size() + 1);
    QHash<QString, int> resultAt;
    for (qsizetype i = 0; i < in.history.size(); ++i) {
        const Message &m = in.history[i];
        prefix.append(prefix.constLast() + m.byteCount());
        if (m.isToolResult() && !resultAt.contains(m.toolCallId))
            resultAt.insert(m.toolCallId, int(i));
    }
    const SourceView::BytesBefore bytesBefore = [&](int i) -> qint64 {
        if (i <= 0)
            return 0;
        return leadBytes * lead + prefix.value(std::clamp<qsizetype>(i - lead, 0, in.history.size()), 0);
    };
    const SourceView::ResultOf resultOf = [&](const QString &callId) {
        const int at = resultAt.value(callId, -1);
        return at < 0 ? SourceView::Result() : SourceView::Result{at + lead, prefix[at + 1] - prefix[at]};
    };
    QList<qint64> viewTokens;
    viewTokens.reserve(in.requestEnds.size());
    for (qsizetype end : std::as_const(in.requestEnds))
        viewTokens.append(TokenEstimate::tokensForBytes(source.viewBytes(int(end) + lead, lead, bytesBefore, resultOf)));

    const qint64 schemaTokens = TokenEstimate::tokensForBytes(TokenEstimate::toolSchemaBytes(in.tools));
    const QList<qsizetype> starts = source.segmentStarts(lead, in.requestEnds);
    const qsizetype requests = in.requestEnds.size();
    // The calibration from the requests before the source's first compaction (the whole session when
    // it made none): every request after a source compaction is estimated by what came before it.
    in.tokenScale = knownScale > 0.0 ? knownScale : ReplayInput::fitTokenScale(viewTokens, reported, schemaTokens, 0, starts.value(0, requests));
    in.overheadTokens = ReplayInput::fitOverhead(viewTokens, reported, schemaTokens, 0, starts.value(0, requests), in.tokenScale);
    in.laterOverheads.clear();
    qint64 previous = in.overheadTokens;
    for (qsizetype s = 0; s < starts.size(); ++s) {
        const qsizetype to = s + 1 < starts.size() ? starts[s + 1] : requests;
        const auto first = reported.cbegin() + std::min(starts[s], reported.size());
        const auto last = reported.cbegin() + std::min(to, reported.size());
        // A segment no request of which reports its input keeps the overhead before it.
        const bool tells = std::any_of(first, last, [](qint64 v) { return v > 0; });
        const qint64 overhead = tells ? ReplayInput::fitOverhead(viewTokens, reported, schemaTokens, starts[s], to, in.tokenScale)
                                      : previous;
        in.laterOverheads.append({starts[s], overhead});
        previous = overhead;
    }
}

} // namespace

double ReplayInput::fitTokenScale(const QList<qint64> &viewTokens, const QList<qint64> &reportedInput, qint64 schemaTokens,
                                  qsizetype from, qsizetype to)
{
    // Least squares of reported - schemas against the view's bytes / 4: the slope is how many
    // tokens the provider counted for each estimated one as the conversation grew; the intercept
    // (the overhead) is fitted apart, per segment.
    to = std::min({to, viewTokens.size(), reportedInput.size()});
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    qint64 low = std::numeric_limits<qint64>::max(), high = 0;
    for (qsizetype r = std::max<qsizetype>(0, from); r < to; ++r) {
        if (reportedInput[r] <= 0)
            continue;
        const double x = double(viewTokens[r]);
        const double y = double(reportedInput[r] - schemaTokens);
        n += 1;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        low = std::min(low, viewTokens[r]);
        high = std::max(high, viewTokens[r]);
    }
    // Too few requests, or a conversation that hardly grew, say nothing about the slope.
    if (n < kScaleRequests || high - low < kScaleSpanTokens)
        return 1.0;
    const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    if (!std::isfinite(slope))
        return 1.0;
    return std::clamp(slope, kMinTokenScale, kMaxTokenScale);
}

qint64 ReplayInput::fitOverhead(const QList<qint64> &viewTokens, const QList<qint64> &reportedInput, qint64 schemaTokens,
                                qsizetype from, qsizetype to, double tokenScale)
{
    QList<qint64> residuals;
    to = std::min({to, viewTokens.size(), reportedInput.size()});
    for (qsizetype r = std::max<qsizetype>(0, from); r < to && residuals.size() < kFitRequests; ++r) {
        const qint64 reported = reportedInput[r];
        if (reported <= 0)
            continue;
        residuals.append(reported - TokenEstimate::scaledBy(viewTokens[r], tokenScale) - schemaTokens);
    }
    if (residuals.isEmpty())
        return 0;
    std::sort(residuals.begin(), residuals.end());
    // Nearest rank: the lowest tenth are outliers at most (a request the provider counted short).
    const qsizetype rank = (residuals.size() - 1) / 10;
    return std::max<qint64>(0, residuals[rank]);
}

qint64 ReplayInput::overheadAt(qsizetype position) const
{
    qint64 overhead = overheadTokens;
    for (const auto &[from, tokens] : laterOverheads) {
        if (from > position)
            break;
        overhead = tokens;
    }
    return overhead;
}

void ReplayInput::setOverhead(qint64 tokens)
{
    overheadTokens = tokens;
    laterOverheads.clear();
}

const QString ReplayInput::kOverheadKey = u"overhead_tokens"_s;
const QString ReplayInput::kReplayedKey = u"views_replayed"_s;
const QString ReplayInput::kTokenScaleKey = u"token_scale"_s;

namespace {
// Per pin, the first request sent at or after it was made (the agent reads the pins before each
// request); ReplayInput::kPinnedAfterRecording when none was, or the pin's time is not known.
QList<qsizetype> pinPositions(const QList<Pin> &pins, const QList<QDateTime> &requestTimes)
{
    QList<qsizetype> out;
    out.reserve(pins.size());
    for (const Pin &pin : pins) {
        qsizetype from = ReplayInput::kPinnedAfterRecording;
        if (pin.createdAt.isValid()) {
            for (qsizetype r = 0; r < requestTimes.size(); ++r) {
                if (requestTimes[r].isValid() && requestTimes[r] >= pin.createdAt) {
                    from = r;
                    break;
                }
            }
        }
        out.append(from);
    }
    return out;
}
} // namespace

int ReplayInput::pinsAfterRecording() const
{
    int n = 0;
    for (qsizetype i = 0; i < pins.size(); ++i)
        n += pinsFrom.value(i, kPinnedAfterRecording) < 0 ? 1 : 0;
    return n;
}

qint64 ReplayInput::schemaBytesAt(qsizetype position) const
{
    const qint64 recorded = requestSchemaBytes.value(position, -1);
    return recorded >= 0 ? recorded : TokenEstimate::toolSchemaBytes(tools);
}

ReplayInput ReplayInput::fromImport(const ImportedSession &session)
{
    ReplayInput in;
    const QList<Message> &messages = session.messages;
    const bool systemFirst = !messages.isEmpty() && messages.constFirst().role == Role::System;
    const qsizetype skip = systemFirst ? 1 : 0;
    if (systemFirst) {
        in.systemPrompt = messages.constFirst().content;
        in.systemMessageId = 1;
    }
    in.history = messages.mid(skip);
    for (qsizetype i = 0; i < in.history.size(); ++i) {
        Message &m = in.history[i];
        m.id = i + skip + 1;
        if (m.cachedBytes < 0)
            m.cacheBytes();
    }

    QList<ImportedRequest> requests = session.requests;
    std::stable_sort(requests.begin(), requests.end(),
                     [](const ImportedRequest &a, const ImportedRequest &b) { return a.messageIndex < b.messageIndex; });
    QList<qint64> reported;
    for (qsizetype r = 0; r < requests.size(); ++r) {
        in.requestEnds.append(std::max<qsizetype>(0, requests[r].messageIndex - skip));
        in.requestIndexes.append(int(r));
        in.requestTimes.append(requests[r].timestamp);
        in.requestSchemaBytes.append(-1);
        // Every prompt token the provider read, cached or not (as the importer stores it).
        const TokenUsage &u = requests[r].usage;
        reported.append(u.context >= 0 ? u.context : u.input);
    }
    makeMonotonic(in.requestEnds, in.history.size());
    in.tools = session.tools;
    in.model = session.model;
    in.recordedWindow = session.contextWindow;
    in.recordedWindowField = session.windowField;
    addSummarySizes(in, session.compactions);
    followSource(in, session.compactions, int(skip), systemFirst ? messages.constFirst().byteCount() : 0, reported,
                 in.systemPrompt.isEmpty() || in.tools.isEmpty());
    return in;
}

std::optional<ReplayInput> ReplayInput::fromStore(SessionStore &store, const QString &sessionId, QString *error)
{
    QString why;
    const std::optional<SessionInfo> info = store.session(sessionId, &why);
    if (!info) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    QList<Message> messages = store.history(sessionId, &why);
    const QList<RequestRecord> requests = why.isEmpty() ? store.requests(sessionId, &why) : QList<RequestRecord>();
    const ContextOverlays overlays = why.isEmpty() ? store.overlays(sessionId, &why) : ContextOverlays();
    const std::optional<SessionSource> source = why.isEmpty() ? store.sessionSource(sessionId, &why) : std::nullopt;
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    const QList<CompactionRecord> records = store.records(sessionId, &why);
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    ReplayInput in = fromStored(*info, std::move(messages), requests, overlays, source);
    in.noteRecords(records);
    return in;
}

void ReplayInput::noteRecords(const QList<CompactionRecord> &records)
{
    for (const CompactionRecord &r : records)
        if (r.summarizerStep == SummarizerStep::Extractive || r.summarizerStep == SummarizerStep::None)
            unbilledRecordIds.insert(r.id);
}

ReplayInput ReplayInput::fromStored(const SessionInfo &info, QList<Message> messages, const QList<RequestRecord> &requests,
                                    const ContextOverlays &overlays, const std::optional<SessionSource> &source)
{
    ReplayInput in;
    in.sessionId = info.id;
    // What the agent sends first; an import without one keeps the source's system message in front.
    in.systemPrompt = info.systemPrompt;
    const bool systemFirst = in.systemPrompt.isEmpty() && !messages.isEmpty() && messages.constFirst().role == Role::System;
    const qint64 leadBytes = systemFirst ? messages.constFirst().byteCount() : 0;
    if (systemFirst) {
        in.systemPrompt = messages.constFirst().content;
        in.systemMessageId = messages.constFirst().id;
        messages.removeFirst();
    }
    in.history = std::move(messages);
    for (Message &m : in.history) {
        if (m.cachedBytes < 0)
            m.cacheBytes();
    }

    QHash<qint64, qsizetype> firstProduced; // request row id -> position of its first message
    QList<qint64> historyIds;               // ascending, as the store keeps a session's messages
    historyIds.reserve(in.history.size());
    bool ascending = true;
    for (qsizetype i = 0; i < in.history.size(); ++i) {
        const Message &m = in.history[i];
        ascending = ascending && (historyIds.isEmpty() || m.id > historyIds.constLast());
        historyIds.append(m.id);
        if (m.origin > 0 && !firstProduced.contains(m.origin))
            firstProduced.insert(m.origin, i);
    }
    QList<qint64> reported;
    for (const RequestRecord &r : requests) {
        qsizetype end = -1;
        if (const auto it = firstProduced.constFind(r.id); it != firstProduced.cend()) {
            end = *it;
        } else {
            end = endOfView(r.viewMessageIds, historyIds, ascending);
        }
        if (end < 0)
            end = in.requestEnds.isEmpty() ? 0 : in.requestEnds.constLast();
        in.requestEnds.append(end);
        in.requestIndexes.append(r.index);
        in.requestTimes.append(r.startedAt.isValid() ? r.startedAt : r.finishedAt);
        in.requestSchemaBytes.append(r.toolSchemaBytes.value_or(-1));
        reported.append(r.inputTokens.value_or(-1));
    }
    makeMonotonic(in.requestEnds, in.history.size());

    // The schemas the agent offered (stored with the session), else the importer's.
    for (const QJsonValue &tool : info.toolSchemas) {
        if (const auto spec = MessageCodec::toolSpecFromJson(tool.toObject()))
            in.tools.append(*spec);
    }
    in.recordedCheckpoints = overlays.checkpoints;
    in.pins = overlays.pins;
    // Traffic the proxy recorded went as the client sent it: no request of it carried a pin.
    in.pinsFrom = info.isRecordedTraffic() ? QList<qsizetype>(in.pins.size(), kPinnedAfterRecording)
                                           : pinPositions(in.pins, in.requestTimes);
    in.model = info.providerProfile.value(u"model").toString();
    in.profileWindow = std::max<qint64>(0, info.providerProfile.value(u"contextWindow").toInteger(0));
    if (source) {
        ImportedSession details;
        ImportMetadata::fromJson(source->details, &details);
        if (in.model.isEmpty())
            in.model = details.model;
        if (in.tools.isEmpty())
            in.tools = details.tools;
        in.recordedWindow = details.contextWindow;
        in.recordedWindowField = details.windowField;
        addSummarySizes(in, details.compactions);
        // A replay that was told the overhead (CompactionBackfill) left it here: every replay uses it.
        const QJsonValue told = source->details.value(kOverheadKey);
        const bool wasTold = told.isDouble() && told.toInteger(-1) >= 0;
        const bool replayed = source->details.value(kReplayedKey).toBool(false);
        // A replay kept the calibration it counted with (CompactionBackfill): every replay uses it,
        // and the overhead is fitted beside it.
        double keptScale = source->details.value(kTokenScaleKey).toDouble(0.0);
        if (keptScale > 0.0)
            keptScale = std::clamp(keptScale, kMinTokenScale, kMaxTokenScale);
        followSource(in, replayed ? QList<ExternalCompaction>() : details.compactions, systemFirst ? 1 : 0, leadBytes, reported,
                     !wasTold && (in.systemPrompt.isEmpty() || in.tools.isEmpty()), keptScale);
        if (wasTold)
            in.setOverhead(told.toInteger());
        if (keptScale > 0.0)
            in.tokenScale = keptScale;
    }
    // Waterline's own summaries, when the session was compacted before.
    for (const Checkpoint &cp : overlays.checkpoints)
        in.recordedSummaryTokens.append(TokenEstimate::tokensForBytes(TokenEstimate::utf8Bytes(cp.text)));
    return in;
}

qint64 ReplayInput::defaultWindow(qint64 sessionProfileWindow, const QString &sessionModel)
{
    if (sessionProfileWindow > 0)
        return sessionProfileWindow;
    if (const auto entry = ModelTable::lookup(sessionModel); entry && entry->contextWindow > 0)
        return entry->contextWindow;
    return CompactionPolicy().contextWindow;
}

qint64 ReplayInput::defaultWindow(const QJsonObject &providerProfile)
{
    return defaultWindow(providerProfile.value(u"contextWindow").toInteger(0), providerProfile.value(u"model").toString());
}

ReplayInput::Window ReplayInput::window() const
{
    if (profileWindow > 0)
        return {profileWindow, u"profile"_s};
    if (recordedWindow > 0)
        return {recordedWindow, u"transcript: "_s + (recordedWindowField.isEmpty() ? u"window"_s : recordedWindowField)};
    if (const auto entry = ModelTable::lookup(model); entry && entry->contextWindow > 0)
        return {entry->contextWindow, u"model table: "_s + model};
    return {CompactionPolicy().contextWindow, u"default"_s};
}

CompactionPolicy ReplayInput::defaultPolicy() const
{
    CompactionPolicy policy;
    policy.contextWindow = window().tokens;
    return policy;
}

Simulator::Input ReplayInput::simulatorInput(const CompactionPolicy &policy, const SummaryModel &summaryModel) const
{
    Simulator::Input input;
    input.systemPrompt = systemPrompt;
    input.history = history;
    input.requests = requestEnds;
    input.policy = policy;
    input.tools = tools;
    input.requestSchemaBytes = requestSchemaBytes;
    input.overheadTokens = overheadTokens;
    input.tokenScale = tokenScale;
    input.recordedCheckpoints = recordedCheckpoints;
    input.requestIndexes = requestIndexes;
    input.requestTimes = requestTimes;
    input.pins = pins;
    input.pinsFrom = pinsFrom;
    input.unbilledRecordIds = unbilledRecordIds;
    input.summaryModel = summaryModel;
    input.recordedSummaryTokens = recordedSummaryTokens;
    input.sessionId = sessionId;
    return input;
}

} // namespace wl
