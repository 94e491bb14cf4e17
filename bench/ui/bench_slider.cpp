// One threshold slider step on a 2,000-request session: from the value change to the
// repainted timeline (the what-if replay runs on the runner's worker thread), with the timeline
// drawing its lines (argument 0) or each request's composition as stacked areas (argument 1).
#include "WhatIfBinding.h"
#include "compaction/TokenEstimate.h"
#include "thresholds/ThresholdsPanel.h"
#include "timeline/TimelineChart.h"
#include "timeline/TimelineModel.h"
#include "whatif/Simulator.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QSignalSpy>
#include <QSlider>

#include <benchmark/benchmark.h>

using namespace Qt::StringLiterals;

using namespace wl;

static Simulator::Input session(int requests, int messagesPerRequest)
{
    Simulator::Input input;
    input.systemPrompt = u"You are a careful coding agent."_s;
    input.sessionId = u"bench"_s;
    input.policy.contextWindow = 32000;
    qint64 id = 1;
    for (int r = 0; r < requests; ++r) {
        Message user = Message::user(u"Step %1: continue with the next file and run the tests."_s.arg(r));
        user.id = id++;
        user.cacheBytes();
        input.history.append(user);
        for (int k = 0; k + 1 < messagesPerRequest; k += 2) {
            const QString callId = u"call_%1_%2"_s.arg(r).arg(k);
            Message call = Message::assistant(u"I'll use grep to find it."_s,
                {{callId, u"bash"_s, uR"({"command":"grep -rn foo src/"})"_s, true}});
            call.id = id++;
            call.cacheBytes();
            Message result = Message::toolResult(callId, QString(200 + (r * 37 + k * 11) % 6000, QLatin1Char('x')));
            result.id = id++;
            result.cacheBytes();
            input.history << call << result;
        }
        input.requests.append(input.history.size());
    }
    return input;
}

namespace {
// Counts a widget's paints. A step paints the chart when the threshold line moves (while the
// replay runs) and again when the what-if result arrives; a step without a paint measured nothing.
class PaintCounter : public QObject
{
public:
    using QObject::QObject;
    int paints = 0;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return QObject::eventFilter(watched, event);
    }
};
} // namespace

static void BM_SliderStep(benchmark::State &state)
{
    const Simulator::Input input = session(2000, 10);
    ThresholdsPanel panel;
    TimelineModel timeline;
    TimelineChart chart;
    chart.resize(1200, 320);
    chart.show(); // repaint() paints only a visible widget: the step ends with pixels, as the user sees it
    chart.setModel(&timeline);
    const bool composition = state.range(0) == 1;
    chart.setMode(composition ? TimelineChart::Mode::Composition : TimelineChart::Mode::Lines);
    // What was recorded: the session's own compactions (its replay under its own policy) and the
    // full history, which runs far off the top of the chart as a long session grows.
    const SimulationResult own = Simulator::simulate(input);
    QList<TimelineRow> recorded(input.requests.size());
    qint64 historyBytes = 0;
    qsizetype counted = 0;
    for (qsizetype r = 0; r < recorded.size(); ++r) {
        for (; counted < input.requests[r]; ++counted)
            historyBytes += input.history[counted].byteCount();
        recorded[r].requestIndex = int(r);
        recorded[r].historyTokens = TokenEstimate::tokensForBytes(historyBytes);
        recorded[r].historyRatio = double(recorded[r].historyTokens) / double(input.policy.contextWindow);
        recorded[r].sentTokens = own.rows[r].totalTokensAfter;
        recorded[r].sentRatio = own.rows[r].ratioAfter;
        recorded[r].tier = own.rows[r].tier;
        recorded[r].composition = own.rows[r].composition;
    }
    timeline.setRecorded(recorded, input.policy.contextWindow);
    panel.setPolicy(input.policy);
    WhatIfBinding runner(&panel, &timeline);
    runner.setSession(input);
    QSignalSpy results(&runner, &WhatIfBinding::resultReady);
    // Opening a session replays it once under its own policy (MainWindow does the same), so the
    // user's first step already finds the per-message caches filled. Not timed.
    runner.request(panel.policy());
    if (!results.wait(60000)) {
        state.SkipWithError("the replay on opening gave no result within 60 s");
        return;
    }
    PaintCounter paintCounter;
    chart.viewport()->installEventFilter(&paintCounter);
    QCoreApplication::processEvents(); // the first paint, as the window is shown
    const int paintsBefore = paintCounter.paints;
    int value = 700;
    qint64 simulateMs = 0;
    for (auto _ : state) {
        QElapsedTimer timer;
        timer.start();
        value = value == 700 ? 760 : 700;
        panel.thresholdSlider(Tier::Full)->setValue(value);
        if (!results.wait(60000)) {
            state.SkipWithError("the what-if replay gave no result within 60 s");
            return;
        }
        simulateMs += results.constLast().at(2).toLongLong();
        // The chart refreshes from its own timer, as in the window: the rows scheduled it.
        while (chart.refreshPending())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        // The scene reports its changes through a queued call and the window paints on a posted
        // update request: deliver both now, so the step ends with the new pixels on the (offscreen)
        // screen and leaves no paint over for the next step.
        QCoreApplication::sendPostedEvents();
        state.SetIterationTime(double(timer.nsecsElapsed()) / 1e9);
    }
    const int paints = paintCounter.paints - paintsBefore;
    if (paints < int(state.iterations()))
        state.SkipWithError("the chart was not repainted on every step");
    state.counters["paints"] = benchmark::Counter(double(paints), benchmark::Counter::kAvgIterations);
    state.counters["requests"] = double(input.requests.size());
    state.counters["messages"] = double(input.history.size());
    // The what-if replay's share of each step (on the runner's thread); the rest is the window's.
    state.counters["simulate_ms"] = benchmark::Counter(double(simulateMs), benchmark::Counter::kAvgIterations);
    const auto last = results.constLast().at(1).value<SimulationResult>();
    state.counters["summaries"] = last.totals.summaryCalls;
    state.counters["emergencies"] = last.totals.emergencies;
}
BENCHMARK(BM_SliderStep)->ArgName("composition")->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
