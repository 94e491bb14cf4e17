// The compaction strategies (docs/COMPACTION.md section 4): summarise, mask, hybrid, in the live
// preflight and in the replay, and the strategy in the policy and the record.
#include "CompactionFixtures.h"
#include "PreflightRunner.h"
#include "ScriptedSummarizer.h"

#include "compaction/AuditLog.h"
#include "compaction/CompactionPolicy.h"
#include "compaction/ContextView.h"
#include "compaction/OffloadStore.h"
#include "whatif/Simulator.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(wl::CompactionStrategy)

namespace {
const QString kSystem = u"You are a coding agent."_s;

// A tool result of `lines` lines of about 50 bytes: masking leaves its first 10 in the placeholder.
QString listing(const QString &tag, int lines)
{
    QString text;
    for (int i = 0; i < lines; ++i)
        text += u"%1 line %2: some output of the command that ran\n"_s.arg(tag).arg(i, 3, 10, QLatin1Char('0'));
    return text;
}

// Most of the head is tool output: masking alone frees most of it. One group has two calls.
QList<Message> resultHeavy()
{
    HistoryBuilder h;
    h.user(u"Fix the failing parser tests"_s)
        .call(u"c1"_s, u"bash"_s, u"{\"command\":\"make test\"}"_s)
        .result(u"c1"_s, listing(u"A"_s, 60))
        .calls({{u"c2"_s, u"read_file"_s, u"{\"path\":\"parser.c\"}"_s, true}, {u"c3"_s, u"grep"_s, u"{}"_s, true}})
        .result(u"c2"_s, listing(u"B"_s, 60))
        .result(u"c3"_s, listing(u"C"_s, 60))
        .call(u"c4"_s, u"bash"_s, u"{\"command\":\"make\"}"_s)
        .result(u"c4"_s, listing(u"D"_s, 60))
        .user(u"status?"_s)
        .assistant(u"The parser tests pass now."_s);
    return h;
}

// Most of the head is conversation: masking its one small result frees almost nothing.
QList<Message> talkHeavy()
{
    HistoryBuilder h;
    h.user(u"Design the storage layer. "_s + big(2000, u'u'))
        .assistant(u"Here is a plan. "_s + big(2000, u'p'))
        .call(u"c1"_s, u"bash"_s, u"{\"command\":\"ls\"}"_s)
        .result(u"c1"_s, listing(u"L"_s, 30))
        .user(u"Refine it. "_s + big(2000, u'r'))
        .assistant(u"Refined. "_s + big(2000, u'q'))
        .user(u"status?"_s)
        .assistant(u"Done."_s);
    return h;
}

CompactionPolicy policyAt(const QList<Message> &history, double ratio, CompactionStrategy strategy)
{
    CompactionPolicy p;
    p.tailMessages = 2;
    p.strategy = strategy;
    const qint64 tokens = ContextView::build(kSystem, history, {}).tokens();
    p.contextWindow = qint64(double(tokens) / ratio);
    return p;
}

int placeholders(const QList<Message> &view)
{
    return int(std::count_if(view.cbegin(), view.cend(), [](const Message &m) { return OffloadStore::isPlaceholder(m.content); }));
}

// A session that grows request by request: `groups` turns of a call and its result (or a long
// assistant message when `talk`), a request before each new user or assistant message.
Simulator::Input growing(bool talk, CompactionStrategy strategy)
{
    HistoryBuilder h;
    Simulator::Input in;
    in.systemPrompt = kSystem;
    h.user(u"Port the build to CMake"_s);
    in.requests.append(h.messages().size());
    for (int i = 0; i < 16; ++i) {
        const QString id = u"c%1"_s.arg(i);
        if (talk) {
            h.assistant(u"Thinking about step %1. "_s.arg(i) + big(2400, QChar(u'a' + i % 26)));
            in.requests.append(h.messages().size());
            h.user(u"ok, continue"_s);
        } else {
            h.call(id, u"bash"_s, u"{\"command\":\"make step%1\"}"_s.arg(i)).result(id, listing(id, 50));
        }
        in.requests.append(h.messages().size());
    }
    in.history = h;
    in.policy.contextWindow = 8000;
    in.policy.tailMessages = 4;
    in.policy.strategy = strategy;
    return in;
}
} // namespace

class TestStrategy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void maskOffloadsButNeverSummarises();
    void maskBelowTargetLeavesNoNote();
    void hybridMasksWhenThatIsEnough();
    void hybridSummarisesWhenMaskingIsNot();
    void maskEmergencyFallsBackToExtractive();
    void summariseIsUnchanged();
    void viewFitsAndPairsHold_data();
    void viewFitsAndPairsHold();
    void replayRunsEveryStrategy();
    void auditLineNamesStrategy();
    void oldRecordsReadAsSummarise();
    void policyJson();
};

