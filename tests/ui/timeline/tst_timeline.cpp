#include "timeline/TimelineChart.h"
#include "timeline/TimelineDecimation.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelinePanel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QImage>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
QList<TimelineRow> rampRows(int n)
{
    QList<TimelineRow> rows;
    for (int i = 0; i < n; ++i) {
        TimelineRow r;
        r.requestIndex = i;
        r.historyRatio = 0.01 * i;
        r.sentRatio = std::min(0.01 * i, 0.5 + 0.001 * (i % 50));
        r.tier = (i % 50 == 49) ? Tier::Full : (i % 10 == 9 ? Tier::Warn : Tier::None);
        if (r.tier != Tier::None)
            r.recordId = u"rec-%1"_s.arg(i);
        rows << r;
    }
    return rows;
}
} // namespace

class TestTimeline : public QObject
{
    Q_OBJECT
private slots:
    void modelTester();
    void csv();
    void decimation_data();
    void decimation();
    void decimationKeepsPeak();
    void chartSeriesFollowModel();
    void bigSessionIsDecimated();
    void growingSessionKeepsFewTicks();
    void coalescesBursts();
    void clickSelectsRequest();
    void exports();
    void sourceCompactionsAreDrawn();
};

void TestTimeline::modelTester()
{
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecorded(rampRows(30));
    QCOMPARE(model.rowCount(), 30);
    QCOMPARE(model.columnCount(), int(TimelineModel::ColumnCount));
    model.setWhatIf({{0.1, Tier::None}, {0.75, Tier::Soft}});
    QCOMPARE(model.index(1, TimelineModel::WhatIfTierColumn).data(TimelineModel::TierRole).toInt(), int(Tier::Soft));
    QVERIFY(!model.index(5, TimelineModel::WhatIfColumn).data(TimelineModel::RatioRole).isValid());
    QCOMPARE(model.index(9, TimelineModel::TierColumn).data(TimelineModel::RecordIdRole).toString(), u"rec-9"_s);
    model.setRecorded({});
    QCOMPARE(model.rowCount(), 0);
}

void TestTimeline::csv()
{
    TimelineModel model;
    QList<TimelineRow> rows = rampRows(3);
    rows[2].reportedRatio = 0.25;
    model.setRecorded(rows);
    model.setWhatIf({{0.5, Tier::Warn}});
    const QStringList lines = model.toCsv().split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QVERIFY(lines[0].startsWith(u"request,history_ratio"_s));
    QCOMPARE(lines[1], u"0,0.000000,0.000000,,none,,0.500000,warn"_s);
    QCOMPARE(lines[3].section(u',', 3, 3), u"0.250000"_s);
    QCOMPARE(lines[3].section(u',', 6, 7), u","_s); // no what-if for that row
}

void TestTimeline::decimation_data()
{
    QTest::addColumn<int>("points");
    QTest::addColumn<int>("buckets");
    QTest::newRow("fits") << 50 << 100;
    QTest::newRow("exactly") << 200 << 100;
    QTest::newRow("ten-to-one") << 2000 << 100;
    QTest::newRow("huge") << 100000 << 700;
}

void TestTimeline::decimation()
{
    QFETCH(int, points);
    QFETCH(int, buckets);
    QList<QPointF> in;
    for (int i = 0; i < points; ++i)
        in << QPointF(i, std::sin(i * 0.37) * 100);
    const QList<QPointF> out = decimateMinMax(in, buckets);
    if (points <= 2 * buckets) {
        QCOMPARE(out, in);
        return;
    }
    QVERIFY2(out.size() <= 2 * buckets + 2, qPrintable(QString::number(out.size())));
    QCOMPARE(out.constFirst(), in.constFirst());
    QCOMPARE(out.constLast(), in.constLast());
    for (qsizetype i = 1; i < out.size(); ++i)
        QVERIFY(out[i].x() > out[i - 1].x());
}

void TestTimeline::decimationKeepsPeak()
{
    QList<QPointF> in;
    for (int i = 0; i < 10000; ++i)
        in << QPointF(i, i == 4321 ? 99.0 : 10.0 + (i % 7));
    const QList<QPointF> out = decimateMinMax(in, 50);
    QVERIFY(out.contains(QPointF(4321, 99.0)));
}

void TestTimeline::chartSeriesFollowModel()
{
    TimelineModel model;
    TimelineChart chart;
    chart.resize(900, 400);
    chart.setModel(&model);
    model.setRecorded(rampRows(100));
    model.setThresholds({0.5, 0.6, 0.7, 0.9});
    chart.refreshNow();
    QCOMPARE(chart.sentSeries()->count(), 100);
    QCOMPARE(chart.historySeries()->count(), 100);
    QCOMPARE(chart.reportedSeries()->count(), 0); // unknown everywhere
    QCOMPARE(chart.markerPoints(Tier::Full, false), (QList<QPointF>{{49, 49.0}, {99, 54.9}}));
    QCOMPARE(chart.markerPoints(Tier::Warn, false).size(), 8);   // 9..89 except 49, 99
    QVERIFY(chart.markerPoints(Tier::Warn, true).isEmpty());
    QCOMPARE(chart.thresholdSeries(Tier::Soft)->at(0).y(), 60.0);
    QCOMPARE(chart.thresholdSeries(Tier::Emergency)->at(1), QPointF(99, 90.0));

    model.setWhatIf(QList<WhatIfRow>(100, WhatIfRow{0.3, Tier::None}));
    chart.refreshNow();
    QCOMPARE(chart.whatIfSeries()->count(), 100);
    QCOMPARE(chart.whatIfSeries()->at(7).y(), 30.0);
    QVERIFY(chart.markerPoints(Tier::Soft, true).isEmpty());

    QList<WhatIfRow> whatIf(100, WhatIfRow{0.3, Tier::None});
    whatIf[20] = {0.72, Tier::Soft};
    whatIf[60] = {0.4, Tier::Soft};
    model.setWhatIf(whatIf);
    chart.refreshNow();
    QCOMPARE(chart.markerPoints(Tier::Soft, true), (QList<QPointF>{{20, 72.0}, {60, 40.0}}));
    QVERIFY(chart.markerPoints(Tier::Soft, false).isEmpty());
}

