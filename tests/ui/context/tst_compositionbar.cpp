#include "common/CompositionBar.h"
#include "compaction/CompactionPolicy.h"
#include "compaction/TokenEstimate.h"
#include "context/ContextModels.h"
#include "context/ContextPanel.h"
#include "workbench/ContextGauge.h"

#include <QLocale>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
using Part = ViewComposition::Part;

// 1,000 system, 3,000 history, 1,000 offloaded, 1,000 reserved in a 10,000-token window.
ViewComposition sample(qint64 window = 10'000)
{
    ViewComposition::ViewBytes bytes;
    bytes.add(Part::SystemPrompt, 4'000);
    bytes.add(Part::History, 12'000);
    bytes.add(Part::Offloaded, 4'000);
    CompactionPolicy policy;
    policy.contextWindow = window;
    policy.reservedOutput = 1'000;
    return ViewComposition::of(bytes, TokenEstimate(bytes.total(), 0, policy));
}

bool showAt(QWidget &widget, int width, int height)
{
    widget.resize(width, height);
    widget.show();
    return QTest::qWaitForWindowExposed(&widget);
}
} // namespace

class TestCompositionBar : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void segmentsAreSharesOfTheWindow();
    void legendHasEveryFigure();
    void overTheWindowSaysByHowMuch();
    void contextDockShowsTheSelectedRequest();
    void gaugeToolTipExplainsTheNextRequest();
};

void TestCompositionBar::segmentsAreSharesOfTheWindow()
{
    CompositionBar bar;
    bar.setComposition(sample());
    QVERIFY(showAt(bar, 420, 80));
    const QRectF system = bar.segmentRect(Part::SystemPrompt);
    const QRectF history = bar.segmentRect(Part::History);
    const QRectF free = bar.segmentRect(Part::Free);
    QVERIFY(!system.isEmpty() && !history.isEmpty() && !free.isEmpty());
    QVERIFY(bar.segmentRect(Part::Checkpoint).isEmpty()); // a part of 0 takes no room
    QVERIFY(bar.segmentRect(Part::Pinned).isEmpty());
    // In the stack's order, each as wide as its share: history is 3x the system prompt, free 4x.
    QCOMPARE(history.left(), system.right());
    QVERIFY(std::abs(history.width() - 3 * system.width()) < 0.01);
    QVERIFY(std::abs(free.width() - 4 * system.width()) < 0.01);
    QVERIFY(free.right() > bar.segmentRect(Part::Reserved).right());
}

void TestCompositionBar::legendHasEveryFigure()
{
    CompositionBar bar;
    QCOMPARE(bar.legendText(), QString());
    bar.setComposition(sample());
    const QString legend = bar.legendText();
    const QLocale locale;
    QVERIFY2(legend.contains(u"History, verbatim: %1 tokens (%2%)"_s.arg(locale.toString(3'000), locale.toString(30.0, 'f', 1))),
             qPrintable(legend));
    QVERIFY2(legend.contains(u"Offload placeholders: %1 tokens"_s.arg(locale.toString(1'000))), qPrintable(legend));
    QVERIFY2(legend.contains(u"Free: %1 tokens (%2%)"_s.arg(locale.toString(4'000), locale.toString(40.0, 'f', 1))), qPrintable(legend));
    QVERIFY(!legend.contains(u"Checkpoint"_s)); // nothing to say about an empty part
    QVERIFY(bar.toolTip().contains(u"\u25a0"_s));
    bar.setComposition({});
    QCOMPARE(bar.legendText(), QString());
}

void TestCompositionBar::overTheWindowSaysByHowMuch()
{
    CompositionBar bar;
    bar.setComposition(sample(4'000)); // 6,000 used
    QVERIFY(bar.legendText().contains(u"over it by %1 tokens"_s.arg(QLocale().toString(2'000))));
    QVERIFY(bar.segmentRect(Part::Free).isEmpty());
}

void TestCompositionBar::contextDockShowsTheSelectedRequest()
{
    ContextPanel panel;
    QVERIFY(showAt(panel, 900, 600));
    ContextSnapshot snapshot;
    snapshot.requestIndex = 4;
    snapshot.systemPrompt = u"You are a careful agent."_s;
    snapshot.composition = sample();
    panel.showSnapshot(snapshot);
    QCOMPARE(panel.compositionBar()->composition(), sample());
    QVERIFY(panel.compositionBar()->isVisible());
    panel.clear();
    QVERIFY(panel.compositionBar()->composition().isEmpty());
}

void TestCompositionBar::gaugeToolTipExplainsTheNextRequest()
{
    ContextGauge gauge;
    const ViewComposition c = sample();
    gauge.setComposition(c, Tier::Warn, ContextGauge::Source::NextRequest);
    QVERIFY2(gauge.toolTip().contains(u"History, verbatim"_s), qPrintable(gauge.toolTip()));
    QVERIFY2(gauge.toolTip().contains(u"Reserved output: %1 tokens"_s.arg(QLocale().toString(1'000))), qPrintable(gauge.toolTip()));
    QVERIFY(gauge.accessibleDescription().contains(u"Offload placeholders"_s));
    // The gauge's figures are the composition's: no total of its own.
    QCOMPARE(gauge.ratio(), c.ratio());
    QCOMPARE(gauge.window(), c.window());
    QVERIFY2(gauge.toolTip().contains(QLocale().toString(c.used())), qPrintable(gauge.toolTip()));
    QCOMPARE(gauge.text(), u"%1%"_s.arg(qRound(c.ratio() * 100)));
    gauge.clear();
    QVERIFY(!gauge.toolTip().contains(u"History, verbatim"_s)); // nothing shown: none told
    QCOMPARE(gauge.ratio(), 0.0);
}

QTEST_MAIN(TestCompositionBar)
#include "tst_compositionbar.moc"
