// ViewIds: a request's view as ascending runs of message ids, in memory and in its stored JSON
// form, and what a damaged database row or file makes of it (an error, never a crash or an
// allocation the size of the numbers in it).
#include "model/ViewIds.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <algorithm>
#include <limits>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kMax = std::numeric_limits<qint64>::max();

} // namespace

class TestViewIds : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void appendMergesRuns();
    void appendRefusesWhatDoesNotAscend();
    void iterationAndContains();
    void fromListChecksOrder();
    void jsonRoundTrip_data();
    void jsonRoundTrip();
    void rejectsDamage_data();
    void rejectsDamage();
    void hugeRunCostsOneRange();
    void maxIdBoundsTheIds();
    void positionsIn();
};

void TestViewIds::appendMergesRuns()
{
    ViewIds v;
    QVERIFY(v.isEmpty());
    QCOMPARE(v.size(), 0);
    for (qint64 id = 1; id <= 1000; ++id)
        QVERIFY(v.append(id));
    QVERIFY(v.append(2000));
    QVERIFY(v.appendRange(2001, 2999));
    QVERIFY(v.appendRange(5000, 5000));
    QCOMPARE(v.size(), 1000 + 1000 + 1);
    QCOMPARE(v.ranges().size(), 3);
    QCOMPARE(v.ranges()[0], (ViewIds::Range{1, 1000}));
    QCOMPARE(v.ranges()[1], (ViewIds::Range{2000, 2999}));
    QCOMPARE(v.first(), 1);
    QCOMPARE(v.last(), 5000);

    ViewIds tail = ViewIds::range(5001, 5010);
    QVERIFY(v.append(tail));
    QCOMPARE(v.ranges().size(), 3); // 5000 and 5001.. join
    QCOMPARE(v.size(), 2001 + 10);

    // The same ids however they were appended are the same value.
    ViewIds w = ViewIds::range(1, 1000);
    QVERIFY(w.appendRange(2000, 2999));
    QVERIFY(w.appendRange(5000, 5010));
    QCOMPARE(v, w);
    QVERIFY(v != ViewIds::range(1, 1000));
}

void TestViewIds::appendRefusesWhatDoesNotAscend()
{
    ViewIds v{3, 4, 9};
    const ViewIds before = v;
    QVERIFY(!v.append(9));            // duplicate
    QVERIFY(!v.append(2));            // goes back
    QVERIFY(!v.appendRange(5, 12));   // overlaps the last run
    QVERIFY(!v.appendRange(20, 10));  // reversed
    QVERIFY(!v.append(ViewIds{5, 6})); // a view that starts inside this one
    ViewIds negative;
    QVERIFY(!negative.append(-1));
    QVERIFY(!negative.appendRange(-5, 3));
    QVERIFY(negative.isEmpty());
    QCOMPARE(v, before);
    QCOMPARE(v.size(), 3);
    // A count past what a qsizetype holds is refused, not wrapped.
    ViewIds all = ViewIds::range(0, kMax - 1);
    QCOMPARE(all.size(), kMax);
    QVERIFY(!all.append(kMax));
    QVERIFY(ViewIds::range(0, kMax).isEmpty());
    QVERIFY(ViewIds::range(5, 4).isEmpty());
    QVERIFY(ViewIds::range(-1, 4).isEmpty());
}

void TestViewIds::iterationAndContains()
{
    ViewIds v;
    QVERIFY(v.append(2));
    QVERIFY(v.appendRange(5, 8));
    QVERIFY(v.append(kMax));
    QList<qint64> seen;
    for (qint64 id : v)
        seen << id;
    QCOMPARE(seen, (QList<qint64>{2, 5, 6, 7, 8, kMax}));
    QCOMPARE(v.toList(), seen);
    QCOMPARE(std::distance(v.begin(), v.end()), v.size());
    QVERIFY(std::is_sorted(v.cbegin(), v.cend()));
    for (qint64 id : {2ll, 5ll, 7ll, 8ll, kMax})
        QVERIFY2(v.contains(id), qPrintable(QString::number(id)));
    for (qint64 id : {-1ll, 0ll, 1ll, 3ll, 4ll, 9ll, kMax - 1})
        QVERIFY2(!v.contains(id), qPrintable(QString::number(id)));
    QVERIFY(!ViewIds().contains(0));
    const ViewIds empty;
    QVERIFY(empty.begin() == empty.end());
}

void TestViewIds::fromListChecksOrder()
{
    const auto ok = ViewIds::fromList({1, 2, 3, 7, 9, 10});
    QVERIFY(ok);
    QCOMPARE(ok->ranges().size(), 3);
    QCOMPARE(ok->toList(), (QList<qint64>{1, 2, 3, 7, 9, 10}));
    for (const QList<qint64> &bad : {QList<qint64>{3, 2}, QList<qint64>{1, 1}, QList<qint64>{-4}}) {
        QString error;
        QVERIFY(!ViewIds::fromList(bad, &error));
        QVERIFY2(error.contains(u"does not come after"_s), qPrintable(error));
    }
}

