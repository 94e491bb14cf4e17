// The real `waterline-cli evaluate` on corpus transcripts: the JSON shape, coverage in [0, 1], and
// figures that agree with each other and with the recorded run.
#include "CliProcess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

const QString kClaude = QStringLiteral(WATERLINE_TEST_DATA "/replay/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl");
const QString kSwe = QStringLiteral(WATERLINE_TEST_DATA "/replay/swe-agent/marshmallow-code__marshmallow-1867.traj");

// Checks one run's object; returns the first problem, empty when none.
QString problemIn(const QJsonObject &r)
{
    for (const char16_t *key : {u"coverage", u"needed", u"verbatim", u"summarised", u"retrievable", u"lost", u"lost_facts", u"cost"}) {
        if (!r.contains(QString::fromUtf16(key)))
            return u"missing %1"_s.arg(QString::fromUtf16(key));
    }
    const int needed = r.value(u"needed").toInt(-1);
    const int lost = r.value(u"lost").toInt(-1);
    const int kept = r.value(u"verbatim").toInt(-1) + r.value(u"summarised").toInt(-1) + r.value(u"retrievable").toInt(-1);
    if (needed < 0 || lost < 0 || kept + lost != needed)
        return u"needed %1 is not verbatim + summarised + retrievable %2 + lost %3"_s.arg(needed).arg(kept).arg(lost);
    const double coverage = r.value(u"coverage").toDouble(-1);
    if (coverage < 0 || coverage > 1)
        return u"coverage %1 outside [0, 1]"_s.arg(coverage);
    if (needed > 0 && std::abs(coverage - double(kept) / needed) > 1e-9)
        return u"coverage %1 is not %2 / %3"_s.arg(coverage).arg(kept).arg(needed);
    const QJsonArray facts = r.value(u"lost_facts").toArray();
    if (facts.size() != lost)
        return u"%1 lost facts listed for %2 lost"_s.arg(facts.size()).arg(lost);
    const QStringList kinds{u"instruction"_s, u"artifact"_s, u"outcome"_s, u"identifier"_s};
    for (const QJsonValue &v : facts) {
        const QJsonObject f = v.toObject();
        if (!f.value(u"request").isDouble() || f.value(u"request").toInt(-1) < 0 || !kinds.contains(f.value(u"kind").toString())
            || f.value(u"text").toString().isEmpty())
            return u"bad lost fact %1"_s.arg(QString::fromUtf8(QJsonDocument(f).toJson(QJsonDocument::Compact)));
    }
    const QJsonObject cost = r.value(u"cost").toObject();
    for (const char16_t *key : {u"input_tokens", u"cache_read_tokens", u"cache_write_tokens", u"output_tokens", u"usd"}) {
        const QJsonValue v = cost.value(QString::fromUtf16(key));
        if (!v.isDouble() || v.toDouble() < 0)
            return u"cost.%1 is not a number >= 0"_s.arg(QString::fromUtf16(key));
    }
    return {};
}

double usdAt(const QJsonObject &cost, double input, double cached, double write, double output)
{
    return (cost.value(u"input_tokens").toDouble() * input + cost.value(u"cache_read_tokens").toDouble() * cached
            + cost.value(u"cache_write_tokens").toDouble() * write + cost.value(u"output_tokens").toDouble() * output)
        / 1e6;
}

} // namespace

class TestCliEvaluate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonShapeAndConsistency();
    void noCompactionMatchesTheRecordedRun();
    void storedSessionUnderItsOwnPolicy();
    void textReportAndUsage();
    void strategyOption();
    void sweepRowsAreEvaluatesWithAParetoFlag();
    void sweepOverAFolderAddsUpItsSessions();
    void sweepTextAndBadGrids();

private:
    QString writeGrid(const QByteArray &json);
    QTemporaryDir m_home;
};

