#include "CompactionBackfill.h"

#include "LoggingCategories.h"
#include "Paths.h"
#include "compaction/AuditLog.h"
#include "compaction/CompactionPass.h"
#include "compaction/Preflight.h"
#include "compaction/TokenEstimate.h"
#include "store/SessionStore.h"
#include "whatif/ReplayInput.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QTimeZone>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Namespace of replay record ids (a fixed random UUID: ids are v5 names inside it).
const QUuid kReplayNamespace(u"6f3c2a9e-51d4-4e8b-9a57-0c1d2e3f4a5b"_s);

QString recordIdFor(const QString &sessionId, int requestIndex)
{
    return QUuid::createUuidV5(kReplayNamespace, sessionId + u'/' + QString::number(requestIndex))
        .toString(QUuid::WithoutBraces);
}

// Puts the deterministic id and time on everything this preflight made.
void renameRecord(PreflightResult &result, const QString &id, const QDateTime &time)
{
    const QString old = result.record.id;
    result.record.id = id;
    result.record.timestamp = time;
    for (Checkpoint &cp : result.newCheckpoints) {
        if (cp.recordId == old) {
            cp.recordId = id;
            cp.createdAt = time;
        }
    }
    for (OffloadOverlay &off : result.newOffloads) {
        if (off.recordId == old)
            off.recordId = id;
    }
    for (Checkpoint &cp : result.overlays.checkpoints) {
        if (cp.recordId == old) {
            cp.recordId = id;
            cp.createdAt = time;
        }
    }
    for (OffloadOverlay &off : result.overlays.offloads) {
        if (off.recordId == old)
            off.recordId = id;
    }
}

} // namespace

