#include "timeline/TimelineChart.h"
#include "timeline/TimelineRange.h"
#include "TierStyle.h"
#include "timeline/TimelineDecimation.h"
#include "timeline/TimelineLineLayer.h"
#include "timeline/TimelineMarkerLayer.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelinePanel.h"
#include "timeline/TimelineToolTip.h"
#include "timeline/TimelineViewport.h"
#include "settings/AppSettings.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QHelpEvent>
#include <QLocale>
#include <QWheelEvent>
#include <QChart>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QValueAxis>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
// Shows a chart (or the panel around one) at the given size and waits until it is on screen, so
// the chart's plot area is laid out.
bool showAt(QWidget &widget, int width, int height)
{
    widget.resize(width, height);
    widget.show();
    return QTest::qWaitForWindowExposed(&widget);
}

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

// Requests measured in tokens against `window`: what is sent, the full history and (where not
// negative) the provider's count, each row's ratios those tokens over the window.
QList<TimelineRow> tokenRows(qint64 window, const QList<qint64> &sent, const QList<qint64> &history,
                             const QList<qint64> &reported = {})
{
    QList<TimelineRow> rows;
    for (qsizetype i = 0; i < sent.size(); ++i) {
        TimelineRow r;
        r.requestIndex = int(i);
        r.sentTokens = sent.at(i);
        r.historyTokens = history.at(i);
        r.sentRatio = double(r.sentTokens) / double(window);
        r.historyRatio = double(r.historyTokens) / double(window);
        if (i < reported.size() && reported.at(i) >= 0) {
            r.reportedTokens = reported.at(i);
            r.reportedRatio = double(r.reportedTokens) / double(window);
        }
        rows << r;
    }
    return rows;
}

QString percentText(double percent)
{
    return QLocale().toString(percent, 'f', 1) + u'%';
}

void sendWheel(QWidget *viewport, const QPoint &pos, QPoint angleDelta, Qt::KeyboardModifiers modifiers = {})
{
    QWheelEvent event(pos, viewport->mapToGlobal(pos), QPoint(), angleDelta, Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(viewport, &event);
}

// A chart on screen at the given size over a model of `rows` (and what-if rows, if any), refreshed.
struct ShownChart
{
    TimelineModel model;
    TimelineChart chart;
    bool show(const QList<TimelineRow> &rows, const QList<WhatIfRow> &whatIf = {}, QSize size = {900, 400})
    {
        if (!showAt(chart, size.width(), size.height()))
            return false;
        chart.setModel(&model);
        model.setRecorded(rows);
        if (!whatIf.isEmpty())
            model.setWhatIf(whatIf);
        chart.refreshNow();
        return true;
    }
};

// Where a data point's marker is drawn, in the view's viewport.
QPoint viewportPos(const TimelineChart &chart, const QPointF &dataPoint)
{
    const TimelineMarkerLayer *layer = chart.markerLayer();
    return chart.mapFromScene(layer->mapToScene(layer->mapToLayer(dataPoint)));
}

bool closeColor(const QColor &a, const QColor &b)
{
    return std::abs(a.red() - b.red()) <= 8 && std::abs(a.green() - b.green()) <= 8 && std::abs(a.blue() - b.blue()) <= 8;
}

// Whether a PNG exported from `chart` has `color` where a data point is drawn, or a pixel above or below.
bool colorNear(const QImage &png, const TimelineChart &chart, const QPointF &dataPoint, const QColor &color)
{
    const QPoint at = chart.viewport()->mapTo(&chart, viewportPos(chart, dataPoint)) * png.devicePixelRatio();
    for (int dy = -1; dy <= 1; ++dy)
        if (closeColor(png.pixelColor(at + QPoint(0, dy)), color))
            return true;
    return false;
}
} // namespace

class TestTimeline : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelTester();
    void csv();
    void decimation_data();
    void decimation();
    void decimationKeepsPeak();
    void chartSeriesFollowModel();
    void bigSessionIsDecimated();
    void growingSessionKeepsFewTicks();
    void coalescesBursts();
    void thresholdsWaitForTheirWhatIf();
    void clickSelectsRequest();
    void hoverOnLine();
    void whatIfStepKeepsRecordedLinesCached();
    void linesArePainted();
    void exports();
    void sourceCompactionsAreDrawn();
    void markersFollowPlotArea();
    void markersArePainted();
    void clickOnMarker_data();
    void clickOnMarker();
    void hoverOnMarker();
    void markerPointsChangeOnlyWithData();
    void markerStyleFollowsPalette();
    void whatIfAtAnotherWindowRescales();
    void scaleSwitchNamesTheWindow();
    void scaleIsRemembered();
    void noWindowMeansTokens();
    void clippedLineIsReported();
    void axisAdaptsToAHighLine();
    void viewportZoomAndPan();
    void zoomAndPanByKeys();
    void zoomAndPanByMouse();
    void arrowKeysMoveSelection();
    void toolTipTexts();
    void toolTipWithoutDragging();
    void rangeFit();
    void panelSaysWhatIsInView();
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
    using Line = TimelineChart::Line;
    QCOMPARE(chart.linePoints(Line::Sent).size(), 100);
    QCOMPARE(chart.linePoints(Line::History).size(), 100);
    QCOMPARE(chart.linePoints(Line::History).at(42), QPointF(42, 42.0));
    QCOMPARE(chart.linePoints(Line::Reported).size(), 0); // unknown everywhere
    QCOMPARE(chart.markerPoints(Tier::Full, false), (QList<QPointF>{{49, 49.0}, {99, 54.9}}));
    QCOMPARE(chart.markerPoints(Tier::Warn, false).size(), 8);   // 9..89 except 49, 99
    QVERIFY(chart.markerPoints(Tier::Warn, true).isEmpty());
    QCOMPARE(chart.thresholdSeries(Tier::Soft)->at(0).y(), 60.0);
    QCOMPARE(chart.thresholdSeries(Tier::Emergency)->at(1), QPointF(99, 90.0));

    model.setWhatIf(QList<WhatIfRow>(100, WhatIfRow{0.3, Tier::None}));
    chart.refreshNow();
    QCOMPARE(chart.linePoints(Line::WhatIf).size(), 100);
    QCOMPARE(chart.linePoints(Line::WhatIf).at(7).y(), 30.0);
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
    ShownChart shown;
    QVERIFY(shown.show(rampRows(20000), {}, {800, 300}));
    TimelineChart &chart = shown.chart;
    // At most a low and a high point per two pixel columns (the plot area is a little narrower
    // than the widget).
    const int columns = chart.width();
    const qsizetype points = chart.linePoints(TimelineChart::Line::Sent).size();
    QVERIFY2(points <= 2 * columns + 2, qPrintable(QString::number(points)));
    QVERIFY(points > columns / 2);
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

