#pragma once

#include "AgentConfig.h"
#include "compaction/CompactionRecord.h"
#include "compaction/ContextOverlays.h"
#include "compaction/ContextView.h"
#include "compaction/SummaryReview.h"
#include "compaction/TokenEstimate.h"
#include "compaction/ViewComposition.h"
#include "model/Message.h"
#include "model/ToolSpec.h"
#include "store/RequestRecord.h"
#include "store/SessionInfo.h"
#include "tools/ApprovalPolicy.h"
#include "tools/ApprovalRequest.h"
#include "tools/ToolResult.h"

#include <QDateTime>
#include <QStringList>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

namespace wl {

class ApprovalGate;
class BackgroundDraft;
class BackgroundRunner;
class ChatClientSummarizer;
class Preflight;
class SessionStore;
class ToolInvocation;
class ToolRegistry;
class Workspace;
struct ChatError;
struct ChatUsage;
struct PreflightResult;
struct StepAppend;
struct StepIds;

// The agent loop of one session, as an asynchronous state machine (nothing blocks):
//
//   submit(prompt) -> [user message stored]
//   loop: preflight (compaction on the session's view; may wait for a summary) -> [overlays + record stored]
//         -> request (view + tool specs), streamed out as deltas
//         -> [assistant message + request record stored in one step]
//         -> each tool call in order: approval when the gate asks, run, offload gate 1
//            -> [result (+ its offload overlay) stored]
//   until an answer without tool calls (Finished), stop() (Stopped), an error (Failed) or the turn limit (Failed).
//
// Storage: every message and request is stored as soon as it exists, each in one transaction, so a crash
// loses at most the step in flight. The writes run off this thread, in order (a Queue BackgroundRunner on
// the store's connection for the worker); the loop goes on when a step is stored, and the run is busy
// while a write is under way. Destroying the run still writes what it queued. A stopped or failed request stores no message (streamed text is
// discarded) but a request record whose `error` says what happened; its compaction, if any, was stored
// before it. A stopped tool stores its result ("stopped by the user", with the output so far); calls of the
// same assistant message that did not run get a result saying so. Calls left without a result by a crash
// get an "interrupted" result when the session is next continued, so the history stays well paired.
//
// Reopening: open() rebuilds the view from the stored history and overlays; submit(), resume() and
// retryLastTurn() continue from there.
class AgentRun : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Idle,             // opened, nothing running
        Compacting,       // a preflight waits for a summary (see compactionStarted)
        WaitingForModel,  // request sent, nothing received yet
        Streaming,        // deltas arriving
        Retrying,         // the client waits before another attempt (see retrying)
        RunningTool,      // see toolStarted
        AwaitingApproval, // see approvalRequested; answer with approve()
        Finished,         // the model answered without tool calls
        Stopped,          // stop() ended the run
        Failed,           // see failed()
    };
    Q_ENUM(State)

    explicit AgentRun(const AgentConfig &config, QObject *parent = nullptr);
    ~AgentRun() override;

    // What open() reads from the store: the session's fields, history and overlays.
    struct SessionData
    {
        SessionInfo info;
        QList<Message> history;
        ContextOverlays overlays;
        std::optional<Tier> lastRecordedTier; // the tier of the newest compaction record
    };
    // Reads a session with `store`; any thread, as long as `store` is that thread's connection
    // (the window reads on a worker, then hands the data to open() on the GUI thread).
    static std::optional<SessionData> readSession(SessionStore &store, const QString &sessionId, QString *error = nullptr);

    // Loads the session (settings, system prompt, history, overlays). Call once, before anything else.
    bool open(QString *error = nullptr);
    // The same with data already read (readSession()); only the default system prompt may be written.
    bool open(SessionData data, QString *error = nullptr);

    State state() const { return m_state; }
    bool isBusy() const;
    QString sessionId() const { return m_config.sessionId; }
    QString systemPrompt() const { return m_systemPrompt; }
    const CompactionPolicy &policy() const { return m_policy; }
    // A new compaction policy for the next preflight; false (nothing changed) while busy or when invalid.
    bool setPolicy(const CompactionPolicy &policy);
    // The estimate of the next request now (before its preflight), as its preflight makes it: the
    // view, the tool schemas (when the policy counts them) and the reserved output.
    TokenEstimate nextRequestEstimate() const;
    // The same request by category (what the status bar's gauge explains).
    ViewComposition nextRequestComposition() const;
    // Its total tokens.
    qint64 estimatedTokens() const;
    // The most tokens the session's pins may take under the current policy, system prompt and
    // tools (PinnedSection::budgetTokens).
    qint64 pinBudgetTokens() const;
    ApprovalGate *approvalGate() const { return m_gate; }
    Workspace *workspace() const { return m_workspace; }
    QList<ToolSpec> toolSpecs() const { return m_toolSpecs; }
    const QList<Message> &history() const { return m_history; }
    const ContextOverlays &overlays() const { return m_overlays; }
    // What the next request would send now (before its preflight).
    QList<Message> currentView() const;
    QString lastError() const { return m_lastError; }
    QString lastAnswer() const { return m_lastAnswer; }
    int turnsThisRun() const { return m_turns; }

    // Actions. Each returns false (doing nothing) when it does not apply in the current state.
    bool submit(const QString &prompt);
    // Continues the loop from the stored state without a new prompt (after a stop, a failure or a crash).
    bool resume();
    // Stops whatever runs: the request is cancelled, the tool killed, the summary abandoned; stopped()
    // follows once what the stop stores (the request's record, the tool's result) is stored.
    void stop();
    // The user's answer to approvalRequested(callId).
    bool approve(const QString &callId, ApprovalDecision decision);
    // "/compact" (a preflight now, recorded even at None) and "/compact force" (as if at Full).
    bool compactNow(bool force);
    // Removes the newest checkpoint: the previous view comes back (compactionUndone() when it is
    // removed from the store; a store failure fails the run).
    bool undoLastCompaction();
    // After an interrupted turn (stopped, failed, crashed): continue it. After an answer: ask again
    // (the last user prompt is stored again; history is never rewritten).
    bool retryLastTurn();
    // Moves the summary in flight to the next step of the fallback chain.
    bool skipSummary();
    // Review of summaries (policy().reviewSummaries, issue #22 item 7): while a draft waits
    // (summaryReviewRequested) the run sends nothing. Accept commits the decision's anchors and
    // summary (an edit is stored as version 2 beside the draft); Reject keeps the history and
    // drafts again only at a higher tier. False when no review is open.
    bool decideSummaryReview(const wl::ReviewDecision &decision);
    // After an accepted review (decideSummaryReview finishes the preflight before it returns): true
    // when its checkpoint was committed; else `why` says why not (one not smaller than what it replaces).
    bool reviewCommitted(QString *why = nullptr) const;
    bool isAwaitingReview() const;
    // The draft waiting for review (valid while isAwaitingReview()).
    SummaryDraft pendingReview() const;
    // A summary for the next review is being drafted in the background (AgentConfig::draftClient).
    bool isDraftingAhead() const;
    // Item 8: a new version of a stored checkpoint for the requests that follow, made from these
    // anchors and summary (the offload references as the checkpoint lists them). Not while busy.
    bool reviseCheckpoint(qint64 checkpointId, const Anchors &anchors, const QString &summary);
    // Goes back one version of the checkpoint (the edit's text stays in the store).
    bool undoCheckpointRevision(qint64 checkpointId);

