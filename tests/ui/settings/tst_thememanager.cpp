#include "anchors/AnchorHistoryModel.h"
#include "anchors/AnchorsPanel.h"
#include "common/PaletteColors.h"
#include "settings/AppSettings.h"
#include "settings/AppearancePage.h"
#include "settings/SettingsDialog.h"
#include "settings/ThemeManager.h"
#include "timeline/TimelineChart.h"
#include "timeline/TimelineLineLayer.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelinePanel.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QPalette>
#include <QSignalSpy>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <cmath>

using namespace wl;
using namespace Qt::StringLiterals;

class TestThemeManager : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void switchesPaletteAndBack_data();
    void switchesPaletteAndBack();
    void widgetsSeeTheChange();
    void followsSettings();
    void palettesAreReadable();
    void anchorsLegendIsReadable_data();
    void anchorsLegendIsReadable();
    void darkChartGridIsSubdued();
    void themeChangeAnnouncesNoLanguageChange_data();
    void themeChangeAnnouncesNoLanguageChange();
};

void TestThemeManager::switchesPaletteAndBack_data()
{
    QTest::addColumn<int>("theme");
    QTest::addColumn<bool>("dark");
    QTest::newRow("dark") << int(AppSettings::Theme::Dark) << true;
    QTest::newRow("light") << int(AppSettings::Theme::Light) << false;
}

void TestThemeManager::switchesPaletteAndBack()
{
    QFETCH(int, theme);
    QFETCH(bool, dark);
    const QPalette system = QApplication::palette();
    const QString systemStyle = QApplication::style()->name();
    ThemeManager manager;
    QSignalSpy applied(&manager, &ThemeManager::themeApplied);

    manager.apply(AppSettings::Theme(theme));
    QCOMPARE(manager.current(), AppSettings::Theme(theme));
    QCOMPARE(QApplication::style()->name().toLower(), u"fusion"_s);
    const QColor window = QApplication::palette().color(QPalette::Window);
    const QColor text = QApplication::palette().color(QPalette::WindowText);
    QCOMPARE(window.lightness() < 100, dark);
    QCOMPARE(text.lightness() > 150, dark);
    QCOMPARE(window, (dark ? ThemeManager::darkPalette() : ThemeManager::lightPalette()).color(QPalette::Window));

    manager.apply(AppSettings::Theme::System);
    QCOMPARE(QApplication::style()->name(), systemStyle);
    QCOMPARE(QApplication::palette().color(QPalette::Window), system.color(QPalette::Window));
    QCOMPARE(QApplication::palette().color(QPalette::Text), system.color(QPalette::Text));
    QCOMPARE(applied.size(), 2);
}

void TestThemeManager::widgetsSeeTheChange()
{
    ThemeManager manager;
    QWidget widget;
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    manager.apply(AppSettings::Theme::Dark);
    // Widgets hear of an application palette change through a posted event.
    QTRY_COMPARE(widget.palette().color(QPalette::Window), ThemeManager::darkPalette().color(QPalette::Window));
    const QImage shot = widget.grab().toImage();
    QVERIFY(QColor(shot.pixel(shot.width() / 2, shot.height() / 2)).lightness() < 100);
    manager.apply(AppSettings::Theme::System);
    QTRY_VERIFY(widget.palette().color(QPalette::Window) != ThemeManager::darkPalette().color(QPalette::Window));
}

void TestThemeManager::followsSettings()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    AppSettings settings(dir.filePath(u"waterline.conf"_s));
    settings.setTheme(AppSettings::Theme::Dark);
    const QColor systemWindow = QApplication::palette().color(QPalette::Window);
    {
        ThemeManager manager;
        manager.follow(&settings);   // applies the stored theme at once
        QCOMPARE(manager.current(), AppSettings::Theme::Dark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
        settings.setTheme(AppSettings::Theme::System);
        QCOMPARE(manager.current(), AppSettings::Theme::System);
        QCOMPARE(QApplication::palette().color(QPalette::Window), systemWindow);
    }
    // A manager that is gone no longer reacts.
    settings.setTheme(AppSettings::Theme::Dark);
    QCOMPARE(QApplication::palette().color(QPalette::Window), systemWindow);
}

void TestThemeManager::palettesAreReadable()
{
    // Text stands out from its background in both palettes, in every role pair that matters.
    for (const QPalette &p : {ThemeManager::lightPalette(), ThemeManager::darkPalette()}) {
        const QList<std::pair<QPalette::ColorRole, QPalette::ColorRole>> pairs{
            {QPalette::WindowText, QPalette::Window}, {QPalette::Text, QPalette::Base},
            {QPalette::ButtonText, QPalette::Button}, {QPalette::HighlightedText, QPalette::Highlight},
            {QPalette::ToolTipText, QPalette::ToolTipBase}};
        for (const auto &[fg, bg] : pairs)
            QVERIFY2(std::abs(p.color(fg).lightness() - p.color(bg).lightness()) > 90,
                     qPrintable(u"%1 on %2"_s.arg(p.color(fg).name(), p.color(bg).name())));
    }
}