// A slider step changes the thresholds at once and the what-if rows when the replay ends: the
// chart waits for the rows and paints both in one refresh, yet moves the lines on its own when
// no rows come.
void TestTimeline::thresholdsWaitForTheirWhatIf()
{
    TimelineModel model;
    TimelineChart chart;
    chart.setModel(&model);
    model.setRecorded(rampRows(10));
    QTRY_VERIFY(chart.refreshCount() >= 1);
    QTest::qWait(30);
    const int before = chart.refreshCount();

    QElapsedTimer clock;
    clock.start();
    model.setThresholds({0.5, 0.6, 0.7, 0.9});
    QTest::qWait(25);
    if (clock.elapsed() < 60) // a loaded machine may have slept past the longer delay: nothing to say then
        QCOMPARE(chart.refreshCount(), before); // a plain model change would have refreshed after 16 ms
    model.setWhatIf({{0.3, Tier::None}, {0.4, Tier::Warn}});
    // The rows end the step: drawn on the next pass of the event loop, without the frame's delay.
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    QCOMPARE(chart.refreshCount(), before + 1);
    QTest::qWait(120);
    QCOMPARE(chart.refreshCount(), before + 1); // one refresh for both
    QCOMPARE(chart.thresholdSeries(Tier::Full)->at(0).y(), 70.0);
    QCOMPARE(chart.markerPoints(Tier::Warn, true), QList<QPointF>{QPointF(1, 40.0)});

    model.setThresholds({0.5, 0.6, 0.75, 0.9}); // no replay answers this one
    QTRY_COMPARE(chart.refreshCount(), before + 2);
    QCOMPARE(chart.thresholdSeries(Tier::Full)->at(0).y(), 75.0);
}

void TestTimeline::clickSelectsRequest()
{
    QList<WhatIfRow> whatIf(100, WhatIfRow{0.3, Tier::None});
    ShownChart shown;
    QVERIFY(shown.show(rampRows(100), whatIf));
    TimelineChart &chart = shown.chart;
    QSignalSpy spy(&chart, &TimelineChart::requestSelected);
    QSignalSpy lineClicks(chart.lineLayer(), &TimelineLineLayer::clicked);
    // On the sent line between requests 71 and 72, a pixel above it: the nearer request.
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, viewportPos(chart, {71.3, 52.13}) + QPoint(0, -1));
    QCOMPARE(lineClicks.size(), 1);
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 71);
    QCOMPARE(chart.selectedRequest(), 71);
    // On the what-if line, which is live (drawn on every paint) rather than cached.
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, viewportPos(chart, {84, 30.0}));
    QCOMPARE(spy.size(), 2);
    QCOMPARE(spy.at(1).at(0).toInt(), 84);
    // Between the lines (and away from the selection line, which takes clicks too): nothing.
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, viewportPos(chart, {50, 40.0}));
    QCOMPARE(spy.size(), 2);
    QCOMPARE(chart.selectedRequest(), 84);
}

void TestTimeline::hoverOnLine()
{
    ShownChart shown;
    QVERIFY(shown.show(rampRows(100)));
    TimelineChart &chart = shown.chart;
    QSignalSpy spy(chart.lineLayer(), &TimelineLineLayer::hovered);
    QTest::mouseMove(chart.viewport(), viewportPos(chart, {30, 88.0}));
    QTest::mouseMove(chart.viewport(), viewportPos(chart, {72, 52.2}));
    QTRY_COMPARE(spy.size(), 1);
    QCOMPARE(std::lround(spy.at(0).at(0).toPointF().x()), 72L);
    QCOMPARE(spy.at(0).at(1).toBool(), true);
    QTRY_VERIFY2(QToolTip::text().startsWith(TimelineToolTip::tr("Request %1 · %2").arg(72).arg(TimelineToolTip::seriesName(TimelineSeries::Sent))),
                 qPrintable(QToolTip::text()));
    QVERIFY2(QToolTip::text().contains(QLocale().toString(52.2, 'f', 1) + u'%'), qPrintable(QToolTip::text()));
    QTest::mouseMove(chart.viewport(), viewportPos(chart, {30, 88.0}));
    QTRY_COMPARE(spy.size(), 2);
    QCOMPARE(spy.at(1).at(1).toBool(), false);
}

// A slider step changes only the what-if line: the recorded lines stay in their cached image,
// and the what-if line still shows its new place in the pixels.
void TestTimeline::whatIfStepKeepsRecordedLinesCached()
{
    ShownChart shown;
    QVERIFY(shown.show(rampRows(100), QList<WhatIfRow>(100, WhatIfRow{0.3, Tier::None})));
    TimelineModel &model = shown.model;
    TimelineChart &chart = shown.chart;
    const int whatIfHue = QColor(0xd5, 0x3f, 0x8c).hsvHue();
    // The what-if line is 1 px, dashed and antialiased: look along a few pixels of its row for
    // its hue (a line between two pixel rows blends into the background, lighter but same hue).
    auto whatIfAt = [&](const QImage &image, double percent) {
        const QPoint at = viewportPos(chart, {35, percent}) * image.devicePixelRatio();
        for (int dx = -6; dx <= 6; ++dx) {
            for (int dy = -1; dy <= 1; ++dy) {
                const QColor c = image.pixelColor(at + QPoint(dx, dy));
                if (c.hsvSaturation() > 60 && std::abs(c.hsvHue() - whatIfHue) <= 12)
                    return true;
            }
        }
        return false;
    };
    const QImage before = chart.viewport()->grab().toImage();
    const int renders = chart.lineLayer()->cacheRenders();
    QVERIFY(renders >= 1);
    QVERIFY(whatIfAt(before, 30.0));
    QVERIFY(!whatIfAt(before, 45.0));

    model.setWhatIf(QList<WhatIfRow>(100, WhatIfRow{0.45, Tier::None}));
    chart.refreshNow();
    const QImage after = chart.viewport()->grab().toImage();
    QCOMPARE(chart.lineLayer()->cacheRenders(), renders);
    QVERIFY(whatIfAt(after, 45.0));
    QVERIFY(!whatIfAt(after, 30.0));

    QList<TimelineRow> rows = rampRows(100);
    rows[70].sentRatio = 0.1; // the recorded data changes: the cache is drawn again
    model.setRecorded(rows);
    chart.refreshNow();
    chart.viewport()->grab();
    QCOMPARE(chart.lineLayer()->cacheRenders(), renders + 1);
}

