// Transcript import throughput on the real corpus files, and peak memory on a generated
// 200 MB transcript streamed to a sink.
#include "BenchReplayData.h"
#include "replay/TranscriptFormats.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

class NullSink : public ImportSink
{
public:
    bool addMessage(Message &&message, QString *) override
    {
        bytes += message.byteCount();
        ++messages;
        return true;
    }
    qint64 bytes = 0;
    qint64 messages = 0;
};

void importFile(benchmark::State &state, const char *relative)
{
    const QString path = bench::corpusFile(relative);
    const qint64 size = QFileInfo(path).size();
    for (auto _ : state) {
        ImportResult r = TranscriptFormats::importFile(path);
        if (!r.ok) {
            state.SkipWithError(qPrintable(r.error));
            return;
        }
        benchmark::DoNotOptimize(r);
        state.counters["messages"] = double(r.session.messageCount);
    }
    state.SetBytesProcessed(state.iterations() * size);
}

} // namespace

// The largest corpus file copied into tests/data (2.76 MB Claude Code session).
BENCHMARK_CAPTURE(importFile, claude_code_2_7MB, "claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(importFile, codex_748KB, "codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(importFile, openhands_output_690KB, "openhands/output.jsonl")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(importFile, swe_agent_traj_391KB, "swe-agent/marshmallow-code__marshmallow-1867.traj")->Unit(benchmark::kMillisecond);

// 200 MB of OpenAI Chat JSONL (20 KB tool results, every 500th one 4 MB), streamed to a
// sink: reports speed and how far VmHWM rose above the resident size before the import.
static void importGenerated200MB(benchmark::State &state)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"big.jsonl"_s);
    const qint64 size = bench::writeGenerated200MB(path);
    if (size < 0) {
        state.SkipWithError("cannot write the generated file");
        return;
    }
    for (auto _ : state) {
        const qint64 before = bench::resetPeakMemory();
        NullSink sink;
        ImportOptions options;
        options.sink = &sink;
        const ImportResult r = TranscriptFormats::importFile(path, {}, options);
        if (!r.ok) {
            state.SkipWithError(qPrintable(r.error));
            return;
        }
        const qint64 after = bench::statusValue("VmHWM:");
        state.counters["VmHWM_growth_MB"] = double(after - before) / (1024.0 * 1024.0);
        state.counters["largest_message_MB"] = bench::kGeneratedLargestMessageMB;
        state.counters["messages"] = double(sink.messages);
    }
    state.SetBytesProcessed(state.iterations() * size);
}
BENCHMARK(importGenerated200MB)->Iterations(1)->Unit(benchmark::kMillisecond);

// Baseline: QJsonDocument parsing of every line of the same Claude Code file, nothing else.
static void qtJsonParseBaseline(benchmark::State &state)
{
    QFile file(bench::corpusFile("claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl"));
    if (!file.open(QIODevice::ReadOnly)) {
        state.SkipWithError("cannot read the corpus file");
        return;
    }
    const QList<QByteArray> lines = file.readAll().split('\n');
    qint64 size = 0;
    for (const QByteArray &line : lines)
        size += line.size() + 1;
    for (auto _ : state) {
        for (const QByteArray &line : lines) {
            QJsonObject object = QJsonDocument::fromJson(line).object();
            benchmark::DoNotOptimize(object);
        }
    }
    state.SetBytesProcessed(state.iterations() * size);
}
BENCHMARK(qtJsonParseBaseline)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
