// A 200 MB transcript generated at test time: the import completes, the counts are right,
// and peak memory stays bounded because messages stream to a sink.
#include "TestSupport.h"
#include "replay/TranscriptFormats.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {

class CountingSink : public ImportSink
{
public:
    bool addMessage(Message &&message, QString *) override
    {
        ++messages;
        calls += int(message.toolCalls.size());
        results += message.isToolResult() ? 1 : 0;
        bytes += message.byteCount();
        return true;
    }
    qint64 messages = 0, calls = 0, results = 0, bytes = 0;
};

constexpr qint64 targetBytes = 200ll * 1024 * 1024;
constexpr qsizetype largestResult = 4 * 1024 * 1024;

struct Generated
{
    qint64 size = 0;
    qint64 turns = 0;
};

// OpenAI Chat JSONL: user, assistant with a call, tool result; every 500th result is 4 MB.
Generated writeChatJsonl(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    const QByteArray body(20000, 'r');
    const QByteArray big(largestResult, 'R');
    Generated g;
    while (g.size < targetBytes) {
        const QByteArray id = "call_" + QByteArray::number(g.turns);
        QByteArray chunk = R"({"role":"user","content":"step )" + QByteArray::number(g.turns) + "\"}\n"
            R"({"role":"assistant","content":"Reading.","tool_calls":[{"id":")" + id
            + R"(","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"f.txt\"}"}}]})" "\n"
            R"({"role":"tool","tool_call_id":")" + id + R"(","content":")" + (g.turns % 500 == 7 ? big : body) + "\"}\n";
        g.size += file.write(chunk);
        ++g.turns;
    }
    return g;
}

// A SWE-agent 1.0 .traj: one JSON document with a large `trajectory` to skip and `history`.
Generated writeTraj(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    Generated g;
    const QByteArray step = R"({"action":"ls","observation":")" + QByteArray(50000, 'o') + R"("},)";
    g.size += file.write("{\"environment\":\"main\",\"trajectory\":[");
    for (int i = 0; i < 1000; ++i)
        g.size += file.write(step);
    g.size += file.write("{}],\"history\":[{\"role\":\"system\",\"content\":\"sys\",\"agent\":\"main\"}");
    const QByteArray obs(30000, 'h');
    const QByteArray big(largestResult, 'H');
    while (g.size < targetBytes) {
        const QByteArray id = "call_" + QByteArray::number(g.turns);
        g.size += file.write(R"(,{"role":"assistant","content":"x","agent":"main","tool_calls":[{"id":")" + id
                             + R"(","type":"function","function":{"name":"bash","arguments":"{}"}}]})"
                             R"(,{"role":"tool","agent":"main","tool_call_ids":[")" + id + R"("],"content":")"
                             + (g.turns % 500 == 7 ? big : obs) + "\"}");
        ++g.turns;
    }
    g.size += file.write("],\"info\":{\"model_stats\":{\"tokens_sent\":5,\"tokens_received\":6}}}");
    return g;
}

} // namespace

class TestImportLarge : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void boundedMemory_data();
    void boundedMemory();
};

void TestImportLarge::boundedMemory_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("chat jsonl") << u"jsonl"_s;
    QTest::newRow("swe-agent traj") << u"traj"_s;
}

void TestImportLarge::boundedMemory()
{
    QFETCH(QString, kind);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const bool jsonl = kind == u"jsonl"_s;
    const QString path = dir.filePath(jsonl ? u"big.jsonl"_s : u"big.traj"_s);
    const Generated g = jsonl ? writeChatJsonl(path) : writeTraj(path);
    QVERIFY(g.size >= targetBytes);

    CountingSink sink;
    ImportOptions options;
    options.sink = &sink;
    resetPeak();
    const qint64 before = peakRss();
    const ImportResult r = TranscriptFormats::importFile(path, {}, options);
    const qint64 after = peakRss();
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.sourceFormat, jsonl ? u"openai"_s : u"swe-agent"_s);
    QCOMPARE(sink.messages, jsonl ? 3 * g.turns : 1 + 2 * g.turns);
    QCOMPARE(sink.calls, g.turns);
    QCOMPARE(sink.results, g.turns);
    QCOMPARE(r.session.requests.size(), g.turns);
    QVERIFY(r.session.issues.isEmpty());
    QVERIFY(r.session.messages.isEmpty());

    QVERIFY(before > 0 && after > 0);
    const qint64 growth = after - before;
    const qint64 bound = 3 * qint64(largestResult) + 100ll * 1024 * 1024;
    qInfo("%s: %.0f MB file, %lld messages, VmHWM growth %.1f MB (bound %.1f MB)", qPrintable(kind),
          g.size / 1048576.0, sink.messages, growth / 1048576.0, bound / 1048576.0);
    QVERIFY2(growth < bound, qPrintable(u"VmHWM grew by %1 bytes"_s.arg(growth)));
}

QTEST_GUILESS_MAIN(TestImportLarge)
#include "tst_importlarge.moc"
