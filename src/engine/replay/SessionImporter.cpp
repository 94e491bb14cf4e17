#include "SessionImporter.h"

#include "CompactionBackfill.h"
#include "ImportMetadata.h"
#include "ImportedSession.h"
#include "SourceView.h"
#include "LoggingCategories.h"
#include "TranscriptFormats.h"
#include "compaction/TokenEstimate.h"
#include "store/SessionStore.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// The replay that follows an import, as the import's options ask for it.
CompactionBackfill::Options replayOptionsOf(const SessionImporter::Options &options)
{
    CompactionBackfill::Options replay;
    replay.policy = options.replayPolicy;
    replay.overheadTokens = options.replayOverheadTokens;
    replay.auditPath = options.auditPath;
    replay.cancel = options.cancel;
    return replay;
}

// Collects messages into appendStep batches; remembers each stored message's id and the byte
// sum before it (16 bytes per message), which is all the requests need afterwards.
class StoreSink : public ImportSink
{
public:
    StoreSink(SessionStore &store, const QString &sessionId, int batchMessages, qint64 batchBytes)
        : m_store(store), m_sessionId(sessionId), m_batchMessages(std::max(1, batchMessages)), m_batchBytes(batchBytes)
    {
        m_bytesBefore.append(0);
    }

    bool addMessage(Message &&message, QString *error) override
    {
        if (message.createdAt.isValid() && (!m_firstTime.isValid() || message.createdAt < m_firstTime))
            m_firstTime = message.createdAt;
        const qint64 bytes = message.byteCount();
        if (message.isToolResult() && !message.toolCallId.isEmpty() && !m_resultOf.contains(message.toolCallId))
            m_resultOf.insert(message.toolCallId, int(m_bytesBefore.size() - 1));
        if (m_bytesBefore.size() == 1)
            m_firstIsSystem = message.role == Role::System;
        m_bytesBefore.append(m_bytesBefore.constLast() + bytes);
        m_pendingBytes += bytes;
        m_step.messages.append(std::move(message));
        if (m_step.messages.size() >= m_batchMessages || m_pendingBytes >= m_batchBytes)
            return flush(error);
        return true;
    }

    bool flush(QString *error)
    {
        if (m_step.messages.isEmpty())
            return true;
        const auto ids = m_store.appendStep(m_sessionId, m_step, error);
        if (!ids) {
            m_failed = true;
            return false;
        }
        m_ids.append(ids->messageIds);
        m_step.messages.clear();
        m_pendingBytes = 0;
        return true;
    }

    const QList<qint64> &ids() const { return m_ids; }
    bool failed() const { return m_failed; }
    // The earliest time the source gave a message; invalid when it gave none.
    const QDateTime &firstTime() const { return m_firstTime; }
    // UTF-8 bytes (token-estimate bytes) of messages [0, index).
    qint64 bytesBefore(int index) const { return m_bytesBefore.value(index, m_bytesBefore.constLast()); }
    // The (first) result of call `callId`: its index and bytes.
    SourceView::Result resultOf(const QString &callId) const
    {
        const int index = m_resultOf.value(callId, -1);
        return index < 0 ? SourceView::Result() : SourceView::Result{index, bytesBefore(index + 1) - bytesBefore(index)};
    }
    bool firstIsSystem() const { return m_firstIsSystem; }

private:
    SessionStore &m_store;
    QString m_sessionId;
    int m_batchMessages;
    qint64 m_batchBytes;
    StepAppend m_step;
    qint64 m_pendingBytes = 0;
    QList<qint64> m_ids;
    QList<qint64> m_bytesBefore;
    QHash<QString, int> m_resultOf; // call id -> index of its first result
    QDateTime m_firstTime;
    bool m_failed = false;
    bool m_firstIsSystem = false;
};

std::optional<qint64> usageValue(qint64 value)
{
    return value >= 0 ? std::optional<qint64>(value) : std::nullopt;
}

// Where an import's offloaded results go until the user continues it: the folder they named, else
// the store's own import folder. Never the transcript's folder: a file does not choose where
// anything runs or is written.
QString importWorkspace(SessionStore &store, const SessionImporter::Options &options, QString *error)
{
    if (!options.workspace.isEmpty())
        return QFileInfo(options.workspace).absoluteFilePath();
    return store.importFolder(error);
}

