#pragma once

#include "compaction/CompactionPolicy.h"
#include "compaction/ContextOverlays.h"
#include "compaction/Tier.h"
#include "compaction/ViewComposition.h"
#include "model/Message.h"
#include "model/ToolSpec.h"

#include <QJsonObject>
#include <QList>
#include <QSet>

#include <array>
#include <functional>
#include <memory>

namespace wl {

class ContextView;
class ViewIds;
class ExtractiveFacts;
class SimulatedOffloads;

// How the simulator makes new summaries: the extractive summariser, or a fixed size.
struct SummaryModel
{
    enum class Kind { Extractive, FixedSize };
    Kind kind = Kind::Extractive;
    qint64 tokens = 0; // FixedSize: <= 0 means the mean of the recorded summaries, else 600

    static SummaryModel extractive() { return {}; }
    static SummaryModel fixedSize(qint64 tokens = 0) { return {Kind::FixedSize, tokens}; }
};

struct SimulationRow
{
    int index = 0;
    double ratioBefore = 0;
    double ratioAfter = 0;
    Tier tier = Tier::None;
    qint64 tokensBefore = 0;   // view tokens, as CompactionRecord counts them
    qint64 tokensAfter = 0;
    qint64 totalTokensAfter = 0; // what ratioAfter counts: the view, schemas, overhead and reserved output
    int msgsBefore = 0;
    int msgsAfter = 0;
    int offloaded = 0;
    int summarized = 0;
    // False when the request would not fit its window even after Emergency: not sent (the live
    // agent stops with `error`, which names the part that is too large).
    bool sent = true;
    QString error;
    // What filled the window of the view it sent, by category (the same estimate as ratioAfter).
    ViewComposition composition;
};

// The totals of a replay, and of a recorded session in the same terms (RecordedTotals), so the
// two can be shown side by side: under the recorded policy every field but summaryInputTokens is
// equal.
struct SimulationTotals
{
    qint64 window = 0;         // the context window every ratio below is a share of (the policy's)
    int requests = 0;
    int summaryCalls = 0;      // Soft and Full summaries: the LLM calls the policy would have cost
    qint64 tokensSent = 0;     // what the requests carried: view + counted tool schemas + overhead
    // What those summaries read, in tokens (an LLM summariser's input); not part of tokensSent, as
    // no request carried it. -1: not known (a recorded session does not store it).
    qint64 summaryInputTokens = 0;
    double peakRatio = 0;      // the highest ratio actually sent (after compaction)
    double peakRatioBefore = 0; // the highest ratio a request reached before its compaction
    int emergencies = 0;       // requests at Emergency (= tiers[Emergency])
    std::array<int, 5> tiers{}; // requests per tier, by Tier value
    int offloads = 0;          // tool results offloaded, at tool time and at compaction
    int notSent = 0;           // requests over the window even after Emergency (not in tokensSent or peakRatio)
};

class SimulationResult
{
public:
    QList<SimulationRow> rows;
    SimulationTotals totals;

    // {"requests":[{"index",...}],"totals":{...}} with the field names of `waterline-cli simulate`.
    QJsonObject toJson() const;