namespace {

// WCAG 2 contrast ratio of two opaque colours: 1 (the same) to 21 (black on white).
double contrastRatio(const QColor &a, const QColor &b)
{
    auto luminance = [](const QColor &c) {
        auto channel = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// Counts the LanguageChange events any object of the application receives.
class LanguageChangeCounter : public QObject
{
public:
    int count = 0;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::LanguageChange)
            ++count;
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

void TestThemeManager::anchorsLegendIsReadable_data()
{
    QTest::addColumn<int>("theme");
    QTest::newRow("dark") << int(AppSettings::Theme::Dark);
    QTest::newRow("light") << int(AppSettings::Theme::Light);
}

void TestThemeManager::anchorsLegendIsReadable()
{
    QFETCH(int, theme);
    const QPalette palette = AppSettings::Theme(theme) == AppSettings::Theme::Dark ? ThemeManager::darkPalette()
                                                                                  : ThemeManager::lightPalette();
    const auto swatches = AnchorsPanel::legendSwatches(palette);
    QCOMPARE(swatches.size(), 3);
    for (const auto &s : swatches) {
        const double ratio = contrastRatio(s.text, s.background);
        QVERIFY2(ratio >= 4.5, qPrintable(u"%1 on %2: %3"_s.arg(s.text.name(), s.background.name()).arg(ratio)));
        // The swatch is the cell's colour: the model's tint over the palette's Base.
        const QColor tint = AnchorHistoryModel::changeTint(s.change);
        QCOMPARE(s.background, mixColors(palette.color(QPalette::Base), tint, tint.alphaF()));
    }

    // The legend on screen follows a theme switch.
    ThemeManager manager;
    AnchorHistoryModel model;
    AnchorsPanel panel(&model);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    manager.apply(AppSettings::Theme(theme));
    for (const auto &s : swatches) {
        QTRY_VERIFY2(panel.legend()->text().contains(u"background:%1; color:%2"_s.arg(s.background.name(), s.text.name())),
                     qPrintable(panel.legend()->text()));
    }
    manager.apply(AppSettings::Theme::System);
}

void TestThemeManager::darkChartGridIsSubdued()
{
    ThemeManager manager;
    TimelineModel model;
    TimelinePanel panel(&model);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    manager.apply(AppSettings::Theme::Dark);
    const QPalette dark = ThemeManager::darkPalette();
    QTRY_COMPARE(panel.chart()->palette().color(QPalette::Base), dark.color(QPalette::Base));
    const QColor base = dark.color(QPalette::Base);
    const QColor grid = panel.chart()->lineLayer()->gridPen().color();
    // Seen, but well behind the lines and the labels (text on Base is about 14:1).
    const double ratio = contrastRatio(grid, base);
    QVERIFY2(ratio > 1.2 && ratio < 2.0, qPrintable(u"grid %1 on %2: %3"_s.arg(grid.name(), base.name()).arg(ratio)));
    QVERIFY(contrastRatio(dark.color(QPalette::Text), base) >= 4.5);
    manager.apply(AppSettings::Theme::System);
}

void TestThemeManager::themeChangeAnnouncesNoLanguageChange_data()
{
    QTest::addColumn<QString>("storedLanguage"); // empty: never stored, as after a first start
    QTest::newRow("language never stored") << QString();
    QTest::newRow("language stored") << u"zh_CN"_s;
}

void TestThemeManager::themeChangeAnnouncesNoLanguageChange()
{
    QFETCH(QString, storedLanguage);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    AppSettings settings(dir.filePath(u"waterline.conf"_s));
    if (!storedLanguage.isEmpty())
        settings.setLanguage(storedLanguage);
    const QString language = settings.language();
    ThemeManager manager;
    manager.follow(&settings);
    LanguageChangeCounter counter;
    qApp->installEventFilter(&counter);

    // The Settings dialog, only the theme changed, saved: the window would say a new language needs a
    // restart if Language were announced.
    SettingsDialog dialog(&settings);
    dialog.setThemeManager(&manager);
    QSignalSpy changed(&settings, &AppSettings::changed);
    QComboBox *themes = dialog.appearancePage()->themeCombo();
    themes->setCurrentIndex(themes->findData(int(AppSettings::Theme::Dark)));
    QVERIFY(dialog.apply());
    QCOMPARE(manager.current(), AppSettings::Theme::Dark);
    QCoreApplication::processEvents();
    qApp->removeEventFilter(&counter);

    QList<AppSettings::Key> keys;
    for (const QList<QVariant> &args : std::as_const(changed))
        keys << args.at(0).value<AppSettings::Key>();
    QVERIFY(keys.contains(AppSettings::Key::Theme));
    QVERIFY(!keys.contains(AppSettings::Key::Language));
    QCOMPARE(settings.language(), language);
    QCOMPARE(counter.count, 0);
    manager.apply(AppSettings::Theme::System);
}

QTEST_MAIN(TestThemeManager)
#include "tst_thememanager.moc"
