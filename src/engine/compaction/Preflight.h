#pragma once

#include "CompactionPolicy.h"
#include "CompactionRecord.h"
#include "ContextOverlays.h"
#include "ContextView.h"
#include "SummaryReview.h"
#include "model/Message.h"
#include "model/ToolSpec.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <memory>
#include <optional>

namespace wl {

class CompactionPass;
class Offloader;
class Summarizer;
class SummaryChain;

struct PreflightInput
{
    QString sessionId;
    QString systemPrompt;
    QList<Message> history;        // ids ascending; implicitly shared, never modified
    ContextOverlays overlays;
    CompactionPolicy policy;
    QList<ToolSpec> tools;
    qint64 toolSchemaBytes = -1;   // precomputed schema bytes; -1: computed from `tools`
    qint64 overheadTokens = 0;     // what every request carries besides view and schemas (replayed imports)
    double tokenScale = 1.0;       // the view count's calibration against the provider's (replayed imports)
    int requestIndex = 0;
    QString workspaceDir;          // offloads go to <workspace>/.waterline/tool_results/<session>/
    bool simulateOffloads = false; // placeholders only, no files (what-if replay)
    QString auditPath;             // when set, records that should be recorded are appended here
    bool force = false;            // "/compact force": as if the ratio were at Full
    bool userRequested = false;    // "/compact": a record even at None
    QString lastStateKey;          // the stateKey of the caller's last recorded result
    // Problems since the last record that belong in this one (gate-1 offload failures at tool
    // time): added to its error, and the record is kept whatever the tier.
    QStringList notedErrors;
    // The summary of a Soft or Full compaction at or below this tier was rejected in review:
    // such a tier only offloads (as Warn does) and the summary is tried again at the next tier.
    Tier rejectedTier = Tier::None;
    // The view of (systemPrompt, history, overlays), kept up to date by the caller with
    // ContextView::append(); moving it in saves the O(n) rebuild. Built when absent.
    std::optional<ContextView> view;
    // A summary drafted ahead from the Warn tier (policy.reviewSummaries). Used by a Soft or Full
    // that reviews its summary when it extends the same checkpoint and covers a prefix of the
    // tier's range: then only the rest is summarised (nothing when it covers all). Else ignored.
    std::optional<ReadyDraft> draft;
};

struct PreflightResult
{
    CompactionRecord record;
    ContextOverlays overlays;            // the input overlays plus the new ones
    QList<Checkpoint> newCheckpoints;    // to store
    QList<OffloadOverlay> newOffloads;   // to store
    ContextView view;                    // the final view; keep it for the next turn
    double ratioBefore = 0;
    double ratioAfter = 0;
    // Store and show the record: the tier acted, or it is a no-change state not recorded
    // before (docs/COMPACTION.md 11.7: once per distinct state), or the user asked.
    bool shouldRecord = false;
    QString stateKey;
    bool cancelled = false;
    bool reviewRejected = false;         // the user rejected the draft: no checkpoint
    bool reviewAccepted = false;         // the user accepted it: newCheckpoints holds it unless refused
    QString refusal;                     // why an accepted summary was not committed (not smaller...)
    // Not empty: the request does not fit its window even after Emergency, and must not be sent;
    // says which part is too large (CompactionPass::overWindow). Also in the record's error.
    QString notSent;
    QString auditError;

    QList<Message> messages(const QList<Message> &history) const { return view.messages(history, overlays); }
};

// The gate before every LLM request (docs/COMPACTION.md sections 4, 5, 8, 9): computes the view and
// its tier, and acts on it through new overlays. Never blocks: a summary is requested
// from the fallback chain and the preflight finishes when it arrives, fails or times out.
// finished() is emitted exactly once, possibly before start() returns.
class Preflight : public QObject
{
    Q_OBJECT
public:
    explicit Preflight(PreflightInput input, QObject *parent = nullptr);
    ~Preflight() override;

    // The configured summariser and the session's main model; either may be null (not owned).
    void setSummarizers(Summarizer *configured, Summarizer *mainModel);
    void start();
    // Stops waiting for a summary; finishes at once with what was done so far.
    void cancel();
    // Moves a summary in flight to the next step of the fallback chain (the user's "skip").
    void skipSummary();
    // Messages being summarised while the preflight waits for a summary, else 0.
    int pendingSummaryCount() const;
    // True between reviewRequested() and decideReview() (policy.reviewSummaries).
    bool isAwaitingReview() const { return m_awaitingReview; }
    const SummaryDraft &draft() const { return m_draft; }
    // The user's answer to reviewRequested(); ignored when no review is open.
    void decideReview(const wl::ReviewDecision &decision);

    bool isFinished() const { return m_finished; }
    const PreflightResult &result() const { return m_result; }
    PreflightResult takeResult() { return std::move(m_result); }

    // The compaction state a record leaves (PreflightResult::stateKey): the tier, the newest checkpoint
    // and the offloads compactions made. Offloads at tool time (gate 1) are not part of it: a
    // session with large tool results is not in a new state every turn.
    static QString stateKeyFor(Tier tier, const ContextOverlays &overlays);

    // The same preflight with no LLM at all (summaries by the extractive step), synchronously.
    static PreflightResult runWithoutLlm(PreflightInput input);

Q_SIGNALS:
    // policy.reviewSummaries: a Soft or Full summary arrived and waits for decideReview().
    void reviewRequested(const wl::SummaryDraft &draft);
    // A Soft or Full is about to write its summary (before any summariser is asked): a draft still
    // being written in the background for it is too late now.
    void summaryStarting();
    void finished();

private:
    void begin();
    // Under mask, a Soft or Full that masking left above its target says so in the record.
    void noteMaskShortfall();
    // Starts the tier's summary: from the ready draft when it fits the job, else all of it.
    void startSummary();
    bool draftFits(const ReadyDraft &draft) const;
    void onSummary();
    void openReview(const ParsedSummary &parsed);
    // `reviewed`: accepted in review, its anchors committed as they are (not merged again).
    void commitSummary(const ParsedSummary &parsed, const std::optional<CheckpointVersion> &draft, bool reviewed);
    void complete();

    PreflightInput m_in;
    PreflightResult m_result;
    std::unique_ptr<Offloader> m_offloader;
    std::unique_ptr<CompactionPass> m_pass;
    struct Job;
    std::unique_ptr<Job> m_job;
    SummaryChain *m_chain = nullptr;
    QPointer<Summarizer> m_configured;
    QPointer<Summarizer> m_mainModel;
    QElapsedTimer m_clock;
    bool m_started = false;
    bool m_finished = false;
    bool m_awaitingReview = false;
    SummaryDraft m_draft;
};

} // namespace wl
