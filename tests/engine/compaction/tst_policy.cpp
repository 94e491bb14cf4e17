#include "compaction/CompactionPolicy.h"

#include <QJsonObject>
#include <QJsonDocument>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestPolicy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void defaults();
    void thresholdOrder_pushesAndReturns();
    void validation_data();
    void validation();
    void tierBoundaries_data();
    void tierBoundaries();
    void windowNotPositiveNeverCompacts_data();
    void windowNotPositiveNeverCompacts();
    void jsonRoundTrip();
    void jsonErrors_data();
    void jsonErrors();
};

void TestPolicy::thresholdOrder_pushesAndReturns()
{
    // The one rule both policy forms keep the thresholds in order by (issue #32).
    CompactionPolicy p; // 0.60, 0.70, 0.80, 0.95
    ThresholdOrder order;
    order.reset(p);
    const auto all = [&] { return QList<double>{p.warn, p.soft, p.full, p.emergency}; };
    order.set(p, 0, 0.9);
    QCOMPARE(all(), (QList<double>{0.9, 0.9, 0.9, 0.95}));
    order.set(p, 0, 0.75); // soft still in the way, full back where it was set
    QCOMPARE(all(), (QList<double>{0.75, 0.75, 0.8, 0.95}));
    order.set(p, 3, 0.4);
    QCOMPARE(all(), (QList<double>{0.4, 0.4, 0.4, 0.4}));
    order.set(p, 3, 0.99);
    // Soft and full go back to where they were set; warn (set to 0.75) stays below soft.
    QCOMPARE(all(), (QList<double>{0.7, 0.7, 0.8, 0.99}));
    QVERIFY2(p.isValid(), qPrintable(p.validate()));
    // Hostile values are clamped: never 0, never above 1, and an index out of range is emergency.
    order.set(p, 1, -3.0);
    QCOMPARE(p.soft, 0.001);
    QCOMPARE(p.warn, 0.001);
    order.set(p, 7, 42.0);
    QCOMPARE(p.emergency, 1.0);
    QVERIFY2(p.isValid(), qPrintable(p.validate()));
}

void TestPolicy::defaults()
{
    const CompactionPolicy p;
    QCOMPARE(p.contextWindow, 128000);
    QCOMPARE(p.warn, 0.60);
    QCOMPARE(p.soft, 0.70);
    QCOMPARE(p.full, 0.80);
    QCOMPARE(p.emergency, 0.95);
    QCOMPARE(p.tailMessages, 6);
    QCOMPARE(p.offloadAtToolTime, 10000);
    QCOMPARE(p.offloadAtCompaction, 4000);
    QCOMPARE(p.previewLinesToolTime, 20);
    QCOMPARE(p.previewLinesCompaction, 10);
    QCOMPARE(p.summaryTimeoutMs, 60000);
    QCOMPARE(p.reservedOutput, 0);
    QVERIFY(p.countToolSchemas);
    QVERIFY2(p.isValid(), qPrintable(p.validate()));
}

void TestPolicy::validation_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("named"); // empty: valid

    QTest::newRow("warn zero") << u"warn"_s << 0.0 << u"warn"_s;
    QTest::newRow("warn negative") << u"warn"_s << -0.1 << u"warn"_s;
    QTest::newRow("emergency above one") << u"emergency"_s << 1.01 << u"emergency"_s;
    QTest::newRow("emergency exactly one") << u"emergency"_s << 1.0 << QString();
    QTest::newRow("soft below warn") << u"soft"_s << 0.5 << u"soft"_s;
    QTest::newRow("full below soft") << u"full"_s << 0.65 << u"full"_s;
    QTest::newRow("emergency below full") << u"emergency"_s << 0.79 << u"emergency"_s;
    QTest::newRow("soft equal warn") << u"soft"_s << 0.60 << QString();
    QTest::newRow("full NaN") << u"full"_s << std::nan("") << u"full"_s;
    QTest::newRow("tail zero") << u"tailMessages"_s << 0.0 << u"tailMessages"_s;
    QTest::newRow("tail one") << u"tailMessages"_s << 1.0 << QString();
    QTest::newRow("window zero is valid") << u"contextWindow"_s << 0.0 << QString();
    QTest::newRow("window negative is valid") << u"contextWindow"_s << -5.0 << QString();
    QTest::newRow("gate 2 negative") << u"offloadAtCompaction"_s << -1.0 << u"offloadAtCompaction"_s;
    QTest::newRow("timeout zero") << u"summaryTimeoutMs"_s << 0.0 << u"summaryTimeoutMs"_s;
    QTest::newRow("reserved negative") << u"reservedOutput"_s << -1.0 << u"reservedOutput"_s;
}

void TestPolicy::validation()
{
    QFETCH(QString, field);
    QFETCH(double, value);
    QFETCH(QString, named);
    CompactionPolicy p;
    if (field == u"warn") p.warn = value;
    else if (field == u"soft") p.soft = value;
    else if (field == u"full") p.full = value;
    else if (field == u"emergency") p.emergency = value;
    else if (field == u"tailMessages") p.tailMessages = int(value);
    else if (field == u"contextWindow") p.contextWindow = qint64(value);
    else if (field == u"offloadAtCompaction") p.offloadAtCompaction = qint64(value);
    else if (field == u"summaryTimeoutMs") p.summaryTimeoutMs = int(value);
    else if (field == u"reservedOutput") p.reservedOutput = qint64(value);
    else QFAIL("unknown field in test data");
    const QString message = p.validate();
    if (named.isEmpty()) {
        QVERIFY2(message.isEmpty(), qPrintable(message));
    } else {
        QVERIFY(!message.isEmpty());
        QVERIFY2(message.startsWith(named), qPrintable(message));
    }
}

