// Session store speed: appending a long session step by step, and opening it for the UI.
// Targets (issue 4): > 20,000 appended messages/s in per-turn transactions; opening a
// 100,000-message session and fetching its first page in < 50 ms.
#include "store/SessionStore.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

using namespace Qt::StringLiterals;

using namespace wl;

namespace {

constexpr int kMessages = 100'000;
constexpr int kPerTurn = 4; // user, assistant with a tool call, tool result, assistant

// One realistic turn: a prompt, a call, a 1-4 KB result, an answer; with its request.
StepAppend turn(int t, const ViewIds &view)
{
    StepAppend step;
    RequestRecord request;
    request.viewMessageIds = view;
    request.estimateTokens = 1000 + t;
    request.toolSchemaTokens = 900;
    request.inputTokens = 1100 + t;
    request.outputTokens = 120;
    request.model = u"qwen2.5-coder"_s;
    step.request = request;
    const QString callId = u"call_%1"_s.arg(t);
    Message assistant = Message::assistant(u"I will look at src/module_%1.cpp first."_s.arg(t),
                                           {{callId, u"read_file"_s,
                                             uR"({"path":"src/module_%1.cpp"})"_s.arg(t), true}});
    assistant.origin = ThisStep::kRow;
    Message answer = Message::assistant(u"The bug in module %1 is an off-by-one; fixed."_s.arg(t));
    answer.origin = ThisStep::kRow;
    step.messages << Message::user(u"Please fix issue #%1 in the parser module."_s.arg(t)) << assistant
                  << Message::toolResult(callId, QString(1024 + (t % 4) * 1024, QLatin1Char('r'))) << answer;
    return step;
}

// The steps of a `turns`-turn session, built ahead so a benchmark times the store alone. Each
// request's view is the 40 messages before it (ids are 1, 2, ... in a fresh file).
QList<StepAppend> sessionSteps(int turns)
{
    QList<StepAppend> steps;
    steps.reserve(turns);
    qint64 nextId = 1;
    for (int t = 0; t < turns; ++t) {
        steps.append(turn(t, ViewIds::range(std::max<qint64>(1, nextId - 40), nextId - 1)));
        nextId += kPerTurn;
    }
    return steps;
}

void appendSteps(SessionStore &store, const QString &session, const QList<StepAppend> &steps)
{
    for (const StepAppend &step : steps) {
        if (!store.appendStep(session, step))
            std::abort();
    }
}

void BM_AppendPerTurn(benchmark::State &state)
{
    for (auto _ : state) {
        state.PauseTiming();
        QTemporaryDir dir;
        SessionStore store;
        if (!store.open(dir.filePath(u"bench.db"_s)))
            std::abort();
        const QString session = store.createSession({})->id;
        const QList<StepAppend> steps = sessionSteps(kMessages / kPerTurn);
        state.ResumeTiming();
        appendSteps(store, session, steps);
        state.PauseTiming();
        if (store.messageCount(session) != kMessages)
            std::abort();
        store.close();
        state.ResumeTiming();
    }
    state.SetItemsProcessed(state.iterations() * kMessages);
    state.counters["transactions"] = kMessages / kPerTurn;
}
BENCHMARK(BM_AppendPerTurn)->Unit(benchmark::kMillisecond)->Iterations(1);

// A 100,000-message session on disk, built once for the reading benchmarks.
struct BigSession
{
    QTemporaryDir dir;
    QString path;
    QString session;

    BigSession()
    {
        path = dir.filePath(u"big.db"_s);
        SessionStore store;
        if (!store.open(path))
            std::abort();
        for (int i = 0; i < 20; ++i) // other sessions around it
            store.createSession({});
        session = store.createSession({})->id;
        appendSteps(store, session, sessionSteps(kMessages / kPerTurn));
    }
};

BigSession &bigSession()
{
    static BigSession big;
    return big;
}

void BM_OpenSessionFirstPage(benchmark::State &state)
{
    BigSession &big = bigSession();
    for (auto _ : state) {
        SessionStore store;
        if (!store.open(big.path))
            std::abort();
        const QList<SessionInfo> sessions = store.listSessions();
        const qint64 count = store.messageCount(big.session);
        const QList<Message> page = store.messages(big.session, 0, 100);
        ContextOverlays overlays = store.overlays(big.session);
        if (count != kMessages || page.size() != 100 || sessions.size() != 21)
            std::abort();
        benchmark::DoNotOptimize(overlays);
    }
}
BENCHMARK(BM_OpenSessionFirstPage)->Unit(benchmark::kMillisecond);

void BM_PageDeepInSession(benchmark::State &state)
{
    BigSession &big = bigSession();
    SessionStore store;
    if (!store.open(big.path))
        std::abort();
    qint64 offset = 0;
    for (auto _ : state) {
        const QList<Message> page = store.messages(big.session, offset, 100);
        if (page.size() != 100)
            std::abort();
        offset = (offset + 33'331) % (kMessages - 100);
    }
}
BENCHMARK(BM_PageDeepInSession)->Unit(benchmark::kMicrosecond);

void BM_LoadHistory(benchmark::State &state)
{
    BigSession &big = bigSession();
    SessionStore store;
    if (!store.open(big.path))
        std::abort();
    for (auto _ : state) {
        const QList<Message> history = store.history(big.session);
        if (history.size() != kMessages)
            std::abort();
    }
    state.SetItemsProcessed(state.iterations() * kMessages);
}
BENCHMARK(BM_LoadHistory)->Unit(benchmark::kMillisecond);

} // namespace
