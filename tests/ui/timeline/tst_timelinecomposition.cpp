#include "compaction/TokenEstimate.h"
#include "compaction/ViewComposition.h"
#include "settings/AppSettings.h"
#include "timeline/TimelineChart.h"
#include "timeline/TimelineCompositionLayer.h"
#include "timeline/TimelineLineLayer.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelinePanel.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QValueAxis>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
using Part = ViewComposition::Part;
constexpr qint64 kWindow = 10'000;

// A composition of `historyTokens` of history (4 bytes a token) after a 400-token system prompt,
// 200 of schemas and 1,000 reserved, in a 10,000-token window.
ViewComposition compositionWith(qint64 historyTokens, qint64 checkpointTokens = 0)
{
    ViewComposition::ViewBytes bytes;
    bytes.add(Part::SystemPrompt, 400 * 4);
    bytes.add(Part::Checkpoint, checkpointTokens * 4);
    bytes.add(Part::History, historyTokens * 4);
    CompactionPolicy policy;
    policy.contextWindow = kWindow;
    policy.reservedOutput = 1'000;
    return ViewComposition::of(bytes, TokenEstimate(bytes.total(), 200 * 4, policy));
}

QList<TimelineRow> rows(int n)
{
    QList<TimelineRow> out;
    for (int i = 0; i < n; ++i) {
        TimelineRow r;
        r.requestIndex = i;
        r.composition = compositionWith(300 * i);
        r.sentTokens = r.composition.used() - 1'000;
        r.sentRatio = double(r.composition.used()) / double(kWindow);
        r.historyTokens = r.sentTokens;
        r.historyRatio = r.sentRatio;
        out << r;
    }
    return out;
}

bool showAt(QWidget &widget, int width, int height)
{
    widget.resize(width, height);
    widget.show();
    return QTest::qWaitForWindowExposed(&widget);
}
} // namespace

class TestTimelineComposition : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelGivesTheStack();
    void switchDrawsStackedAreasUnderTheThresholds();
    void whatIfCompositionIsDrawnWhileShown();
    void hoverExplainsTheBand();
    void aThresholdStepKeepsTheBandsImage();
    void switchIsRemembered();
};