void TestViewIds::jsonRoundTrip_data()
{
    QTest::addColumn<QList<qint64>>("ids");
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("empty") << QList<qint64>{} << QByteArray("[]");
    QTest::newRow("single") << QList<qint64>{7} << QByteArray("[7]");
    QTest::newRow("pair stays plain") << QList<qint64>{7, 8} << QByteArray("[7,8]");
    QTest::newRow("run of three") << QList<qint64>{7, 8, 9} << QByteArray("[[7,9]]");
    QTest::newRow("mixed") << QList<qint64>{0, 5, 6, 7, 8, 9, 12, 13, 20} << QByteArray("[0,[5,9],12,13,20]");
    QTest::newRow("near the top") << QList<qint64>{kMax - 2, kMax - 1, kMax}
                                  << QByteArray("[[9223372036854775805,9223372036854775807]]");
    QTest::newRow("beyond 2^53") << QList<qint64>{(qint64(1) << 53) + 1, (qint64(1) << 53) + 3}
                                 << QByteArray("[9007199254740993,9007199254740995]");
}

// The form the store and the export write (unchanged from the id lists before, so old files
// read the same), written directly and through QJsonDocument alike, and read back unchanged.
void TestViewIds::jsonRoundTrip()
{
    QFETCH(QList<qint64>, ids);
    QFETCH(QByteArray, json);
    const ViewIds view = ViewIds::fromList(ids).value();
    QCOMPARE(view.toJsonText(), json);
    QCOMPARE(QJsonDocument(view.toJson()).toJson(QJsonDocument::Compact), json);
    QString error;
    const auto back = ViewIds::fromJsonText(json, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(*back, view);
    QCOMPARE(back->toList(), ids);
}

void TestViewIds::rejectsDamage_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("says");
    QTest::newRow("not JSON") << QByteArray("[1, 2") << u"not a JSON array"_s;
    QTest::newRow("an object") << QByteArray(R"({"a":1})") << u"not a JSON array"_s;
    QTest::newRow("empty text") << QByteArray() << u"not a JSON array"_s;
    QTest::newRow("string") << QByteArray(R"(["1"])") << u"entry 0"_s;
    QTest::newRow("object entry") << QByteArray(R"([1,{"a":1}])") << u"entry 1"_s;
    QTest::newRow("three-element range") << QByteArray("[[1,2,3]]") << u"entry 0"_s;
    QTest::newRow("1e300") << QByteArray("[1e300]") << u"entry 0"_s;
    QTest::newRow("fraction") << QByteArray("[1.5]") << u"entry 0"_s;
    QTest::newRow("2^63") << QByteArray("[9223372036854775808]") << u"entry 0"_s;
    QTest::newRow("range to 1e300") << QByteArray("[[0,1e300]]") << u"entry 0"_s;
    QTest::newRow("negative") << QByteArray("[-1]") << u"outside"_s;
    QTest::newRow("negative range") << QByteArray("[[-5,3]]") << u"outside"_s;
    QTest::newRow("reversed range") << QByteArray("[[9,3]]") << u"reversed"_s;
    QTest::newRow("unsorted") << QByteArray("[9,3]") << u"unsorted"_s;
    QTest::newRow("duplicate") << QByteArray("[2,2]") << u"unsorted"_s;
    QTest::newRow("overlapping ranges") << QByteArray("[[1,5],[3,9]]") << u"unsorted"_s;
    QTest::newRow("range inside a range") << QByteArray("[[1,100],7]") << u"unsorted"_s;
    QTest::newRow("every id there is") << QByteArray("[[0,9223372036854775807]]") << u"more ids"_s;
}

void TestViewIds::rejectsDamage()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, says);
    QString error;
    QVERIFY(!ViewIds::fromJsonText(json, &error));
    QVERIFY2(error.contains(says), qPrintable(error));
}

// A corrupt row naming a trillion ids is one run: nothing the size of the numbers is allocated.
void TestViewIds::hugeRunCostsOneRange()
{
    QString error;
    const auto v = ViewIds::fromJsonText("[[1,1000000000000],1000000000005]", &error);
    QVERIFY2(v, qPrintable(error));
    QCOMPARE(v->size(), 1'000'000'000'001);
    QCOMPARE(v->ranges().size(), 2);
    QVERIFY(v->contains(999'999'999'999));
    QVERIFY(!v->contains(1'000'000'000'003));
    QCOMPARE(v->toJsonText(), QByteArray("[[1,1000000000000],1000000000005]"));
}

void TestViewIds::maxIdBoundsTheIds()
{
    QString error;
    QVERIFY(ViewIds::fromJsonText("[0,[1,9]]", &error, 9));
    QVERIFY(!ViewIds::fromJsonText("[0,[1,10]]", &error, 9));
    QVERIFY2(error.contains(u"outside 0 to 9"_s), qPrintable(error));
    QVERIFY(!ViewIds::fromJsonText("[[0,100000000000]]", &error, 1000));
    QVERIFY(!ViewIds::fromJsonText("[0]", &error, -1)); // a file with no messages
}

void TestViewIds::positionsIn()
{
    const QList<qint64> history{10, 11, 12, 20, 21, 30};
    ViewIds v;
    QVERIFY(v.appendRange(11, 20)); // 11, 12 and 20 are in the history; 13..19 are not
    QVERIFY(v.append(25));          // not in it
    QVERIFY(v.appendRange(30, kMax));
    QCOMPARE(v.positionsIn(history), (ViewIds{1, 2, 3, 5}));
    QCOMPARE(ViewIds::range(0, kMax - 1).positionsIn(history), ViewIds::range(0, 5));
    QVERIFY((ViewIds{1, 2}).positionsIn(history).isEmpty());
    QVERIFY(v.positionsIn({}).isEmpty());
}

QTEST_GUILESS_MAIN(TestViewIds)
#include "tst_viewids.moc"
