#include "settings/AppSettings.h"
#include "settings/ThemeManager.h"

#include <QApplication>
#include <QPalette>
#include <QSignalSpy>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

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

QTEST_MAIN(TestThemeManager)
#include "tst_thememanager.moc"
