#include "MainWindow.h"
#include "llm/ProviderProfile.h"
#include "workbench/AgentController.h"
#include "settings/AppSettings.h"
#include "conversation/PromptInput.h"
#include "sessions/SessionsPanel.h"
#include "workbench/SessionLifecycle.h"
#include "conversation/ConversationView.h"
#include "store/SessionStore.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLoader.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QDropEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTabBar>
#include <QTemporaryDir>
#include <QPushButton>
#include <QTest>
#include <QToolButton>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// The window's drop handler, called the way Qt calls it at the end of a drag.
class DroppingWindow : public MainWindow
{
public:
    void drop(QDropEvent *event) { dropEvent(event); }
};

} // namespace

namespace {
// A database in a folder of its own holding one session titled `title` with `messages`, loaded
// as the window loads it.
struct StoredSession
{
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("sessions.db"));
    SessionStore store;
    QString id;
    LoadedSession loaded;

    bool create(const QString &title, const QList<Message> &messages, QString *error)
    {
        if (!dir.isValid() || !store.open(path, error))
            return false;
        SessionInfo fields;
        fields.title = title;
        fields.workspace = dir.path();
        const std::optional<SessionInfo> created = store.createSession(fields, error);
        if (!created)
            return false;
        id = created->id;
        StepAppend step;
        step.messages = messages;
        if (!messages.isEmpty() && !store.appendStep(id, step, error))
            return false;
        return SessionLoader::loadNow(path, id, &loaded, error);
    }
};
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void docksExist_data();
    void docksExist();
    void layoutIsRestored();
    void viewMenuRaisesDocks_data();
    void viewMenuRaisesDocks();
    void helpHasAbout();
    void dropImports_data();
    void dropImports();
    void mainActionsAndDocksHaveIcons();
    void renameUpdatesTitleAndStatus();
    void emptySessionSaysWhatToDo();
    void agentFollowsTheSettings();
    void aDockRaisedAtStartStaysInFront();
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

void TestMainWindow::viewMenuRaisesDocks_data()
{
    QTest::addColumn<QString>("objectName");
    QTest::addColumn<int>("key");
    // Alt+1..8 in the order of the View menu.
    QTest::newRow("Offloads, tabbed behind Thresholds") << u"OffloadsDock"_s << int(Qt::Key_5);
    QTest::newRow("Compactions, tabbed behind Timeline") << u"CompactionsDock"_s << int(Qt::Key_7);
    QTest::newRow("Sessions, closed first") << u"SessionsDock"_s << int(Qt::Key_1);
    QTest::newRow("Timeline, closed first") << u"TimelineDock"_s << int(Qt::Key_2);
    QTest::newRow("Proxy, tabbed behind Timeline") << u"ProxyDock"_s << int(Qt::Key_8);
}

// Whether `dock` is shown and in front: the current tab of its tab group when it has one.
bool inFront(const QMainWindow &window, const QDockWidget *dock)
{
    if (!dock->isVisible())
        return false;
    for (const QTabBar *tabs : window.findChildren<QTabBar *>()) {
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i) == dock->windowTitle() && tabs->isVisible())
                return tabs->currentIndex() == i;
    }
    return true; // not tabbed: shown is in front
}

// View > <dock> brings the dock to the front, whether it was behind a tab or closed; it never hides
// it (Qt's toggle action hid a dock that was open behind another tab).
void TestMainWindow::viewMenuRaisesDocks()
{
    QFETCH(QString, objectName);
    QFETCH(int, key);
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QDockWidget *dock = window.dock(objectName);
    if (objectName == u"SessionsDock" || objectName == u"TimelineDock")
        dock->close();
    QTRY_VERIFY(!inFront(window, dock));
    QAction *action = nullptr;
    for (QAction *a : window.findChild<QMenu *>(u"ViewMenu"_s)->actions())
        if (a->text().remove(u'&') == dock->windowTitle())
            action = a;
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::ALT | Qt::Key(key)));
    action->trigger();
    QTRY_VERIFY(inFront(window, dock));
    action->trigger(); // again: stays in front
    QTest::qWait(50);
    QVERIFY(inFront(window, dock));
    // The keyboard reaches it too, from anywhere in the window (here: the Thresholds dock).
    dock->close();
    QTRY_VERIFY(!inFront(window, dock));
    QWidget *elsewhere = window.dock(u"ThresholdsDock"_s)->widget();
    elsewhere->setFocus();
    QSignalSpy triggered(action, &QAction::triggered);
    QTest::keyClick(elsewhere, Qt::Key(key), Qt::AltModifier);
    QCOMPARE(triggered.size(), 1);
    QTRY_VERIFY(inFront(window, dock));
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

