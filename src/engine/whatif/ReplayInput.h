#pragma once

#include "compaction/Checkpoint.h"
#include "compaction/ContextOverlays.h"
#include "model/Message.h"
#include "model/ToolSpec.h"
#include "whatif/Simulator.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>

#include <optional>

namespace wl {

struct CompactionRecord;

class SessionStore;
struct ContextOverlays;
struct ImportedSession;
struct RequestRecord;
struct SessionInfo;
struct SessionSource;

// A recorded session in the shape a replay needs, whatever it came from (a transcript read in
// memory, or a session in the store). The one place that says what each recorded request
// carried; the CLI's `simulate`, the Thresholds dock's what-if and the demo replay all read it:
//   - the system prompt: the session's stored one (what the agent sent), else the first history
//     message when it is a system message (importers put the source's system prompt there);
//   - the rest of the history, ids ascending (positions + 1 for an in-memory import);
//   - per recorded request, in index order, how many of those history messages it saw: all
//     messages before the one it produced (or, for a stored request that produced none, up to
//     the newest message of its recorded view);
//   - the tool schemas offered with each request: the bytes the agent recorded per request,
//     else the session's schemas (stored by the agent, or the importer's);
//   - the session's own checkpoints, reused where a replayed compaction covers the same range;
//   - the session's pins, each from the request that first carried it (one made after the
//     recording: in every replayed view);
//   - for an imported transcript, the source agent's own compactions as overlays of what each
//     request sent (SourceView), and, when it did not store its system prompt or its tool
//     schemas, the fixed overhead estimated from the provider-reported input tokens, one constant
//     per segment (before the source's first compaction and after each);
//   - the window the transcript states (Codex's model_context_window).
struct ReplayInput
{
    QString sessionId;                 // empty for an in-memory import
    QString systemPrompt;
    qint64 systemMessageId = 0;        // the history message the prompt came from, 0 for none
    QList<Message> history;            // without that system message
    QList<qsizetype> requestEnds;      // per request: history[0, end) was seen
    QList<int> requestIndexes;         // the stored index of each request (0..n-1 for imports)
    QList<QDateTime> requestTimes;     // when each request was made, invalid when unknown
    QList<qint64> requestSchemaBytes;  // per request: schema bytes it was sent with, -1 unknown
    QList<ToolSpec> tools;             // the schemas offered to the model, when the session says
    QList<Checkpoint> recordedCheckpoints; // the session's own checkpoints, oldest first
    // The session's pins as they are now (docs/COMPACTION.md section 12), and per pin (same order)
    // the first request (position) whose recorded view carried it: a pin made while the session was
    // recorded is in the views from the first request sent after it was made, in the recording and
    // in a replay alike; a pin made after the last recorded request (any pin of an import) is
    // kPinnedAfterRecording: the recorded views never had it, and a replay shows it in every
    // request, as if it had been pinned from the start. Traffic the proxy recorded carried none.
    QList<Pin> pins;
    QList<qsizetype> pinsFrom;
    static constexpr qsizetype kPinnedAfterRecording = -1;
    // How many of `pins` came after the recording.
    int pinsAfterRecording() const;
    // Records whose checkpoint no LLM wrote (Waterline's extractive summariser): reusing one is no
    // call a provider bills. An import's own compactions are all an LLM's.
    QSet<QString> unbilledRecordIds;
    QList<qint64> recordedSummaryTokens; // sizes of the source's own summaries (size model default)
    // The source agent's own compactions (an import's), as overlays of the views it recorded
    // (replay/SourceView), each with the first request (position) it is in force for: RecordedRun
    // shows them, a what-if replays the whole history.
    QList<std::pair<qsizetype, Checkpoint>> sourceCheckpoints;
    QList<std::pair<qsizetype, OffloadOverlay>> sourceOffloads;
    // Per request: whether the source's own compaction was in force for it.
    QList<bool> requestSourceCompacted;
    // Per request, besides view and schemas (see fitOverhead): `overheadTokens` before the source
    // agent's first compaction (and in every what-if), `laterOverheads` from the first request
    // after each of its compactions that replaced the history ({position, tokens}, ascending).
    qint64 overheadTokens = 0;
    QList<std::pair<qsizetype, qint64>> laterOverheads;
    // The view count's calibration against the provider's (fitTokenScale: an import without its
    // system prompt or tools, from the requests before the source's first compaction); it multiplies
    // every view estimate of the session, live what-if and recorded alike. 1: none.
    double tokenScale = 1.0;
    qint64 overheadAt(qsizetype position) const;
    // The schema bytes request `position` was sent with (requestSchemaBytes, else the session's
    // tools): with overheadAt, what every measure of a recorded request reads besides its view.
    qint64 schemaBytesAt(qsizetype position) const;
    // One overhead for every request (a user's --overhead, a backfill that was told one).
    void setOverhead(qint64 tokens);
    QString model;                     // the model the session ran on, when known