void TestStrategy::maskOffloadsButNeverSummarises()
{
    for (const QList<Message> &history : {resultHeavy(), talkHeavy()}) {
        ScriptedSummarizer s;
        const CompactionPolicy p = policyAt(history, 0.85, CompactionStrategy::Mask);
        const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &s);
        QCOMPARE(r.record.tier, Tier::Full);
        QCOMPARE(r.record.strategy, CompactionStrategy::Mask);
        QCOMPARE(s.callCount(), 0);
        QVERIFY(r.newCheckpoints.isEmpty());
        QCOMPARE(r.record.summarized, 0);
        QCOMPARE(r.record.summarizerStep, SummarizerStep::None);
        QVERIFY(!r.newOffloads.isEmpty());
        QVERIFY(r.record.changed);
        // Every result of the head is masked whatever its size (gate 2 would keep them: under 4,000 bytes).
        for (const OffloadEntry &entry : r.record.offloaded)
            QVERIFY(entry.bytes < p.offloadAtCompaction);
        const QList<Message> view = r.messages(history);
        QCOMPARE(placeholders(view), int(r.newOffloads.size()));
        QCOMPARE(view.size(), history.size() + 1); // nothing replaced: one placeholder per masked result
        QCOMPARE(pairingProblem(view), QString());
        QVERIFY(r.ratioAfter < r.ratioBefore);
    }
}

void TestStrategy::maskBelowTargetLeavesNoNote()
{
    ScriptedSummarizer s;
    const QList<Message> history = resultHeavy();
    const PreflightResult masked = runPreflight(preflightInput(kSystem, history, policyAt(history, 0.85, CompactionStrategy::Mask)), &s);
    QVERIFY(masked.ratioAfter < 0.8);
    QCOMPARE(masked.record.error, QString());
    QCOMPARE(placeholders(masked.messages(history)), 4);

    const QList<Message> talk = talkHeavy();
    const PreflightResult short_ = runPreflight(preflightInput(kSystem, talk, policyAt(talk, 0.9, CompactionStrategy::Mask)), &s);
    QVERIFY(short_.ratioAfter >= 0.8);
    QVERIFY2(short_.record.error.startsWith(u"mask: still at "_s), qPrintable(short_.record.error));
    QCOMPARE(s.callCount(), 0);
}

void TestStrategy::hybridMasksWhenThatIsEnough()
{
    ScriptedSummarizer s;
    const QList<Message> history = resultHeavy();
    for (double ratio : {0.75, 0.85}) {
        const CompactionPolicy p = policyAt(history, ratio, CompactionStrategy::Hybrid);
        const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &s);
        QCOMPARE(r.record.tier, ratio < 0.8 ? Tier::Soft : Tier::Full);
        QCOMPARE(r.record.strategy, CompactionStrategy::Hybrid);
        QVERIFY(r.newCheckpoints.isEmpty());
        QVERIFY(!r.newOffloads.isEmpty());
        QVERIFY(r.ratioAfter < p.maskTarget(r.record.tier));
        QCOMPARE(pairingProblem(r.messages(history)), QString());
    }
    QCOMPARE(s.callCount(), 0);
}

void TestStrategy::hybridSummarisesWhenMaskingIsNot()
{
    ScriptedSummarizer s;
    s.addAnswer(ScriptedSummarizer::answer(u"Design the storage layer"_s, u"- Use SQLite"_s, u"HYBRID-SUMMARY"_s));
    const QList<Message> history = talkHeavy();
    const CompactionPolicy p = policyAt(history, 0.9, CompactionStrategy::Hybrid);
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &s);
    QCOMPARE(r.record.tier, Tier::Full);
    QCOMPARE(s.callCount(), 1);
    // The summariser read the masked result as its placeholder, not the output itself.
    QVERIFY(s.prompts()[0].user.contains(u"[offloaded: "_s));
    QVERIFY(!s.prompts()[0].user.contains(u"L line 020"_s));
    QCOMPARE(r.newCheckpoints.size(), 1);
    QVERIFY(r.record.summarized > 0);
    QCOMPARE(r.record.summarizerStep, SummarizerStep::Configured);
    const QList<Message> view = r.messages(history);
    QVERIFY(view[1].content.contains(u"HYBRID-SUMMARY"_s));
    QVERIFY(r.ratioAfter < p.full);
    QCOMPARE(pairingProblem(view), QString());
}

