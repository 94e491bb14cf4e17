// What-if replay with the facts cache: 2,000 requests over 20,000 messages, extractive summaries.
// The thresholds dock re-runs it on every slider step over the same history (target < 50 ms).
#include "compaction/ExtractiveSummarizer.h"
#include "model/Message.h"
#include "score/PolicySweep.h"
#include "score/PriceTable.h"
#include "score/RecordedRun.h"
#include "score/RunScorer.h"
#include "whatif/ReplayInput.h"
#include "whatif/WhatIfSession.h"
#include "whatif/SimulatedOffloads.h"
#include "whatif/Simulator.h"

#include <QRandomGenerator>

#include <benchmark/benchmark.h>

#include <cmath>
#include <ctime>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

QString filler(QRandomGenerator &random, qsizetype chars)
{
    static const QStringList words{u"compile"_s, u"src/engine/compaction/Tier.cpp"_s, u"warning"_s, u"ok"_s, u"test"_s,
                                   u"passed"_s, u"return"_s, u"const"_s, u"QString"_s, u"42"_s, u"{"_s, u"}"_s, u"上下文"_s};
    QString text;
    text.reserve(chars + 64);
    while (text.size() < chars) {
        text += words.at(random.bounded(int(words.size())));
        text += random.bounded(8) == 0 ? u'\n' : u' ';
    }
    return text;
}

// 100 to 12,000 characters, log-uniform.
qsizetype messageSize(QRandomGenerator &random)
{
    return qsizetype(100.0 * std::pow(120.0, random.generateDouble()));
}

// 20,000 messages of a coding session: user requests, shell calls (some failing), file writes,
// assistant prose with decisions and plans. Ids 1..n.
QList<Message> history(int count)
{
    QRandomGenerator random(20261130); // fixed seed: every run measures the same input
    QList<Message> messages;
    messages.reserve(count + 2);
    int call = 0;
    while (messages.size() < count) {
        const int kind = random.bounded(20);
        if (kind == 0) {
            messages << Message::user(u"Please fix issue %1 and keep the tests green. "_s.arg(call) + filler(random, random.bounded(40, 400)));
            continue;
        }
        const QString id = u"call_%1"_s.arg(call++);
        if (kind <= 9) {
            messages << Message::assistant(u"I'll use the existing parser instead of a new one. Running the build."_s,
                                           {{id, u"bash"_s, uR"({"command":"make -j2 test_%1"})"_s.arg(call % 40), true}});
            QString output = filler(random, messageSize(random));
            if (random.bounded(5) == 0)
                output += u"\nsrc/a.cpp:12:3: error: expected ';'\nexit code 2"_s;
            messages << Message::toolResult(id, output);
        } else if (kind <= 15) {
            const QString content = filler(random, messageSize(random));
            messages << Message::assistant(QString(), {{id, u"write_file"_s,
                                                        uR"({"path":"/work/project/src/module_%1.cpp","content":")"_s.arg(call % 50) + content + u"\"}"_s, true}});
            messages << Message::toolResult(id, u"wrote src/module_%1.cpp"_s.arg(call % 50));
        } else {
            messages << Message::assistant(filler(random, messageSize(random))
                                           + u"\nWe decided to keep the old format.\nNext steps:\n1. run the tests\n2. update the docs\n"_s);
        }
    }
    messages.resize(count);
    for (int i = 0; i < messages.size(); ++i) {
        messages[i].id = i + 1;
        messages[i].cacheBytes();
    }
    return messages;
}

Simulator::Input input()
{
    Simulator::Input in;
    in.systemPrompt = u"You are a coding agent. Use the tools."_s;
    in.history = history(20000);
    for (qsizetype r = 1; r <= 2000; ++r)
        in.requests << r * 10;
    in.policy.contextWindow = 32000;
    in.summaryModel = SummaryModel::extractive();
    return in;
}

void count(benchmark::State &state, const SimulationResult &result)
{
    state.counters["requests"] = double(result.rows.size());
    state.counters["summaries"] = result.totals.summaryCalls;
    state.counters["emergencies"] = result.totals.emergencies;
}

// No caches passed in: the run keeps its facts for itself only.
void BM_SimulateNoCache(benchmark::State &state)
{
    const Simulator::Input in = input();
    SimulationResult result;
    for (auto _ : state) {
        result = Simulator::simulate(in);
        benchmark::DoNotOptimize(result);
    }
    count(state, result);
}
BENCHMARK(BM_SimulateNoCache)->Unit(benchmark::kMillisecond);

// Fresh shared caches per run: the first replay after a history is loaded.
void BM_SimulateColdCache(benchmark::State &state)
{
    Simulator::Input in = input();
    SimulationResult result;
    for (auto _ : state) {
        in.extractiveFacts = std::make_shared<const ExtractiveFacts>();
        in.offloads = std::make_shared<SimulatedOffloads>();
        result = Simulator::simulate(in);
        benchmark::DoNotOptimize(result);
    }
    count(state, result);
}
BENCHMARK(BM_SimulateColdCache)->Unit(benchmark::kMillisecond);

