#include "common/Highlighting.h"
#include "common/PaletteColors.h"
#include "settings/ThemeManager.h"
#include "timeline/TimelineChart.h"

#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/Theme>

#include <QApplication>
#include <QChart>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

QPalette palette(const QColor &window, const QColor &windowText, const QColor &base, const QColor &text)
{
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, windowText);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::Text, text);
    return p;
}

} // namespace

class TestPaletteColors : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void darkness_data();
    void isDarkPalette_data() { darkness_data(); }
    void isDarkPalette();
    void isDarkWindow_data() { darkness_data(); }
    void isDarkWindow();
    void highlightingThemeFollowsTheWindow_data() { darkness_data(); }
    void highlightingThemeFollowsTheWindow();
    void timelineThemeFollowsTheViews_data() { darkness_data(); }
    void timelineThemeFollowsTheViews();
    void mixColors_data();
    void mixColors();
};

void TestPaletteColors::darkness_data()
{
    QTest::addColumn<QPalette>("palette");
    QTest::addColumn<bool>("darkViews");  // isDarkPalette()
    QTest::addColumn<bool>("darkWindow"); // isDarkWindow()
    const QColor black(Qt::black), white(Qt::white), midGrey(0x80, 0x80, 0x80), underMid(0x7f, 0x7f, 0x7f);
    QTest::newRow("the light theme") << ThemeManager::lightPalette() << false << false;
    QTest::newRow("the dark theme") << ThemeManager::darkPalette() << true << true;
    QTest::newRow("light") << palette(white, black, white, black) << false << false;
    QTest::newRow("dark") << palette(black, white, black, white) << true << true;
    // The boundary is a lightness of 128 whatever the text colour.
    QTest::newRow("mid-grey, dark text") << palette(midGrey, black, midGrey, black) << false << false;
    QTest::newRow("mid-grey, light text") << palette(midGrey, white, midGrey, white) << false << false;
    QTest::newRow("just under mid-grey, dark text") << palette(underMid, black, underMid, black) << true << true;
    // Views and window apart: each function looks at its own role.
    QTest::newRow("dark window, light views") << palette(black, white, white, black) << false << true;
    QTest::newRow("light window, dark views") << palette(white, black, black, white) << true << false;
}

void TestPaletteColors::isDarkPalette()
{
    QFETCH(QPalette, palette);
    QFETCH(bool, darkViews);
    QCOMPARE(wl::isDarkPalette(palette), darkViews);
}

void TestPaletteColors::isDarkWindow()
{
    QFETCH(QPalette, palette);
    QFETCH(bool, darkWindow);
    QCOMPARE(wl::isDarkWindow(palette), darkWindow);
}

void TestPaletteColors::highlightingThemeFollowsTheWindow()
{
    QFETCH(QPalette, palette);
    QFETCH(bool, darkWindow);
    const auto expected = Highlighting::repository().defaultTheme(
        darkWindow ? KSyntaxHighlighting::Repository::DarkTheme : KSyntaxHighlighting::Repository::LightTheme);
    QCOMPARE(Highlighting::themeFor(palette).name(), expected.name());
}

void TestPaletteColors::timelineThemeFollowsTheViews()
{
    QFETCH(QPalette, palette);
    QFETCH(bool, darkViews);
    TimelineChart chart;
    chart.setPalette(palette);
    QCOMPARE(chart.chart()->theme(), darkViews ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    // The plot is painted on Base, the colour the choice looks at.
    QCOMPARE(chart.chart()->backgroundBrush().color(), palette.color(QPalette::Base));
}

void TestPaletteColors::mixColors_data()
{
    QTest::addColumn<QColor>("from");
    QTest::addColumn<QColor>("to");
    QTest::addColumn<qreal>("t");
    QTest::addColumn<QColor>("expected");
    QTest::newRow("none of to") << QColor(0x20, 0x40, 0x60) << QColor(Qt::white) << 0.0 << QColor(0x20, 0x40, 0x60);
    QTest::newRow("all of to") << QColor(0x20, 0x40, 0x60) << QColor(Qt::white) << 1.0 << QColor(Qt::white);
    QTest::newRow("halfway") << QColor(Qt::black) << QColor(0xc8, 0x64, 0x00) << 0.5 << QColor(0x64, 0x32, 0x00);
    QTest::newRow("a tenth") << QColor(Qt::white) << QColor(Qt::black) << 0.1 << QColor(0xe6, 0xe6, 0xe6);
    QTest::newRow("translucent in, opaque out") << QColor(0, 0, 0, 10) << QColor(0xff, 0xff, 0xff, 10) << 0.0
                                                << QColor(Qt::black);
}

void TestPaletteColors::mixColors()
{
    QFETCH(QColor, from);
    QFETCH(QColor, to);
    QFETCH(qreal, t);
    QFETCH(QColor, expected);
    const QColor got = wl::mixColors(from, to, t);
    QCOMPARE(got.alpha(), 255);
    // Within one step of 255 per channel: the mix is computed in floating point.
    QVERIFY2(std::abs(got.red() - expected.red()) <= 1 && std::abs(got.green() - expected.green()) <= 1
                 && std::abs(got.blue() - expected.blue()) <= 1,
             qPrintable(got.name() + u" != "_s + expected.name()));
}

QTEST_MAIN(TestPaletteColors)
#include "tst_palettecolors.moc"
