#include "common/AppIcons.h"

#include <QFile>
#include <QIcon>
#include <QImage>
#include <QPixmap>
#include <QSet>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// The pixels of an icon at 32x32 that are not transparent.
int paintedPixels(const QIcon &icon)
{
    const QImage image = icon.pixmap(QSize(32, 32)).toImage();
    int painted = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            painted += qAlpha(image.pixel(x, y)) > 0;
    }
    return painted;
}

} // namespace

class TestAppIcons : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyIconIsBundled();
    void bundledIconsStandInForAMissingTheme();
    void aThemeIconWins();
    void docksByObjectName();
};

void TestAppIcons::everyIconIsBundled()
{
    QSet<QString> paths;
    for (AppIcons::Icon icon : AppIcons::all()) {
        const QString path = AppIcons::bundledPath(icon);
        QVERIFY2(QFile::exists(path), qPrintable(path));
        paths.insert(path);
        // A drawing, not an empty canvas.
        QVERIFY2(paintedPixels(AppIcons::bundledIcon(icon)) > 40, qPrintable(path));
    }
    QCOMPARE(paths.size(), AppIcons::all().size()); // one drawing each
}

void TestAppIcons::bundledIconsStandInForAMissingTheme()
{
    const QStringList paths = QIcon::themeSearchPaths();
    const QString theme = QIcon::themeName();
    QIcon::setThemeSearchPaths({});
    QIcon::setThemeName(u"no-such-theme"_s);
    for (AppIcons::Icon icon : AppIcons::all()) {
        const QIcon shown = AppIcons::icon(icon);
        QVERIFY(!shown.isNull());
        QCOMPARE(shown.pixmap(QSize(16, 16)).toImage(), AppIcons::bundledIcon(icon).pixmap(QSize(16, 16)).toImage());
    }
    QIcon::setThemeSearchPaths(paths);
    QIcon::setThemeName(theme);
}

void TestAppIcons::aThemeIconWins()
{
    // A theme that has "document-new": its drawing, not the bundled one.
    const QString dir = QFINDTESTDATA("icontheme");
    QVERIFY(!dir.isEmpty());
    const QStringList paths = QIcon::themeSearchPaths();
    const QString theme = QIcon::themeName();
    QIcon::setThemeSearchPaths({dir});
    QIcon::setThemeName(u"wltest"_s);
    const QImage themed = AppIcons::icon(AppIcons::Icon::NewSession).pixmap(QSize(16, 16)).toImage();
    const QImage bundled = AppIcons::bundledIcon(AppIcons::Icon::NewSession).pixmap(QSize(16, 16)).toImage();
    QVERIFY(themed != bundled);
    QCOMPARE(themed.pixelColor(8, 8), QColor(Qt::red)); // the test theme's icon is a red square
    // A name the theme lacks still gets the bundled drawing.
    QCOMPARE(AppIcons::icon(AppIcons::Icon::Settings).pixmap(QSize(16, 16)).toImage(),
             AppIcons::bundledIcon(AppIcons::Icon::Settings).pixmap(QSize(16, 16)).toImage());
    QIcon::setThemeSearchPaths(paths);
    QIcon::setThemeName(theme);
}

void TestAppIcons::docksByObjectName()
{
    for (const char *name : {"SessionsDock", "TimelineDock", "ThresholdsDock", "AnchorsDock", "OffloadsDock",
                             "ContextDock", "CompactionsDock", "ProxyDock"})
        QVERIFY2(!AppIcons::dockIcon(QString::fromLatin1(name)).isNull(), name);
    QVERIFY(AppIcons::dockIcon(u"NoSuchDock"_s).isNull());
}

QTEST_MAIN(TestAppIcons)
#include "tst_appicons.moc"