CompactionBackfill::Result CompactionBackfill::run(SessionStore &store, const QString &sessionId, const Options &options)
{
    Result result;
    auto fail = [&](const QString &error) {
        result.error = error;
        return result;
    };
    if (const QString problem = options.policy.validate(); !problem.isEmpty())
        return fail(QCoreApplication::translate("CompactionBackfill", "invalid policy: %1").arg(problem));
    if (!Paths::isSafePathComponent(sessionId))
        return fail(QCoreApplication::translate("CompactionBackfill", "\"%1\" is not a session id").arg(sessionId));

    QString error;
    const std::optional<SessionInfo> info = store.session(sessionId, &error);
    if (!info)
        return fail(error);
    const ContextOverlays existing = store.overlays(sessionId, &error);
    if (!error.isEmpty())
        return fail(error);
    const QList<CompactionRecord> existingRecords = store.records(sessionId, &error);
    if (!error.isEmpty())
        return fail(error);
    if (!existing.checkpoints.isEmpty() || !existing.offloads.isEmpty() || !existingRecords.isEmpty())
        return fail(QCoreApplication::translate("CompactionBackfill", "session %1 already has compaction overlays or records; replay starts from the raw history")
                        .arg(sessionId));

    const QString workspace = options.workspace.isEmpty() ? info->workspace : options.workspace;
    if (workspace.isEmpty())
        return fail(QCoreApplication::translate("CompactionBackfill", "session %1 has no workspace folder for the offloaded results").arg(sessionId));
    const QString auditPath = options.auditPath.isEmpty() ? Paths::auditFile(sessionId) : options.auditPath;

    std::optional<ReplayInput> input = ReplayInput::fromStore(store, sessionId, &error);
    if (!input)
        return fail(error);
    const qint64 schemaBytes = TokenEstimate::toolSchemaBytes(input->tools);
    const qint64 schemaTokens = TokenEstimate(0, schemaBytes, options.policy).toolSchemaTokens();
    const QDateTime fallbackTime = info->createdAt.isValid() ? info->createdAt : QDateTime::fromMSecsSinceEpoch(0, QTimeZone::UTC);

    const qint64 overheadTokens = options.overheadTokens >= 0 ? options.overheadTokens : input->overheadTokens;
    if (options.overheadTokens >= 0 && options.overheadTokens != input->overheadTokens) {
        // Told another overhead than the estimate: keep it with the session, so every later
        // replay (the dock's what-if, `simulate --db`) counts the same.
        std::optional<SessionSource> source = store.sessionSource(sessionId, &error);
        if (!error.isEmpty())
            return fail(error);
        if (source) {
            source->details.insert(ReplayInput::kOverheadKey, options.overheadTokens);
            if (!store.setSessionSource(sessionId, *source, &error))
                return fail(error);
        }
    }
    const Offloader toolTime = Offloader::disk(workspace, sessionId);
    ContextOverlays overlays;
    std::optional<ContextView> view;
    qsizetype seen = 0; // history[0, seen) went through gate 1
    QString lastStateKey;
    qint64 lastCheckpointId = 0;
    QDateTime lastTime = fallbackTime;
    const int total = int(input->requestEnds.size());
    QList<Message> seenHistory;
    seenHistory.reserve(input->history.size());

    for (int r = 0; r < total; ++r) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            result.cancelled = true;
            return fail(QCoreApplication::translate("CompactionBackfill", "replay of session %1 cancelled after %2 of %3 requests").arg(sessionId).arg(r).arg(total));
        }
        const int requestIndex = input->requestIndexes[r];
        const QDateTime time = input->requestTimes[r].isValid() ? input->requestTimes[r] : lastTime;
        lastTime = time;

        // Gate 1, when each new result came in: real files, overlays stored with this request's step.
        QList<OffloadOverlay> toolTimeOffloads;
        CompactionPass::offloadAtToolTime(input->history, seen, input->requestEnds[r], options.policy, toolTime, overlays,
                                          &toolTimeOffloads);
        seen = std::max(seen, input->requestEnds[r]);

        PreflightInput in;
        in.sessionId = sessionId;
        in.overheadTokens = overheadTokens;
        in.tokenScale = input->tokenScale;
        in.systemPrompt = input->systemPrompt;
        // The history this request saw, grown in place: the preflight's shared copy is gone by
        // the next request, so an append does not detach (mid() would copy n messages each time).
        for (qsizetype k = seenHistory.size(); k < input->requestEnds[r]; ++k)
            seenHistory.append(input->history[k]);
        in.history = seenHistory;
        in.overlays = std::move(overlays); // back from the result below: never copied per request
        in.policy = options.policy;
        in.tools = input->tools;
        in.toolSchemaBytes = schemaBytes;
        in.requestIndex = requestIndex;
        in.workspaceDir = workspace;
        in.lastStateKey = lastStateKey;
        in.view = std::move(view);
        PreflightResult out = Preflight::runWithoutLlm(std::move(in));
        renameRecord(out, recordIdFor(sessionId, requestIndex), time.toUTC());

        StepAppend step;
        step.checkpoints = out.newCheckpoints;
        step.offloads = toolTimeOffloads + out.newOffloads;
        if (out.shouldRecord)
            step.record = out.record;
        RequestRecord update;
        update.index = requestIndex;
        update.viewCheckpointId = out.newCheckpoints.isEmpty() ? lastCheckpointId : ThisStep::kRow;
        if (input->systemMessageId > 0)
            update.viewMessageIds = ViewIds{input->systemMessageId};
        if (!update.viewMessageIds.append(out.view.historyMessageIds()))
            return fail(QCoreApplication::translate("CompactionBackfill", "replay of request %1: the view's messages are not in id order").arg(requestIndex));
        update.estimateTokens = out.view.tokens();
        update.toolSchemaTokens = schemaTokens;
        update.tier = out.record.tier;
        step.requestUpdate = update;

        const std::optional<StepIds> ids = store.appendStep(sessionId, step, &error);
        if (!ids)
            return fail(QCoreApplication::translate("CompactionBackfill", "replay of request %1: %2").arg(requestIndex).arg(error));
        if (!ids->checkpointIds.isEmpty()) {
            lastCheckpointId = ids->checkpointIds.constLast();
            // Keep the stored ids on the overlays that later views are built from.
            qsizetype k = out.overlays.checkpoints.size() - ids->checkpointIds.size();
            for (qint64 id : ids->checkpointIds)
                out.overlays.checkpoints[k++].id = id;
        }
        if (out.shouldRecord) {
            lastStateKey = out.stateKey;
            ++result.records;
            if (!AuditLog::append(auditPath, out.record, &error))
                return fail(QCoreApplication::translate("CompactionBackfill", "replay of request %1: %2").arg(requestIndex).arg(error));
        }
        result.checkpoints += int(out.newCheckpoints.size());
        result.offloads += int(toolTimeOffloads.size() + out.newOffloads.size());
        ++result.tiers[size_t(out.record.tier)];
        ++result.requests;
        overlays = std::move(out.overlays);
        view = std::move(out.view);
        if (options.progress)
            options.progress(r + 1, total);
    }

    if (!store.setSessionPolicy(sessionId, options.policy.toJson(), &error))
        return fail(error);
    // The requests' views are Waterline's replay now, no longer what the source agent sent.
    std::optional<SessionSource> source = store.sessionSource(sessionId, &error);
    if (!error.isEmpty())
        return fail(error);
    if (source) {
        source->details.insert(ReplayInput::kReplayedKey, true);
        // The calibration the replay counted with: every later replay counts the same.
        source->details.insert(ReplayInput::kTokenScaleKey, input->tokenScale);
        if (!store.setSessionSource(sessionId, *source, &error))
            return fail(error);
    }
    result.ok = true;
    qCInfo(lcReplay) << "replayed session" << sessionId << result.requests << "requests," << result.checkpoints
                     << "checkpoints," << result.offloads << "offloads";
    return result;
}

} // namespace wl
