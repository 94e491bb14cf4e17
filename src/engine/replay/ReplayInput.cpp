#include "ReplayInput.h"

#include "ImportMetadata.h"
#include "ImportedSession.h"
#include "compaction/TokenEstimate.h"
#include "store/SessionStore.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Requests never see less than the one before them.
void makeMonotonic(QList<qsizetype> &ends, qsizetype historySize)
{
    qsizetype floor = 0;
    for (qsizetype &end : ends) {
        end = std::clamp<qsizetype>(end, floor, historySize);
        floor = end;
    }
}

} // namespace

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
    for (qsizetype r = 0; r < requests.size(); ++r) {
        in.requestEnds.append(std::max<qsizetype>(0, requests[r].messageIndex - skip));
        in.requestIndexes.append(int(r));
        in.requestTimes.append(requests[r].timestamp);
    }
    makeMonotonic(in.requestEnds, in.history.size());
    in.tools = session.tools;
    for (const ExternalCompaction &c : session.compactions) {
        if (!c.summary.isEmpty())
            in.recordedSummaryTokens.append(TokenEstimate::tokensForBytes(TokenEstimate::utf8Bytes(c.summary)));
    }
    return in;
}

std::optional<ReplayInput> ReplayInput::fromStore(SessionStore &store, const QString &sessionId, QString *error)
{
    QString why;
    if (!store.session(sessionId, &why)) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    ReplayInput in;
    in.sessionId = sessionId;
    QList<Message> messages = store.history(sessionId, &why);
    const QList<RequestRecord> requests = why.isEmpty() ? store.requests(sessionId, &why) : QList<RequestRecord>();
    const ContextOverlays overlays = why.isEmpty() ? store.overlays(sessionId, &why) : ContextOverlays();
    const std::optional<SessionSource> source = why.isEmpty() ? store.sessionSource(sessionId, &why) : std::nullopt;
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return std::nullopt;
    }

    const bool systemFirst = !messages.isEmpty() && messages.constFirst().role == Role::System;
    if (systemFirst) {
        in.systemPrompt = messages.constFirst().content;
        in.systemMessageId = messages.constFirst().id;
        messages.removeFirst();
    }
    in.history = std::move(messages);

    QHash<qint64, qsizetype> positionOf; // message id -> position in `history`
    positionOf.reserve(in.history.size());
    QHash<qint64, qsizetype> firstProduced; // request row id -> position of its first message
    for (qsizetype i = 0; i < in.history.size(); ++i) {
        const Message &m = in.history[i];
        positionOf.insert(m.id, i);
        if (m.origin > 0 && !firstProduced.contains(m.origin))
            firstProduced.insert(m.origin, i);
    }
    for (const RequestRecord &r : requests) {
        qsizetype end = -1;
        if (const auto it = firstProduced.constFind(r.id); it != firstProduced.cend()) {
            end = *it;
        } else {
            for (qint64 id : r.viewMessageIds) {
                if (const auto p = positionOf.constFind(id); p != positionOf.cend())
                    end = std::max(end, *p + 1);
            }
        }
        if (end < 0)
            end = in.requestEnds.isEmpty() ? 0 : in.requestEnds.constLast();
        in.requestEnds.append(end);
        in.requestIndexes.append(r.index);
        in.requestTimes.append(r.startedAt.isValid() ? r.startedAt : r.finishedAt);
    }
    makeMonotonic(in.requestEnds, in.history.size());

    if (source) {
        ImportedSession details;
        ImportMetadata::fromJson(source->details, &details);
        in.tools = details.tools;
        for (const ExternalCompaction &c : std::as_const(details.compactions)) {
            if (!c.summary.isEmpty())
                in.recordedSummaryTokens.append(TokenEstimate::tokensForBytes(TokenEstimate::utf8Bytes(c.summary)));
        }
    }
    // Waterline's own summaries, when the session was compacted before.
    for (const Checkpoint &cp : overlays.checkpoints)
        in.recordedSummaryTokens.append(TokenEstimate::tokensForBytes(TokenEstimate::utf8Bytes(cp.text)));
    return in;
}

Simulator::Input ReplayInput::simulatorInput(const CompactionPolicy &policy, const SummaryModel &summaryModel) const
{
    Simulator::Input input;
    input.systemPrompt = systemPrompt;
    input.history = history;
    input.requests = requestEnds;
    input.policy = policy;
    input.tools = tools;
    input.summaryModel = summaryModel;
    input.recordedSummaryTokens = recordedSummaryTokens;
    input.sessionId = sessionId;
    return input;
}

} // namespace wl
