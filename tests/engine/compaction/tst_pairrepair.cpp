#include "CompactionFixtures.h"

#include "compaction/PairRepair.h"

#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(QList<wl::Message>)

namespace {
// A compact picture of a list: u:<text> a:<text>[ids] r:<id>=<text>
QString shape(const QList<Message> &list)
{
    QStringList parts;
    for (const Message &m : list) {
        if (m.isToolResult()) {
            parts << u"r:"_s + m.toolCallId + u'=' + (m.content == PairRepair::stubText() ? u"STUB"_s : m.content);
        } else if (m.hasToolCalls()) {
            QStringList ids;
            for (const ToolCall &c : m.toolCalls)
                ids << c.id;
            parts << u"a["_s + ids.join(u',') + u']';
        } else {
            parts << (m.role == Role::System ? u"s:"_s : m.role == Role::User ? u"u:"_s : u"a:"_s) + m.content;
        }
    }
    return parts.join(u' ');
}

ToolCall tc(const QString &id)
{
    return {id, u"bash"_s, u"{}"_s, true};
}
} // namespace

class TestPairRepair : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void repair_data();
    void repair();
    void stubKeepsCallIdAndRole();
    void inputUntouched();
};

void TestPairRepair::repair_data()
{
    QTest::addColumn<QList<Message>>("input");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("stubs");
    QTest::addColumn<int>("dropped");    // orphans
    QTest::addColumn<int>("duplicates");

    QTest::newRow("already paired")
        << QList<Message>(HistoryBuilder().user(u"q"_s).calls({tc(u"c1"_s)}).result(u"c1"_s, u"ok"_s).assistant(u"done"_s))
        << u"u:q a[c1] r:c1=ok a:done"_s << 0 << 0 << 0;
    QTest::newRow("result whose call was compacted away is dropped")
        << QList<Message>(HistoryBuilder().user(u"[Context Compaction]"_s).result(u"c0"_s, u"old"_s).assistant(u"x"_s))
        << u"u:[Context Compaction] a:x"_s << 0 << 1 << 0;
    QTest::newRow("body never starts with a result")
        << QList<Message>(HistoryBuilder().result(u"c0"_s, u"old"_s).user(u"q"_s))
        << u"u:q"_s << 0 << 1 << 0;
    QTest::newRow("missing result gets a stub right after the call")
        << QList<Message>(HistoryBuilder().user(u"q"_s).calls({tc(u"c1"_s)}).user(u"next"_s))
        << u"u:q a[c1] r:c1=STUB u:next"_s << 1 << 0 << 0;
    QTest::newRow("stubs in call order among real results")
        << QList<Message>(HistoryBuilder().calls({tc(u"c1"_s), tc(u"c2"_s), tc(u"c3"_s)}).result(u"c3"_s, u"three"_s).result(u"c1"_s, u"one"_s))
        << u"a[c1,c2,c3] r:c1=one r:c2=STUB r:c3=three"_s << 1 << 0 << 0;
    QTest::newRow("duplicate results are dropped")
        << QList<Message>(HistoryBuilder().calls({tc(u"c1"_s)}).result(u"c1"_s, u"first"_s).result(u"c1"_s, u"second"_s))
        << u"a[c1] r:c1=first"_s << 0 << 0 << 1;
    QTest::newRow("late result after another message is an orphan")
        << QList<Message>(HistoryBuilder().calls({tc(u"c1"_s)}).user(u"interrupt"_s).result(u"c1"_s, u"late"_s))
        << u"a[c1] r:c1=STUB u:interrupt"_s << 1 << 1 << 0;
    QTest::newRow("result of an earlier group is an orphan")
        << QList<Message>(HistoryBuilder().calls({tc(u"c1"_s)}).result(u"c1"_s, u"ok"_s).calls({tc(u"c2"_s)}).result(u"c1"_s, u"again"_s).result(u"c2"_s, u"two"_s))
        << u"a[c1] r:c1=ok a[c2] r:c2=two"_s << 0 << 1 << 0;
    QTest::newRow("trailing call without result")
        << QList<Message>(HistoryBuilder().user(u"q"_s).calls({tc(u"c1"_s), tc(u"c2"_s)}))
        << u"u:q a[c1,c2] r:c1=STUB r:c2=STUB"_s << 2 << 0 << 0;
    QTest::newRow("importer result with role user")
        << QList<Message>(HistoryBuilder().calls({tc(u"c1"_s)}).add([] { Message m = Message::user(u"ok"_s); m.toolCallId = u"c1"_s; return m; }()))
        << u"a[c1] r:c1=ok"_s << 0 << 0 << 0;
    QTest::newRow("empty") << QList<Message>() << QString() << 0 << 0 << 0;
}

void TestPairRepair::repair()
{
    QFETCH(QList<Message>, input);
    QFETCH(QString, expected);
    QFETCH(int, stubs);
    QFETCH(int, dropped);
    QFETCH(int, duplicates);
    PairRepair::Report report;
    const QList<Message> out = PairRepair::repair(input, &report);
    QCOMPARE(shape(out), expected);
    QCOMPARE(report.stubsInserted, stubs);
    QCOMPARE(report.resultsDropped, dropped);
    QCOMPARE(report.duplicatesDropped, duplicates);
    QCOMPARE(report.changed(), stubs + dropped + duplicates > 0);
    // Repairing twice changes nothing more.
    PairRepair::Report again;
    QCOMPARE(shape(PairRepair::repair(out, &again)), expected);
    QVERIFY(!again.changed());
}

void TestPairRepair::stubKeepsCallIdAndRole()
{
    const QList<Message> out = PairRepair::repair(HistoryBuilder().calls({tc(u"call_7"_s)}));
    QCOMPARE(out.size(), 2);
    QCOMPARE(out[1].role, Role::Tool);
    QCOMPARE(out[1].toolCallId, u"call_7"_s);
    QCOMPARE(out[1].content, u"[tool result unavailable: the context was compacted]"_s);
    QCOMPARE(out[1].byteCount(), out[1].computeBytes());
}

void TestPairRepair::inputUntouched()
{
    const QList<Message> input = HistoryBuilder().result(u"x"_s, u"orphan"_s).calls({tc(u"c1"_s)});
    const QList<Message> copy = input;
    PairRepair::repair(input);
    QVERIFY(identical(input, copy));
    QCOMPARE(input.size(), 2);
}

QTEST_GUILESS_MAIN(TestPairRepair)
#include "tst_pairrepair.moc"
