// What compact mode costs on the proxy's thread per request (issue #23 item 6), on a Chat
// Completions conversation of kTurns tool rounds (each a 3 KB result) against a 32,000-token window:
//
// BM_CompactFirstRequest: the first request of a conversation: the whole history compacted from
//   nothing (checkpoint made, results offloaded to files).
// BM_CompactNextRequest: the request after it, one round longer: the conversation's overlays are
//   reused, so only what the round added is looked at unless a tier fires again.
// Run: build/bin/bench_proxycompact --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "compaction/CompactionPolicy.h"
#include "proxy/ProxyCompactor.h"

#include <benchmark/benchmark.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
constexpr int kTurns = 120;

// The body a Chat Completions client sends after `rounds` rounds of: its prompt, a tool call, the
// tool's 3 KB result, a short answer.
QByteArray chatBody(int rounds)
{
    QJsonArray messages{QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"You are a coding agent."_s}}};
    for (int i = 0; i < rounds; ++i) {
        const QString id = u"call_%1"_s.arg(i);
        messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Look at module %1 and fix what fails."_s.arg(i)}});
        messages.append(QJsonObject{
            {u"role"_s, u"assistant"_s},
            {u"content"_s, QJsonValue::Null},
            {u"tool_calls"_s, QJsonArray{QJsonObject{
                                  {u"id"_s, id},
                                  {u"type"_s, u"function"_s},
                                  {u"function"_s, QJsonObject{{u"name"_s, u"read_file"_s},
                                                              {u"arguments"_s, u"{\"path\":\"src/module%1.py\"}"_s.arg(i)}}}}}}});
        QString result;
        for (int line = 0; result.size() < 3000; ++line)
            result += u"def function_%1_%2(x):\n    return x * %2  # module %1\n"_s.arg(i).arg(line);
        messages.append(QJsonObject{{u"role"_s, u"tool"_s}, {u"tool_call_id"_s, id}, {u"content"_s, result}});
        messages.append(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"Module %1 reads fine; going on."_s.arg(i)}});
    }
    messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Go on."_s}});
    return QJsonDocument(QJsonObject{{u"model"_s, u"gpt-4.1"_s}, {u"stream"_s, true}, {u"messages"_s, messages}})
        .toJson(QJsonDocument::Compact);
}

CompactionPolicy policy()
{
    CompactionPolicy p;
    p.contextWindow = 32000;
    return p;
}

void BM_CompactFirstRequest(benchmark::State &state)
{
    QTemporaryDir dir;
    const QByteArray body = chatBody(kTurns);
    for (auto _ : state) {
        state.PauseTiming();
        ProxyCompactor compactor(policy(), dir.path());
        state.ResumeTiming();
        const ProxyCompactor::Outcome out = compactor.compact(WireProtocol::OpenAiChat, body);
        if (out.kind != ProxyCompactor::Outcome::Kind::Compacted) {
            state.SkipWithError("the first request was not compacted");
            return;
        }
        benchmark::DoNotOptimize(out.body.size());
    }
    state.counters["body_kb"] = double(body.size()) / 1024.0;
}
BENCHMARK(BM_CompactFirstRequest)->Unit(benchmark::kMillisecond);

void BM_CompactNextRequest(benchmark::State &state)
{
    QTemporaryDir dir;
    const QByteArray first = chatBody(kTurns);
    const QByteArray next = chatBody(kTurns + 1);
    qint64 tokensAfter = 0;
    for (auto _ : state) {
        state.PauseTiming();
        ProxyCompactor compactor(policy(), dir.path());
        compactor.compact(WireProtocol::OpenAiChat, first);
        state.ResumeTiming();
        const ProxyCompactor::Outcome out = compactor.compact(WireProtocol::OpenAiChat, next);
        if (out.kind != ProxyCompactor::Outcome::Kind::Compacted) {
            state.SkipWithError("the next request was not compacted");
            return;
        }
        tokensAfter = out.tokensAfter;
        benchmark::DoNotOptimize(out.body.size());
    }
    state.counters["tokens_after"] = double(tokensAfter);
}
BENCHMARK(BM_CompactNextRequest)->Unit(benchmark::kMillisecond);

} // namespace