    qint64 profileWindow = 0;          // the window the session's provider profile names, 0 for none
    qint64 recordedWindow = 0;         // the window the transcript states, 0 for none
    QString recordedWindowField;       // where it states it ("model_context_window")

    // The window of a session without a policy of its own, and where it comes from: the provider
    // profile's, else the transcript's, else the model table's for its model, else the default.
    struct Window
    {
        qint64 tokens = 0;
        QString source;   // "profile", "transcript: <field>", "model table: <model>", "default"
    };
    Window window() const;

    // The policy a replay starts from when the session has none of its own: the defaults, with
    // window().tokens.
    CompactionPolicy defaultPolicy() const;
    // Takes from the session's compaction records which checkpoints the extractive summariser wrote.
    void noteRecords(const QList<CompactionRecord> &records);
    // The window of a session without a policy of its own, whoever reads it (the docks, `simulate`,
    // the agent that gives the session its policy): the one its provider profile names, else the
    // model table's for its model, else 128,000.
    static qint64 defaultWindow(qint64 profileWindow, const QString &model);
    // The same from a session's stored provider profile (SessionInfo::providerProfile).
    static qint64 defaultWindow(const QJsonObject &providerProfile);

    static ReplayInput fromImport(const ImportedSession &session);
    static std::optional<ReplayInput> fromStore(SessionStore &store, const QString &sessionId, QString *error = nullptr);
    // The same from rows already read (the UI's loader reads them for its docks anyway).
    static ReplayInput fromStored(const SessionInfo &info, QList<Message> history, const QList<RequestRecord> &requests,
                                  const ContextOverlays &overlays, const std::optional<SessionSource> &source);

    // What every request carried besides the messages and schemas we know of, in tokens, is fitted
    // per segment of the source agent's compactions (fitOverhead).
    // The key of SessionSource::details under which a session keeps an overhead it was replayed
    // with (a number of tokens); fromStored() uses it instead of estimating one.
    static const QString kOverheadKey;
    // The key under which a session replayed into its own requests (CompactionBackfill) says so
    // (true): its views are Waterline's then, and the source's compactions no longer shape them.
    static const QString kReplayedKey;
    // The key under which a replayed session keeps the calibration (tokenScale) it was replayed with.
    static const QString kTokenScaleKey;

    // The fixed overhead of one segment of requests [from, to): a low value (nearest rank, the
    // lowest tenth) of "reported input - view tokens x tokenScale - schema tokens" over its first
    // kFitRequests requests with a reported input (`reportedInput[r] <= 0`: unknown); 0 when none tells.
    static constexpr int kFitRequests = 5;
    static qint64 fitOverhead(const QList<qint64> &viewTokens, const QList<qint64> &reportedInput, qint64 schemaTokens,
                              qsizetype from, qsizetype to, double tokenScale = 1.0);
    // The calibration of the view's count (bytes / 4) against the provider's over requests [from, to)
    // with a reported input: the least-squares slope of "reported - schema tokens" on the view's
    // tokens, within [kMinTokenScale, kMaxTokenScale]; 1 when fewer than kScaleRequests report or
    // the view grew by less than kScaleSpanTokens among them.
    static constexpr int kScaleRequests = 10;
    static constexpr qint64 kScaleSpanTokens = 2000;
    // Never below 1: the calibration only adds to the rule (a view is never counted below bytes / 4).
    static constexpr double kMinTokenScale = 1.0;
    static constexpr double kMaxTokenScale = 4.0;
    static double fitTokenScale(const QList<qint64> &viewTokens, const QList<qint64> &reportedInput, qint64 schemaTokens,
                                qsizetype from, qsizetype to);

    Simulator::Input simulatorInput(const CompactionPolicy &policy, const SummaryModel &summaryModel) const;
};

} // namespace wl