void TestStrategy::maskEmergencyFallsBackToExtractive()
{
    // Masking the head is not enough at Emergency: the extractive checkpoint still makes the view fit,
    // without an LLM call.
    ScriptedSummarizer s;
    const QList<Message> history = talkHeavy();
    const CompactionPolicy p = policyAt(history, 1.3, CompactionStrategy::Mask);
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &s);
    QCOMPARE(r.record.tier, Tier::Emergency);
    QCOMPARE(s.callCount(), 0);
    QCOMPARE(r.newCheckpoints.size(), 1);
    QCOMPARE(r.record.summarizerStep, SummarizerStep::Extractive);
    QVERIFY(!r.newOffloads.isEmpty()); // the head's result was masked first
    QVERIFY2(r.ratioAfter < p.full, qPrintable(QString::number(r.ratioAfter)));
    QCOMPARE(pairingProblem(r.messages(history)), QString());

    // Where masking is enough, Emergency makes no checkpoint at all.
    const QList<Message> results = resultHeavy();
    const PreflightResult masked = runPreflight(preflightInput(kSystem, results, policyAt(results, 1.3, CompactionStrategy::Mask)), &s);
    QCOMPARE(masked.record.tier, Tier::Emergency);
    QVERIFY(masked.newCheckpoints.isEmpty());
    QVERIFY(masked.ratioAfter < p.full);
    QVERIFY(masked.record.error.contains(u"masking tool results was enough"_s));
}

void TestStrategy::summariseIsUnchanged()
{
    // The default strategy summarises even where masking would have been enough.
    ScriptedSummarizer s;
    const QList<Message> history = resultHeavy();
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, policyAt(history, 0.85, CompactionStrategy::Summarise)), &s);
    QCOMPARE(r.record.strategy, CompactionStrategy::Summarise);
    QCOMPARE(s.callCount(), 1);
    QCOMPARE(r.newCheckpoints.size(), 1);
    QVERIFY(r.newOffloads.isEmpty()); // no result passes gate 2's 4,000 bytes
}

void TestStrategy::viewFitsAndPairsHold_data()
{
    QTest::addColumn<CompactionStrategy>("strategy");
    QTest::addColumn<bool>("talk");
    QTest::addColumn<double>("ratio");
    for (CompactionStrategy strategy : allCompactionStrategies()) {
        for (bool talk : {false, true}) {
            for (double ratio : {0.72, 0.85, 0.97, 1.6}) {
                QTest::addRow("%s-%s-%.2f", qPrintable(strategyName(strategy)), talk ? "talk" : "results", ratio)
                    << strategy << talk << ratio;
            }
        }
    }
}

void TestStrategy::viewFitsAndPairsHold()
{
    QFETCH(CompactionStrategy, strategy);
    QFETCH(bool, talk);
    QFETCH(double, ratio);
    const QList<Message> history = talk ? talkHeavy() : resultHeavy();
    const CompactionPolicy p = policyAt(history, ratio, strategy);
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p));
    QVERIFY(r.record.tier >= Tier::Soft);
    const QList<Message> view = r.messages(history);
    QCOMPARE(pairingProblem(view), QString());
    QVERIFY(r.ratioAfter <= r.ratioBefore);
    QVERIFY2(r.ratioAfter < 1.0, qPrintable(QString::number(r.ratioAfter)));
    if (r.record.tier == Tier::Emergency)
        QVERIFY2(r.ratioAfter < p.full, qPrintable(QString::number(r.ratioAfter)));
    if (strategy == CompactionStrategy::Mask && r.record.tier != Tier::Emergency)
        QVERIFY(r.newCheckpoints.isEmpty());
    // The last user message and the answer to it are the tail: kept verbatim by every strategy.
    QVERIFY(identical(view.last(), history.last()));
}

