#pragma once

#include "PolicyGrid.h"
#include "RunScore.h"

#include "compaction/CompactionPolicy.h"
#include "whatif/Simulator.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <array>
#include <atomic>
#include <functional>
#include <memory>

namespace wl {

class PriceTable;
class SessionScoring;
class WhatIfSession;
struct RecordedRun;
struct ReplayInput;

// One recorded session a sweep replays: its what-if caches, its scoring and the policy a grid's
// settings are put over (the session's own, or its default). Shared, read-only during a sweep.
struct SweepSession
{
    QString name;
    std::shared_ptr<const WhatIfSession> whatIf;
    std::shared_ptr<const SessionScoring> scoring;
    CompactionPolicy base;

    // Builds the scoring (seconds on a long session: a worker thread). `priceModel` empty: the
    // session's own model.
    static SweepSession prepare(QString name, const ReplayInput &replay, const RecordedRun &recorded,
                                const QList<qint64> &reportedOutput, const CompactionPolicy &base,
                                const SummaryModel &summaryModel, const PriceTable &prices, const QString &priceModel = {});
};

// A lost fact of one sweep row: which session, which request (its shown index), what.
struct SweepLostFact
{
    int session = 0;
    int request = 0;
    Fact::Kind kind = Fact::Kind::Instruction;
    QString text;
};

// One policy of a sweep, totalled over the sessions.
struct SweepRow
{
    PolicySettings settings;
    CompactionPolicy policy;  // the settings over the first session's base policy
    QString problem;          // not empty: the settings make no valid policy (nothing was run)
    CoverageCounts coverage;
    std::array<int, kFactKindCount> lostByKind{};
    QList<SweepLostFact> lostFacts;
    TokenCost cost;           // requests and summariser calls
    double usd = 0;           // each session's cost at its model's price
    bool priced = true;       // every session's model has a price
    int summaryCalls = 0;
    int emergencies = 0;
    qint64 tokensSent = 0;
    double peakRatio = 0;     // the highest utilisation any request sent (after compaction)
    bool pareto = false;      // on the Pareto front of coverage against cost

    // The cost the Pareto front weighs: US$ when every session is priced, else billed tokens.
    double costValue() const;
    // {"policy": {name: value}, "label", "coverage", "needed", "verbatim", "summarised",
    //  "retrievable", "lost", "lost_by_kind", "lost_facts": [{"session"?, "request", "kind",
    //  "text"}], "cost": {...}, "summary_calls", "emergencies", "tokens_sent", "peak_utilisation",
    //  "pareto"}; a row with a problem: {"policy", "label", "error"}.
    QJsonObject toJson(const QStringList &sessionNames = {}) const;
};

// Replays a list of policies over one or many sessions, in parallel on all cores, and scores each
// run (issue 21 item 7).
class PolicySweep
{
public:
    struct Options
    {
        // Set from any thread: the runs not yet started are skipped and run() returns early
        // (rows then hold what was run so far; `cancelled` says so).
        const std::atomic<bool> *cancel = nullptr;
        // Called from worker threads after each run (policy x session): (done, total).
        std::function<void(int, int)> progress;
        int threads = 0; // 0: QThread::idealThreadCount()
        qsizetype maxLostFacts = 1000; // per row, the first ones kept
    };

    // One row per entry of `policies`, in order, with the Pareto flags set.
    static QList<SweepRow> run(const QList<SweepSession> &sessions, const QList<PolicySettings> &policies,
                               const Options &options, bool *cancelled = nullptr);

    // Sets `pareto` on every valid row that no other valid row dominates (coverage at least as
    // high and cost at most as high, one of them strictly).
    static void markPareto(QList<SweepRow> &rows);
};

} // namespace wl
