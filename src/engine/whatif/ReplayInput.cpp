#include "ReplayInput.h"

#include "compaction/CompactionRecord.h"

#include "compaction/ContextOverlays.h"
#include "compaction/ContextView.h"
#include "compaction/TokenEstimate.h"
#include "llm/ModelTable.h"
#include "model/MessageCodec.h"
#include "replay/ImportMetadata.h"
#include "replay/ImportedSession.h"
#include "store/RequestRecord.h"
#include "store/SessionInfo.h"
#include "store/SessionSource.h"
#include "store/SessionStore.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>

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

// Where the source agent first compacted its own context, as a position in the history
// without the leading system message; the history size when it never did.
qsizetype firstSourceCompaction(const QList<ExternalCompaction> &compactions, qsizetype skip, qsizetype historySize)
{
    qsizetype first = historySize;
    for (const ExternalCompaction &c : compactions)
        first = std::min<qsizetype>(first, std::max<qsizetype>(0, c.messageIndex - skip));
    return first;
}

void addSummarySizes(ReplayInput &in, const QList<ExternalCompaction> &compactions)
{
    for (const ExternalCompaction &c : compactions) {
        if (!c.summary.isEmpty())
            in.recordedSummaryTokens.append(TokenEstimate::tokensForBytes(TokenEstimate::utf8Bytes(c.summary)));
    }
}

// Imports that lack what every request carried besides its messages get it estimated.
void estimateImportOverhead(ReplayInput &in, const QList<qint64> &reportedInput, qsizetype usableBefore)
{
    if (!in.systemPrompt.isEmpty() && !in.tools.isEmpty())
        return; // the source stored both: nothing is missing
    const qint64 schemaTokens = TokenEstimate::tokensForBytes(TokenEstimate::toolSchemaBytes(in.tools));
    in.overheadTokens = ReplayInput::estimateOverhead(in.systemPrompt, in.history, in.requestEnds, reportedInput,
                                                      schemaTokens, usableBefore);
}

} // namespace

qint64 ReplayInput::estimateOverhead(const QString &systemPrompt, const QList<Message> &history,
                                     const QList<qsizetype> &requestEnds, const QList<qint64> &reportedInput,
                                     qint64 schemaTokens, qsizetype usableBefore)
{
    QList<qint64> residuals;
    ContextView view = ContextView::build(systemPrompt, history, ContextOverlays(), 0);
    const ContextOverlays none;
    for (qsizetype r = 0; r < requestEnds.size() && r < reportedInput.size(); ++r) {
        const qsizetype end = std::clamp<qsizetype>(requestEnds[r], view.historyEnd(), history.size());
        if (end > usableBefore)
            break; // the source saw a compacted context from here on
        view.appendUpTo(history, none, end);
        const qint64 reported = reportedInput[r];
        if (reported <= 0)
            continue;
        residuals.append(reported - view.tokens() - schemaTokens);
    }
    if (residuals.isEmpty())
        return 0;
    std::sort(residuals.begin(), residuals.end());
    // Nearest rank: the lowest tenth are outliers at most (a request the provider counted short).
    const qsizetype rank = (residuals.size() - 1) / 10;
    return std::max<qint64>(0, residuals[rank]);
}

const QString ReplayInput::kOverheadKey = u"overhead_tokens"_s;

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
    addSummarySizes(in, session.compactions);
    estimateImportOverhead(in, reported, firstSourceCompaction(session.compactions, skip, in.history.size()));
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
    in.model = info.providerProfile.value(u"model").toString();
    in.profileWindow = std::max<qint64>(0, info.providerProfile.value(u"contextWindow").toInteger(0));
    if (source) {
        ImportedSession details;
        ImportMetadata::fromJson(source->details, &details);
        if (in.model.isEmpty())
            in.model = details.model;
        if (in.tools.isEmpty())
            in.tools = details.tools;
        addSummarySizes(in, details.compactions);
        // A replay that was told the overhead (CompactionBackfill) left it here: every replay uses it.
        const QJsonValue told = source->details.value(kOverheadKey);
        if (told.isDouble() && told.toInteger(-1) >= 0)
            in.overheadTokens = told.toInteger();
        else
            estimateImportOverhead(in, reported,
                                   firstSourceCompaction(details.compactions, systemFirst ? 1 : 0, in.history.size()));
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

CompactionPolicy ReplayInput::defaultPolicy() const
{
    CompactionPolicy policy;
    policy.contextWindow = defaultWindow(profileWindow, model);
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
    input.recordedCheckpoints = recordedCheckpoints;
    input.requestIndexes = requestIndexes;
    input.requestTimes = requestTimes;
    input.pins = pins;
    input.unbilledRecordIds = unbilledRecordIds;
    input.summaryModel = summaryModel;
    input.recordedSummaryTokens = recordedSummaryTokens;
    input.sessionId = sessionId;
    return input;
}

} // namespace wl
