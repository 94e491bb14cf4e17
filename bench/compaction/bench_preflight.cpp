// Preflight cost per turn, and the Full compaction path up to the summariser's request.
#include "BenchSessions.h"

#include "agent/ChatClientSummarizer.h"
#include "compaction/CompactionPass.h"
#include "compaction/ContextView.h"
#include "compaction/Preflight.h"
#include "compaction/Summarizer.h"
#include "compaction/TokenEstimate.h"
#include "llm/AnthropicClient.h"
#include "llm/ChatRequest.h"
#include "llm/OpenAiChatClient.h"

#include <QCoreApplication>

#include <benchmark/benchmark.h>

#include <sys/resource.h>

using namespace Qt::StringLiterals;

using namespace wl;
using namespace wl::bench;

namespace {
const QString kSystem = u"You are a coding agent. Use the tools to inspect and change the repository."_s;

// A window that puts `history` at `ratio`.
qint64 windowFor(const QList<Message> &history, double ratio)
{
    return qint64(double(ContextView::build(kSystem, history, {}).tokens()) / ratio);
}

// What the user waits for before the summariser's call goes out: its prompt for the head and
// the JSON body the client posts (OpenAI Chat: the default, local provider). Returns the body size.
qsizetype summaryRequestBytes(const ChatClient &client, const QList<const Message *> &head,
                              const Checkpoint *previous)
{
    const QString prompt = Summarizer::userPrompt(head, previous);
    const ChatRequest request = ChatClientSummarizer::request(u"qwen2.5-coder:7b"_s, 4096,
                                                              Summarizer::systemInstruction(), prompt);
    const QByteArray body = client.requestBody(request);
    benchmark::DoNotOptimize(body.constData());
    return body.size();
}

// Minor page faults so far: first touches of fresh memory, which the kernel zeroes. Multi-megabyte
// buffers made afresh on every compaction show up here.
double minorFaults()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_minflt);
}
} // namespace

// One new message on a 10,000-message history, then the preflight decision (None or Warn
// with nothing left to offload), with the view the agent loop keeps between turns.
static void BM_PreflightAfterOneMessage(benchmark::State &state)
{
    const double ratio = state.range(0) / 100.0;
    QList<Message> history = agentSession(10000, 3900); // below gate 2: Warn finds nothing to offload
    CompactionPolicy policy;
    policy.contextWindow = windowFor(history, ratio);
    ContextOverlays overlays;
    ContextView view = ContextView::build(kSystem, history, overlays);
    QString lastKey;
    Tier tier = Tier::None;
    auto turn = [&] {
        Message m = Message::user(u"one more short message"_s);
        m.id = history.constLast().id + 1;
        m.cacheBytes();
        history.append(m);
        view.append(history, overlays);
        PreflightInput in;
        in.sessionId = u"bench"_s;
        in.systemPrompt = kSystem;
        in.history = history;
        in.overlays = overlays;
        in.policy = policy;
        in.toolSchemaBytes = 4000;
        in.simulateOffloads = true;
        in.lastStateKey = lastKey;
        in.view = std::move(view);
        Preflight preflight(std::move(in));
        preflight.start();
        PreflightResult r = preflight.takeResult();
        view = std::move(r.view);
        tier = r.record.tier;
        if (r.shouldRecord)
            lastKey = r.stateKey;
    };
    turn(); // the first Warn scans the whole head once
    for (auto _ : state)
        turn();
    if (tier != (ratio >= policy.warn ? Tier::Warn : Tier::None))
        state.SkipWithError("unexpected tier");
    state.counters["messages"] = double(history.size());
}
BENCHMARK(BM_PreflightAfterOneMessage)->Arg(30)->Arg(65)->Iterations(3000)->Unit(benchmark::kMicrosecond);

// The decision alone: the incremental estimate against the policy.
static void BM_TierDecision(benchmark::State &state)
{
    const QList<Message> history = agentSession(10000);
    CompactionPolicy policy;
    policy.contextWindow = windowFor(history, 0.65);
    ContextOverlays overlays;
    ContextView view = ContextView::build(kSystem, history, overlays);
    const Offloader offloader = Offloader::simulated(u"bench"_s);
    for (auto _ : state) {
        CompactionPass pass(kSystem, history, history.size(), policy, 4000, offloader, overlays, view);
        TierReason reason;
        benchmark::DoNotOptimize(pass.decide(false, &reason));
    }
}
BENCHMARK(BM_TierDecision)->Unit(benchmark::kNanosecond);