// Dropping a file of several sessions imports each; dropping a folder of one file per event
// (an OpenHands conversation) imports it as one session.
void TestMainWindow::dropImports_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("sessions");
    QTest::newRow("event folder") << QStringLiteral(WATERLINE_TEST_DATA "/replay/openhands/conversation") << 1;
    QTest::newRow("folder with a trailing slash") << QStringLiteral(WATERLINE_TEST_DATA "/replay/openhands/conversation/") << 1;
    QTest::newRow("file of three sessions") << QStringLiteral(WATERLINE_TEST_DATA "/replay/openai-chat/trajectories.json") << 3;
}

void TestMainWindow::dropImports()
{
    QFETCH(QString, path);
    QFETCH(int, sessions);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SessionStore store;
    QString error;
    QVERIFY2(store.open(dir.filePath(u"sessions.db"_s), &error), qPrintable(error));
    DroppingWindow window;
    window.setStore(&store, dir.filePath(u"sessions.db"_s));
    QSignalSpy finished(&window, &MainWindow::importFinished);

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    window.drop(&drop);
    QVERIFY(drop.isAccepted());
    QVERIFY(finished.count() > 0 || finished.wait(60000));
    QVERIFY2(finished.first().at(1).toString().isEmpty(), qPrintable(finished.first().at(1).toString()));
    QVERIFY(!finished.first().at(0).toString().isEmpty());
    QCOMPARE(store.listSessions().size(), sessions);
}

void TestMainWindow::mainActionsAndDocksHaveIcons()
{
    MainWindow window;
    auto painted = [](const QIcon &icon) {
        if (icon.isNull())
            return false;
        const QImage image = icon.pixmap(QSize(16, 16)).toImage();
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                if (qAlpha(image.pixel(x, y)) > 0)
                    return true;
            }
        }
        return false;
    };
    for (const char *name : {"NewSessionAction", "ImportAction", "ContinueImportAction", "DemoAction", "SettingsAction"}) {
        auto *action = window.findChild<QAction *>(QString::fromLatin1(name));
        QVERIFY2(action, name);
        QVERIFY2(painted(action->icon()), name);
    }
    const auto docks = window.findChildren<QDockWidget *>();
    QCOMPARE(docks.size(), 8);
    for (QDockWidget *dock : docks) {
        QVERIFY2(painted(dock->toggleViewAction()->icon()), qPrintable(dock->objectName()));
        auto *show = window.findChild<QAction *>(dock->objectName() + u"Action"_s);
        QVERIFY2(show, qPrintable(dock->objectName()));
        QVERIFY2(painted(show->icon()), qPrintable(dock->objectName()));
    }
    // The docks' Export buttons, and Send that turns into Stop.
    int exports = 0;
    const auto buttons = window.findChildren<QToolButton *>();
    for (QToolButton *button : buttons) {
        if (!button->objectName().endsWith(u"ExportButton"))
            continue;
        ++exports;
        QVERIFY2(painted(button->icon()), qPrintable(button->objectName()));
        QCOMPARE(button->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);
    }
    QCOMPARE(exports, 2);
    QPushButton *send = window.promptInput()->sendButton();
    QVERIFY(painted(send->icon()));
    const QImage sendImage = send->icon().pixmap(QSize(16, 16)).toImage();
    window.promptInput()->setRunning(true);
    QVERIFY(painted(send->icon()));
    QVERIFY(send->icon().pixmap(QSize(16, 16)).toImage() != sendImage); // Stop is not Send
}