void TestStrategy::replayRunsEveryStrategy()
{
    for (bool talk : {false, true}) {
        SimulationTotals totals[3];
        for (CompactionStrategy strategy : allCompactionStrategies()) {
            const SimulationResult result = Simulator::simulate(growing(talk, strategy));
            totals[int(strategy)] = result.totals;
            QVERIFY(result.totals.tiers[size_t(Tier::Soft)] + result.totals.tiers[size_t(Tier::Full)] > 0);
            for (int row = 0; row < result.rows.size(); ++row) {
                const QList<Message> view = result.viewAt(row);
                QCOMPARE(pairingProblem(view), QString());
                QVERIFY2(result.rows[row].ratioAfter < 1.0, qPrintable(u"%1 row %2"_s.arg(strategyName(strategy)).arg(row)));
                if (strategy == CompactionStrategy::Mask && result.rows[row].tier != Tier::Emergency)
                    QCOMPARE(result.rows[row].summarized, 0);
            }
        }
        const SimulationTotals &summarise = totals[int(CompactionStrategy::Summarise)];
        const SimulationTotals &mask = totals[int(CompactionStrategy::Mask)];
        const SimulationTotals &hybrid = totals[int(CompactionStrategy::Hybrid)];
        QVERIFY(summarise.summaryCalls > 0);
        QCOMPARE(mask.summaryCalls, 0);
        if (talk) {
            // Nothing to mask: hybrid summarises as often as summarise does.
            QCOMPARE(hybrid.summaryCalls, summarise.summaryCalls);
        } else {
            // Tool output only: masking is always enough, and it masks more than gate 2 offloads.
            QCOMPARE(hybrid.summaryCalls, 0);
            QVERIFY(mask.offloads > summarise.offloads);
            QCOMPARE(hybrid.offloads, mask.offloads);
        }
    }
}

void TestStrategy::auditLineNamesStrategy()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (CompactionStrategy strategy : allCompactionStrategies()) {
        const QString path = dir.filePath(strategyName(strategy) + u".jsonl"_s);
        const QList<Message> history = resultHeavy();
        PreflightInput in = preflightInput(kSystem, history, policyAt(history, 0.85, strategy));
        in.auditPath = path;
        const PreflightResult r = runPreflight(std::move(in));
        QVERIFY(r.shouldRecord);
        QCOMPARE(r.auditError, QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject line = QJsonDocument::fromJson(file.readLine()).object();
        QCOMPARE(line.value(u"strategy"_s).toString(), strategyName(strategy));
        const AuditLog::ReadResult read = AuditLog::read(path);
        QCOMPARE(read.records.size(), 1);
        QCOMPARE(read.records[0].strategy, strategy);
    }
}

void TestStrategy::oldRecordsReadAsSummarise()
{
    CompactionRecord record;
    record.id = u"r1"_s;
    record.sessionId = u"s1"_s;
    record.timestamp = QDateTime::currentDateTime();
    record.tier = Tier::Full;
    record.strategy = CompactionStrategy::Hybrid;
    QJsonObject json = record.toJson();
    CompactionRecord read;
    QVERIFY(CompactionRecord::fromJson(json, &read));
    QCOMPARE(read.strategy, CompactionStrategy::Hybrid);

    json.remove(u"strategy"_s); // a line written before strategies existed
    QVERIFY(CompactionRecord::fromJson(json, &read));
    QCOMPARE(read.strategy, CompactionStrategy::Summarise);

    for (const QJsonValue &bad : {QJsonValue(u"Mask"_s), QJsonValue(u"compress"_s), QJsonValue(2)}) {
        json.insert(u"strategy"_s, bad);
        QString error;
        QVERIFY(!CompactionRecord::fromJson(json, &read, &error));
        QVERIFY2(error.contains(u"strategy"_s), qPrintable(error));
    }
}

void TestStrategy::policyJson()
{
    CompactionPolicy p;
    QCOMPARE(p.strategy, CompactionStrategy::Summarise);
    p.strategy = CompactionStrategy::Mask;
    QJsonObject json = p.toJson();
    QCOMPARE(json.value(u"strategy"_s).toString(), u"mask"_s);
    CompactionPolicy read;
    QVERIFY(CompactionPolicy::fromJson(json, &read));
    QCOMPARE(read, p);

    json.remove(u"strategy"_s); // a policy saved before strategies existed
    QVERIFY(CompactionPolicy::fromJson(json, &read));
    QCOMPARE(read.strategy, CompactionStrategy::Summarise);

    for (const QJsonValue &bad : {QJsonValue(u"summarize"_s), QJsonValue(u""_s), QJsonValue(true)}) {
        json.insert(u"strategy"_s, bad);
        QString error;
        QVERIFY(!CompactionPolicy::fromJson(json, &read, &error));
        QVERIFY2(error.contains(u"strategy"_s), qPrintable(error));
    }

    QCOMPARE(p.maskTarget(Tier::Soft), p.soft);
    QCOMPARE(p.maskTarget(Tier::Full), p.full);
    QCOMPARE(p.maskTarget(Tier::Emergency), p.full);
    QCOMPARE(p.maskTarget(Tier::Warn), 0.0);
}

QTEST_GUILESS_MAIN(TestStrategy)
#include "tst_strategy.moc"