// The stored ids at positions [from, to) of `ids` (ascending, as the sink stored them) as a view:
// each run of consecutive ids found by galloping, so a prefix of a session costs O(runs x log n),
// not one entry per message. Nothing when the ids do not ascend.
std::optional<ViewIds> viewOfPositions(const QList<qint64> &ids, qsizetype from, qsizetype to)
{
    ViewIds view;
    while (from < to) {
        // ids[from, end) is a run: with strictly ascending ids, equal distances in id and position
        // mean every id between is there.
        qsizetype end = from + 1, step = 1;
        while (end < to) {
            const qsizetype probe = std::min(to, end + step);
            if (ids[probe - 1] - ids[from] == probe - 1 - from) {
                end = probe;
                step *= 2;
            } else if (step > 1) {
                step = 1;
            } else {
                break;
            }
        }
        if (!view.appendRange(ids[from], ids[end - 1]))
            return std::nullopt;
        from = end;
    }
    return view;
}

// The history messages of a request's view (SourceView): a leading system message, then the
// messages from where the source's newest compaction left off up to the one the request produced.
std::optional<ViewIds> sourceViewIds(const QList<qint64> &ids, const SourceView::Span &span, int end, int lead)
{
    const int first = std::max(span.from, lead);
    std::optional<ViewIds> view = viewOfPositions(ids, 0, std::min(lead, end));
    if (view && end > first) {
        const std::optional<ViewIds> rest = viewOfPositions(ids, first, end);
        if (!rest || !view->append(*rest))
            return std::nullopt;
    }
    return view;
}

