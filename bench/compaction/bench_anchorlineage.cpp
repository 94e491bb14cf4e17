// Anchor lineage on a long session: the session loader traces it on every (re)load, so finding the
// items' source messages must stay linear in the history (each message tokenised once).
#include "compaction/AnchorItemSources.h"
#include "compaction/AnchorLineage.h"
#include "model/Message.h"

#include <QRandomGenerator>

#include <benchmark/benchmark.h>

#include <cmath>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

QString filler(QRandomGenerator &random, qsizetype bytes)
{
    static const QStringList words{u"compile"_s, u"src/engine/compaction/Tier.cpp"_s, u"warning"_s, u"ok"_s, u"test"_s,
                                   u"passed"_s, u"return"_s, u"const"_s, u"QString"_s, u"42"_s, u"{"_s, u"}"_s, u"上下文"_s};
    QString text;
    text.reserve(bytes + 64);
    while (text.size() < bytes) {
        text += words.at(random.bounded(int(words.size())));
        text += random.bounded(8) == 0 ? u'\n' : u' ';
    }
    return text;
}

QList<Message> history(int count)
{
    QRandomGenerator random(20261201); // fixed seed: every run measures the same input
    QList<Message> out;
    out.reserve(count);
    for (int i = 0; i < count; ++i) {
        // 200 bytes to 50 KB, log-uniform.
        Message m = Message::toolResult(u"c%1"_s.arg(i), filler(random, qsizetype(200.0 * std::pow(250.0, random.generateDouble()))));
        m.id = i + 1;
        out.append(m);
    }
    return out;
}

// `count` compactions, each anchor with ten lines; a fifth of them change at each step, and most
// name nothing the history holds (the worst case: every message is read).
QList<LineageStep> steps(int count, qint64 messages)
{
    QList<LineageStep> out;
    for (int s = 0; s < count; ++s) {
        LineageStep step;
        step.recordId = u"r%1"_s.arg(s);
        step.coversUpToMessageId = messages * (s + 1) / count;
        for (AnchorKind kind : kAllAnchorKinds) {
            QStringList lines;
            for (int i = 0; i < 10; ++i)
                lines << u"- item %1 of anchor %2 from step %3 about widget%4"_s.arg(i).arg(int(kind)).arg(i < 2 ? s : 0).arg(i);
            step.anchors.setValue(kind, lines.join(u'\n'));
        }
        out.append(step);
    }
    return out;
}

void BM_AnchorLineage(benchmark::State &state)
{
    const QList<Message> messages = history(int(state.range(0)));
    const QList<LineageStep> compactions = steps(20, messages.size());
    for (auto _ : state) {
        QList<LineageItem> items = traceAnchorLineage(compactions);
        findItemSources(&items, compactions, messages);
        benchmark::DoNotOptimize(items);
    }
}
BENCHMARK(BM_AnchorLineage)->Arg(500)->Arg(2000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
