#include "MainWindow.h"

#include <QDockWidget>
#include <QMenuBar>
#include <QSettings>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void docksExist_data();
    void docksExist();
    void layoutIsRestored();
    void helpHasAbout();
};

void TestMainWindow::initTestCase()
{
    QCoreApplication::setOrganizationName(u"WaterlineTest"_s);
    QCoreApplication::setApplicationName(u"tst_mainwindow"_s);
    QSettings().clear();
}

void TestMainWindow::docksExist_data()
{
    QTest::addColumn<QString>("objectName");
    QTest::addColumn<QString>("title");
    for (const auto &[name, title] : {std::pair{"SessionsDock", "Sessions"}, {"TimelineDock", "Timeline"},
                                      {"ThresholdsDock", "Thresholds"}, {"AnchorsDock", "Anchors"},
                                      {"OffloadsDock", "Offloads"}, {"ContextDock", "Context"},
                                      {"CompactionsDock", "Compactions"}})
        QTest::newRow(name) << QString::fromLatin1(name) << QString::fromLatin1(title);
}

void TestMainWindow::docksExist()
{
    QFETCH(QString, objectName);
    QFETCH(QString, title);
    MainWindow window;
    QDockWidget *dock = window.dock(objectName);
    QVERIFY(dock);
    QCOMPARE(dock->windowTitle(), title);
    QVERIFY(dock->widget());
}

void TestMainWindow::layoutIsRestored()
{
    QSize saved;
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.dock(u"AnchorsDock"_s)->hide();
        window.resize(780, 700); // within the offscreen screen; the window's minimum size may widen it
        saved = window.size();
        QVERIFY(saved != MainWindow::defaultSize());
        window.close(); // saves geometry and dock state
    }
    MainWindow again;
    again.restoreLayout();
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QVERIFY(again.dock(u"AnchorsDock"_s)->isHidden());
    QVERIFY(!again.dock(u"TimelineDock"_s)->isHidden());
    QCOMPARE(again.size(), saved);
}

void TestMainWindow::helpHasAbout()
{
    MainWindow window;
    QStringList texts;
    for (QAction *menu : window.menuBar()->actions()) {
        texts << menu->text();
        if (menu->menu())
            for (QAction *a : menu->menu()->actions())
                texts << a->text();
    }
    QVERIFY(texts.contains(u"&Help"_s));
    QVERIFY(texts.contains(u"&About Waterline"_s));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