bool cancelled(const std::atomic_bool *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

// One session of the file (run `runIndex`) into a new store session; `runCount`, when given,
// receives how many sessions the file holds. With `knownRunCount` (the later passes of an
// all-runs import) the import stops reading at the end of that session and records that count.
SessionImporter::Result importRun(SessionStore &store, const QString &path, const QString &format,
                                  const SessionImporter::Options &options, int runIndex, int *runCount,
                                  int knownRunCount = 0)
{
    SessionImporter::Result result;
    result.format = format;
    // A new session to stream into; deleted again unless everything below succeeds.
    SessionInfo fields;
    fields.title = options.title.isEmpty() ? QFileInfo(path).completeBaseName() : options.title;
    QString error;
    fields.workspace = importWorkspace(store, options, &error);
    if (fields.workspace.isEmpty()) {
        result.error = error;
        return result;
    }
    fields.readOnly = true;
    // Never listed until importFile has stored every part of every session of the file: a kill
    // or a full disk part way leaves nothing that looks complete (schema 10).
    fields.importing = true;
    const std::optional<SessionInfo> created = store.createSession(fields, &error);
    if (!created) {
        result.error = error;
        return result;
    }
    const QString sessionId = created->id;
    auto abandon = [&](const QString &why, bool input, bool wasCancelled) {
        QString cleanup;
        if (!store.deleteSession(sessionId, &cleanup))
            qCWarning(lcReplay) << "could not remove the unfinished import" << sessionId << cleanup;
        result.error = why;
        result.badInput = input;
        result.cancelled = wasCancelled;
        result.sessionId.clear();
        return result;
    };

    StoreSink sink(store, sessionId, options.batchMessages, options.batchBytes);
    ImportOptions importOptions;
    importOptions.sink = &sink;
    importOptions.runIndex = runIndex;
    importOptions.countRuns = knownRunCount <= 0;
    importOptions.progress = options.progress;
    importOptions.cancel = options.cancel;
    ImportResult imported = TranscriptFormats::importFile(path, format, importOptions);
    if (imported.ok && !sink.flush(&error))
        return abandon(error, false, false);
    if (!imported.ok) {
        return abandon(imported.error, !sink.failed() && !imported.cancelled, imported.cancelled);
    }
    ImportedSession &s = imported.session;
    if (knownRunCount > 0)
        s.runCount = knownRunCount;
    if (sink.ids().size() != s.messageCount)
        return abandon(QCoreApplication::translate("SessionImporter", "%1: %2 messages read but %3 stored").arg(path).arg(s.messageCount).arg(sink.ids().size()), false, false);

    // Requests, in message order, in transactions bounded by the view ids they carry.
    QList<ImportedRequest> requests = s.requests;
    std::stable_sort(requests.begin(), requests.end(),
                     [](const ImportedRequest &a, const ImportedRequest &b) { return a.messageIndex < b.messageIndex; });
    const qint64 schemaTokens = TokenEstimate::tokensForBytes(TokenEstimate::toolSchemaBytes(s.tools));
    const QList<qint64> &ids = sink.ids();
    QList<RequestRecord> batch;
    QList<qint64> producedBy;
    qint64 batchRuns = 0;  // what the batch's views hold in memory
    auto writeBatch = [&]() -> bool {
        if (batch.isEmpty())
            return true;
        if (!store.appendRequests(sessionId, batch, producedBy, &error))
            return false;
        batch.clear();
        producedBy.clear();
        batchRuns = 0;
        return true;
    };
    // What the source sent with each request, by its own compactions.
    const SourceView sourceView(s.compactions);
    const int lead = sink.firstIsSystem() ? 1 : 0;
    const SourceView::BytesBefore bytesBefore = [&sink](int i) { return sink.bytesBefore(i); };
    const SourceView::ResultOf resultOf = [&sink](const QString &callId) { return sink.resultOf(callId); };
    for (qsizetype i = 0; i < requests.size(); ++i) {
        const ImportedRequest &in = requests[i];
        if (in.messageIndex < 0 || in.messageIndex >= ids.size())
            continue;
        RequestRecord r;
        r.index = int(i);
        std::optional<ViewIds> view = sourceViewIds(ids, sourceView.at(in.messageIndex), in.messageIndex, lead);
        if (!view)
            return abandon(QCoreApplication::translate("SessionImporter", "%1: the stored messages are not in id order").arg(path), false, false);
        r.viewMessageIds = std::move(*view);
        r.estimateTokens = TokenEstimate::tokensForBytes(sourceView.viewBytes(in.messageIndex, lead, bytesBefore, resultOf));
        r.toolSchemaTokens = schemaTokens;
        // The store's input is every prompt token the model read, as the live clients report it
        // (ChatUsage::input), so the timeline can hold it against the window: Anthropic's
        // input_tokens leaves out the cached part, which the importers add into `context`.
        r.inputTokens = usageValue(in.usage.context >= 0 ? in.usage.context : in.usage.input);
        r.outputTokens = usageValue(in.usage.output);
        r.cacheReadTokens = usageValue(in.usage.cacheRead);
        r.cacheWriteTokens = usageValue(in.usage.cacheWrite);
        r.tier = Tier::None;
        r.model = in.model;
        r.startedAt = in.timestamp;
        r.finishedAt = in.timestamp;
        batchRuns += r.viewMessageIds.ranges().size();
        batch.append(std::move(r));
        producedBy.append(ids[in.messageIndex]);
        if (batch.size() >= 1000 || batchRuns >= 2'000'000) {
            if (cancelled(options.cancel))
                return abandon(QCoreApplication::translate("SessionImporter", "%1: import cancelled").arg(path), false, true);
            if (!writeBatch())
                return abandon(error, false, false);
        }
    }
    if (cancelled(options.cancel))
        return abandon(QCoreApplication::translate("SessionImporter", "%1: import cancelled").arg(path), false, true);
    if (!writeBatch())
        return abandon(error, false, false);

    SessionSource source;
    source.format = format;
    source.sourcePath = QFileInfo(path).absoluteFilePath();
    source.importedAt = QDateTime::currentDateTimeUtc();
    source.details = ImportMetadata::toJson(s);
    if (!store.setSessionSource(sessionId, source, &error))
        return abandon(error, false, false);
    if (options.title.isEmpty() && !s.title.isEmpty() && s.title != fields.title
        && !store.renameSession(sessionId, s.title, &error))
        return abandon(error, false, false);
    // The session began when its transcript did, not when it was imported.
    QDateTime began = sink.firstTime();
    for (const ImportedRequest &r : std::as_const(requests)) {
        if (r.timestamp.isValid() && (!began.isValid() || r.timestamp < began))
            began = r.timestamp;
    }
    if (began.isValid() && !store.setSessionCreatedAt(sessionId, began, &error))
        return abandon(error, false, false);

    if (options.replay) {
        const CompactionBackfill::Result replayed = CompactionBackfill::run(store, sessionId, replayOptionsOf(options));
        if (!replayed.ok)
            return abandon(replayed.error, false, replayed.cancelled);
        result.replayTiers = replayed.tiers;
    }

    result.ok = true;
    result.sessionId = sessionId;
    result.sessionIds = {sessionId};
    result.runs = s.runCount;
    if (runCount)
        *runCount = s.runCount;
    result.messages = s.messageCount;
    result.requests = int(requests.size());
    result.compactions = int(s.compactions.size());
    result.issues = int(s.issues.size());
    result.skipped = s.skippedLines;
    result.problems = s.problems;
    result.rejectedNumbers = s.rejectedNumbers;
    result.firstRejectedNumber = s.numberProblems.value(0);
    qCInfo(lcReplay) << "imported" << path << "into session" << sessionId << result.messages << "messages,"
                     << result.requests << "requests";
    return result;
}

} // namespace

