// Opening a 100 MB offloaded tool result to its first screen (target: under 1 s).
// Run with QT_QPA_PLATFORM=offscreen.
#include "common/Highlighting.h"
#include "offloads/OffloadViewer.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QPlainTextEdit>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

#include <memory>

using namespace wl;
using namespace Qt::StringLiterals;
namespace HL = wl::Highlighting;

namespace {

constexpr qint64 kFileBytes = 100 * 1024 * 1024;

enum Kind { JsonLines, Log, OneLongLine };

// A file of about `bytes` made of `unit` repeated (numbered, so lines differ).
QString makeFile(const QTemporaryDir &dir, Kind kind)
{
    const QString path = dir.filePath(u"result_%1.txt"_s.arg(int(kind)));
    if (QFile::exists(path))
        return path;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    QByteArray block;
    qint64 written = 0;
    for (int i = 0; written < kFileBytes; ++i) {
        switch (kind) {
        case JsonLines:
            block += "{\"id\": " + QByteArray::number(i) + ", \"path\": \"src/module_" + QByteArray::number(i % 97)
                + ".cpp\", \"ok\": true, \"score\": 0." + QByteArray::number(i % 1000) + "}\n";
            break;
        case Log:
            block += "2024-05-01 12:00:" + QByteArray::number(10 + i % 50) + " INFO  request " + QByteArray::number(i)
                + " served in " + QByteArray::number(i % 300) + " ms\n";
            break;
        case OneLongLine:
            block += "{\"k" + QByteArray::number(i) + "\":\"value value value\"},";
            break;
        }
        if (block.size() > 1024 * 1024 || written + block.size() >= kFileBytes) {
            file.write(block);
            written += block.size();
            block.clear();
        }
    }
    return path;
}

struct Fixture
{
    QTemporaryDir dir;
};

Fixture &fixture()
{
    static Fixture f;
    return f;
}

void BM_OpenToFirstScreen(benchmark::State &state)
{
    const QString path = makeFile(fixture().dir, Kind(state.range(0)));
    OffloadViewer viewer;
    viewer.resize(1000, 700);
    viewer.show();
    QCoreApplication::processEvents();
    qint64 diskBytes = 0;
    for (auto _ : state) {
        viewer.openFile(path);
        viewer.editor()->viewport()->repaint(); // the first screen, painted
        QCoreApplication::processEvents();
        diskBytes = viewer.bytesReadFromDisk();
        state.PauseTiming();
        viewer.clear();
        QCoreApplication::processEvents();
        state.ResumeTiming();
    }
    state.counters["file_MB"] = double(kFileBytes) / (1024 * 1024);
    state.counters["read_MB"] = double(diskBytes) / (1024 * 1024);
}
// kind 0: JSON lines, 1: log lines, 2: one 100 MB line (broken for display every 10,000 characters).
BENCHMARK(BM_OpenToFirstScreen)->ArgName("kind")->Arg(JsonLines)->Arg(Log)->Arg(OneLongLine)
    ->Unit(benchmark::kMillisecond)->Iterations(5);

// One "Load more" on an open file: the next chunk appended and painted.
void BM_LoadMore(benchmark::State &state)
{
    const QString path = makeFile(fixture().dir, Kind(state.range(0)));
    OffloadViewer viewer;
    viewer.resize(1000, 700);
    viewer.show();
    viewer.openFile(path);
    QCoreApplication::processEvents();
    for (auto _ : state) {
        viewer.loadMore();
        viewer.editor()->viewport()->repaint();
        QCoreApplication::processEvents();
    }
    state.counters["loaded_MB"] = double(viewer.loadedBytes()) / (1024 * 1024);
}
BENCHMARK(BM_LoadMore)->ArgName("kind")->Arg(JsonLines)->Arg(Log)->Unit(benchmark::kMillisecond)->Iterations(8);

// Background highlighting: from "Load more" of 1 MB of JSON lines until the highlighter has caught up,
// with the event loop running freely (the window stays responsive throughout: 8 ms slices).
void BM_BackgroundHighlight(benchmark::State &state)
{
    const QString path = makeFile(fixture().dir, JsonLines);
    for (auto _ : state) {
        state.PauseTiming();
        OffloadViewer viewer;
        viewer.resize(1000, 700);
        viewer.show();
        viewer.openFile(path);
        while (!HL::isHighlightingDone(viewer.highlighter()))
            QCoreApplication::processEvents();
        state.ResumeTiming();
        viewer.loadMore();
        while (!HL::isHighlightingDone(viewer.highlighter()))
            QCoreApplication::processEvents();
    }
    state.SetBytesProcessed(state.iterations() * OffloadViewer::kDefaultChunkBytes);
}
BENCHMARK(BM_BackgroundHighlight)->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