void TestTimelineComposition::modelGivesTheStack()
{
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecorded(rows(5), kWindow);
    QVERIFY(!model.compositionIsWhatIf());
    // Request 2: 400 system + 200 schemas + 600 history + 1,000 reserved, free to the window.
    QCOMPARE(model.compositionTop(2, Part::SystemPrompt, TimelineScale::Tokens), 400.0);
    QCOMPARE(model.compositionTop(2, Part::ToolSchemas, TimelineScale::Tokens), 600.0);
    QCOMPARE(model.compositionTop(2, Part::History, TimelineScale::Tokens), 1'200.0);
    QCOMPARE(model.compositionTop(2, Part::Reserved, TimelineScale::Tokens), 2'200.0);
    QCOMPARE(model.compositionTop(2, Part::Free, TimelineScale::Percent), 100.0);
    QCOMPARE(model.compositionTop(2, Part::Reserved, TimelineScale::Percent), 22.0);
    QVERIFY(std::isnan(model.compositionTop(9, Part::History, TimelineScale::Tokens)));
    model.setWhatIf({WhatIfRow{0.5, Tier::None, 5'000, 0, 0, 0, 0, -1, compositionWith(3'400)}});
    QVERIFY(model.compositionIsWhatIf());
    QCOMPARE(model.compositionTop(0, Part::History, TimelineScale::Tokens), 4'000.0);
    QVERIFY(std::isnan(model.compositionTop(1, Part::History, TimelineScale::Tokens))); // no what-if row there
}

void TestTimelineComposition::switchDrawsStackedAreasUnderTheThresholds()
{
    TimelineModel model;
    model.setRecorded(rows(20), kWindow);
    TimelineChart chart;
    chart.setModel(&model);
    QVERIFY(showAt(chart, 800, 400));
    chart.refreshNow();
    QVERIFY(!chart.linePoints(TimelineSeries::Sent).isEmpty());
    QVERIFY(chart.compositionLayer()->stack()[0].isEmpty());
    QVERIFY(!chart.compositionLayer()->isVisible());

    chart.setMode(TimelineChart::Mode::Composition);
    QVERIFY(chart.compositionLayer()->isVisible());
    QVERIFY(chart.linePoints(TimelineSeries::Sent).isEmpty()); // the lines give way to the bands
    const auto &stack = chart.compositionLayer()->stack();
    QCOMPARE(stack[size_t(Part::Free)].size(), qsizetype(20));
    for (const QPointF &p : stack[size_t(Part::Free)])
        QCOMPARE(p.y(), 100.0); // every request's parts sum to its window
    QCOMPARE(stack[size_t(Part::Reserved)].at(10).y(), 100.0 * (400 + 200 + 3'000 + 1'000) / kWindow);
    // The thresholds are still drawn, over the bands.
    QCOMPARE(chart.thresholdSeries(Tier::Warn)->points().constFirst().y(), 60.0);
    QVERIFY(chart.valueAxis()->max() >= 100.0);

    // The stack is painted: a pixel inside the history band has the band's colour, not the base.
    const QImage image = chart.grab().toImage();
    const QPointF inHistory = chart.compositionLayer()->mapToLayer(QPointF(15, (stack[size_t(Part::ToolSchemas)].at(15).y()
                                                                                + stack[size_t(Part::History)].at(15).y()) / 2));
    const QPoint pixel = chart.mapFromScene(chart.compositionLayer()->mapToScene(inHistory));
    QVERIFY(image.rect().contains(pixel));
    QVERIFY(image.pixelColor(pixel) != chart.palette().color(QPalette::Base));

    chart.setMode(TimelineChart::Mode::Lines);
    QVERIFY(!chart.linePoints(TimelineSeries::Sent).isEmpty());
    QVERIFY(chart.compositionLayer()->stack()[0].isEmpty());
}

void TestTimelineComposition::whatIfCompositionIsDrawnWhileShown()
{
    TimelineModel model;
    model.setRecorded(rows(10), kWindow);
    TimelinePanel panel(&model);
    QVERIFY(showAt(panel, 900, 400));
    panel.compositionButton()->click();
    panel.chart()->refreshNow();
    QVERIFY(panel.compositionLegend()->isVisible());
    QVERIFY(panel.compositionLegend()->text().contains(u"Checkpoint"_s));
    QVERIFY(!panel.compositionLegend()->text().contains(u"What-if"_s));

    QList<WhatIfRow> whatIf;
    for (int i = 0; i < 10; ++i)
        whatIf << WhatIfRow{0, Tier::None, -1, 0, 0, 0, 0, -1, compositionWith(100, 500)};
    model.setWhatIf(whatIf, kWindow);
    panel.chart()->refreshNow();
    const auto &stack = panel.chart()->compositionLayer()->stack();
    // Checkpoint 500 over 400 system and 200 schemas: 11%, whatever the recorded rows say.
    QCOMPARE(stack[size_t(Part::Checkpoint)].at(9).y(), 11.0);
    QVERIFY(panel.compositionLegend()->text().contains(u"What-if"_s));
    model.setWhatIf({});
    panel.chart()->refreshNow();
    QCOMPARE(panel.chart()->compositionLayer()->stack()[size_t(Part::Checkpoint)].at(9).y(), 6.0); // recorded again
}

void TestTimelineComposition::hoverExplainsTheBand()
{
    TimelineModel model;
    model.setRecorded(rows(10), kWindow);
    TimelineChart chart;
    chart.setModel(&model);
    QVERIFY(showAt(chart, 800, 400));
    chart.setMode(TimelineChart::Mode::Composition);
    const auto &stack = chart.compositionLayer()->stack();
    const double y = (stack[size_t(Part::ToolSchemas)].at(8).y() + stack[size_t(Part::History)].at(8).y()) / 2;
    const QPointF layerPos = chart.compositionLayer()->mapToLayer(QPointF(8, y));
    const QPoint viewportPos = chart.mapFromScene(chart.compositionLayer()->mapToScene(layerPos));
    const QString text = chart.toolTipAt(viewportPos);
    QVERIFY2(text.startsWith(u"Request 8"_s), qPrintable(text));
    // The band under the mouse first, with its figures, then every part.
    const QStringList lines = text.split(u'\n');
    QVERIFY2(lines.value(1).startsWith(u"History, verbatim: "_s), qPrintable(text));
    QVERIFY2(lines.value(1).contains(QLocale().toString(2'400)), qPrintable(text));
    QVERIFY2(text.contains(u"Reserved output"_s) && text.contains(u"Free"_s), qPrintable(text));
    QVERIFY(chart.isOverData(viewportPos));
    // Over the free space nothing is hit: a drag there pans.
    const QPointF freePos = chart.compositionLayer()->mapToLayer(QPointF(2, 90));
    QVERIFY(!chart.isOverData(chart.mapFromScene(chart.compositionLayer()->mapToScene(freePos))));
}

void TestTimelineComposition::aThresholdStepKeepsTheBandsImage()
{
    // A slider step moves a threshold line first: the bands under it are not filled again until
    // the what-if's stack arrives.
    TimelineModel model;
    model.setRecorded(rows(50), kWindow);
    TimelineChart chart;
    chart.setModel(&model);
    QVERIFY(showAt(chart, 800, 400));
    chart.setMode(TimelineChart::Mode::Composition);
    chart.grab();
    const int renders = chart.compositionLayer()->imageRenders();
    QVERIFY(renders > 0);
    model.setThresholds({0.55, 0.7, 0.8, 0.95});
    chart.refreshNow();
    chart.grab();
    QCOMPARE(chart.compositionLayer()->imageRenders(), renders);
    QList<WhatIfRow> whatIf;
    for (int i = 0; i < 50; ++i)
        whatIf << WhatIfRow{0, Tier::None, -1, 0, 0, 0, 0, -1, compositionWith(50 * i)};
    model.setWhatIf(whatIf, kWindow);
    chart.refreshNow();
    chart.grab();
    QCOMPARE(chart.compositionLayer()->imageRenders(), renders + 1);
}

void TestTimelineComposition::switchIsRemembered()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"settings.ini"_s);
    TimelineModel model;
    {
        AppSettings settings(path);
        TimelinePanel panel(&model);
        panel.setSettings(&settings);
        QCOMPARE(panel.chart()->mode(), TimelineChart::Mode::Lines);
        QSignalSpy changed(&settings, &AppSettings::changed);
        panel.compositionButton()->click();
        QCOMPARE(panel.chart()->mode(), TimelineChart::Mode::Composition);
        QCOMPARE(settings.timelineView(), AppSettings::TimelineView::Composition);
        QCOMPARE(changed.size(), 1);
        settings.sync();
    }
    AppSettings reread(path);
    TimelinePanel panel(&model);
    QSignalSpy changed(&reread, &AppSettings::changed);
    panel.setSettings(&reread);
    QCOMPARE(panel.chart()->mode(), TimelineChart::Mode::Composition);
    QVERIFY(panel.compositionButton()->isChecked());
    QCOMPARE(changed.size(), 0); // reading is not choosing
    panel.linesButton()->click();
    QCOMPARE(panel.chart()->mode(), TimelineChart::Mode::Lines);
    QCOMPARE(reread.timelineView(), AppSettings::TimelineView::Lines);
}

QTEST_MAIN(TestTimelineComposition)
#include "tst_timelinecomposition.moc"
