// What-if replay speed: the live threshold sliders re-run this on every change.
#include "BenchSessions.h"

#include "whatif/Simulator.h"

#include <benchmark/benchmark.h>

using namespace Qt::StringLiterals;

using namespace wl;
using namespace wl::bench;

static void BM_Simulate(benchmark::State &state)
{
    const int messages = int(state.range(0));
    const int requests = int(state.range(1));
    const QList<Message> history = agentSession(messages, 8000);
    Simulator::Input in;
    in.systemPrompt = u"You are a coding agent."_s;
    in.history = history;
    in.requests = requestsEvery(messages, messages / requests);
    in.policy.contextWindow = 32000;
    in.summaryModel = state.range(2) ? SummaryModel::fixedSize() : SummaryModel::extractive();
    SimulationResult last;
    for (auto _ : state) {
        last = Simulator::simulate(in);
        benchmark::DoNotOptimize(last.totals.tokensSent);
    }
    state.counters["requests"] = double(last.totals.requests);
    state.counters["summaries"] = double(last.totals.summaryCalls);
    state.counters["emergencies"] = double(last.totals.emergencies);
}
BENCHMARK(BM_Simulate)
    ->ArgNames({"messages", "requests", "fixed_size"})
    ->Args({20000, 2000, 0})
    ->Args({20000, 2000, 1})
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
