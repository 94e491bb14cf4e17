// JSON codec throughput: encoding and decoding a realistic agent conversation.
#include "model/MessageCodec.h"

#include <QJsonDocument>

#include <benchmark/benchmark.h>

using namespace Qt::StringLiterals;

using namespace wl;

static QList<Message> conversation(int turns)
{
    QList<Message> out{Message::system(u"You are a coding agent."_s)};
    for (int i = 0; i < turns; ++i) {
        out << Message::user(u"Please fix bug %1 in src/module_%1.cpp"_s.arg(i));
        const QString id = u"call_%1"_s.arg(i);
        out << Message::assistant(u"Reading the file."_s,
                                  {{id, u"read_file"_s, uR"({"path":"src/module_%1.cpp"})"_s.arg(i), true}});
        out << Message::toolResult(id, QString(2000, QLatin1Char('x')));
    }
    return out;
}

static void BM_EncodeDecode(benchmark::State &state)
{
    const QList<Message> messages = conversation(int(state.range(0)));
    qint64 bytes = 0;
    for (auto _ : state) {
        const QByteArray text = QJsonDocument(MessageCodec::toJson(messages)).toJson(QJsonDocument::Compact);
        auto back = MessageCodec::fromJson(QJsonDocument::fromJson(text).array());
        benchmark::DoNotOptimize(back);
        bytes += text.size();
    }
    state.SetBytesProcessed(bytes);
    state.counters["messages"] = double(messages.size());
}
BENCHMARK(BM_EncodeDecode)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
