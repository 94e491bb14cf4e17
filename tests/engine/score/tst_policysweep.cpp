// The policy sweep (issue 21 item 7): grids read from hostile JSON with errors that name the key
// and the value, every combination expanded, each policy's row equal to a replay scored alone,
// totals over several sessions, the Pareto front, progress and cancel.
#include "score/PolicySweep.h"

#include "score/PriceTable.h"
#include "score/RecordedRun.h"
#include "score/SessionScoring.h"
#include "score/RecordedSession.h"
#include "whatif/ReplayInput.h"
#include "whatif/WhatIfSession.h"

#include <QJsonArray>
#include <QTest>

#include <atomic>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

const QString kSwe = QStringLiteral(WATERLINE_TEST_DATA "/replay/swe-agent/marshmallow-code__marshmallow-1867.traj");

SweepSession sessionFrom(const QString &path, const QString &name)
{
    QString error;
    const std::optional<RecordedSession> s = RecordedSession::importFile(path, {}, 0, &error);
    if (!s)
        qFatal("cannot import %s: %s", qPrintable(path), qPrintable(error));
    return SweepSession::prepare(name, s->replay, s->recorded, s->reportedOutput, s->replay.defaultPolicy(), SummaryModel::extractive(),
                                 PriceTable::builtIn());
}

PolicyGrid gridOf(const QByteArray &json)
{
    QString error;
    const std::optional<PolicyGrid> grid = PolicyGrid::fromJson(json, &error);
    if (!grid)
        qFatal("grid refused: %s", qPrintable(error));
    return *grid;
}

SweepRow row(double coverage, double usd)
{
    SweepRow r;
    r.coverage.needed = 1000;
    r.coverage.lost = int(std::lround((1 - coverage) * 1000));
    r.coverage.verbatim = 1000 - r.coverage.lost;
    r.usd = usd;
    return r;
}

} // namespace

class TestPolicySweep : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void gridExpandsEveryCombinationInOptionOrder();
    void badGridsNameTheKeyAndValue_data();
    void badGridsNameTheKeyAndValue();
    void rowsEqualAReplayScoredAlone();
    void invalidCombinationIsARowWithItsProblem();
    void sessionsAddUp();
    void paretoFront();
    void progressAndCancel();

private:
    SweepSession m_session;
};

void TestPolicySweep::initTestCase()
{
    m_session = sessionFrom(kSwe, u"marshmallow"_s);
    QVERIFY(m_session.scoring->basis().needed.size() > 10);
}

void TestPolicySweep::gridExpandsEveryCombinationInOptionOrder()
{
    // Keys out of order and a duplicated value: the axes follow the options' order, values once.
    const PolicyGrid grid = gridOf(R"({"tail": [4, 12, 4], "count-tool-schemas": [true, false], "full": [0.75, 0.8], "window": 16000})");
    QCOMPARE(grid.axes().size(), 4);
    QCOMPARE(grid.axes()[0].name, u"window"_s);
    QCOMPARE(grid.axes()[1].name, u"full"_s);
    QCOMPARE(grid.axes()[2].name, u"tail"_s);
    QCOMPARE(grid.axes()[3].name, u"count-tool-schemas"_s);
    QCOMPARE(grid.axes()[2].values, (QStringList{u"4"_s, u"12"_s}));
    QCOMPARE(grid.axes()[3].values, (QStringList{u"on"_s, u"off"_s}));
    QCOMPARE(grid.size(), 8);
    const QList<PolicySettings> policies = grid.expand();
    QCOMPARE(policies.size(), 8);
    QCOMPARE(PolicyGrid::label(policies.first()), u"window=16000 full=0.75 tail=4 count-tool-schemas=on"_s);
    QCOMPARE(PolicyGrid::label(policies.last()), u"window=16000 full=0.8 tail=12 count-tool-schemas=off"_s);
    for (qsizetype i = 0; i < policies.size(); ++i) {
        for (qsizetype j = i + 1; j < policies.size(); ++j)
            QVERIFY(policies[i] != policies[j]);
    }
    CompactionPolicy policy;
    QString error;
    QVERIFY(PolicyGrid::apply(policies.last(), policy, &error));
    QCOMPARE(policy.contextWindow, 16000);
    QCOMPARE(policy.full, 0.8);
    QCOMPARE(policy.tailMessages, 12);
    QCOMPARE(policy.countToolSchemas, false);
    // An empty grid is the base policy alone.
    QCOMPARE(gridOf("{}").expand().size(), 1);
}

