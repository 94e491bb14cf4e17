// Tools layer costs the agent pays per call: path confinement, output capture,
// edit matching, diffs for approval, a grep over a mid-sized tree, and what the
// bubblewrap sandbox adds to a command (BM_BashTrue/1 against BM_BashTrue/0).
#include "tools/EditFileTool.h"
#include "tools/OutputCapture.h"
#include "tools/ToolRegistry.h"
#include "tools/ToolRun.h"
#include "tools/UnifiedDiff.h"
#include "tools/Workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

using namespace wl;
using namespace Qt::StringLiterals;

static QString sourceText(int lines)
{
    QString text;
    for (int i = 0; i < lines; ++i)
        text += u"    int value%1 = compute(%1, \"label %1\");  // note %1\n"_s.arg(i);
    return text;
}

static void BM_WorkspaceResolve(benchmark::State &state)
{
    QTemporaryDir dir;
    QDir(dir.path()).mkpath(u"src/engine/tools/detail"_s);
    Workspace workspace(dir.path());
    for (auto _ : state) {
        auto resolved = workspace.resolve(u"src/engine/../engine/tools/detail/new_file.cpp"_s, Workspace::Access::Write);
        benchmark::DoNotOptimize(resolved);
    }
}
BENCHMARK(BM_WorkspaceResolve)->Unit(benchmark::kMicrosecond);

static void BM_OutputCapture(benchmark::State &state)
{
    const QByteArray chunk(64 * 1024, 'a');
    qint64 bytes = 0;
    for (auto _ : state) {
        OutputCapture capture(8000, 8000);
        for (int i = 0; i < 160; ++i)  // 10 MB
            capture.append(chunk);
        benchmark::DoNotOptimize(capture.parts());
        bytes += capture.totalBytes();
    }
    state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_OutputCapture)->Unit(benchmark::kMillisecond);

static void BM_EditApply(benchmark::State &state)
{
    const bool tolerant = state.range(1) != 0;
    const int lines = int(state.range(0));
    const QString text = sourceText(lines);
    const int target = lines * 3 / 4;
    QString oldText = u"    int value%1 = compute(%1, \"label %1\");"_s.arg(target);
    if (tolerant)
        oldText.replace(u"    "_s, u"\t"_s).replace(u" = "_s, u"  =  "_s);
    for (auto _ : state) {
        auto edit = EditFileTool::apply(text, oldText, u"    int changed = 0;"_s, u"f.cpp"_s);
        if (!edit.ok)
            state.SkipWithError("edit failed");
        benchmark::DoNotOptimize(edit);
    }
    state.SetBytesProcessed(state.iterations() * text.size() * 2);
}
BENCHMARK(BM_EditApply)->Args({1000, 0})->Args({1000, 1})->Args({20000, 0})->Args({20000, 1})->Unit(benchmark::kMillisecond);

static void BM_UnifiedDiff(benchmark::State &state)
{
    const QString oldText = sourceText(int(state.range(0)));
    QStringList lines = oldText.split(u'\n');
    for (int i = 0; i < lines.size(); i += lines.size() / 10)
        lines[i] = u"// edited"_s;
    const QString newText = lines.join(u'\n');
    for (auto _ : state)
        benchmark::DoNotOptimize(UnifiedDiff::diff(oldText, newText, u"a"_s, u"b"_s));
}
BENCHMARK(BM_UnifiedDiff)->Arg(1000)->Arg(20000)->Unit(benchmark::kMillisecond);

static void BM_GrepTree(benchmark::State &state)
{
    QTemporaryDir dir;
    const int files = int(state.range(0));
    const QByteArray body = sourceText(200).toUtf8();  // about 10 KB per file
    for (int i = 0; i < files; ++i) {
        const QString path = dir.path() + u"/src/m%1/f%2.cpp"_s.arg(i % 20).arg(i);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            state.SkipWithError("cannot write the tree");
        file.write(body);
    }
    Workspace workspace(dir.path());
    const auto registry = ToolRegistry::createDefault();
    const ToolContext context{&workspace, u"s"_s, u"c"_s};
    const ToolCall call{u"c"_s, u"grep"_s, uR"({"pattern": "value1[0-9]7\\b", "max_results": 1000})"_s, true};
    for (auto _ : state) {
        std::unique_ptr<ToolRun> run(registry->start(call, context));
        QEventLoop loop;
        QObject::connect(run.get(), &ToolRun::finished, &loop, &QEventLoop::quit);
        loop.exec();
        if (run->result().isError)
            state.SkipWithError("grep failed");
    }
    state.SetBytesProcessed(state.iterations() * files * body.size());
}
BENCHMARK(BM_GrepTree)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();

// One `true` through the bash tool, in the sandbox (1) or not (0: bwrap made unavailable, the
// run opted in to unsandboxed commands). 100 repetitions of one command each: the median of
// the two rows differs by what the sandbox adds per command.
static void BM_BashTrue(benchmark::State &state)
{
    const bool sandboxed = state.range(0) != 0;
    QTemporaryDir dir;
    Workspace workspace(dir.path());
    const auto registry = ToolRegistry::createDefault();
    ToolContext context{&workspace, u"s"_s, u"c"_s, SandboxPolicy{}};
    context.sandbox.allowUnsandboxed = !sandboxed;
    if (!sandboxed)
        qputenv("WATERLINE_BWRAP", "/nonexistent/bench/bwrap");
    const ToolCall call{u"c"_s, u"bash"_s, uR"({"command": "true"})"_s, true};
    for (auto _ : state) {
        std::unique_ptr<ToolRun> run(registry->start(call, context));
        QEventLoop loop;
        QObject::connect(run.get(), &ToolRun::finished, &loop, &QEventLoop::quit);
        loop.exec();
        if (run->result().exitCode != 0
            || run->result().metadata.value(u"sandboxed"_s).toBool() != sandboxed)
            state.SkipWithError("the command failed, or ran with the wrong sandbox");
    }
    qunsetenv("WATERLINE_BWRAP");
}
BENCHMARK(BM_BashTrue)->Arg(0)->Arg(1)->Iterations(1)->Repetitions(100)->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond)->UseRealTime();
