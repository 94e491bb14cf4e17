#pragma once

#include "compaction/Checkpoint.h"
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
//   - for an imported transcript that did not store its system prompt or its tool schemas, the
//     fixed overhead of every request estimated from the provider-reported input tokens.
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
    qint64 overheadTokens = 0;         // per request, besides view and schemas (see estimateOverhead)
    // What request `position` carried besides its view, as every measure of a recorded request
    // reads it: the schema bytes it was sent with (requestSchemaBytes, else the session's tools)
    // and the fixed overhead of an import.
    qint64 schemaBytesAt(qsizetype position) const;
    qint64 overheadAt(qsizetype position) const;
    QString model;                     // the model the session ran on, when known

    qint64 profileWindow = 0;          // the window the session's provider profile names, 0 for none

    // The policy a replay starts from when the session has none of its own: the defaults, with
    // defaultWindow(profileWindow, model).
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

    // What every request carried besides the messages and schemas we know of, in tokens: a low
    // percentile (the 10th) of "reported input tokens - our estimate of what it saw" over the
    // requests with a reported input, before the first of `usableBefore` messages (a compaction of
    // the source agent, after which it saw less than the history). `reportedInput[r] < 0`: unknown.
    // 0 when no request tells.
    // The key of SessionSource::details under which a session keeps an overhead it was replayed
    // with (a number of tokens); fromStored() uses it instead of estimating one.
    static const QString kOverheadKey;

    static qint64 estimateOverhead(const QString &systemPrompt, const QList<Message> &history,
                                   const QList<qsizetype> &requestEnds, const QList<qint64> &reportedInput,
                                   qint64 schemaTokens, qsizetype usableBefore);

    Simulator::Input simulatorInput(const CompactionPolicy &policy, const SummaryModel &summaryModel) const;
};

} // namespace wl
