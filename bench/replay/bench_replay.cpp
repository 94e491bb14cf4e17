// `simulate` engine time on a 2,000-request session (target < 50 ms), transcript import into
// the store in MB/s on the largest corpus file, and a stored replay (CompactionBackfill).
#include "BenchReplayData.h"
#include "replay/ImportedSession.h"
#include "replay/CompactionBackfill.h"
#include "replay/SessionImporter.h"
#include "replay/TranscriptFormats.h"
#include "store/SessionStore.h"
#include "whatif/ReplayInput.h"
#include "whatif/Simulator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

const char *const kLargest = "claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl";

// A coding-agent session of `requests` model calls: a task, then per call an assistant turn with
// one tool call and its result (100 B to `maxResultBytes`, every 97th 200 KB), a user nudge every
// 50 calls. The Claude Code corpus session has about 6 KB of history per request, so 8 KB
// results (mean about 4 KB) are typical and 24 KB ones (mean about 12 KB) heavy.
ImportedSession syntheticSession(int requests, qsizetype maxResultBytes)
{
    QRandomGenerator random(20260514);
    ImportedSession s;
    s.messages.append(Message::system(u"You are a coding agent. Use the tools."_s));
    s.messages.append(Message::user(u"Port the parser to C++ and make the tests pass."_s));
    for (int r = 0; r < requests; ++r) {
        const QString id = u"call_"_s + QString::number(r);
        ImportedRequest request;
        request.messageIndex = int(s.messages.size());
        s.requests.append(request);
        const bool edit = r % 3 == 0;
        s.messages.append(Message::assistant(u"Step %1: checking the next part of the parser."_s.arg(r),
                                             {ToolCall{id, edit ? u"edit_file"_s : u"bash"_s,
                                                       u"{\"command\":\"make test -j2 && grep -n parse src/parser.cpp\"}"_s, true}}));
        const qsizetype size = r % 97 == 13 ? 200'000 : 100 + qsizetype(random.bounded(quint32(maxResultBytes - 100)));
        s.messages.append(Message::toolResult(id, QString(size, u'x').replace(0, 40, u"test output line with a failure here\n"_s)));
        if (r % 50 == 49)
            s.messages.append(Message::user(u"Keep going; do not change the public API."_s));
    }
    for (Message &m : s.messages)
        m.cacheBytes();
    s.messageCount = int(s.messages.size());
    return s;
}

CompactionPolicy windowOf(qint64 tokens)
{
    CompactionPolicy p;
    p.contextWindow = tokens;
    return p;
}

} // namespace

// Engine time of `waterline-cli simulate` without the file read: the simulator over 2,000
// requests (about 4,040 messages: 9 MB typical, 26 MB heavy).
static void simulate2000Requests(benchmark::State &state)
{
    const ReplayInput input = ReplayInput::fromImport(syntheticSession(2000, qsizetype(state.range(2)) * 1024));
    const Simulator::Input sim = input.simulatorInput(windowOf(state.range(0)), state.range(1) ? SummaryModel::fixedSize(600)
                                                                                               : SummaryModel::extractive());
    SimulationResult result;
    for (auto _ : state) {
        result = Simulator::simulate(sim);
        benchmark::DoNotOptimize(result);
    }
    std::array<int, 5> tiers{};
    for (const SimulationRow &row : result.rows)
        ++tiers[size_t(row.tier)];
    state.counters["requests"] = double(result.rows.size());
    state.counters["warn"] = tiers[1];
    state.counters["soft"] = tiers[2];
    state.counters["full"] = tiers[3];
    state.counters["emergency"] = tiers[4];
    state.counters["summaries"] = result.totals.summaryCalls;
    qint64 bytes = 0;
    for (const Message &m : input.history)
        bytes += m.byteCount();
    state.counters["history_MB"] = double(bytes) / (1024.0 * 1024.0);
}
// Args: window (0: never compact), summary model (0 extractive, 1 fixed size of 600 tokens),
// largest ordinary tool result in KB (8 typical, 24 heavy).
BENCHMARK(simulate2000Requests)
    ->Args({0, 0, 8})
    ->Args({128000, 0, 8})
    ->Args({128000, 1, 8})
    ->Args({32000, 0, 8})
    ->Args({128000, 0, 24})
    ->Args({128000, 1, 24})
    ->Args({32000, 0, 24})->Unit(benchmark::kMillisecond);