void TestCliEvaluate::jsonShapeAndConsistency()
{
    const wl::test::CliProcess run = wl::test::runWaterlineCli(
        {u"evaluate"_s, u"--input"_s, kClaude, u"--window"_s, u"80000"_s, u"--summary"_s, u"size:600"_s, u"--price-model"_s,
         u"claude-sonnet-4-5"_s, u"--json"_s},
        m_home.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
    QVERIFY2(doc.isObject(), qPrintable(error.errorString()));
    const QJsonObject recorded = doc.object().value(u"recorded").toObject();
    const QJsonObject whatIf = doc.object().value(u"whatif").toObject();
    QCOMPARE(problemIn(recorded), QString());
    QCOMPARE(problemIn(whatIf), QString());
    // Both runs answer the same requests: the same facts were needed.
    QVERIFY(recorded.value(u"needed").toInt() > 100);
    QCOMPARE(whatIf.value(u"needed").toInt(), recorded.value(u"needed").toInt());
    // An 80,000 window makes this session compact often: the policy keeps less verbatim.
    QVERIFY(whatIf.value(u"verbatim").toInt() < recorded.value(u"verbatim").toInt());
    // Summaries of a fixed size stand for an LLM's: each is a call the provider bills.
    QVERIFY(whatIf.value(u"cost").toObject().value(u"summary_calls").toInt() > 0);
    // Anthropic caching at Sonnet 4.5's published prices (3 / 0.30 / 3.75 / 15 per million).
    for (const QJsonObject &r : {recorded, whatIf}) {
        const QJsonObject cost = r.value(u"cost").toObject();
        QCOMPARE(cost.value(u"protocol").toString(), u"anthropic"_s);
        QVERIFY(cost.value(u"priced").toBool());
        QVERIFY(cost.value(u"cache_read_tokens").toDouble() > 0);
        QVERIFY(std::abs(cost.value(u"usd").toDouble() - usdAt(cost, 3.00, 0.30, 3.75, 15.00)) < 1e-6);
    }
}

void TestCliEvaluate::noCompactionMatchesTheRecordedRun()
{
    // The SWE-agent run never compacted; a window no request comes near replays it as recorded.
    const wl::test::CliProcess run = wl::test::runWaterlineCli(
        {u"evaluate"_s, u"--input"_s, kSwe, u"--window"_s, u"10000000"_s, u"--json"_s}, m_home.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
    const QJsonObject recorded = doc.value(u"recorded").toObject();
    QCOMPARE(problemIn(recorded), QString());
    QCOMPARE(recorded.value(u"coverage").toDouble(), 1.0);
    QCOMPARE(recorded.value(u"lost").toInt(), 0);
    QCOMPARE(doc.value(u"whatif").toObject(), recorded);
}

void TestCliEvaluate::storedSessionUnderItsOwnPolicy()
{
    // Imported with Waterline's compaction replayed at 80,000 tokens: the recorded views (rebuilt
    // from the store's request records and overlays) and a replay of the stored policy must score
    // the same, fact for fact and token for token.
    QTemporaryDir dir;
    const QString db = dir.filePath(u"sessions.db"_s);
    const wl::test::CliProcess imported = wl::test::runWaterlineCli(
        {u"import"_s, u"--db"_s, db, u"--replay"_s, u"--window"_s, u"80000"_s, kClaude}, m_home.path());
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    const QString id = QString::fromUtf8(imported.out).trimmed().split(u'\n').constLast().trimmed();
    QVERIFY(!id.isEmpty());
    const wl::test::CliProcess run = wl::test::runWaterlineCli({u"evaluate"_s, u"--db"_s, db, u"--input"_s, id, u"--json"_s}, m_home.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
    const QJsonObject recorded = doc.value(u"recorded").toObject();
    QCOMPARE(problemIn(recorded), QString());
    // The compaction left facts behind checkpoints: all four categories are met.
    QVERIFY(recorded.value(u"verbatim").toInt() > 0);
    QVERIFY(recorded.value(u"summarised").toInt() > 0);
    QVERIFY(recorded.value(u"retrievable").toInt() > 0);
    // Waterline's extractive summariser wrote those checkpoints: no call a provider bills.
    QCOMPARE(recorded.value(u"cost").toObject().value(u"summary_calls").toInt(), 0);
    QCOMPARE(doc.value(u"whatif").toObject(), recorded);
}

void TestCliEvaluate::textReportAndUsage()
{
    const wl::test::CliProcess run = wl::test::runWaterlineCli({u"evaluate"_s, u"--input"_s, kSwe}, m_home.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.contains("coverage"));
    QVERIFY(run.out.contains("cache read tokens"));
    const wl::test::CliProcess missing = wl::test::runWaterlineCli({u"evaluate"_s}, m_home.path());
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains("--input"));
    const wl::test::CliProcess bad = wl::test::runWaterlineCli({u"evaluate"_s, u"--input"_s, kSwe, u"--soft"_s, u"2"_s}, m_home.path());
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--soft"));
    // The thresholds must rise, as simulate requires (both commands read the policy options alike).
    for (const QString &command : {u"evaluate"_s, u"simulate"_s}) {
        const wl::test::CliProcess order = wl::test::runWaterlineCli({command, u"--input"_s, kSwe, u"--full"_s, u"0.5"_s}, m_home.path());
        QCOMPARE(order.exitCode, 2);
        QVERIFY2(order.err.contains("--full: 0.5 is below the soft threshold"), order.err.constData());
    }
}

void TestCliEvaluate::strategyOption()
{
    // The same policy under each strategy, summaries by the size model (LLM calls): the recorded run
    // does not change, the what-if does, and mask makes no summary call.
    QJsonObject recorded;
    QMap<QString, QJsonObject> whatIf;
    for (const QString &strategy : {u"summarise"_s, u"mask"_s, u"hybrid"_s}) {
        const wl::test::CliProcess run = wl::test::runWaterlineCli(
            {u"evaluate"_s, u"--input"_s, kClaude, u"--window"_s, u"60000"_s, u"--summary"_s, u"size"_s, u"--strategy"_s, strategy, u"--json"_s}, m_home.path());
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(problemIn(root.value(u"whatif"_s).toObject()), QString());
        if (recorded.isEmpty())
            recorded = root.value(u"recorded"_s).toObject();
        QCOMPARE(root.value(u"recorded"_s).toObject(), recorded);
        whatIf.insert(strategy, root.value(u"whatif"_s).toObject());
    }
    auto calls = [&](const QString &strategy) { return whatIf[strategy].value(u"cost"_s).toObject().value(u"summary_calls"_s).toInt(-1); };
    QVERIFY(calls(u"summarise"_s) > 0);
    QCOMPARE(calls(u"mask"_s), 0);
    QVERIFY(calls(u"hybrid"_s) > 0);
    QVERIFY(calls(u"hybrid"_s) < calls(u"summarise"_s));
    QVERIFY(whatIf[u"mask"_s] != whatIf[u"summarise"_s]);
    QVERIFY(whatIf[u"hybrid"_s] != whatIf[u"summarise"_s]);

    // A bad value is a usage error that names the option and what it takes.
    for (const QString &command : {u"evaluate"_s, u"simulate"_s}) {
        for (const QString &value : {u"compress"_s, u"Mask"_s, u""_s}) {
            const wl::test::CliProcess bad =
                wl::test::runWaterlineCli({command, u"--input"_s, kSwe, u"--strategy"_s, value}, m_home.path());
            QCOMPARE(bad.exitCode, 2);
            const QByteArray expected = QByteArray("--strategy: '") + value.toUtf8() + QByteArray("' is not 'summarise', 'mask' or 'hybrid'");
            QVERIFY2(bad.err.contains(expected), bad.err.constData());
            QVERIFY(bad.out.isEmpty());
        }
    }
}

QString TestCliEvaluate::writeGrid(const QByteArray &json)
{
    static int count = 0;
    const QString path = m_home.filePath(u"grid%1.json"_s.arg(++count));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void TestCliEvaluate::sweepRowsAreEvaluatesWithAParetoFlag()
{
    const QString grid = writeGrid(R"({"window": [12000, 30000], "full": [0.75, 0.9], "tail": 4})");
    const wl::test::CliProcess run = wl::test::runWaterlineCli({u"evaluate"_s, u"--input"_s, kSwe, u"--sweep"_s, grid, u"--json"_s}, m_home.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(run.out).array();
    QCOMPARE(rows.size(), 4);
    int front = 0;
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        QCOMPARE(problemIn(row), QString());
        QVERIFY(row.value(u"pareto").isBool());
        front += row.value(u"pareto").toBool();
        QVERIFY(row.value(u"peak_utilisation").toDouble() > 0);
        QCOMPARE(row.value(u"policy").toObject().value(u"tail").toInt(), 4);
    }
    QVERIFY(front >= 1);
    // Each row is what `evaluate` says of its policy alone.
    const QJsonObject last = rows.last().toObject();
    QCOMPARE(last.value(u"policy").toObject().value(u"window").toInt(), 30000);
    QCOMPARE(last.value(u"policy").toObject().value(u"full").toDouble(), 0.9);
    const wl::test::CliProcess alone = wl::test::runWaterlineCli(
        {u"evaluate"_s, u"--input"_s, kSwe, u"--window"_s, u"30000"_s, u"--full"_s, u"0.9"_s, u"--tail"_s, u"4"_s, u"--json"_s}, m_home.path());
    QVERIFY2(alone.exitCode == 0, alone.err.constData());
    const QJsonObject whatIf = QJsonDocument::fromJson(alone.out).object().value(u"whatif").toObject();
    for (const char16_t *key : {u"coverage", u"needed", u"verbatim", u"summarised", u"retrievable", u"lost", u"lost_facts"})
        QCOMPARE(last.value(QString::fromUtf16(key)), whatIf.value(QString::fromUtf16(key)));
    for (const char16_t *key : {u"input_tokens", u"cache_read_tokens", u"cache_write_tokens", u"output_tokens", u"usd"})
        QCOMPARE(last.value(u"cost").toObject().value(QString::fromUtf16(key)), whatIf.value(u"cost").toObject().value(QString::fromUtf16(key)));
}

void TestCliEvaluate::sweepOverAFolderAddsUpItsSessions()
{
    // Two transcripts and a file that is none: the junk is skipped with a warning, the rows total both.
    QTemporaryDir folder;
    const QString second = QStringLiteral(WATERLINE_TEST_DATA "/replay/swe-agent/pydicom__pydicom-1458.traj");
    QVERIFY(QFile::copy(kSwe, folder.filePath(u"a.traj"_s)));
    QVERIFY(QFile::copy(second, folder.filePath(u"b.traj"_s)));
    QFile junk(folder.filePath(u"notes.txt"_s));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("\x01\x02 not a transcript \xff");
    junk.close();
    const QString grid = writeGrid(R"({"window": [20000]})");
    const wl::test::CliProcess run = wl::test::runWaterlineCli({u"evaluate"_s, u"--input"_s, folder.path(), u"--sweep"_s, grid, u"--json"_s}, m_home.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.err.contains("notes.txt"), run.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(run.out).array();
    QCOMPARE(rows.size(), 1);
    const QJsonObject row = rows.first().toObject();
    QCOMPARE(problemIn(row), QString());
    int needed = 0;
    int lost = 0;
    double input = 0;
    for (const QString &file : {kSwe, second}) {
        const wl::test::CliProcess one = wl::test::runWaterlineCli({u"evaluate"_s, u"--input"_s, file, u"--window"_s, u"20000"_s, u"--json"_s}, m_home.path());
        QVERIFY2(one.exitCode == 0, one.err.constData());
        const QJsonObject whatIf = QJsonDocument::fromJson(one.out).object().value(u"whatif").toObject();
        needed += whatIf.value(u"needed").toInt();
        lost += whatIf.value(u"lost").toInt();
        input += whatIf.value(u"cost").toObject().value(u"input_tokens").toDouble();
    }
    QCOMPARE(row.value(u"needed").toInt(), needed);
    QCOMPARE(row.value(u"lost").toInt(), lost);
    QCOMPARE(row.value(u"cost").toObject().value(u"input_tokens").toDouble(), input);
    // A lone row is on its own front.
    QVERIFY(row.value(u"pareto").toBool());
}

void TestCliEvaluate::sweepTextAndBadGrids()
{
    const QString grid = writeGrid(R"({"soft": [0.65, 0.85], "window": 16000})");
    const wl::test::CliProcess run = wl::test::runWaterlineCli({u"evaluate"_s, u"--input"_s, kSwe, u"--sweep"_s, grid}, m_home.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.contains("pareto"));
    QVERIFY(run.out.contains("window=16000 soft=0.65"));
    // soft 0.85 is above full 0.80: that row says why it did not run.
    QVERIFY2(run.out.contains("window=16000 soft=0.85 not run: --soft"), run.out.constData());
    QVERIFY(run.out.contains(" *"));

    const wl::test::CliProcess badValue = wl::test::runWaterlineCli(
        {u"evaluate"_s, u"--input"_s, kSwe, u"--sweep"_s, writeGrid(R"({"warn": [0.5, "2"]})")}, m_home.path());
    QCOMPARE(badValue.exitCode, 2);
    QVERIFY2(badValue.err.contains("'warn'") && badValue.err.contains("\"2\""), badValue.err.constData());
    const wl::test::CliProcess badKey = wl::test::runWaterlineCli(
        {u"evaluate"_s, u"--input"_s, kSwe, u"--sweep"_s, writeGrid(R"({"tails": [4]})")}, m_home.path());
    QCOMPARE(badKey.exitCode, 2);
    QVERIFY2(badKey.err.contains("'tails'"), badKey.err.constData());
    const wl::test::CliProcess missing = wl::test::runWaterlineCli(
        {u"evaluate"_s, u"--input"_s, kSwe, u"--sweep"_s, m_home.filePath(u"none.json"_s)}, m_home.path());
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains("none.json"));
}

QTEST_GUILESS_MAIN(TestCliEvaluate)
#include "tst_cli_evaluate.moc"