SessionImporter::Result SessionImporter::importFile(SessionStore &store, const QString &path, const Options &options)
{
    Result result;
    auto badInput = [&](const QString &error) {
        result.badInput = true;
        result.error = error;
        return result;
    };

    QString format = options.format;
    if (format.isEmpty() || format == "auto"_L1) {
        const TranscriptFormats::Detection detection = TranscriptFormats::detect(path);
        if (detection.format.isEmpty())
            return badInput(detection.error);
        format = detection.format;
    } else if (!TranscriptFormats::importer(format)) {
        return badInput(QCoreApplication::translate("SessionImporter", "unknown format '%1' (known: %2)").arg(format, TranscriptFormats::formats().join(u", "_s)));
    }
    result.format = format;
    const qint64 total = QFileInfo(path).size();

    if (format == "waterline"_L1) {
        if (cancelled(options.cancel)) {
            result.cancelled = true;
            result.error = QCoreApplication::translate("SessionImporter", "%1: import cancelled").arg(path);
            return result;
        }
        if (options.progress)
            options.progress(0, total);
        QString error;
        const QString workspace = importWorkspace(store, options, &error);
        if (workspace.isEmpty()) {
            result.error = error;
            return result;
        }
        const std::optional<QString> id = store.importSession(path, workspace, &error);
        if (!id)
            return badInput(error); // SessionExport names the line and the field
        result.sessionId = *id;
        if (!options.title.isEmpty() && !store.renameSession(*id, options.title, &error)) {
            store.deleteSession(*id);
            result.error = error;
            result.sessionId.clear();
            return result;
        }
        if (options.replay) {
            const CompactionBackfill::Result replayed = CompactionBackfill::run(store, *id, replayOptionsOf(options));
            if (!replayed.ok) {
                store.deleteSession(*id);
                result.sessionId.clear();
                result.error = replayed.error;
                result.cancelled = replayed.cancelled;
                return result;
            }
            result.replayTiers = replayed.tiers;
        }
        const auto info = store.session(*id);
        result.messages = info ? int(info->messageCount) : 0;
        result.requests = info ? int(info->requestCount) : 0;
        if (options.progress)
            options.progress(total, total);
        result.ok = true;
        result.sessionIds = {*id};
        return result;
    }

    // The sessions are complete: listed from now on, all of them at once.
    auto finished = [&store](Result done) {
        if (!done.ok)
            return done;
        QString error;
        if (store.finishImport(done.sessionIds, &error))
            return done;
        for (const QString &id : std::as_const(done.sessionIds)) {
            QString cleanup;
            if (!store.deleteSession(id, &cleanup))
                qCWarning(lcReplay) << "could not remove the unfinished import" << id << cleanup;
        }
        Result failed;
        failed.format = done.format;
        failed.runs = done.runs;
        failed.error = error;
        return failed;
    };

    if (options.runIndex >= 0)
        return finished(importRun(store, path, format, options, options.runIndex, nullptr));

    // Every session of the file, each into its own store session, all or nothing. Each run is
    // one more pass over the file (the importers stream; none holds the file).
    int runs = 1;
    Result all = importRun(store, path, format, options, 0, &runs);
    if (!all.ok || runs <= 1)
        return finished(all);
    all.runs = runs;
    auto undo = [&](Result failed, int run) {
        for (const QString &id : std::as_const(all.sessionIds)) {
            QString cleanup;
            if (!store.deleteSession(id, &cleanup))
                qCWarning(lcReplay) << "could not remove the unfinished import" << id << cleanup;
        }
        failed.error = QCoreApplication::translate("SessionImporter", "session %1 of %2: %3").arg(run + 1).arg(runs).arg(failed.error);
        failed.sessionIds.clear();
        failed.runs = runs;
        return failed;
    };
    if (!options.title.isEmpty()) {
        QString error;
        if (!store.renameSession(all.sessionId, QCoreApplication::translate("SessionImporter", "%1 (1 of %2)").arg(options.title).arg(runs), &error)) {
            Result failed;
            failed.error = error;
            return undo(failed, 0);
        }
    }
    for (int run = 1; run < runs; ++run) {
        Options one = options;
        if (!options.title.isEmpty())
            one.title = QCoreApplication::translate("SessionImporter", "%1 (%2 of %3)").arg(options.title).arg(run + 1).arg(runs);
        if (options.progress) {
            one.progress = [&options, run, runs, total](qint64 done, qint64) {
                options.progress(qint64(run) * total + done, qint64(runs) * total);
            };
        }
        Result next = importRun(store, path, format, one, run, nullptr, runs);
        if (!next.ok)
            return undo(next, run);
        all.sessionIds.append(next.sessionId);
    }
    return finished(all);
}

} // namespace wl
