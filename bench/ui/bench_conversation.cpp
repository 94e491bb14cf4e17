// The conversation view with a long session: opening it (fill the model, set it on the view,
// show, first paint at the bottom), scrolling from the top to the bottom page by page, and
// one streamed piece of text arriving at the bottom. Run with QT_QPA_PLATFORM=offscreen.
#include "conversation/ConversationDelegate.h"
#include "conversation/ConversationModel.h"
#include "conversation/ConversationView.h"
#include "model/Message.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QScrollBar>

#include <benchmark/benchmark.h>

#include <memory>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// Turns of four messages: a question, an answer with a tool call, its result, a Markdown reply.
QList<Message> conversation(int messages)
{
    QList<Message> out;
    out.reserve(messages);
    for (int turn = 0; out.size() < messages; ++turn) {
        out << Message::user(u"Please look at failure %1 in src/module_%1.cpp and tell me why it happens."_s.arg(turn));
        const QString id = u"call_%1"_s.arg(turn);
        out << Message::assistant(u"Reading the file first."_s,
                                  {{id, u"read_file"_s, uR"({"path":"src/module_%1.cpp"})"_s.arg(turn), true}});
        out << Message::toolResult(id, QString(2000, u'x'));
        out << Message::assistant(u"## Cause\n\nThe loop in `step_%1()` reads past the end:\n\n"
                                  "- the bound is `<=`\n- it should be `<`\n\n```cpp\nfor (int i = 0; i < n; ++i)\n```"_s
                                      .arg(turn));
    }
    out.resize(messages);
    return out;
}

struct Window
{
    ConversationModel model;
    ConversationView view;

    Window() { view.resize(1000, 800); }
};

void BM_OpenConversation(benchmark::State &state)
{
    const QList<Message> messages = conversation(int(state.range(0)));
    int rows = 0;
    int laidOut = 0;
    for (auto _ : state) {
        state.PauseTiming();
        auto window = std::make_unique<Window>();
        state.ResumeTiming();

        window->model.appendMessages(messages);
        window->view.setModel(&window->model);
        window->view.show();
        window->view.repaint();   // the first paint, synchronous
        QCoreApplication::processEvents();

        state.PauseTiming();
        rows = window->model.rowCount();
        laidOut = window->view.laidOutRowCount();
        window.reset();
        QCoreApplication::processEvents();
        state.ResumeTiming();
    }
    state.counters["rows"] = rows;
    state.counters["laid_out_rows"] = laidOut;
}
BENCHMARK(BM_OpenConversation)->Arg(10000)->Arg(50000)->Unit(benchmark::kMillisecond);

void BM_ScrollTopToBottom(benchmark::State &state)
{
    Window window;
    window.model.appendMessages(conversation(int(state.range(0))));
    window.view.setModel(&window.model);
    window.view.show();
    QCoreApplication::processEvents();
    window.view.repaint();
    QScrollBar *bar = window.view.verticalScrollBar();
    qint64 pages = 0;
    qint64 elapsedMs = 0;
    for (auto _ : state) {
        state.PauseTiming();
        window.view.setFollowingBottom(false);
        bar->setValue(0);
        window.view.repaint();
        state.ResumeTiming();
        // Page by page, painting each page, until the end (the range grows or shrinks as
        // estimates turn into exact heights, so read it every step).
        pages = 0;
        QElapsedTimer timer;
        timer.start();
        while (bar->value() < bar->maximum()) {
            bar->setValue(bar->value() + bar->pageStep());
            window.view.repaint();
            ++pages;
        }
        elapsedMs = timer.elapsed();
    }
    state.counters["pages"] = double(pages);
    state.counters["laid_out_rows"] = window.view.laidOutRowCount();
    state.counters["layouts_built"] = double(window.view.conversationDelegate()->layoutsBuilt());
    state.counters["ms_per_page"] = pages ? double(elapsedMs) / double(pages) : 0.0;
}
BENCHMARK(BM_ScrollTopToBottom)->Arg(10000)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_RelayoutAllRows(benchmark::State &state)
{
    Window window;
    window.model.appendMessages(conversation(int(state.range(0))));
    window.view.setModel(&window.model);
    window.view.show();
    QCoreApplication::processEvents();
    window.view.repaint();
    for (auto _ : state)
        window.view.doItemsLayout();   // what a height change costs: every row's size again
}
BENCHMARK(BM_RelayoutAllRows)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_StreamPieceAtBottom(benchmark::State &state)
{
    Window window;
    window.model.appendMessages(conversation(int(state.range(0))));
    window.view.setModel(&window.model);
    window.view.show();
    QCoreApplication::processEvents();
    window.model.beginAssistantStream();
    window.view.repaint();
    int pieces = 0;
    for (auto _ : state) {
        // One token-sized piece, then what the event loop does with it: relayout if a line
        // was added, and paint the region that changed.
        window.model.appendStreamText(pieces % 12 == 11 ? u"\n\n"_s : u"word "_s);
        QCoreApplication::processEvents();
        if (++pieces == 400) {
            state.PauseTiming();
            window.model.finishAssistantStream(Message::assistant(u"done"_s));
            window.model.beginAssistantStream();
            pieces = 0;
            state.ResumeTiming();
        }
    }
    state.counters["following_bottom"] = window.view.isFollowingBottom() ? 1 : 0;
}
BENCHMARK(BM_StreamPieceAtBottom)->Arg(10000)->Unit(benchmark::kMicrosecond);

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