// The recorded lines reach the pixels (from the cache) in a PNG, and the vector export draws
// them as paths in their own colour.
void TestTimeline::linesArePainted()
{
    TimelineModel model;
    TimelinePanel panel(&model);
    QVERIFY(showAt(panel, 900, 400));
    model.setRecorded(rampRows(100));
    TimelineChart *chart = panel.chart();
    chart->refreshNow();
    QTemporaryDir dir;
    QString error;
    QVERIFY2(chart->exportPng(dir.filePath(u"t.png"_s), &error), qPrintable(error));
    const QImage png(dir.filePath(u"t.png"_s));
    const QColor sent(0x2b, 0x6c, 0xb0);
    auto sentNear = [&](const QPointF &dataPoint) { return colorNear(png, *chart, dataPoint, sent); };
    QVERIFY(sentNear({72, 52.2}));
    QVERIFY(sentNear({25, 25.0}));
    QVERIFY(!sentNear({72, 60.0}));

    // The grid is drawn by the layer, at the axes' ticks, instead of by Qt Charts' line items.
    QVERIFY(!chart->requestAxis()->isGridLineVisible());
    const QList<qreal> rows = chart->lineLayer()->gridValues(Qt::Horizontal);
    QCOMPARE(rows.constFirst(), 0.0);
    QCOMPARE(rows.size(), int(99 / chart->requestAxis()->tickInterval()) + 1);
    const QList<qreal> levels = chart->lineLayer()->gridValues(Qt::Vertical);
    QVERIFY(levels.contains(100.0));
    const QColor grid = chart->lineLayer()->gridPen().color();
    auto gridNear = [&](const QPointF &dataPoint) { return colorNear(png, *chart, dataPoint, grid); };
    QVERIFY(gridNear({35, 100.0}));
    QVERIFY(!gridNear({35, 90.0}));
    QVERIFY2(chart->exportSvg(dir.filePath(u"t.svg"_s), &error), qPrintable(error));
    QFile svg(dir.filePath(u"t.svg"_s));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(svg.readAll());
    QVERIFY(text.contains(sent.name()));
    // The history and sent lines as vector polylines of every request (the legend draws short lines).
    int longLines = 0;
    static const QRegularExpression polyline(u"<polyline[^>]*points=\"([^\"]*)\""_s);
    for (const QRegularExpressionMatch &m : polyline.globalMatch(text))
        if (m.captured(1).split(u' ', Qt::SkipEmptyParts).size() == 100)
            ++longLines;
    QCOMPARE(longLines, 2);
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

void TestTimeline::markersFollowPlotArea()
{
    // The layer maps data to the chart's coordinates exactly as Qt Charts places its series,
    // before and after a resize moves the plot area.
    ShownChart shown;
    QVERIFY(shown.show(rampRows(100)));
    TimelineChart &chart = shown.chart;
    const QList<QPointF> points = chart.markerPoints(Tier::Warn, false) + chart.markerPoints(Tier::Full, false);
    QCOMPARE(points.size(), 10);
    auto check = [&] {
        for (const QPointF &p : points) {
            const QPointF expected = chart.chart()->mapToPosition(p, chart.thresholdSeries(Tier::Warn));
            const QPointF actual = chart.markerLayer()->mapToLayer(p);
            if ((expected - actual).manhattanLength() > 0.01)
                return false;
        }
        return true;
    };
    QVERIFY(check());
    const QPointF before = chart.markerLayer()->mapToLayer(points.constLast());
    QCOMPARE(chart.markerLayer()->boundingRect(), chart.chart()->plotArea());

    QSignalSpy plotArea(chart.chart(), &QChart::plotAreaChanged);
    chart.resize(600, 300);
    QTRY_VERIFY(plotArea.size() > 0);
    QVERIFY(check());
    QCOMPARE(chart.markerLayer()->boundingRect(), chart.chart()->plotArea());
    const QPointF after = chart.markerLayer()->mapToLayer(points.constLast());
    QVERIFY(after.x() < before.x() - 100);
    QVERIFY(after.y() < before.y());
}

void TestTimeline::markersArePainted()
{
    // Filled markers in the PNG (raster, stamps) and marker borders in the SVG (vector shapes).
    TimelineModel model;
    TimelinePanel panel(&model);
    QVERIFY(showAt(panel, 900, 400));
    QList<TimelineRow> rows = rampRows(100);
    rows[30].sourceCompaction = u"The agent compacted"_s;
    model.setRecorded(rows);
    TimelineChart *chart = panel.chart();
    chart->refreshNow();
    QTemporaryDir dir;
    QString error;
    QVERIFY2(chart->exportPng(dir.filePath(u"t.png"_s), &error), qPrintable(error));
    const QImage png(dir.filePath(u"t.png"_s));
    auto pixel = [&](const QPointF &dataPoint) {
        const QPoint pos = chart->viewport()->mapTo(chart, viewportPos(*chart, dataPoint)) * png.devicePixelRatio();
        return png.pixelColor(pos);
    };
    const QColor full = tierColor(Tier::Full);
    const QColor warn = tierColor(Tier::Warn);
    QVERIFY2(closeColor(pixel({49, 49.0}), full), qPrintable(pixel({49, 49.0}).name()));
    QVERIFY2(closeColor(pixel({19, 19.0}), warn), qPrintable(pixel({19, 19.0}).name()));
    // The source agent's triangle is filled with the text colour of the light theme.
    QVERIFY2(closeColor(pixel({30, 30.0}), QColor(0x1a, 0x20, 0x2c)), qPrintable(pixel({30, 30.0}).name()));
    QVERIFY(!closeColor(pixel({35, 80.0}), full)); // empty plot area

    // The selection line (text colour, 1 px) stays over the markers, as it was over the scatter series.
    chart->setSelectedRequest(49);
    QVERIFY2(chart->exportPng(dir.filePath(u"selected.png"_s), &error), qPrintable(error));
    const QImage selected(dir.filePath(u"selected.png"_s));
    const QPoint centre = chart->viewport()->mapTo(chart, viewportPos(*chart, {49, 49.0}));
    int darkest = 255;
    for (int dx = -1; dx <= 1; ++dx)
        darkest = std::min(darkest, selected.pixelColor(centre + QPoint(dx, 0)).lightness());
    QVERIFY2(darkest < full.lightness() - 40, qPrintable(QString::number(darkest)));

    QVERIFY2(chart->exportSvg(dir.filePath(u"t.svg"_s), &error), qPrintable(error));
    QFile svg(dir.filePath(u"t.svg"_s));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    // Only recorded markers use the darker tier colour (their border).
    QVERIFY(text.contains(full.darker(130).name().toLatin1()));
    QVERIFY(text.contains(warn.darker(130).name().toLatin1()));
}

void TestTimeline::clickOnMarker_data()
{
    QTest::addColumn<QPointF>("target");
    QTest::addColumn<QPoint>("offset");
    QTest::addColumn<int>("expectedRow"); // -1: no selection
    QTest::newRow("recorded marker") << QPointF(49, 49.0) << QPoint(0, 0) << 49;
    QTest::newRow("edge of a marker") << QPointF(79, 50.0 + 0.029 * 100) << QPoint(5, -3) << 79;
    QTest::newRow("what-if marker") << QPointF(64, 30.0) << QPoint(0, 2) << 64;
    QTest::newRow("empty plot area") << QPointF(30, 88.0) << QPoint(0, 0) << -1;
    QTest::newRow("beside a marker") << QPointF(49, 49.0) << QPoint(0, -14) << -1;
}

void TestTimeline::clickOnMarker()
{
    QFETCH(QPointF, target);
    QFETCH(QPoint, offset);
    QFETCH(int, expectedRow);
    QList<WhatIfRow> whatIf(100, WhatIfRow{0.3, Tier::None});
    whatIf[64].tier = Tier::Soft;
    ShownChart shown;
    QVERIFY(shown.show(rampRows(100), whatIf));
    TimelineChart &chart = shown.chart;
    QSignalSpy spy(&chart, &TimelineChart::requestSelected);
    // Every marker sits on a line, which selects on click too: the layer must be the one that took it.
    QSignalSpy markerClicks(chart.markerLayer(), &TimelineMarkerLayer::clicked);
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, viewportPos(chart, target) + offset);
    QCOMPARE(markerClicks.size(), expectedRow < 0 ? 0 : 1);
    if (expectedRow < 0) {
        QCOMPARE(spy.size(), 0);
        QCOMPARE(chart.selectedRequest(), -1);
        return;
    }
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), expectedRow);
    QCOMPARE(chart.selectedRequest(), expectedRow);
}