void TestTimeline::bigSessionIsDecimated()
{
    TimelineModel model;
    TimelineChart chart;
    chart.resize(800, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setModel(&model);
    model.setRecorded(rampRows(20000));
    chart.refreshNow();
    // About two points per pixel column (the plot area is a little narrower than the widget).
    const int columns = chart.width();
    QVERIFY2(chart.sentSeries()->count() <= 2 * columns + 2, qPrintable(QString::number(chart.sentSeries()->count())));
    QVERIFY(chart.sentSeries()->count() > columns / 2);
}

void TestTimeline::growingSessionKeepsFewTicks()
{
    // Every state the request axis passes through has a readable number of ticks; a range of
    // 20,000 with a two-request session's interval of 1 would lay out 20,000 tick items.
    TimelineModel model;
    TimelineChart chart;
    chart.setModel(&model);
    model.setRecorded(rampRows(2));
    chart.refreshNow();
    QValueAxis *axis = chart.requestAxis();
    double worst = 0;
    auto measure = [axis, &worst] {
        if (axis->tickInterval() > 0)
            worst = std::max(worst, (axis->max() - axis->min()) / axis->tickInterval());
    };
    connect(axis, &QValueAxis::rangeChanged, this, measure);
    connect(axis, &QValueAxis::tickIntervalChanged, this, measure);
    model.setRecorded(rampRows(20000));
    chart.refreshNow();
    QCOMPARE(axis->max(), 19999.0);
    QVERIFY2(worst > 0 && worst <= 16, qPrintable(QString::number(worst)));
    model.setRecorded(rampRows(3));
    chart.refreshNow();
    QCOMPARE(axis->max(), 2.0);
    QVERIFY2(worst <= 16, qPrintable(QString::number(worst)));
}

void TestTimeline::coalescesBursts()
{
    TimelineModel model;
    TimelineChart chart;
    chart.setModel(&model);
    QTRY_VERIFY(chart.refreshCount() >= 1);
    const int before = chart.refreshCount();
    for (int i = 0; i < 50; ++i)
        model.setWhatIf({{0.01 * i, Tier::None}});
    model.setRecorded(rampRows(10));
    QTRY_COMPARE(chart.refreshCount(), before + 1);
    QTest::qWait(50);
    QCOMPARE(chart.refreshCount(), before + 1);
}

void TestTimeline::clickSelectsRequest()
{
    TimelineModel model;
    TimelineChart chart;
    chart.setModel(&model);
    model.setRecorded(rampRows(20));
    chart.refreshNow();
    QSignalSpy spy(&chart, &TimelineChart::requestSelected);
    Q_EMIT chart.sentSeries()->clicked(QPointF(6.6, 12.0));
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 7);
    QCOMPARE(chart.selectedRequest(), 7);
    Q_EMIT chart.sentSeries()->clicked(QPointF(500, 12.0)); // clamped to the last request
    QCOMPARE(spy.at(1).at(0).toInt(), 19);
}

void TestTimeline::exports()
{
    TimelineModel model;
    TimelinePanel panel(&model);
    panel.resize(800, 300);
    model.setRecorded(rampRows(40));
    panel.chart()->refreshNow();
    QTemporaryDir dir;
    QString error;
    QVERIFY2(panel.chart()->exportPng(dir.filePath(u"t.png"_s), &error), qPrintable(error));
    QCOMPARE(QImage(dir.filePath(u"t.png"_s)).size(), panel.chart()->size());
    QVERIFY2(panel.chart()->exportSvg(dir.filePath(u"t.svg"_s), &error), qPrintable(error));
    QFile svg(dir.filePath(u"t.svg"_s));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    QVERIFY(panel.exportCsv(dir.filePath(u"t.csv"_s), &error));
    QFile csv(dir.filePath(u"t.csv"_s));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().count('\n'), 41);
    QVERIFY(!panel.exportCsv(dir.filePath(u"missing/dir/t.csv"_s), &error));
    QVERIFY(error.contains(u"missing/dir"_s));
}

void TestTimeline::sourceCompactionsAreDrawn()
{
    TimelineModel model;
    TimelineChart chart;
    chart.setModel(&model);
    QList<TimelineRow> rows = rampRows(30);
    rows[12].sourceCompaction = u"Claude Code compacted here (167,094 tokens before)"_s;
    model.setRecorded(rows);
    chart.refreshNow();
    QCOMPARE(chart.sourceCompactionPoints(), QList<QPointF>{QPointF(12, 12.0)}); // at the full history's height
    QVERIFY(model.index(12, 0).data(Qt::ToolTipRole).toString().contains(u"Claude Code compacted"_s));
    model.setRecorded(rampRows(30));
    chart.refreshNow();
    QVERIFY(chart.sourceCompactionPoints().isEmpty());
}

QTEST_MAIN(TestTimeline)
#include "tst_timeline.moc"