// The caches filled by an earlier replay at another threshold: every slider step after the first.
void BM_SimulateWarmCache(benchmark::State &state)
{
    Simulator::Input in = input();
    in.extractiveFacts = std::make_shared<const ExtractiveFacts>();
    in.offloads = std::make_shared<SimulatedOffloads>();
    in.policy.full = 0.85; // an earlier slider position
    Simulator::simulate(in);
    in.policy = CompactionPolicy();
    in.policy.contextWindow = 32000;
    SimulationResult result;
    for (auto _ : state) {
        result = Simulator::simulate(in);
        benchmark::DoNotOptimize(result);
    }
    count(state, result);
    state.counters["cached_messages"] = double(in.extractiveFacts->size());
}
BENCHMARK(BM_SimulateWarmCache)->Unit(benchmark::kMillisecond);

// The same slider step with coverage and cost on (issue 21): the scorer reads every request's view
// in the replay's pass. The session's facts and needed facts are worked out once, like the caches.
void BM_SimulateWarmCacheScored(benchmark::State &state)
{
    Simulator::Input in = input();
    in.extractiveFacts = std::make_shared<const ExtractiveFacts>();
    in.offloads = std::make_shared<SimulatedOffloads>();
    in.policy.full = 0.85;
    Simulator::simulate(in);
    in.policy = CompactionPolicy();
    in.policy.contextWindow = 32000;
    const auto basis = ScoreBasis::build(in.history, in.requests, {}, {});
    SimulationResult result;
    RunScore score;
    for (auto _ : state) {
        RunScorer scorer(basis, CacheProtocol::Anthropic, Price{3.00, 0.30, 3.75, 15.00});
        in.observer = scorer.observer();
        result = Simulator::simulate(in);
        score = scorer.score();
        benchmark::DoNotOptimize(result);
        benchmark::DoNotOptimize(score);
    }
    count(state, result);
    state.counters["needed"] = score.coverage.needed;
    state.counters["coverage"] = score.coverage.coverage();
}
BENCHMARK(BM_SimulateWarmCacheScored)->Unit(benchmark::kMillisecond);

// Once per session: its facts and what each request needed.
void BM_ScoreBasis(benchmark::State &state)
{
    const Simulator::Input in = input();
    std::shared_ptr<const ScoreBasis> basis;
    for (auto _ : state) {
        basis = ScoreBasis::build(in.history, in.requests, {}, {});
        benchmark::DoNotOptimize(basis);
    }
    state.counters["facts"] = double(basis->facts.size());
}
BENCHMARK(BM_ScoreBasis)->Unit(benchmark::kMillisecond);

// The Compare policies window and `evaluate --sweep` (issue 21): 64 policies (4 full thresholds x
// 4 tails x 2 offload gates x schemas counted or not) over the benchmark session, on all cores.
// The session's scoring is built once, as the window does before its first sweep; `fresh` gives
// each sweep new what-if caches (the first sweep of a session), else they are warm.
void BM_Sweep64(benchmark::State &state)
{
    const Simulator::Input in = input();
    ReplayInput replay;
    replay.systemPrompt = in.systemPrompt;
    replay.history = in.history;
    replay.requestEnds = in.requests;
    for (qsizetype r = 0; r < in.requests.size(); ++r)
        replay.requestIndexes << int(r);
    replay.model = u"claude-sonnet-4-5"_s;
    QString error;
    const std::optional<PolicyGrid> grid = PolicyGrid::fromJson(
        QByteArray(R"({"full": [0.75, 0.8, 0.85, 0.9], "tail": [4, 8, 12, 16], "offload-threshold": [2000, 8000], "count-tool-schemas": [true, false]})"),
        &error);
    const QList<PolicySettings> policies = grid->expand();
    const SweepSession prepared = SweepSession::prepare(u"bench"_s, replay, RecordedRun(), {}, in.policy, in.summaryModel, PriceTable::builtIn());
    const bool fresh = state.range(0) != 0;
    QList<SweepRow> rows;
    // CPU time of the whole process (every worker thread): on a shared machine the wall time says
    // more about the neighbours than about the sweep; this divided by the cores bounds it.
    double cpuMs = 0;
    for (auto _ : state) {
        SweepSession session = prepared;
        if (fresh) {
            state.PauseTiming();
            session.whatIf = std::make_shared<const WhatIfSession>(replay.simulatorInput(in.policy, in.summaryModel));
            state.ResumeTiming();
        }
        const std::clock_t start = std::clock();
        rows = PolicySweep::run({session}, policies, {});
        benchmark::DoNotOptimize(rows);
        cpuMs += 1000.0 * double(std::clock() - start) / CLOCKS_PER_SEC;
    }
    state.counters["process_cpu_ms"] = benchmark::Counter(cpuMs, benchmark::Counter::kAvgIterations);
    state.counters["policies"] = double(rows.size());
    state.counters["pareto"] = double(std::count_if(rows.cbegin(), rows.cend(), [](const SweepRow &r) { return r.pareto; }));
}
BENCHMARK(BM_Sweep64)->ArgName("fresh_caches")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
