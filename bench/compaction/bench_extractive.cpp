// Extractive summariser throughput: it runs inside live what-if replays, so it must stay linear
// and cheap on long sessions with large tool outputs.
#include "compaction/ExtractiveSummarizer.h"
#include "model/Message.h"

#include <QRandomGenerator>

#include <benchmark/benchmark.h>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// Filler text of about `bytes` UTF-8 bytes, in lines like a build log or a source file.
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

// 200 bytes to 50 KB, log-uniform: mostly small messages with a long tail of large outputs.
qsizetype messageSize(QRandomGenerator &random)
{
    return qsizetype(200.0 * std::pow(250.0, random.generateDouble()));
}

QList<Message> session(int count)
{
    QRandomGenerator random(20240611); // fixed seed: every run measures the same input
    QList<Message> messages;
    messages.reserve(count);
    int call = 0;
    while (messages.size() < count) {
        const int kind = random.bounded(10);
        if (kind == 0) {
            messages << Message::user(u"Please fix issue %1 and keep the tests green. "_s.arg(call) + filler(random, random.bounded(40, 400)));
            continue;
        }
        const QString id = u"call_%1"_s.arg(call++);
        if (kind <= 4) {
            messages << Message::assistant(u"I'll use the existing parser instead of a new one. Running the build."_s,
                                           {{id, u"bash"_s, uR"({"command":"make -j2 test_%1"})"_s.arg(call), true}});
            QString output = filler(random, messageSize(random));
            if (random.bounded(5) == 0)
                output += u"\nsrc/a.cpp:12:3: error: expected ';'\nexit code 2"_s;
            messages << Message::toolResult(id, output);
        } else if (kind <= 7) {
            const QString content = filler(random, messageSize(random));
            messages << Message::assistant(QString(), {{id, u"write_file"_s,
                                                        uR"({"path":"src/module_%1.cpp","content":")"_s.arg(call % 50) + content + u"\"}"_s, true}});
            messages << Message::toolResult(id, u"wrote src/module_%1.cpp"_s.arg(call % 50));
        } else {
            messages << Message::assistant(filler(random, messageSize(random))
                                           + u"\nNext steps:\n1. run the tests\n2. update the docs\n"_s);
        }
    }
    messages.resize(count);
    for (int i = 0; i < messages.size(); ++i)
        messages[i].id = i + 1;
    return messages;
}

void BM_ExtractiveSummarize(benchmark::State &state)
{
    const QList<Message> messages = session(int(state.range(0)));
    qint64 bytes = 0;
    for (const Message &m : messages)
        bytes += m.byteCount();
    for (auto _ : state) {
        ParsedSummary summary = ExtractiveSummarizer::summarize(messages);
        benchmark::DoNotOptimize(summary);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * bytes);
    state.counters["messages"] = double(messages.size());
    state.counters["input_MB"] = double(bytes) / 1e6;
}
BENCHMARK(BM_ExtractiveSummarize)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