    // What request `row` would have sent, and the overlays it would have had (for --dump-views).
    QList<Message> viewAt(int row) const;
    ContextOverlays overlaysAt(int row) const;
    // The history message ids of that view, as RequestRecord::viewMessageIds holds them.
    ViewIds viewMessageIdsAt(int row) const;

private:
    friend class Simulator;
    ContextOverlays overlaysAt(int row, bool allTexts) const;
    QList<Pin> pinsAt(qsizetype row) const; // the pins in force at `row`, in the session's order
    QString m_systemPrompt;
    QList<Message> m_history;
    QList<Checkpoint> m_checkpoints;   // in the order they were made
    QList<OffloadOverlay> m_offloads;  // in the order they were made
    QList<Pin> m_pins;                 // the replay's history ids
    QList<qsizetype> m_pinsFrom;       // per pin, the first row it is in force for
    struct Mark { qsizetype historyEnd; qsizetype checkpoints; qsizetype offloads; };
    QList<Mark> m_marks;               // per row
    // An edited recorded checkpoint whose next version came in force at `row`: m_checkpoints[index]
    // reads as `checkpoint` from that row on.
    struct VersionSwap { qsizetype row; qsizetype index; Checkpoint checkpoint; };
    QList<VersionSwap> m_versionSwaps;
};

// What-if replay (docs/COMPACTION.md section 10): re-runs preflight over a recorded session under
// another policy, with no LLM call and no disk write. Incremental: the view grows
// message by message and is only rebuilt when a checkpoint is added.
class Simulator
{
public:
    // What one replayed request sent, handed to Input::observer right after its compaction: the
    // scores of a policy (coverage, cost) are read from it in the same pass. Valid only during the call.
    struct Step
    {
        int request = 0;
        const QList<Message> &history;  // the replay's history (ids made usable)
        const ContextView &view;        // the view as sent
        const ContextOverlays &overlays;
        qint64 fixedTokens = 0;         // tool schemas and overhead sent with the view
        qint64 summaryReadTokens = 0;   // an LLM summary call made before it: what it read (0: none)
    };

    struct Input
    {
        QString systemPrompt;
        QList<Message> history;
        QList<qsizetype> requests;   // per recorded request: how many history messages it saw
        CompactionPolicy policy;
        QList<ToolSpec> tools;
        qint64 toolSchemaBytes = -1; // -1: computed from `tools`
        // Per request, the schema bytes it was sent with when the session recorded them (-1, or
        // missing: the default above).
        QList<qint64> requestSchemaBytes;
        // Tokens every request carried that the session does not store (ReplayInput estimates it
        // for imported transcripts without their system prompt or tools); part of every ratio.
        qint64 overheadTokens = 0;
        // The view count's calibration against the provider's (ReplayInput::tokenScale; 1: none).
        double tokenScale = 1.0;
        // The session's own checkpoints: a replayed compaction that summarises exactly the range
        // one of them covers (same first and last message id) uses it as it was (text, anchors),
        // so a replay under the recorded policy gives the recorded views.
        QList<Checkpoint> recordedCheckpoints;
        // Per request, its stored index and when it was sent: the version of an edited recorded
        // checkpoint each one carried (Checkpoint::asSent). Empty: positions, times unknown.
        QList<int> requestIndexes;
        QList<QDateTime> requestTimes;
        // The pins every replayed view keeps after its system prompt (docs/COMPACTION.md section 12):
        // pinned messages are never offloaded or summarised in the replay either.
        QList<Pin> pins;
        // Per pin, the first request it is in force for (ReplayInput::pinsFrom: when the recording
        // first carried it); negative or missing: every request, as if pinned from the start.
        QList<qsizetype> pinsFrom;
        QSet<QString> unbilledRecordIds; // of those, the ones no LLM wrote (ReplayInput::unbilledRecordIds)
        SummaryModel summaryModel;
        QList<qint64> recordedSummaryTokens; // for the FixedSize default
        QString sessionId;                   // names the would-be offload paths
        // Per-message facts of the extractive summariser, kept across runs over the same history
        // (share one between the runs; it fills itself). Null: a cache for this run only.
        std::shared_ptr<const ExtractiveFacts> extractiveFacts;
        // The same for the simulated offloads (placeholders), kept across runs. Null: none kept.
        std::shared_ptr<SimulatedOffloads> offloads;
        // Called once per request with what it sent (may be empty).
        std::function<void(const Step &)> observer;
    };

    static SimulationResult simulate(const Input &input);
    static SimulationResult simulate(const QString &systemPrompt, const QList<Message> &history,
                                     const QList<qsizetype> &requests, const CompactionPolicy &policy,
                                     SummaryModel summaryModel = {});
};

} // namespace wl
