#include "compaction/Tier.h"

#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestTier : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void names_data();
    void names();
    void unknownNamesRejected_data();
    void unknownNamesRejected();
    void persistedNumbers();
};

void TestTier::names_data()
{
    QTest::addColumn<Tier>("tier");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("display");
    QTest::newRow("none") << Tier::None << u"none"_s << u"None"_s;
    QTest::newRow("warn") << Tier::Warn << u"warn"_s << u"Warn"_s;
    QTest::newRow("soft") << Tier::Soft << u"soft"_s << u"Soft"_s;
    QTest::newRow("full") << Tier::Full << u"full"_s << u"Full"_s;
    QTest::newRow("emergency") << Tier::Emergency << u"emergency"_s << u"Emergency"_s;
}

void TestTier::names()
{
    QFETCH(Tier, tier);
    QFETCH(QString, name);
    QFETCH(QString, display);
    QCOMPARE(tierName(tier), name);
    Tier back = tier == Tier::None ? Tier::Emergency : Tier::None;
    QVERIFY(tierFromName(name, &back));
    QCOMPARE(back, tier);
    // No translator is installed in tests, so the display name is the English source text.
    QCOMPARE(tierDisplayName(tier), display);
}

void TestTier::unknownNamesRejected_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("empty") << QString();
    QTest::newRow("capitalised") << u"Full"_s;
    QTest::newRow("number") << u"3"_s;
    QTest::newRow("padded") << u" full"_s;
    QTest::newRow("other") << u"critical"_s;
}

void TestTier::unknownNamesRejected()
{
    QFETCH(QString, name);
    Tier tier = Tier::Soft;
    QVERIFY(!tierFromName(name, &tier));
    QCOMPARE(tier, Tier::Soft); // untouched on failure
}

void TestTier::persistedNumbers()
{
    // The store and the audit persist these numbers; they must never move.
    QCOMPARE(int(Tier::None), 0);
    QCOMPARE(int(Tier::Warn), 1);
    QCOMPARE(int(Tier::Soft), 2);
    QCOMPARE(int(Tier::Full), 3);
    QCOMPARE(int(Tier::Emergency), 4);
}

QTEST_GUILESS_MAIN(TestTier)
#include "tst_tier.moc"