// Full compaction of a 10,000-message session: the view built from scratch, the tier, gate-2
// offloads (in memory), the head handed to the summariser, its prompt and request body built
// (the LLM's own time left out), the checkpoint applied and the final view materialised.
static void BM_FullCompactionView(benchmark::State &state)
{
    // Arg 0: every result below gate 2; arg 1: results up to 6,000 bytes, a third offloaded (in memory).
    const QList<Message> history = agentSession(10000, state.range(0) ? 6000 : 3900);
    CompactionPolicy policy;
    policy.contextWindow = windowFor(history, 0.85);
    const Offloader offloader = Offloader::simulated(u"bench"_s);
    ParsedSummary summary;
    summary.anchors.setValue(AnchorKind::UserIntent, u"Fix the failing tests"_s);
    summary.summary = u"Fixed many modules."_s;
    summary.structured = true;
    qsizetype viewSize = 0;
    qsizetype bodySize = 0;
    OpenAiChatClient client;
    const double faults = minorFaults();
    for (auto _ : state) {
        ContextOverlays overlays;
        ContextView view = ContextView::build(kSystem, history, overlays);
        CompactionPass pass(kSystem, history, history.size(), policy, 4000, offloader, overlays, view);
        TierReason reason;
        const Tier tier = pass.decide(false, &reason);
        auto job = pass.prepareSummary(tier, u"record"_s);
        if (!job) {
            state.SkipWithError("nothing to summarise");
            break;
        }
        // What Preflight hands the summary chain: the head where it is, placeholders made.
        QList<Message> made;
        const QList<const Message *> head = pass.summaryMessages(*job, &made);
        bodySize = summaryRequestBytes(client, head, job->previous ? &*job->previous : nullptr);
        pass.applySummary(*job, summary, tier, u"record"_s);
        const QList<Message> messages = pass.view().messages(history, overlays);
        viewSize = messages.size();
        benchmark::DoNotOptimize(messages.constData());
    }
    state.counters["page_faults"] = (minorFaults() - faults) / double(state.iterations());
    state.counters["view_messages"] = double(viewSize);
    state.counters["body_bytes"] = double(bodySize);
}
BENCHMARK(BM_FullCompactionView)->ArgName("offloads")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The summariser's prompt and request body alone, for the head of that Full compaction.
// Arg 0: OpenAI Chat, arg 1: Anthropic Messages.
static void BM_SummaryRequest(benchmark::State &state)
{
    const QList<Message> history = agentSession(10000, 3900);
    CompactionPolicy policy;
    policy.contextWindow = windowFor(history, 0.85);
    const Offloader offloader = Offloader::simulated(u"bench"_s);
    ContextOverlays overlays;
    ContextView view = ContextView::build(kSystem, history, overlays);
    CompactionPass pass(kSystem, history, history.size(), policy, 4000, offloader, overlays, view);
    TierReason reason;
    const Tier tier = pass.decide(false, &reason);
    auto job = pass.prepareSummary(tier, u"record"_s);
    if (!job) {
        state.SkipWithError("nothing to summarise");
        return;
    }
    QList<Message> made;
    const QList<const Message *> head = pass.summaryMessages(*job, &made);
    OpenAiChatClient openAi;
    AnthropicClient anthropic;
    const ChatClient &client = state.range(0) ? static_cast<const ChatClient &>(anthropic) : openAi;
    const Checkpoint *previous = job->previous ? &*job->previous : nullptr;
    qsizetype bodySize = 0;
    const double faults = minorFaults();
    for (auto _ : state)
        bodySize = summaryRequestBytes(client, head, previous);
    state.counters["page_faults"] = (minorFaults() - faults) / double(state.iterations());
    state.counters["head_messages"] = double(head.size());
    state.counters["body_bytes"] = double(bodySize);
}
BENCHMARK(BM_SummaryRequest)->ArgName("anthropic")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Building the view of a 10,000-message history from scratch (what the incremental view avoids).
static void BM_BuildView(benchmark::State &state)
{
    const QList<Message> history = agentSession(10000);
    for (auto _ : state) {
        const ContextView view = ContextView::build(kSystem, history, {});
        benchmark::DoNotOptimize(view.bytes());
    }
}
BENCHMARK(BM_BuildView)->Unit(benchmark::kMicrosecond);
