#include "PolicySweep.h"

#include "PriceTable.h"
#include "RecordedRun.h"
#include "SessionScoring.h"

#include "whatif/ReplayInput.h"
#include "whatif/WhatIfSession.h"

#include <QJsonArray>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrentMap>

#include <numeric>
#include <optional>

using namespace Qt::StringLiterals;

namespace wl {

SweepSession SweepSession::prepare(QString name, const ReplayInput &replay, const RecordedRun &recorded,
                                   const QList<qint64> &reportedOutput, const CompactionPolicy &base,
                                   const SummaryModel &summaryModel, const PriceTable &prices, const QString &priceModel)
{
    SweepSession session;
    session.name = std::move(name);
    session.base = base;
    session.whatIf = std::make_shared<const WhatIfSession>(replay.simulatorInput(base, summaryModel));
    session.scoring = SessionScoring::build(replay, recorded, reportedOutput, prices, priceModel);
    return session;
}

double SweepRow::costValue() const
{
    return priced ? usd : double(cost.prompt() + cost.output);
}

QJsonObject SweepRow::toJson(const QStringList &sessionNames) const
{
    QJsonObject policyJson;
    for (const auto &[name, value] : settings) {
        bool number = false;
        const double v = value.toDouble(&number);
        policyJson.insert(name, number ? QJsonValue(v) : QJsonValue(value));
    }
    QJsonObject o{{u"policy"_s, policyJson}, {u"label"_s, PolicyGrid::label(settings)}};
    if (!problem.isEmpty()) {
        o.insert(u"error"_s, problem);
        return o;
    }
    QJsonArray lost;
    for (const SweepLostFact &l : lostFacts) {
        QJsonObject f{{u"request"_s, l.request}, {u"kind"_s, factKindName(l.kind)}, {u"text"_s, l.text}};
        if (sessionNames.size() > 1)
            f.insert(u"session"_s, sessionNames.value(l.session));
        lost.append(f);
    }
    QJsonObject byKind;
    for (int k = 0; k < kFactKindCount; ++k)
        byKind.insert(factKindName(Fact::Kind(k)), lostByKind[size_t(k)]);
    QJsonObject costJson{
        {u"input_tokens"_s, double(cost.input)},
        {u"cache_read_tokens"_s, double(cost.cacheRead)},
        {u"cache_write_tokens"_s, double(cost.cacheWrite)},
        {u"output_tokens"_s, double(cost.output)},
        {u"usd"_s, usd},
        {u"priced"_s, priced},
        {u"summary_calls"_s, summaryCalls},
    };
    o.insert(u"coverage"_s, coverage.coverage());
    o.insert(u"needed"_s, coverage.needed);
    o.insert(u"verbatim"_s, coverage.verbatim);
    o.insert(u"summarised"_s, coverage.summarised);
    o.insert(u"retrievable"_s, coverage.retrievable);
    o.insert(u"lost"_s, coverage.lost);
    o.insert(u"lost_by_kind"_s, byKind);
    o.insert(u"lost_facts"_s, lost);
    o.insert(u"cost"_s, costJson);
    o.insert(u"summary_calls"_s, summaryCalls);
    o.insert(u"emergencies"_s, emergencies);
    o.insert(u"tokens_sent"_s, double(tokensSent));
    o.insert(u"peak_utilisation"_s, peakRatio);
    o.insert(u"pareto"_s, pareto);
    return o;
}

namespace {

// What one policy did on one session.
struct Run
{
    QString problem;
    bool ran = false;
    RunScore score;
    SimulationTotals totals;
};

} // namespace

QList<SweepRow> PolicySweep::run(const QList<SweepSession> &sessions, const QList<PolicySettings> &policies,
                                 const Options &options, bool *cancelled)
{
    const qsizetype sessionCount = sessions.size();
    const int total = int(policies.size() * sessionCount);
    QList<Run> runs(total);
    QList<int> tasks(total);
    std::iota(tasks.begin(), tasks.end(), 0);
    std::atomic<int> done = 0;
    auto runOne = [&](int task) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            return;
        Run &run = runs[task];
        const SweepSession &session = sessions[task % sessionCount];
        CompactionPolicy policy = session.base;
        if (PolicyGrid::apply(policies[task / sessionCount], policy, &run.problem)) {
            RunScorer scorer = session.scoring->scorer();
            run.totals = session.whatIf->simulate(policy, scorer.observer()).totals;
            run.score = scorer.score();
            run.ran = true;
        }
        const int now = done.fetch_add(1) + 1;
        if (options.progress)
            options.progress(now, total);
    };
    // A pool of its own: the caller may itself be a task of the global pool (BackgroundRunner),
    // which must not wait on work queued behind it.
    QThreadPool pool;
    pool.setMaxThreadCount(options.threads > 0 ? options.threads : QThread::idealThreadCount());
    QtConcurrent::blockingMap(&pool, tasks, runOne);

    QList<SweepRow> rows;
    rows.reserve(policies.size());
    for (qsizetype p = 0; p < policies.size(); ++p) {
        SweepRow row;
        row.settings = policies[p];
        if (sessionCount > 0) {
            row.policy = sessions.constFirst().base;
            QString ignored;
            PolicyGrid::apply(row.settings, row.policy, &ignored);
        }
        for (qsizetype s = 0; s < sessionCount; ++s) {
            const Run &run = runs[p * sessionCount + s];
            if (!run.problem.isEmpty() && row.problem.isEmpty())
                row.problem = sessionCount > 1 ? sessions[s].name + u": "_s + run.problem : run.problem;
            if (!run.ran)
                continue;
            const SessionScoring &scoring = *sessions[s].scoring;
            const RunScore &score = run.score;
            row.coverage += score.coverage;
            for (int k = 0; k < kFactKindCount; ++k)
                row.lostByKind[size_t(k)] += score.lostByKind[size_t(k)];
            for (const LostFact &l : score.lostFacts) {
                if (row.lostFacts.size() >= options.maxLostFacts)
                    break;
                const Fact &f = scoring.basis().facts[l.fact];
                row.lostFacts.append({int(s), scoring.basis().requestIndexes.value(l.request, l.request), f.kind, f.text});
            }
            row.cost += score.cost;
            row.usd += score.cost.usd(score.price);
            row.priced = row.priced && score.priced;
            row.summaryCalls += score.summaryCalls;
            row.emergencies += run.totals.emergencies;
            row.tokensSent += run.totals.tokensSent;
            row.peakRatio = std::max(row.peakRatio, run.totals.peakRatio);
        }
        rows << row;
    }
    const bool wasCancelled = options.cancel && options.cancel->load() && done.load() < total;
    if (cancelled)
        *cancelled = wasCancelled;
    if (!wasCancelled)
        markPareto(rows);
    return rows;
}

void PolicySweep::markPareto(QList<SweepRow> &rows)
{
    for (SweepRow &row : rows)
        row.pareto = false;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        SweepRow &a = rows[i];
        if (!a.problem.isEmpty())
            continue;
        const double coverage = a.coverage.coverage();
        const double cost = a.costValue();
        bool dominated = false;
        for (qsizetype j = 0; j < rows.size() && !dominated; ++j) {
            const SweepRow &b = rows[j];
            if (j == i || !b.problem.isEmpty())
                continue;
            const double bCoverage = b.coverage.coverage();
            const double bCost = b.costValue();
            dominated = bCoverage >= coverage && bCost <= cost && (bCoverage > coverage || bCost < cost);
        }
        a.pareto = !dominated;
    }
}

} // namespace wl