Q_SIGNALS:
    void stateChanged(wl::AgentRun::State state);
    void compactionStarted(wl::Tier tier, int messages, const QDateTime &started);
    void compactionRecorded(const wl::CompactionRecord &record);
    void compactionUndone(qint64 checkpointId);
    void summaryReviewRequested(const wl::SummaryDraft &draft);
    // The summary drafted in the background for the next review is current as of `requestIndex`.
    void summaryDraftedAhead(int requestIndex);
    // A stored checkpoint has a new current version (an edit, or an undo of one).
    void checkpointRevised(qint64 checkpointId, int version);
    void retrying(int attempt, int delayMs, const QString &error);
    // The text and calls streamed so far belong to a reply that broke; a retry sends it again.
    void replyDiscarded();
    void textDelta(const QString &text);
    void thinkingDelta(const QString &text);
    void toolCallStreaming(int index, const QString &callId, const QString &name);
    void toolCallArgumentsDelta(int index, const QString &delta);
    void approvalRequested(const wl::ApprovalRequest &request);
    void toolStarted(const wl::ToolCall &call);
    void toolFinished(const wl::ToolCall &call, const wl::ToolResult &result, qint64 durationMs);
    void messageStored(const wl::Message &message);
    void requestStored(const wl::RequestRecord &request);
    void finished(const QString &answer);
    void stopped();
    void failed(const QString &error);