void TestTimeline::hoverOnMarker()
{
    QList<TimelineRow> rows = rampRows(100);
    rows[49].recordSummary = u"full: 49% -> 20%"_s;
    ShownChart shown;
    QVERIFY(shown.show(rows));
    TimelineChart &chart = shown.chart;
    QSignalSpy spy(chart.markerLayer(), &TimelineMarkerLayer::hovered);
    QTest::mouseMove(chart.viewport(), viewportPos(chart, {30, 88.0}));
    QTest::mouseMove(chart.viewport(), viewportPos(chart, {49, 49.0}) + QPoint(2, 1));
    QTRY_COMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toPointF(), QPointF(49, 49.0));
    QCOMPARE(spy.at(0).at(1).toBool(), true);
    QTRY_VERIFY2(QToolTip::text().contains(u"full: 49% -> 20%"_s), qPrintable(QToolTip::text()));
    QTest::mouseMove(chart.viewport(), viewportPos(chart, {30, 88.0}));
    QTRY_COMPARE(spy.size(), 2);
    QCOMPARE(spy.at(1).at(0).toPointF(), QPointF(49, 49.0));
    QCOMPARE(spy.at(1).at(1).toBool(), false);
}

void TestTimeline::markerPointsChangeOnlyWithData()
{
    TimelineModel model;
    TimelineChart chart;
    chart.resize(900, 400);
    chart.setModel(&model);
    model.setRecorded(rampRows(100));
    QList<WhatIfRow> whatIf(100, WhatIfRow{0.3, Tier::None});
    whatIf[64].tier = Tier::Soft;
    model.setWhatIf(whatIf);
    chart.refreshNow();
    const TimelineMarkerLayer *layer = chart.markerLayer();
    const int revision = layer->pointsRevision();
    QVERIFY(revision > 0);

    chart.refreshNow();                          // same data
    model.setThresholds({0.5, 0.6, 0.7, 0.9});   // lines move, markers do not
    chart.refreshNow();
    chart.resize(700, 300);                      // positions move, points do not
    chart.refreshNow();
    whatIf[10].ratioAfter = 0.35;                // a what-if row without a marker
    model.setWhatIf(whatIf);
    chart.refreshNow();
    QCOMPARE(layer->pointsRevision(), revision);

    whatIf[64].ratioAfter = 0.31;                // the what-if marker moves
    model.setWhatIf(whatIf);
    chart.refreshNow();
    QCOMPARE(layer->pointsRevision(), revision + 1);
    QCOMPARE(chart.markerPoints(Tier::Soft, true), QList<QPointF>{QPointF(64, 31.0)});
    model.setWhatIf({});
    chart.refreshNow();
    QCOMPARE(layer->pointsRevision(), revision + 2);
    QVERIFY(chart.markerPoints(Tier::Soft, true).isEmpty());
}

void TestTimeline::markerStyleFollowsPalette()
{
    TimelineChart chart;
    const TimelineMarkerLayer *layer = chart.markerLayer();
    auto triangleFill = [layer] {
        for (int g = 0; g < layer->groupCount(); ++g)
            if (layer->style(g).shape == TimelineMarkerLayer::Shape::Triangle)
                return layer->style(g).brush.color();
        return QColor();
    };
    QPalette light = chart.palette();
    light.setColor(QPalette::Window, Qt::white);
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    chart.setPalette(light);
    QCOMPARE(triangleFill(), QColor(0x1a, 0x20, 0x2c));
    // Dark as wl::isDarkPalette() means it: the Base the plot is painted on is dark.
    QPalette dark = light;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    chart.setPalette(dark);
    QCOMPARE(triangleFill(), QColor(0xe2, 0xe8, 0xf0));
}