void TestPolicy::tierBoundaries_data()
{
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<int>("tier");
    // Window 100,000: a ratio equal to a threshold falls in the higher tier.
    QTest::newRow("just below warn") << qint64(59999) << int(Tier::None);
    QTest::newRow("at warn") << qint64(60000) << int(Tier::Warn);
    QTest::newRow("just below soft") << qint64(69999) << int(Tier::Warn);
    QTest::newRow("at soft") << qint64(70000) << int(Tier::Soft);
    QTest::newRow("just below full") << qint64(79999) << int(Tier::Soft);
    QTest::newRow("at full") << qint64(80000) << int(Tier::Full);
    QTest::newRow("just below emergency") << qint64(94999) << int(Tier::Full);
    QTest::newRow("at emergency") << qint64(95000) << int(Tier::Emergency);
    QTest::newRow("over the window") << qint64(150000) << int(Tier::Emergency);
    QTest::newRow("zero") << qint64(0) << int(Tier::None);
}

void TestPolicy::tierBoundaries()
{
    QFETCH(qint64, tokens);
    QFETCH(int, tier);
    CompactionPolicy p;
    p.contextWindow = 100000;
    QCOMPARE(int(p.tierFor(double(tokens) / double(p.contextWindow))), tier);
}

void TestPolicy::windowNotPositiveNeverCompacts_data()
{
    QTest::addColumn<qint64>("window");
    QTest::newRow("zero") << qint64(0);
    QTest::newRow("negative") << qint64(-1);
}

void TestPolicy::windowNotPositiveNeverCompacts()
{
    QFETCH(qint64, window);
    CompactionPolicy p;
    p.contextWindow = window;
    QCOMPARE(p.tierFor(5.0), Tier::None);
}

void TestPolicy::jsonRoundTrip()
{
    CompactionPolicy p;
    p.contextWindow = 32768;
    p.warn = 0.5;
    p.soft = 0.55;
    p.full = 0.75;
    p.emergency = 0.9;
    p.tailMessages = 3;
    p.offloadAtToolTime = 12345;
    p.offloadAtCompaction = 2222;
    p.previewLinesToolTime = 7;
    p.previewLinesCompaction = 4;
    p.summaryTimeoutMs = 1500;
    p.reservedOutput = 4096;
    p.countToolSchemas = false;
    p.reviewSummaries = true;
    CompactionPolicy back;
    QString error;
    QVERIFY2(CompactionPolicy::fromJson(p.toJson(), &back, &error), qPrintable(error));
    QCOMPARE(back, p);
    QCOMPARE(p.toJson().value(u"tail_messages"_s).toInt(), 3);

    CompactionPolicy fromEmpty;
    fromEmpty.tailMessages = 99;
    QVERIFY(CompactionPolicy::fromJson(QJsonObject{}, &fromEmpty));
    QCOMPARE(fromEmpty, CompactionPolicy{}); // missing keys read as defaults
}

void TestPolicy::jsonErrors_data()
{
    QTest::addColumn<QJsonObject>("json");
    QTest::addColumn<QString>("named");
    QTest::newRow("string window") << QJsonObject{{u"context_window"_s, u"big"_s}} << u"context_window"_s;
    QTest::newRow("fractional tail") << QJsonObject{{u"tail_messages"_s, 2.5}} << u"tail_messages"_s;
    QTest::newRow("bool as number") << QJsonObject{{u"count_tool_schemas"_s, 1}} << u"count_tool_schemas"_s;
    QTest::newRow("review as string") << QJsonObject{{u"review_summaries"_s, u"yes"_s}} << u"review_summaries"_s;
    QTest::newRow("out of order") << QJsonObject{{u"warn"_s, 0.9}} << u"soft"_s;
    QTest::newRow("huge tail") << QJsonObject{{u"tail_messages"_s, 1e12}} << u"tail_messages"_s;
    // Hostile numbers: each is refused by name, never converted (UB) or taken as a negative window.
    auto parsed = [](const char *json) { return QJsonDocument::fromJson(QByteArray(json)).object(); };
    QTest::newRow("window int64 max") << parsed(R"({"context_window": 9223372036854775807})") << u"context_window"_s;
    QTest::newRow("window 2^63") << parsed(R"({"context_window": 9223372036854775808})") << u"context_window"_s;
    QTest::newRow("window 1e300") << parsed(R"({"context_window": 1e300})") << u"context_window"_s;
    QTest::newRow("window negative") << parsed(R"({"context_window": -5})") << u"context_window"_s;
    QTest::newRow("offload 1e300") << parsed(R"({"offload_at_compaction": 1e300})") << u"offload_at_compaction"_s;
    QTest::newRow("reserved negative") << parsed(R"({"reserved_output": -1})") << u"reserved_output"_s;
    QTest::newRow("timeout 2^53+1") << parsed(R"({"summary_timeout_ms": 9007199254740993})") << u"summary_timeout_ms"_s;
}

void TestPolicy::jsonErrors()
{
    QFETCH(QJsonObject, json);
    QFETCH(QString, named);
    CompactionPolicy p;
    p.tailMessages = 42;
    QString error;
    QVERIFY(!CompactionPolicy::fromJson(json, &p, &error));
    QVERIFY2(error.contains(named), qPrintable(error));
    QCOMPARE(p.tailMessages, 42); // untouched on error
}

QTEST_GUILESS_MAIN(TestPolicy)
#include "tst_policy.moc"