void TestPolicySweep::badGridsNameTheKeyAndValue_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("not json") << QByteArray("{\"warn\": [0.5,") << QStringList{u"not JSON"_s};
    QTest::newRow("array") << QByteArray("[1, 2]") << QStringList{u"object"_s};
    QTest::newRow("unknown key") << QByteArray(R"({"wran": [0.5]})") << QStringList{u"'wran'"_s, u"warn"_s};
    QTest::newRow("fraction above 1") << QByteArray(R"({"warn": [0.5, 2]})") << QStringList{u"'warn'"_s, u"2"_s};
    QTest::newRow("negative tail") << QByteArray(R"({"tail": [-3]})") << QStringList{u"'tail'"_s, u"-3"_s};
    QTest::newRow("fractional tail") << QByteArray(R"({"tail": [2.5]})") << QStringList{u"'tail'"_s, u"2.5"_s};
    QTest::newRow("huge window") << QByteArray(R"({"window": [1e300]})") << QStringList{u"'window'"_s, u"1e+300"_s};
    QTest::newRow("text for a number") << QByteArray(R"({"soft": ["lots"]})") << QStringList{u"'soft'"_s, u"lots"_s};
    QTest::newRow("nested") << QByteArray(R"({"full": [[0.8]]})") << QStringList{u"'full'"_s, u"[0.8]"_s};
    QTest::newRow("null") << QByteArray(R"({"full": [null]})") << QStringList{u"'full'"_s, u"null"_s};
    QTest::newRow("object") << QByteArray(R"({"full": {"a": 1}})") << QStringList{u"'full'"_s};
    QTest::newRow("empty list") << QByteArray(R"({"tail": []})") << QStringList{u"'tail'"_s, u"no values"_s};
    QTest::newRow("not on/off") << QByteArray(R"({"count-tool-schemas": ["yes"]})") << QStringList{u"'count-tool-schemas'"_s, u"yes"_s};
    QByteArray many = "{\"tail\": [";
    for (int i = 1; i <= 100; ++i)
        many += QByteArray::number(i) + (i < 100 ? "," : "]");
    many += ", \"offload-threshold\": [";
    for (int i = 1; i <= 100; ++i)
        many += QByteArray::number(i * 100) + (i < 100 ? "," : "]}");
    QTest::newRow("too many policies") << many << QStringList{u"4096"_s};
}

void TestPolicySweep::badGridsNameTheKeyAndValue()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, mentions);
    QString error;
    QVERIFY(!PolicyGrid::fromJson(json, &error));
    for (const QString &m : std::as_const(mentions))
        QVERIFY2(error.contains(m), qPrintable(u"'%1' does not mention %2"_s.arg(error, m)));
}

void TestPolicySweep::rowsEqualAReplayScoredAlone()
{
    const PolicyGrid grid = gridOf(R"({"window": [6000, 24000], "full": [0.75, 0.9], "tail": [2, 12]})");
    const QList<SweepRow> rows = PolicySweep::run({m_session}, grid.expand(), {});
    QCOMPARE(rows.size(), 8);
    bool someLoss = false;
    for (const SweepRow &r : rows) {
        QVERIFY2(r.problem.isEmpty(), qPrintable(r.problem));
        CompactionPolicy policy = m_session.base;
        QString error;
        QVERIFY(PolicyGrid::apply(r.settings, policy, &error));
        QCOMPARE(r.policy, policy);
        RunScorer scorer = m_session.scoring->scorer();
        const SimulationResult alone = m_session.whatIf->simulate(policy, scorer.observer());
        const RunScore &score = scorer.score();
        QCOMPARE(r.coverage.needed, score.coverage.needed);
        QCOMPARE(r.coverage.verbatim, score.coverage.verbatim);
        QCOMPARE(r.coverage.summarised, score.coverage.summarised);
        QCOMPARE(r.coverage.retrievable, score.coverage.retrievable);
        QCOMPARE(r.coverage.lost, score.coverage.lost);
        QCOMPARE(r.lostFacts.size(), score.lostFacts.size());
        QCOMPARE(r.cost, score.cost);
        QCOMPARE(r.usd, score.cost.usd(score.price));
        QCOMPARE(r.summaryCalls, score.summaryCalls);
        QCOMPARE(r.peakRatio, alone.totals.peakRatio);
        QCOMPARE(r.tokensSent, alone.totals.tokensSent);
        someLoss = someLoss || r.coverage.lost > 0;
        const QJsonObject json = r.toJson();
        QCOMPARE(json.value(u"policy"_s).toObject().value(u"window"_s).toDouble(), double(policy.contextWindow));
        QCOMPARE(json.value(u"lost"_s).toInt(), r.coverage.lost);
        QCOMPARE(json.value(u"pareto"_s).toBool(), r.pareto);
    }
    // The grid reaches policies that lose something, or the sweep measures nothing.
    QVERIFY(someLoss);
}