// Renaming the open session in the Sessions dock renames it in the title bar and the status bar.
void TestMainWindow::renameUpdatesTitleAndStatus()
{
    StoredSession stored;
    QString error;
    QVERIFY2(stored.create(u"Before"_s, {Message::user(u"hello"_s)}, &error), qPrintable(error));
    const QString path = stored.path;
    SessionStore &store = stored.store;
    const std::optional<SessionInfo> created = store.session(stored.id);
    const LoadedSession &loaded = stored.loaded;

    MainWindow window;
    window.setStore(&store, path);
    // Opened the way --session and the Sessions dock open it: loaded off the GUI thread.
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.openSession(created->id);
    QVERIFY(shown.wait(10000));
    QCOMPARE(window.session().info.id, created->id);
    window.showSession(loaded);
    auto *status = window.findChild<QLabel *>(u"SessionStatus"_s);
    QVERIFY(status);
    QVERIFY(window.windowTitle().startsWith(u"Before"_s));
    QVERIFY(status->text().startsWith(u"Before"_s));

    QSignalSpy renamed(window.sessions(), &SessionLifecycle::sessionRenamed);
    window.sessionsPanel()->renameSession(created->id, u"After"_s); // stored off the GUI thread
    QVERIFY(renamed.wait(10000));
    QVERIFY2(window.windowTitle().startsWith(u"After"_s), qPrintable(window.windowTitle()));
    QVERIFY2(status->text().startsWith(u"After"_s), qPrintable(status->text()));
    QCOMPARE(window.session().info.title, u"After"_s);
}

// A session without messages says, in the conversation, how to start; the text is drawn.
void TestMainWindow::emptySessionSaysWhatToDo()
{
    StoredSession stored;
    QString error;
    QVERIFY2(stored.create(u"Fresh"_s, {}, &error), qPrintable(error));
    const QString path = stored.path;
    SessionStore &store = stored.store;
    const LoadedSession &loaded = stored.loaded;

    MainWindow window;
    window.setStore(&store, path);
    window.showSession(loaded);
    ConversationView *view = window.conversationView();
    QVERIFY2(view->emptyText().contains(u"Ctrl+Enter"_s), qPrintable(view->emptyText()));
    view->resize(600, 400);
    const QImage blank = [&] {
        const QString kept = view->emptyText();
        view->setEmptyText({});
        const QImage image = view->viewport()->grab().toImage();
        view->setEmptyText(kept);
        return image;
    }();
    QVERIFY(view->viewport()->grab().toImage() != blank);
}

// The agent takes a changed default profile from the settings while the window runs.
void TestMainWindow::agentFollowsTheSettings()
{
    AppSettings settings;
    ProviderProfile first = ProviderProfile::defaultProfile();
    first.name = u"first"_s;
    first.model = u"model-one"_s;
    ProviderProfile second = first;
    second.name = u"second"_s;
    second.model = u"model-two"_s;
    QString error;
    QVERIFY2(settings.setProfiles({first, second}, &error), qPrintable(error));
    settings.setDefaultProfileName(u"first"_s);
    MainWindow window(&settings);
    QCOMPARE(window.agent()->profile().name, u"first"_s);
    settings.setDefaultProfileName(u"second"_s);
    QCOMPARE(window.agent()->profile().name, u"second"_s);
    QCOMPARE(window.agent()->profile().model, u"model-two"_s);
}

// `--show-dock Anchors` raises the dock before the first show; the default layout, fitted to the
// window's real size after the show, must not send it back behind the Thresholds tab.
void TestMainWindow::aDockRaisedAtStartStaysInFront()
{
    AppSettings settings; // this test's own settings folder holds no saved layout
    settings.setWindowLayout(AppSettings::WindowPart::DockState, {});
    MainWindow window(&settings);
    window.restoreLayout();
    QDockWidget *anchors = window.dock(u"AnchorsDock"_s);
    QVERIFY(anchors);
    anchors->show();
    anchors->raise();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.resize(window.width() + 40, window.height()); // the window manager settling its size
    QTest::qWait(300);
    QVERIFY(!anchors->visibleRegion().isEmpty());
    QVERIFY(window.dock(u"ThresholdsDock"_s)->visibleRegion().isEmpty());
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