// A what-if at a window of its own: in percent, every line is measured against the what-if's
// window (the recorded ones rescaled through their tokens), and the axis says which.
void TestTimeline::whatIfAtAnotherWindowRescales()
{
    TimelineModel model;
    model.setRecorded(tokenRows(100'000, {50'000, 60'000, 70'000}, {80'000, 90'000, 100'000}, {-1, 51'000, -1}), 100'000);
    using S = TimelineSeries;
    using Scale = TimelineScale;
    QCOMPARE(model.referenceWindow(), 100'000);
    QCOMPARE(model.value(S::Sent, 0, Scale::Percent), 50.0);
    QVERIFY(std::isnan(model.value(S::Reported, 0, Scale::Percent)));

    model.setWhatIf({{0.8, Tier::None, 40'000}, {0.5, Tier::Soft, 25'000, 58'000, 20'000, 12, 2}}, 50'000);
    QVERIFY(model.whatIfAtOtherWindow());
    QCOMPARE(model.referenceWindow(), 50'000);
    QCOMPARE(model.value(S::Sent, 0, Scale::Percent), 100.0);     // 50,000 of 50,000
    QCOMPARE(model.value(S::Sent, 2, Scale::Percent), 140.0);
    QCOMPARE(model.value(S::History, 1, Scale::Percent), 180.0);
    QCOMPARE(model.value(S::Reported, 1, Scale::Percent), 102.0);
    QCOMPARE(model.value(S::WhatIf, 0, Scale::Percent), 80.0);    // already of its own window
    QVERIFY(std::isnan(model.value(S::WhatIf, 2, Scale::Percent))); // no what-if row there
    QCOMPARE(model.value(S::Sent, 2, Scale::Tokens), 70'000.0);
    QCOMPARE(model.value(S::WhatIf, 1, Scale::Tokens), 25'000.0);
    QCOMPARE(model.thresholdValue(0.8, Scale::Tokens), 40'000.0);
    QCOMPARE(model.thresholdValue(0.8, Scale::Percent), 80.0);

    TimelineChart chart;
    chart.resize(900, 400);
    chart.setModel(&model);
    chart.refreshNow();
    QCOMPARE(chart.linePoints(S::Sent), (QList<QPointF>{{0, 100.0}, {1, 120.0}, {2, 140.0}}));
    QCOMPARE(chart.linePoints(S::WhatIf), (QList<QPointF>{{0, 80.0}, {1, 50.0}}));
    QVERIFY2(chart.valueAxis()->titleText().contains(QLocale().toString(50'000)), qPrintable(chart.valueAxis()->titleText()));
    QVERIFY(chart.windowNote().contains(QLocale().toString(50'000)));
    QVERIFY(chart.windowNote().contains(QLocale().toString(100'000))); // rescaled from the session's
    QVERIFY(chart.valueRange().top >= 140.0); // what was sent always fits

    // At the session's own window nothing is rescaled and nothing needs saying.
    model.setWhatIf({{0.4, Tier::None, 40'000}}, 100'000);
    QVERIFY(!model.whatIfAtOtherWindow());
    QCOMPARE(model.value(S::Sent, 0, Scale::Percent), 50.0);
    chart.refreshNow();
    QVERIFY(chart.valueAxis()->titleText().contains(QLocale().toString(100'000)));
    QVERIFY(chart.windowNote().contains(QLocale().toString(100'000)));
    QVERIFY(!chart.windowNote().contains(QLocale().toString(50'000)));

    // A what-if that never compacts has no window: its tokens are measured against the session's.
    model.setWhatIf({{0.0, Tier::None, 120'000}}, 0);
    QCOMPARE(model.referenceWindow(), 100'000);
    QCOMPARE(model.value(S::WhatIf, 0, Scale::Percent), 120.0);
}

void TestTimeline::scaleSwitchNamesTheWindow()
{
    TimelineModel model;
    TimelinePanel panel(&model);
    QVERIFY(showAt(panel, 900, 400));
    model.setRecorded(tokenRows(128'000, {32'000, 64'000, 96'000}, {40'000, 80'000, 120'000}), 128'000);
    TimelineChart *chart = panel.chart();
    chart->refreshNow();
    const QString window = QLocale().toString(128'000);
    QCOMPARE(chart->effectiveScale(), TimelineScale::Percent);
    QVERIFY2(chart->valueAxis()->titleText().contains(window), qPrintable(chart->valueAxis()->titleText()));
    QVERIFY(chart->valueAxis()->titleText().contains(u'%'));
    QVERIFY2(chart->windowNote().contains(window), qPrintable(chart->windowNote()));
    QCOMPARE(chart->linePoints(TimelineSeries::Sent).at(1).y(), 50.0);
    QCOMPARE(chart->thresholdSeries(Tier::Full)->at(0).y(), 80.0);
    const QString percentTitle = chart->valueAxis()->titleText();

    auto *tokens = panel.findChild<QAbstractButton *>(u"TimelineTokensButton"_s);
    QVERIFY(tokens);
    QTest::mouseClick(tokens, Qt::LeftButton);
    QCOMPARE(chart->scale(), TimelineScale::Tokens);
    QVERIFY(chart->valueAxis()->titleText() != percentTitle);
    QVERIFY2(chart->windowNote().contains(window), qPrintable(chart->windowNote()));
    QCOMPARE(panel.findChild<QLabel *>(u"TimelineWindowLabel"_s)->text(), chart->windowNote());
    QCOMPARE(chart->linePoints(TimelineSeries::Sent).at(1).y(), 64.0);       // thousands of tokens
    QCOMPARE(chart->linePoints(TimelineSeries::History).at(2).y(), 120.0);
    QCOMPARE(chart->thresholdSeries(Tier::Full)->at(0).y(), 0.8 * 128.0);
    QVERIFY(chart->valueRange().top >= 128.0); // the whole window shows

    QTest::mouseClick(panel.findChild<QAbstractButton *>(u"TimelinePercentButton"_s), Qt::LeftButton);
    QCOMPARE(chart->scale(), TimelineScale::Percent);
    QCOMPARE(chart->valueAxis()->titleText(), percentTitle);
    QCOMPARE(chart->linePoints(TimelineSeries::Sent).at(1).y(), 50.0);
}

void TestTimeline::scaleIsRemembered()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"settings.ini"_s);
    TimelineModel model;
    {
        AppSettings settings(path);
        TimelinePanel panel(&model);
        panel.setSettings(&settings);
        QCOMPARE(panel.chart()->scale(), TimelineScale::Percent);
        QSignalSpy changed(&settings, &AppSettings::changed);
        panel.findChild<QAbstractButton *>(u"TimelineTokensButton"_s)->click();
        QCOMPARE(settings.timelineAxis(), AppSettings::TimelineAxis::Tokens);
        QCOMPARE(changed.size(), 1);
        settings.sync();
    }
    AppSettings reread(path); // the next run
    TimelinePanel panel(&model);
    QSignalSpy changed(&reread, &AppSettings::changed);
    panel.setSettings(&reread);
    QCOMPARE(panel.chart()->scale(), TimelineScale::Tokens);
    QVERIFY(panel.findChild<QAbstractButton *>(u"TimelineTokensButton"_s)->isChecked());
    QCOMPARE(changed.size(), 0); // reading is not choosing
    panel.findChild<QAbstractButton *>(u"TimelinePercentButton"_s)->click();
    QCOMPARE(reread.timelineAxis(), AppSettings::TimelineAxis::Percent);
}

void TestTimeline::noWindowMeansTokens()
{
    TimelineModel model;
    TimelineChart chart;
    chart.resize(900, 400);
    chart.setModel(&model);
    model.setRecorded(tokenRows(1, {3'000, 6'000}, {3'000, 9'000}), 0);
    chart.refreshNow();
    QCOMPARE(chart.scale(), TimelineScale::Percent);
    QCOMPARE(chart.effectiveScale(), TimelineScale::Tokens);
    QCOMPARE(chart.linePoints(TimelineSeries::History).at(1).y(), 9.0);
    QVERIFY(chart.thresholdSeries(Tier::Warn)->points().isEmpty()); // no window, no thresholds
    QVERIFY(!chart.windowNote().isEmpty());
}

void TestTimeline::clippedLineIsReported()
{
    // An uncompacted history that climbs to 400 % while what is sent stays under 75 %.
    QList<qint64> sent, history;
    for (int i = 0; i < 100; ++i) {
        sent << 30'000 + (i % 10) * 5'000;
        history << 4'000 * (i + 1);
    }
    ShownChart shown;
    shown.model.setRecorded(tokenRows(100'000, sent, history), 100'000);
    QVERIFY(shown.show(shown.model.recorded()));
    TimelineChart &chart = shown.chart;
    const TimelineRange &range = chart.valueRange();
    QVERIFY2(range.top < 400.0 && range.top >= 110.0, qPrintable(QString::number(range.top)));
    QCOMPARE(chart.valueAxis()->max(), range.top);
    QVERIFY(!range.peakClip(TimelineSeries::Sent));
    const TimelineClip *clip = range.peakClip(TimelineSeries::History);
    QVERIFY(clip);
    QCOMPARE(clip->peak, 400.0);
    QCOMPARE(clip->peakRow, 99);
    QCOMPARE(clip->lastRow, 99);
    // The stretch starts where the history first passes the top.
    QVERIFY(history.at(clip->firstRow) / 1000.0 > range.top);
    QVERIFY(history.at(clip->firstRow - 1) / 1000.0 <= range.top);
    // Said, with how far above the top it goes, and marked at the top.
    QVERIFY2(chart.clipNote().contains(percentText(400.0)), qPrintable(chart.clipNote()));
    QVERIFY2(chart.clipNote().contains(percentText(400.0 - range.top)), qPrintable(chart.clipNote()));
    const QList<QPointF> marks = chart.clipMarkerPoints(TimelineSeries::History);
    QCOMPARE(marks.size(), 1);
    QCOMPARE(marks.at(0).x(), 99.0);
    QVERIFY(marks.at(0).y() <= range.top && marks.at(0).y() > range.top * 0.9);
    const QString tip = chart.toolTipAt(viewportPos(chart, marks.at(0)));
    QVERIFY2(tip.contains(TimelineToolTip::seriesName(TimelineSeries::History)) && tip.contains(percentText(400.0)), qPrintable(tip));
    // The band along the top covers the stretch's requests, and says the same on hover.
    const QList<QPointF> band = chart.clipBandPoints(TimelineSeries::History);
    QCOMPARE(band.size(), 2);
    QCOMPARE(band.at(0).x(), clip->firstRow - 0.5);
    QCOMPARE(band.at(1).x(), 99.0);
    QVERIFY(band.at(0).y() <= range.top && band.at(0).y() > marks.at(0).y());
    const QString bandTip = chart.toolTipAt(viewportPos(chart, {double(clip->firstRow + 2), band.at(0).y()}));
    QVERIFY2(bandTip.contains(percentText(400.0 - range.top)), qPrintable(bandTip));
    QVERIFY(chart.clipBandPoints(TimelineSeries::Sent).isEmpty());

    // In tokens the same line is clipped, said in tokens.
    chart.setScale(TimelineScale::Tokens);
    QVERIFY(chart.valueRange().peakClip(TimelineSeries::History));
    QVERIFY2(chart.clipNote().contains(QLocale().toString(400'000)), qPrintable(chart.clipNote()));

    // Zoomed into requests where the history is lower, nothing is clipped any more.
    chart.setScale(TimelineScale::Percent);
    chart.zoomBy(0.2, 0);
    QVERIFY(chart.visibleRequests().max() < 30);
    QVERIFY(chart.valueRange().clips.isEmpty());
    QVERIFY(chart.clipNote().isEmpty());
    QVERIFY(chart.clipMarkerPoints(TimelineSeries::History).isEmpty());
    QVERIFY(chart.clipBandPoints(TimelineSeries::History).isEmpty());
}

void TestTimeline::axisAdaptsToAHighLine()
{
    // The provider reports 150 % of a replay's window: the axis grows to hold it, nothing clipped.
    QList<qint64> sent, history, reported;
    for (int i = 0; i < 20; ++i) {
        sent << 50'000;
        history << 60'000;
        reported << (i == 12 ? 150'000 : 55'000);
    }
    ShownChart shown;
    shown.model.setRecorded(tokenRows(100'000, sent, history, reported), 100'000);
    QVERIFY(shown.show(shown.model.recorded()));
    const TimelineChart &chart = shown.chart;
    QVERIFY2(chart.valueAxis()->max() >= 150.0, qPrintable(QString::number(chart.valueAxis()->max())));
    QVERIFY(chart.valueRange().clips.isEmpty());
    QVERIFY(chart.clipNote().isEmpty());
    QVERIFY(chart.linePoints(TimelineSeries::Reported).contains(QPointF(12, 150.0)));
}

void TestTimeline::viewportZoomAndPan()
{
    TimelineViewport view;
    view.setLast(99);
    QVERIFY(!view.isZoomed());
    view.zoom(0.5, 50);
    QVERIFY(view.isZoomed());
    QCOMPARE(view.span(), 49.5);
    QCOMPARE((50 - view.min()) / view.span(), 50.0 / 99.0); // the anchor keeps its place
    view.pan(-1000);
    QCOMPARE(view.min(), 0.0);
    QCOMPARE(view.span(), 49.5);
    view.pan(1000);
    QCOMPARE(view.max(), 99.0);
    view.setLast(199); // a view at the newest request follows new requests
    QCOMPARE(view.max(), 199.0);
    QCOMPARE(view.span(), 49.5);
    view.ensureVisible(10);
    QCOMPARE(view.min(), 10.0);
    view.setLast(299); // one that is not at the end stays where it is
    QCOMPARE(view.min(), 10.0);
    view.setLast(20); // the session shrank under it
    QVERIFY(!view.isZoomed());
    view.setLast(99);
    view.zoom(0.0001, 30);
    QCOMPARE(view.span(), TimelineViewport::kMinSpan);
    view.zoom(1000, 30);
    QVERIFY(!view.isZoomed());
    QCOMPARE(view.max(), 99.0);
}

void TestTimeline::zoomAndPanByKeys()
{
    ShownChart shown;
    QVERIFY(shown.show(rampRows(200)));
    TimelineChart &chart = shown.chart;
    QSignalSpy viewChanged(&chart, &TimelineChart::viewChanged);
    const QValueAxis *axis = chart.requestAxis();
    QCOMPARE(axis->min(), 0.0);
    QCOMPARE(axis->max(), 199.0);
    QTest::keyClick(&chart, Qt::Key_Plus);
    QVERIFY(chart.isZoomed());
    QCOMPARE(axis->max() - axis->min(), 199.0 * 0.8);
    QVERIFY(viewChanged.size() >= 1);
    QTest::keyClick(&chart, Qt::Key_Minus);
    QVERIFY(!chart.isZoomed());
    QCOMPARE(axis->max(), 199.0);
    for (int i = 0; i < 4; ++i)
        QTest::keyClick(&chart, Qt::Key_Plus);
    const double span = axis->max() - axis->min();
    QVERIFY(span < 199.0 * 0.5);
    QTest::keyClick(&chart, Qt::Key_PageUp);
    QCOMPARE(axis->min(), 0.0);
    QTest::keyClick(&chart, Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(axis->min(), 0.2 * span);
    QTest::keyClick(&chart, Qt::Key_PageDown);
    QCOMPARE(axis->min(), 1.2 * span);
    QCOMPARE(axis->max() - axis->min(), span);
    // The lines are drawn for what is visible, at the resolution of the zoom.
    QVERIFY(chart.linePoints(TimelineSeries::Sent).constFirst().x() >= axis->min() - 1);
    QVERIFY(chart.linePoints(TimelineSeries::Sent).constLast().x() <= axis->max() + 1);
    QTest::keyClick(&chart, Qt::Key_0);
    QVERIFY(!chart.isZoomed());
    QCOMPARE(axis->min(), 0.0);
    QCOMPARE(axis->max(), 199.0);
}

void TestTimeline::zoomAndPanByMouse()
{
    ShownChart shown;
    QVERIFY(shown.show(rampRows(200)));
    TimelineChart &chart = shown.chart;
    const QValueAxis *axis = chart.requestAxis();
    // The wheel zooms around the request under the mouse.
    const QPoint at150 = viewportPos(chart, {150, 80.0});
    sendWheel(chart.viewport(), at150, {0, 120});
    QVERIFY(chart.isZoomed());
    QCOMPARE(axis->max() - axis->min(), 199.0 * 0.8);
    QVERIFY(std::abs(chart.lineLayer()->mapFromLayer(chart.lineLayer()->mapFromScene(chart.mapToScene(at150))).x() - 150) < 0.5);
    sendWheel(chart.viewport(), at150, {0, 240});
    const double span = axis->max() - axis->min();
    QVERIFY(std::abs(span - 199.0 * 0.8 * 0.64) < 1e-6);
    // Shift+wheel and a horizontal wheel pan.
    const double min = axis->min();
    sendWheel(chart.viewport(), at150, {0, -120}, Qt::ShiftModifier);
    QVERIFY(std::abs(axis->min() - (min + 0.2 * span)) < 1e-6);
    sendWheel(chart.viewport(), at150, {120, 0});
    QVERIFY(std::abs(axis->min() - min) < 1e-6);
    // A drag over the empty plot pans: the requests follow the mouse.
    const QPoint from = viewportPos(chart, {(axis->min() + axis->max()) / 2, 90.0});
    const double before = axis->min();
    QTest::mousePress(chart.viewport(), Qt::LeftButton, {}, from);
    QTest::mouseMove(chart.viewport(), from - QPoint(100, 0));
    QTest::mouseRelease(chart.viewport(), Qt::LeftButton, {}, from - QPoint(100, 0));
    const double perPixel = span / chart.chart()->plotArea().width();
    QVERIFY2(std::abs(axis->min() - (before + 100 * perPixel)) < 1e-6, qPrintable(QString::number(axis->min())));
    // Out again to everything.
    sendWheel(chart.viewport(), at150, {0, -1200});
    QVERIFY(!chart.isZoomed());
}

void TestTimeline::arrowKeysMoveSelection()
{
    ShownChart shown;
    QVERIFY(shown.show(rampRows(100)));
    TimelineChart &chart = shown.chart;
    QSignalSpy spy(&chart, &TimelineChart::requestSelected);
    QTest::keyClick(&chart, Qt::Key_Right); // none selected: the first visible request
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 0);
    QTest::keyClick(&chart, Qt::Key_Right);
    QTest::keyClick(&chart, Qt::Key_Right);
    QCOMPARE(chart.selectedRequest(), 2);
    QCOMPARE(spy.constLast().at(0).toInt(), 2);
    QTest::keyClick(&chart, Qt::Key_Left);
    QCOMPARE(spy.constLast().at(0).toInt(), 1);
    QCOMPARE(chart.selectedRequest(), 1);
    QCOMPARE(chart.thresholdSeries(Tier::Warn)->count(), 2);
    QTest::keyClick(&chart, Qt::Key_Home);
    QCOMPARE(chart.selectedRequest(), 0);
    const qsizetype signals = spy.size();
    QTest::keyClick(&chart, Qt::Key_Left); // already at the first: nothing to say
    QCOMPARE(spy.size(), signals);
    QTest::keyClick(&chart, Qt::Key_End);
    QCOMPARE(spy.constLast().at(0).toInt(), 99);
    // Zoomed in around the selection, moving out of view moves the view.
    chart.zoomBy(0.1, 99);
    QVERIFY(chart.visibleRequests().min() > 80);
    QTest::keyClick(&chart, Qt::Key_Home);
    QCOMPARE(chart.selectedRequest(), 0);
    QCOMPARE(chart.requestAxis()->min(), 0.0);
    // Selected from elsewhere (another view), the view follows too.
    chart.setSelectedRequest(60);
    QVERIFY(chart.visibleRequests().min() <= 60 && chart.visibleRequests().max() >= 60);
    QTest::keyClick(&chart, Qt::Key_Right);
    QCOMPARE(spy.constLast().at(0).toInt(), 61);
}

void TestTimeline::toolTipTexts()
{
    TimelineModel model;
    QList<TimelineRow> rows = tokenRows(100'000, {40'000, 52'000, 30'000}, {60'000, 72'000, 90'000}, {-1, 53'100, -1});
    rows[2].tier = Tier::Full;
    rows[2].recordId = u"rec-2"_s;
    rows[2].recordSummary = u"Full compaction: 61,000 → 19,000 tokens"_s;
    model.setRecorded(rows, 100'000);
    model.setWhatIf({{0.4, Tier::None, 40'000}, {0.45, Tier::Soft, 45'000, 49'000, 21'000, 12, 3}});
    const QLocale locale;

    const QString sent = TimelineToolTip::point(model, 1, TimelineSeries::Sent);
    QVERIFY2(sent.startsWith(TimelineToolTip::tr("Request %1 · %2").arg(1).arg(TimelineToolTip::seriesName(TimelineSeries::Sent))), qPrintable(sent));
    QVERIFY(sent.contains(locale.toString(52'000)));                 // its tokens
    QVERIFY(sent.contains(percentText(52.0)));                       // and share of the window
    QVERIFY(sent.contains(locale.toString(100'000)));                // which window
    QVERIFY(sent.contains(u"+"_s + locale.toString(12'000)));        // what changed since request 0
    QVERIFY(sent.contains(locale.toString(53'100)));                 // the other lines there
    QVERIFY(sent.contains(TimelineToolTip::tr("No compaction before this request")));

    const QString compacted = TimelineToolTip::point(model, 2, TimelineSeries::Sent);
    QVERIFY(compacted.contains(tierDisplayName(Tier::Full)));
    QVERIFY(compacted.contains(rows[2].recordSummary));
    QVERIFY(compacted.contains(locale.toString(-22'000)));

    const QString marker = TimelineToolTip::compaction(model, 2, false);
    QVERIFY2(marker.contains(tierDisplayName(Tier::Full)) && marker.contains(rows[2].recordSummary), qPrintable(marker));
    QVERIFY(marker.contains(locale.toString(30'000)));

    const QString whatIf = TimelineToolTip::compaction(model, 1, true);
    QVERIFY2(whatIf.contains(tierDisplayName(Tier::Soft)), qPrintable(whatIf));
    QVERIFY(whatIf.contains(locale.toString(49'000)) && whatIf.contains(locale.toString(21'000)));
    QVERIFY(whatIf.contains(u"12"_s) && whatIf.contains(locale.toString(45'000)));
    const QString whatIfPoint = TimelineToolTip::point(model, 1, TimelineSeries::WhatIf);
    QVERIFY(whatIfPoint.contains(tierDisplayName(Tier::Soft)) && whatIfPoint.contains(locale.toString(45'000)));

    QVERIFY(TimelineToolTip::point(model, 3, TimelineSeries::Sent).isEmpty());
}

// A tooltip shows where the mouse rests, over a marker or a line, without a drag first: the
// scene's own tooltip handling (no item tooltips) used to hide it again.
void TestTimeline::toolTipWithoutDragging()
{
    QList<TimelineRow> rows = rampRows(100);
    rows[49].recordSummary = u"full: 49% -> 20%"_s;
    ShownChart shown;
    QVERIFY(shown.show(rows));
    TimelineChart &chart = shown.chart;
    auto rest = [&chart](const QPoint &pos) {
        QHelpEvent help(QEvent::ToolTip, pos, chart.viewport()->mapToGlobal(pos));
        QCoreApplication::sendEvent(chart.viewport(), &help);
    };
    QVERIFY(chart.toolTipAt(viewportPos(chart, {49, 49.0})).contains(u"full: 49% -> 20%"_s));
    rest(viewportPos(chart, {49, 49.0}));
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(u"full: 49% -> 20%"_s), qPrintable(QToolTip::text()));
    rest(viewportPos(chart, {72, 52.2}));
    QTRY_VERIFY2(QToolTip::text().startsWith(TimelineToolTip::tr("Request %1 · %2").arg(72).arg(TimelineToolTip::seriesName(TimelineSeries::Sent))),
                 qPrintable(QToolTip::text()));
    QVERIFY(QToolTip::isVisible());
    QVERIFY(chart.toolTipAt(viewportPos(chart, {30, 88.0})).isEmpty());
    rest(viewportPos(chart, {30, 88.0}));
    QTRY_VERIFY(!QToolTip::isVisible());
}

void TestTimeline::rangeFit()
{
    using S = TimelineSeries;
    auto line = [](std::initializer_list<double> ys) {
        QList<QPointF> points;
        int x = 0;
        for (double y : ys)
            points << QPointF(x++, y);
        return points;
    };
    // Only the window and what is sent: 10 % headroom, ticks at a round step.
    std::array<QList<QPointF>, 4> lines;
    lines[size_t(S::Sent)] = line({20, 50, 90});
    TimelineRange range = fitTimelineRange(lines, 100);
    QCOMPARE(range.top, 110.0);
    QCOMPARE(range.tick, 20.0);
    QVERIFY(range.clips.isEmpty());
    // A what-if above the window is never clipped, however high.
    lines[size_t(S::WhatIf)] = line({30, 900, 40});
    range = fitTimelineRange(lines, 100);
    QVERIFY(range.top >= 990.0);
    QVERIFY(range.clips.isEmpty());
    // The others fit while they need at most twice the height of what is sent...
    lines[size_t(S::WhatIf)].clear();
    lines[size_t(S::History)] = line({50, 150, 200});
    range = fitTimelineRange(lines, 100);
    QVERIFY(range.top >= 200.0 && range.top < 250.0);
    QVERIFY(range.clips.isEmpty());
    // ...and beyond are clipped, stretch by stretch, each with its peak.
    lines[size_t(S::History)] = line({50, 300, 400, 100, 250, 90});
    lines[size_t(S::Reported)] = line({500});
    range = fitTimelineRange(lines, 100);
    QVERIFY(range.top >= 220.0 && range.top < 250.0);
    QCOMPARE(range.clips.size(), 3);
    QCOMPARE(range.clips.at(0), (TimelineClip{S::History, 1, 2, 2, 400.0}));
    QCOMPARE(range.clips.at(1), (TimelineClip{S::History, 4, 4, 4, 250.0}));
    QCOMPARE(range.clips.at(2), (TimelineClip{S::Reported, 0, 0, 0, 500.0}));
    QCOMPARE(range.peakClip(S::History)->peak, 400.0);
    QVERIFY(!range.peakClip(S::Sent));
}

void TestTimeline::panelSaysWhatIsInView()
{
    QList<qint64> sent, history;
    for (int i = 0; i < 100; ++i) {
        sent << 50'000;
        history << 5'000 * (i + 1);
    }
    TimelineModel model;
    TimelinePanel panel(&model);
    QVERIFY(showAt(panel, 1000, 400));
    model.setRecorded(tokenRows(100'000, sent, history), 100'000);
    TimelineChart *chart = panel.chart();
    chart->refreshNow();
    auto *note = panel.findChild<QLabel *>(u"TimelineNote"_s);
    auto *zoom = panel.findChild<QLabel *>(u"TimelineZoomLabel"_s);
    auto *showAll = panel.findChild<QAbstractButton *>(u"TimelineResetZoomButton"_s);
    QVERIFY(note && zoom && showAll);
    QVERIFY(note->isVisible());
    QCOMPARE(note->text(), chart->clipNote());
    QVERIFY(note->text().contains(percentText(500.0)));
    QVERIFY(!showAll->isVisible());
    QVERIFY(zoom->text().isEmpty());

    chart->zoomBy(0.2, 10);
    QVERIFY(showAll->isVisible());
    const int first = int(std::ceil(chart->visibleRequests().min()));
    const int last = int(std::floor(chart->visibleRequests().max()));
    QVERIFY2(zoom->text().contains(QString::number(first)) && zoom->text().contains(QString::number(last))
                 && zoom->text().contains(QLocale().toString(100)),
             qPrintable(zoom->text()));
    QVERIFY(!note->isVisible()); // the history is lower at the start: nothing clipped in view
    QTest::mouseClick(showAll, Qt::LeftButton);
    QVERIFY(!chart->isZoomed());
    QVERIFY(!showAll->isVisible());
    QVERIFY(note->isVisible());

    // A shorter session under a zoomed view: the view and what the panel says follow it.
    chart->zoomBy(0.1, 80);
    QVERIFY(showAll->isVisible());
    model.setRecorded(model.recorded().mid(0, 20));
    chart->refreshNow();
    QCOMPARE(chart->visibleRequests().max(), 19.0);
    QVERIFY(chart->isZoomed());
    QVERIFY2(zoom->text().contains(QLocale().toString(20)) && zoom->text().contains(u"19"_s), qPrintable(zoom->text()));
    model.setRecorded(model.recorded().mid(0, 5)); // shorter than the zoom: everything shows
    chart->refreshNow();
    QVERIFY(!chart->isZoomed());
    QVERIFY(!showAll->isVisible());
    QVERIFY(zoom->text().isEmpty());
}

QTEST_MAIN(TestTimeline)
#include "tst_timeline.moc"