private:
    enum class AfterPreflight { SendRequest, Idle };

    using AfterStored = std::function<void(const QList<Message> &stored)>;

    void setState(State state);
    // Queues `step` for the store; on this thread, once it is stored, `then` gets its ids, unless
    // the run failed in the meantime. A store failure fails the run with `failure` (%1: why).
    void storeStep(const StepAppend &step, const QString &failure, std::function<void(const StepIds &)> then);
    // Calls `then` once every write queued so far is stored (at once when none is pending).
    void afterWrites(std::function<void()> then);
    void storeMessages(const QList<Message> &messages, const QList<OffloadOverlay> &offloads,
                       const std::optional<RequestRecord> &request, AfterStored then);
    void addToHistory(const Message &message);
    void closeInterruptedCalls();
    void closeCalls(int fromIndex, const QString &reason);
    void storeSessionSetup();
    void startTurn();
    void runPreflight(bool force, bool userRequested, AfterPreflight then);
    void startPreflight(bool force, bool userRequested, AfterPreflight then);
    void onPreflightFinished();
    void storeCompaction(const PreflightResult &result, std::function<void()> then);
    // After a stored preflight at `tier`: a Warn starts or tops up the background draft; a higher
    // tier used it, found it stale or had it rejected, so it goes.
    void keepDraftCurrent(Tier tier);
    void sendRequest();
    void onAttemptStarted(int attempt);
    void onTextDelta(const QString &text);
    void onThinkingDelta(const QString &text);
    void onToolCallStarted(int index, const QString &id, const QString &name);
    void onToolCallArgumentsDelta(int index, const QString &delta);
    void onRetrying(int attempt, int delayMs, const wl::ChatError &error);
    void onModelFinished(const wl::Message &assistant, const wl::ChatUsage &usage, const QString &finishReason);
    void onModelFailed(const wl::ChatError &error);
    void storeFailedRequest(const QString &error, std::function<void()> then);
    void runNextTool();
    void onToolFinished(const wl::ToolResult &result);
    void completeTool(const wl::ToolCall &call, const wl::ToolResult &result);
    void endStopped();
    void fail(const QString &error);
    void rebuildView();
    // Pins (docs/COMPACTION.md section 12): reads the stored set (off this thread) into the
    // overlays and the view, then `then`.
    void refreshPins(std::function<void()> then);
    // A new version of a checkpoint (an edit or its undo) written by `write`, then the overlays
    // read again: checkpointRevised(); a store failure fails the run with `failure` (%1: why).
    void storeCheckpointVersion(qint64 checkpointId, std::function<std::optional<int>(SessionStore &, QString &)> write,
                                const QString &failure);

    AgentConfig m_config;
    CompactionPolicy m_policy;
    QString m_systemPrompt;
    bool m_systemPromptStored = false; // false: the default, not yet written to the session
    bool m_toolSchemasStored = false;  // written with the first request of this run
    QString m_auditPath;
    Workspace *m_workspace = nullptr;
    ApprovalGate *m_gate = nullptr;
    std::unique_ptr<ToolRegistry> m_tools;
    QList<ToolSpec> m_toolSpecs;
    qint64 m_toolSchemaBytes = 0;
    ChatClientSummarizer *m_configuredSummarizer = nullptr;
    ChatClientSummarizer *m_mainSummarizer = nullptr;
    BackgroundDraft *m_backgroundDraft = nullptr; // null without AgentConfig::draftClient

    QList<Message> m_history;
    ContextOverlays m_overlays;
    // The view the next request would send: the agent's, or while a preflight runs the one it compacts.
    const ContextView *nextRequestView() const;
    std::optional<ContextView> m_view;
    QString m_lastStateKey;
    Tier m_rejectedTier = Tier::None; // a summary rejected in review at this tier waits for a higher one
    bool m_reviewCommitted = false; // the last accepted review committed its checkpoint
    QString m_reviewRefusal;
    QStringList m_notedErrors; // gate-1 offload failures since the last stored record
    int m_requestCount = 0;

    State m_state = State::Idle;
    BackgroundRunner *m_writes = nullptr;
    int m_failures = 0; // continuations of writes queued before a failure do not go on
    bool m_opened = false;
    bool m_stopRequested = false;
    int m_turns = 0;
    QString m_lastError;
    QString m_lastAnswer;

    // The preflight in flight.
    QPointer<Preflight> m_preflight;
    AfterPreflight m_afterPreflight = AfterPreflight::SendRequest;
    Tier m_requestTier = Tier::None;

    // The request in flight.
    bool m_requestInFlight = false;
    RequestRecord m_pendingRequest;

    // The tool calls of the newest assistant message.
    QList<ToolCall> m_calls;
    int m_callIndex = 0;
    QPointer<ToolInvocation> m_invocation;
    bool m_toolAnnounced = false;
    bool m_denied = false;
};

} // namespace wl