// The same through the whole file path: read the corpus file, build the input, simulate.
static void simulateCorpusFile(benchmark::State &state)
{
    const QString path = bench::corpusFile(kLargest);
    for (auto _ : state) {
        const ImportResult imported = TranscriptFormats::importFile(path);
        const ReplayInput input = ReplayInput::fromImport(imported.session);
        SimulationResult result = Simulator::simulate(input.simulatorInput(windowOf(20000), SummaryModel::extractive()));
        benchmark::DoNotOptimize(result);
        state.counters["requests"] = double(result.rows.size());
    }
    state.SetBytesProcessed(state.iterations() * QFileInfo(path).size());
}
BENCHMARK(simulateCorpusFile)->Unit(benchmark::kMillisecond);

// Import into a new store session (history in batches, requests, source details), on the
// largest corpus file (2.76 MB Claude Code session). One fresh database per iteration.
static void importIntoStore(benchmark::State &state)
{
    const QString path = bench::corpusFile(kLargest);
    const qint64 size = QFileInfo(path).size();
    int round = 0;
    for (auto _ : state) {
        state.PauseTiming();
        QTemporaryDir dir;
        SessionStore store;
        if (!store.open(dir.filePath(u"bench-%1.db"_s.arg(round++)))) {
            state.SkipWithError("cannot open a store");
            return;
        }
        state.ResumeTiming();
        const SessionImporter::Result r = SessionImporter::importFile(store, path);
        if (!r.ok) {
            state.SkipWithError(qPrintable(r.error));
            return;
        }
        state.counters["messages"] = r.messages;
        state.counters["requests"] = r.requests;
        state.PauseTiming();
        store.close();
        state.ResumeTiming();
    }
    state.SetBytesProcessed(state.iterations() * size);
}
BENCHMARK(importIntoStore)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// 200 MB of OpenAI Chat JSONL (20 KB tool results, every 500th one 4 MB) imported into a store:
// speed, and how far VmHWM rose above the resident size before (the history is streamed in
// batches; only ids and byte sums are kept, 16 bytes per message).
static void importGenerated200MBIntoStore(benchmark::State &state)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"big.jsonl"_s);
    const qint64 size = bench::writeGenerated200MB(path);
    if (size < 0) {
        state.SkipWithError("cannot write the generated file");
        return;
    }
    for (auto _ : state) {
        SessionStore store;
        if (!store.open(dir.filePath(u"big.db"_s))) {
            state.SkipWithError("cannot open a store");
            return;
        }
        const qint64 before = bench::resetPeakMemory();
        const SessionImporter::Result r = SessionImporter::importFile(store, path);
        if (!r.ok) {
            state.SkipWithError(qPrintable(r.error));
            return;
        }
        const qint64 after = bench::statusValue("VmHWM:");
        state.counters["VmHWM_growth_MB"] = double(after - before) / (1024.0 * 1024.0);
        state.counters["largest_message_MB"] = bench::kGeneratedLargestMessageMB;
        state.counters["messages"] = r.messages;
        state.counters["requests"] = r.requests;
    }
    state.SetBytesProcessed(state.iterations() * size);
}
BENCHMARK(importGenerated200MBIntoStore)->Iterations(1)->Unit(benchmark::kMillisecond);

// Replay of the stored corpus session with real offload files and the audit (the demo path).
static void replayStored(benchmark::State &state)
{
    const QString path = bench::corpusFile(kLargest);
    for (auto _ : state) {
        state.PauseTiming();
        QTemporaryDir dir;
        SessionStore store;
        store.open(dir.filePath(u"replay.db"_s));
        SessionImporter::Options options;
        options.workspace = dir.path();
        const SessionImporter::Result imported = SessionImporter::importFile(store, path, options);
        if (!imported.ok) {
            state.SkipWithError(qPrintable(imported.error));
            return;
        }
        CompactionBackfill::Options replay;
        replay.policy = windowOf(20000);
        replay.auditPath = dir.filePath(u"audit.jsonl"_s);
        state.ResumeTiming();
        const CompactionBackfill::Result r = CompactionBackfill::run(store, imported.sessionId, replay);
        if (!r.ok) {
            state.SkipWithError(qPrintable(r.error));
            return;
        }
        state.counters["checkpoints"] = r.checkpoints;
        state.counters["offloads"] = r.offloads;
        state.PauseTiming();
        store.close();
        state.ResumeTiming();
    }
}
BENCHMARK(replayStored)->Unit(benchmark::kMillisecond);
