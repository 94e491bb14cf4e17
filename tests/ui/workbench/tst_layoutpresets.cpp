#include "MainWindow.h"
#include "settings/AppSettings.h"
#include "workbench/LayoutPresets.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace wl;
using namespace Qt::StringLiterals;

// The layout presets on a real window: what each gives the docks and the conversation at the two
// window sizes people use most, and that a layout comes back at the next start.
class TestLayoutPresets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void defaultFitsTheWindow_data();
    void defaultFitsTheWindow();
    void presetsFromTheViewMenu();
    void resetUndoesAFloatedDock();
    void geometryIsRestoredFromTheSettings();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AppSettings> m_settings;
};

namespace {

void showAt(MainWindow &window, const QSize &size)
{
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_COMPARE(window.size(), size);
}

QAction *action(MainWindow &window, const QString &name)
{
    auto *a = window.findChild<QAction *>(name);
    return a;
}

int width(MainWindow &window, const char *dock)
{
    return window.dock(QString::fromLatin1(dock))->width();
}

} // namespace

void TestLayoutPresets::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<AppSettings>(m_dir->filePath(u"waterline.conf"_s));
}

void TestLayoutPresets::defaultFitsTheWindow_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1920x1080") << QSize(1920, 1080);
}

// Reset Layout gives the right-hand docks the room their tables need, the sessions list a
// readable column, and the conversation a measure it never exceeds: a wider window grows the docks.
void TestLayoutPresets::defaultFitsTheWindow()
{
    QFETCH(QSize, size);
    MainWindow window(m_settings.get());
    showAt(window, size);
    QAction *reset = action(window, u"ResetLayoutAction"_s);
    QVERIFY(reset);
    reset->trigger();
    QCoreApplication::processEvents();
    QCOMPARE(window.size(), size); // the layout fits the window, it does not grow it

    const int sessions = width(window, "SessionsDock");
    const int right = width(window, "ThresholdsDock");
    const int conversation = window.centralWidget()->width();
    const int timeline = window.dock(u"TimelineDock"_s)->height();
    const QString figures = u"sessions %1, right %2, conversation %3, timeline %4"_s.arg(sessions).arg(right).arg(conversation).arg(timeline);
    QVERIFY2(sessions >= 200 && sessions <= 330, qPrintable(figures));
    QVERIFY2(right >= 440, qPrintable(figures));
    QVERIFY2(conversation >= 460, qPrintable(figures));
    QVERIFY2(conversation <= window.layoutPresets()->conversationMeasure() + 24, qPrintable(figures));
    QVERIFY2(timeline >= 240, qPrintable(figures)); // the chart keeps readable axes under its bar and legend
    QVERIFY(!window.dock(u"ThresholdsDock"_s)->visibleRegion().isEmpty()); // raised in its tab group
    if (size.width() >= 1920) {
        // The extra width went to the docks, not the conversation.
        QVERIFY2(right > 600, qPrintable(figures));
    }
    qInfo("%dx%d: %s", size.width(), size.height(), qPrintable(figures));
}

void TestLayoutPresets::presetsFromTheViewMenu()
{
    MainWindow window(m_settings.get());
    showAt(window, QSize(1600, 900));
    auto *menu = window.findChild<QMenu *>(u"LayoutMenu"_s);
    QVERIFY(menu);
    QStringList names;
    for (const QAction *a : menu->actions())
        if (!a->isSeparator())
            names << a->text();
    QCOMPARE(names, (QStringList{u"Tune"_s, u"Converse"_s, u"Inspect"_s, u"&Reset Layout"_s}));

    action(window, u"ConverseLayoutAction"_s)->trigger();
    QCoreApplication::processEvents();
    QVERIFY(window.dock(u"ThresholdsDock"_s)->isHidden());
    QVERIFY(window.dock(u"ContextDock"_s)->isHidden());
    QVERIFY(!window.dock(u"SessionsDock"_s)->isHidden());
    const int converseWidth = window.centralWidget()->width();

    action(window, u"InspectLayoutAction"_s)->trigger();
    QCoreApplication::processEvents();
    QVERIFY(!window.dock(u"ContextDock"_s)->isHidden());
    QVERIFY(!window.dock(u"ContextDock"_s)->visibleRegion().isEmpty());
    QVERIFY(!window.dock(u"CompactionsDock"_s)->visibleRegion().isEmpty());
    const int inspectRight = width(window, "ContextDock");
    QVERIFY2(window.centralWidget()->width() < converseWidth, qPrintable(QString::number(window.centralWidget()->width())));

    action(window, u"TuneLayoutAction"_s)->trigger();
    QCoreApplication::processEvents();
    QVERIFY(!window.dock(u"ThresholdsDock"_s)->visibleRegion().isEmpty());
    QVERIFY(!window.dock(u"TimelineDock"_s)->visibleRegion().isEmpty());
    QVERIFY2(width(window, "ThresholdsDock") < inspectRight, qPrintable(QString::number(width(window, "ThresholdsDock"))));
    QVERIFY(window.dock(u"TimelineDock"_s)->height() >= 260);
}

void TestLayoutPresets::resetUndoesAFloatedDock()
{
    MainWindow window(m_settings.get());
    showAt(window, QSize(1280, 720));
    QDockWidget *offloads = window.dock(u"OffloadsDock"_s);
    offloads->setFloating(true);
    window.dock(u"AnchorsDock"_s)->hide();
    window.removeDockWidget(window.dock(u"TimelineDock"_s));
    action(window, u"ResetLayoutAction"_s)->trigger();
    QCoreApplication::processEvents();
    QVERIFY(!offloads->isFloating());
    QCOMPARE(window.dockWidgetArea(offloads), Qt::RightDockWidgetArea);
    QVERIFY(!window.dock(u"AnchorsDock"_s)->isHidden());
    QCOMPARE(window.dockWidgetArea(window.dock(u"TimelineDock"_s)), Qt::BottomDockWidgetArea);
    QVERIFY(!window.dock(u"TimelineDock"_s)->isHidden());
    QCOMPARE(window.tabifiedDockWidgets(offloads).size(), 3);
    QCOMPARE(window.size(), QSize(1280, 720));
}

// The window's size and docks come back from AppSettings at the next start.
void TestLayoutPresets::geometryIsRestoredFromTheSettings()
{
    QSize saved;
    {
        MainWindow window(m_settings.get());
        window.restoreLayout();
        // As small as the docks allow, so restoreGeometry keeps it on the small offscreen screen.
        showAt(window, QSize(std::max(760, window.minimumSizeHint().width()), 560));
        window.dock(u"ContextDock"_s)->hide();
        saved = window.size();
        window.close(); // saves
    }
    QVERIFY(!m_settings->windowLayout(AppSettings::WindowPart::Geometry).isEmpty());
    QVERIFY(!m_settings->windowLayout(AppSettings::WindowPart::DockState).isEmpty());
    m_settings->sync();
    AppSettings again(m_dir->filePath(u"waterline.conf"_s));
    MainWindow window(&again);
    window.restoreLayout();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.size(), saved);
    QVERIFY(window.dock(u"ContextDock"_s)->isHidden());
    QVERIFY(!window.dock(u"TimelineDock"_s)->isHidden());
}

QTEST_MAIN(TestLayoutPresets)
#include "tst_layoutpresets.moc"