void TestPolicySweep::invalidCombinationIsARowWithItsProblem()
{
    const PolicyGrid grid = gridOf(R"({"warn": [0.5, 0.75], "soft": [0.7]})");
    const QList<SweepRow> rows = PolicySweep::run({m_session}, grid.expand(), {});
    QCOMPARE(rows.size(), 2);
    QVERIFY(rows[0].problem.isEmpty());
    QVERIFY(rows[0].pareto);
    QVERIFY2(rows[1].problem.contains(u"--soft"_s), qPrintable(rows[1].problem));
    QVERIFY(!rows[1].pareto);
    QCOMPARE(rows[1].coverage.needed, 0);
    QVERIFY(rows[1].toJson().contains(u"error"_s));
}

void TestPolicySweep::sessionsAddUp()
{
    const QList<PolicySettings> policies = gridOf(R"({"window": [16000]})").expand();
    const SweepRow one = PolicySweep::run({m_session}, policies, {}).constFirst();
    SweepSession again = m_session;
    again.name = u"again"_s;
    const SweepRow two = PolicySweep::run({m_session, again}, policies, {}).constFirst();
    QCOMPARE(two.coverage.needed, 2 * one.coverage.needed);
    QCOMPARE(two.coverage.lost, 2 * one.coverage.lost);
    QCOMPARE(two.cost.input, 2 * one.cost.input);
    QCOMPARE(two.usd, 2 * one.usd);
    QCOMPARE(two.peakRatio, one.peakRatio);
    QCOMPARE(two.lostFacts.size(), 2 * one.lostFacts.size());
    if (!two.lostFacts.isEmpty()) {
        QCOMPARE(two.lostFacts.constLast().session, 1);
        const QJsonArray lost = two.toJson({m_session.name, again.name}).value(u"lost_facts"_s).toArray();
        QCOMPARE(lost.last().toObject().value(u"session"_s).toString(), u"again"_s);
    }
}

void TestPolicySweep::paretoFront()
{
    QList<SweepRow> rows{row(0.9, 2.0), row(0.8, 1.0), row(0.85, 3.0), row(0.95, 5.0), row(0.8, 1.5), row(0.9, 2.0), row(0.7, 0.5)};
    rows[6].problem = u"bad"_s; // never on the front, dominates nothing
    PolicySweep::markPareto(rows);
    QCOMPARE(rows[0].pareto, true);  // 0.9 for 2
    QCOMPARE(rows[1].pareto, true);  // the cheapest
    QCOMPARE(rows[2].pareto, false); // 0.9 for 2 beats it
    QCOMPARE(rows[3].pareto, true);  // the best coverage
    QCOMPARE(rows[4].pareto, false); // same coverage as row 1, dearer
    QCOMPARE(rows[5].pareto, true);  // a tie with row 0 is not dominated
    QCOMPARE(rows[6].pareto, false);
    // Unpriced rows weigh billed tokens instead.
    QList<SweepRow> tokens{row(0.9, 0), row(0.9, 0)};
    tokens[0].priced = tokens[1].priced = false;
    tokens[0].cost.input = 100;
    tokens[1].cost.input = 200;
    PolicySweep::markPareto(tokens);
    QVERIFY(tokens[0].pareto);
    QVERIFY(!tokens[1].pareto);
}

void TestPolicySweep::progressAndCancel()
{
    const QList<PolicySettings> policies = gridOf(R"({"window": [12000, 16000, 20000, 24000], "tail": [4, 8]})").expand();
    std::atomic<int> calls = 0;
    std::atomic<int> last = 0;
    PolicySweep::Options options;
    options.progress = [&](int done, int total) {
        ++calls;
        QCOMPARE(total, 16);
        int seen = last.load();
        while (done > seen && !last.compare_exchange_weak(seen, done)) {
        }
    };
    bool cancelled = true;
    const QList<SweepRow> rows = PolicySweep::run({m_session, m_session}, policies, options, &cancelled);
    QVERIFY(!cancelled);
    QCOMPARE(calls.load(), 16);
    QCOMPARE(last.load(), 16);
    QVERIFY(std::any_of(rows.cbegin(), rows.cend(), [](const SweepRow &r) { return r.pareto; }));

    // Cancelled from the first progress report on: the rest never runs, no front is claimed.
    std::atomic<bool> cancel = false;
    std::atomic<int> ran = 0;
    options.cancel = &cancel;
    options.threads = 1;
    options.progress = [&](int, int) {
        ++ran;
        cancel = true;
    };
    const QList<SweepRow> partial = PolicySweep::run({m_session}, policies, options, &cancelled);
    QVERIFY(cancelled);
    QCOMPARE(ran.load(), 1);
    QCOMPARE(partial.size(), policies.size());
    QVERIFY(std::none_of(partial.cbegin(), partial.cend(), [](const SweepRow &r) { return r.pareto; }));
    QCOMPARE(std::count_if(partial.cbegin(), partial.cend(), [](const SweepRow &r) { return r.coverage.needed > 0; }), 1);
}

QTEST_GUILESS_MAIN(TestPolicySweep)
#include "tst_policysweep.moc"
