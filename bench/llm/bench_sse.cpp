// SSE parsing throughput on a 50 MB stream of small events, fed in 16 KB
// pieces as readyRead would deliver them, and the heap allocations per event
// (counted by replacing the global operator new in this binary).
#include "llm/SseParser.h"
#include "llm/StreamAssembler.h"

#include <benchmark/benchmark.h>

#include <QByteArray>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long long> g_allocations{0};

// Out of line, so the compiler does not pair this free() with a new-expression.
[[gnu::noinline]] void *acquire(std::size_t size)
{
    return std::malloc(size ? size : 1);
}
[[gnu::noinline]] void release(void *p) noexcept
{
    std::free(p);
}
} // namespace

void *operator new(std::size_t size)
{
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void *p = acquire(size))
        return p;
    throw std::bad_alloc();
}
void operator delete(void *p) noexcept { release(p); }
void operator delete(void *p, std::size_t) noexcept { release(p); }

namespace {

// OpenAI-shaped content chunks (about 220 bytes each), with a comment and an
// `event:` line now and then, CRLF on every tenth event.
const QByteArray &stream()
{
    static const QByteArray bytes = [] {
        QByteArray out;
        out.reserve(52 * 1024 * 1024);
        int i = 0;
        while (out.size() < 50 * 1024 * 1024) {
            const QByteArray eol = (i % 10 == 0) ? QByteArray("\r\n") : QByteArray("\n");
            if (i % 50 == 0)
                out += ": keep-alive" + eol;
            if (i % 7 == 0)
                out += "event: message" + eol;
            out += "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
                   "\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"token"
                   + QByteArray::number(i % 1000) + " \"},\"finish_reason\":null}]}" + eol + eol;
            ++i;
        }
        return out;
    }();
    return bytes;
}

constexpr qsizetype kChunk = 16 * 1024;

void BM_SseParse(benchmark::State &state)
{
    const QByteArray &bytes = stream();
    qint64 events = 0;
    qsizetype dataBytes = 0;
    wl::SseParser parser([&](const wl::SseEvent &e) {
        ++events;
        dataBytes += e.data.size();
    });
    // Warm the parser's buffers once, so the loop measures the steady state.
    parser.feed(QByteArrayView(bytes).first(kChunk * 4));
    parser.reset();
    long long allocations = 0;
    qint64 measuredEvents = 0;
    for (auto _ : state) {
        parser.reset();
        events = 0;
        const long long before = g_allocations.load();
        for (qsizetype off = 0; off < bytes.size(); off += kChunk)
            parser.feed(QByteArrayView(bytes).sliced(off, qMin(kChunk, bytes.size() - off)));
        parser.finish();
        allocations += g_allocations.load() - before;
        measuredEvents += events;
        benchmark::DoNotOptimize(dataBytes);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * bytes.size());
    state.counters["events"] = double(events);
    state.counters["allocs/event"] = measuredEvents ? double(allocations) / double(measuredEvents) : 0.0;
}
BENCHMARK(BM_SseParse)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// Parse and assemble (JSON per chunk, deltas appended): the whole client-side
// cost per event, for comparison. JSON dominates.
void BM_SseParseAndAssembleOpenAi(benchmark::State &state)
{
    const QByteArray &all = stream();
    const QByteArrayView bytes = QByteArrayView(all).first(8 * 1024 * 1024);
    long long allocations = 0;
    qint64 measuredEvents = 0;
    for (auto _ : state) {
        wl::OpenAiStreamAssembler assembler;
        wl::SseParser parser([&](const wl::SseEvent &e) { assembler.handleEvent(e); });
        const long long before = g_allocations.load();
        for (qsizetype off = 0; off < bytes.size(); off += kChunk)
            parser.feed(bytes.sliced(off, qMin(kChunk, bytes.size() - off)));
        parser.finish();
        allocations += g_allocations.load() - before;
        measuredEvents += parser.eventCount();
        benchmark::DoNotOptimize(assembler.message());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * bytes.size());
    state.counters["allocs/event"] = measuredEvents ? double(allocations) / double(measuredEvents) : 0.0;
}
BENCHMARK(BM_SseParseAndAssembleOpenAi)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
