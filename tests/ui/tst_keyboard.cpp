#include "MainWindow.h"
#include "conversation/ConversationView.h"
#include "conversation/PromptInput.h"
#include "store/SessionStore.h"
#include "workbench/DemoSession.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLoader.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// Menu actions that keep no shortcut on purpose. Each needs its reason.
const QStringList kNoShortcut = {
    // No standard key means "about" (F1, HelpContents, opens a manual, which Waterline has not),
    // and desktop applications leave both About entries without keys.
    u"AboutAction"_s,
    u"AboutQtAction"_s,
};

// Every action of the menu bar, submenus included (not the entries that open a submenu).
QList<QAction *> menuActions(const QMenuBar *bar)
{
    QList<QAction *> result;
    QList<QMenu *> menus;
    for (QAction *action : bar->actions())
        if (action->menu())
            menus.append(action->menu());
    while (!menus.isEmpty()) {
        const QMenu *menu = menus.takeFirst();
        for (QAction *action : menu->actions()) {
            if (action->isSeparator())
                continue;
            if (action->menu())
                menus.append(action->menu());
            else
                result.append(action);
        }
    }
    return result;
}

QString describe(const QAction *action)
{
    return action->objectName() + u" (\""_s + action->text().remove(u'&') + u"\")"_s;
}

// Where a widget is drawn, in the window's coordinates.
QRect screenRect(const QWidget *widget, const QWidget *window)
{
    return {widget->mapTo(window, QPoint(0, 0)), widget->size()};
}

// Where a widget sits in its dock's content, whichever way a scroll area in it is scrolled.
QRect contentRect(const QWidget *widget)
{
    const QWidget *page = widget->window();
    for (const QWidget *w = widget->parentWidget(); w; w = w->parentWidget()) {
        if (auto *area = qobject_cast<const QScrollArea *>(w)) {
            page = area->widget();
            break;
        }
        if (qobject_cast<const QDockWidget *>(w)) {
            page = w;
            break;
        }
    }
    return {widget->mapTo(page, QPoint(0, 0)), widget->size()};
}

QDockWidget *dockOf(const QWidget *widget)
{
    for (QWidget *w = widget->parentWidget(); w; w = w->parentWidget())
        if (auto *dock = qobject_cast<QDockWidget *>(w))
            return dock;
    return nullptr;
}

// Reading order of two controls of one dock: `b` may follow `a` when it is on a later row
// (not above it) or on the same row (their heights overlap) further right.
bool readsAfter(const QRect &a, const QRect &b)
{
    const bool sameRow = b.top() < a.bottom() && a.top() < b.bottom();
    if (sameRow)
        return b.left() > a.left() || a.contains(b.topLeft()) || b.contains(a.topLeft());
    return b.top() >= a.bottom();
}

} // namespace

class TestKeyboard : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void everyMenuActionHasItsOwnShortcut();
    void standardKeysWhereTheyFit_data();
    void standardKeysWhereTheyFit();
    void layoutShortcutsApplyPresets();
    void tabFollowsTheLayout();
    void shiftTabGoesBack();
    void everyDocksMainViewIsReachable_data();
    void everyDocksMainViewIsReachable();
    void tabSkipsDocksBehindATab();

private:
    // The widgets Tab visits from the prompt until it is back there (at most `limit`); those that
    // were off screen as they took the focus go to m_unseen.
    QList<QWidget *> walk(bool forward, int limit = 200) const;
    mutable QStringList m_unseen;

    QTemporaryDir m_dir;
    LoadedSession m_session;
    QString m_database;
    std::unique_ptr<SessionStore> m_store;
    std::unique_ptr<MainWindow> m_window;
};

void TestKeyboard::initTestCase()
{
    QCoreApplication::setOrganizationName(u"WaterlineTest"_s);
    QCoreApplication::setApplicationName(u"tst_keyboard"_s);
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    const DemoSession::Result demo = DemoSession::ensure(m_dir.filePath(u"demo"_s));
    QVERIFY2(demo.ok, qPrintable(demo.error));
    m_database = demo.databasePath;
    QString error;
    QVERIFY2(SessionLoader::loadNow(demo.databasePath, demo.sessionId, &m_session, &error), qPrintable(error));
    m_store = std::make_unique<SessionStore>();
    QVERIFY2(m_store->open(demo.databasePath, &error), qPrintable(error));
}

void TestKeyboard::init()
{
    m_window = std::make_unique<MainWindow>();
    m_window->setStore(m_store.get(), m_database); // the Sessions dock lists the demo
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->showSession(m_session);
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void TestKeyboard::cleanup()
{
    m_window.reset();
}

QList<QWidget *> TestKeyboard::walk(bool forward, int limit) const
{
    QWidget *start = m_window->promptInput()->editor();
    start->setFocus(Qt::OtherFocusReason);
    m_unseen.clear();
    QList<QWidget *> visited;
    for (int i = 0; i < limit; ++i) {
        QTest::keyClick(QApplication::focusWidget(), forward ? Qt::Key_Tab : Qt::Key_Backtab,
                        forward ? Qt::NoModifier : Qt::ShiftModifier);
        QWidget *now = QApplication::focusWidget();
        if (!now || now == start)
            break;
        // On screen when it takes the focus (a scroll area scrolls to it).
        if (!m_window->rect().intersects(screenRect(now, m_window.get())))
            m_unseen.append(now->objectName().isEmpty() ? QString::fromLatin1(now->metaObject()->className())
                                                        : now->objectName());
        visited.append(now);
    }
    return visited;
}

// Every action of the menu bar has a shortcut (but the allow-listed), and no key is used twice,
// nor shadows a control's own shortcut (Find in the offload viewer, F2 and Delete in Sessions).
void TestKeyboard::everyMenuActionHasItsOwnShortcut()
{
    const QList<QAction *> actions = menuActions(m_window->menuBar());
    QVERIFY(actions.size() >= 15); // File, the seven docks, the layouts, Help
    QHash<QKeySequence, QString> owner;
    for (const QAction *action : actions) {
        QVERIFY2(!action->objectName().isEmpty(), qPrintable(describe(action)));
        if (kNoShortcut.contains(action->objectName())) {
            QVERIFY2(action->shortcuts().isEmpty(), qPrintable(describe(action) + u": allow-listed, yet has a key"_s));
            continue;
        }
        QVERIFY2(!action->shortcuts().isEmpty(), qPrintable(describe(action) + u" has no shortcut"_s));
        for (const QKeySequence &key : action->shortcuts()) {
            QVERIFY2(!key.isEmpty(), qPrintable(describe(action)));
            QVERIFY2(!owner.contains(key), qPrintable(key.toString() + u" is used by "_s + owner.value(key)
                                                      + u" and "_s + describe(action)));
            owner.insert(key, describe(action));
        }
    }
    // The controls' own actions in the window.
    const auto all = m_window->findChildren<QAction *>();
    for (const QAction *action : all) {
        if (actions.contains(action))
            continue;
        for (const QKeySequence &key : action->shortcuts())
            QVERIFY2(!owner.contains(key), qPrintable(key.toString() + u" of "_s + describe(action)
                                                      + u" is shadowed by "_s + owner.value(key)));
    }
    // The editing keys every text field and table takes for itself.
    for (const auto standard : {QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste, QKeySequence::Undo,
                                QKeySequence::Redo, QKeySequence::SelectAll, QKeySequence::Find,
                                QKeySequence::FindNext, QKeySequence::FindPrevious, QKeySequence::Delete}) {
        for (const QKeySequence &key : QKeySequence::keyBindings(standard))
            QVERIFY2(!owner.contains(key), qPrintable(key.toString() + u" is an editing key, used by "_s + owner.value(key)));
    }
}

void TestKeyboard::standardKeysWhereTheyFit_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<int>("standard");
    QTest::addColumn<QKeySequence>("fallback");
    QTest::newRow("Import") << u"ImportAction"_s << int(QKeySequence::Open) << QKeySequence(Qt::CTRL | Qt::Key_O);
    QTest::newRow("New Session") << u"NewSessionAction"_s << int(QKeySequence::New) << QKeySequence(Qt::CTRL | Qt::Key_N);
    QTest::newRow("Settings") << u"SettingsAction"_s << int(QKeySequence::Preferences)
                              << QKeySequence(Qt::CTRL | Qt::Key_Comma);
    QTest::newRow("Quit") << u"QuitAction"_s << int(QKeySequence::Quit) << QKeySequence(Qt::CTRL | Qt::Key_Q);
}

// The platform's standard keys where their meaning fits, and the common key everywhere (Quit has no
// standard key on Windows, Preferences only on macOS).
void TestKeyboard::standardKeysWhereTheyFit()
{
    QFETCH(QString, action);
    QFETCH(int, standard);
    QFETCH(QKeySequence, fallback);
    auto *a = m_window->findChild<QAction *>(action);
    QVERIFY(a);
    const QList<QKeySequence> keys = a->shortcuts();
    for (const QKeySequence &key : QKeySequence::keyBindings(QKeySequence::StandardKey(standard)))
        QVERIFY2(keys.contains(key), qPrintable(key.toString()));
    QVERIFY2(keys.contains(fallback), qPrintable(fallback.toString()));
    // And the key reaches the action from inside a dock.
    a->disconnect(); // no dialog, no quit
    QSignalSpy triggered(a, &QAction::triggered);
    QWidget *inDock = m_window->dock(u"TimelineDock"_s)->widget();
    inDock->setFocus();
    QTest::keySequence(inDock, fallback);
    QCOMPARE(triggered.size(), 1);
}

// Ctrl+Shift+C (Converse) hides the right column; Ctrl+Shift+R (Reset Layout) brings it back.
void TestKeyboard::layoutShortcutsApplyPresets()
{
    QDockWidget *thresholds = m_window->dock(u"ThresholdsDock"_s);
    QWidget *target = m_window->promptInput()->editor();
    target->setFocus();
    QVERIFY(thresholds->isVisible());
    QTest::keyClick(target, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(!thresholds->isVisible());
    QTest::keyClick(target, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(thresholds->isVisible());
    QSignalSpy tune(m_window->findChild<QAction *>(u"TuneLayoutAction"_s), &QAction::triggered);
    QSignalSpy inspect(m_window->findChild<QAction *>(u"InspectLayoutAction"_s), &QAction::triggered);
    QTest::keyClick(target, Qt::Key_T, Qt::ControlModifier | Qt::ShiftModifier);
    QTest::keyClick(target, Qt::Key_I, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(tune.size(), 1);
    QCOMPARE(inspect.size(), 1);
}

// From the prompt, Tab goes to Send, then through the docks in reading order (top to bottom,
// left to right), each dock's controls in visual order, and back to the conversation and the prompt.
void TestKeyboard::tabFollowsTheLayout()
{
    const QList<QWidget *> visited = walk(true);
    QVERIFY(!visited.isEmpty());
    QCOMPARE(visited.constFirst(), m_window->promptInput()->sendButton());
    QCOMPARE(visited.constLast(), static_cast<QWidget *>(m_window->conversationView()));
    QVERIFY2(visited.size() < 200, "Tab never came back to the prompt (a control keeps it)");
    QVERIFY2(m_unseen.isEmpty(), qPrintable(u"Off screen as they took the focus: "_s + m_unseen.join(u", ")));

    // The docks in the order Tab enters them, each entered once.
    QList<QDockWidget *> entered;
    QList<QWidget *> previousInDock;
    for (QWidget *w : visited) {
        QDockWidget *dock = dockOf(w);
        if (!dock)
            continue;
        if (entered.isEmpty() || entered.constLast() != dock) {
            QVERIFY2(!entered.contains(dock), qPrintable(dock->objectName() + u" is entered twice"_s));
            entered.append(dock);
            previousInDock.append(w);
            continue;
        }
        // Within the dock: in visual order.
        QWidget *before = previousInDock.constLast();
        QVERIFY2(readsAfter(contentRect(before), contentRect(w)),
                 qPrintable(before->objectName() + u" comes before "_s + w->objectName()));
        previousInDock.last() = w;
    }
    // The docks shown in the default layout: Sessions, the right column's front tab, the bottom's.
    QCOMPARE(entered.size(), 3);
    for (qsizetype i = 1; i < entered.size(); ++i) {
        const QPoint a = entered.at(i - 1)->geometry().topLeft();
        const QPoint b = entered.at(i)->geometry().topLeft();
        QVERIFY2(a.y() < b.y() || (a.y() == b.y() && a.x() < b.x()),
                 qPrintable(entered.at(i - 1)->objectName() + u" before "_s + entered.at(i)->objectName()));
    }
    QCOMPARE(entered.constFirst()->objectName(), u"SessionsDock"_s);
}

void TestKeyboard::shiftTabGoesBack()
{
    QList<QWidget *> forward = walk(true);
    const QList<QWidget *> backward = walk(false);
    QVERIFY2(m_unseen.isEmpty(), qPrintable(m_unseen.join(u", ")));
    std::reverse(forward.begin(), forward.end());
    QCOMPARE(backward, forward);
}

void TestKeyboard::everyDocksMainViewIsReachable_data()
{
    QTest::addColumn<QString>("dock");
    QTest::addColumn<QString>("view");
    QTest::newRow("Sessions") << u"SessionsDock"_s << u"SessionsView"_s;
    QTest::newRow("Timeline") << u"TimelineDock"_s << u"TimelineChart"_s;
    QTest::newRow("Thresholds") << u"ThresholdsDock"_s << u"ThresholdSlider_warn"_s;
    QTest::newRow("Anchors") << u"AnchorsDock"_s << u"AnchorItemsTree"_s;
    QTest::newRow("Offloads") << u"OffloadsDock"_s << u"offloadsView"_s;
    QTest::newRow("Context") << u"ContextDock"_s << u"ContextViewTable"_s;
    QTest::newRow("Compactions") << u"CompactionsDock"_s << u"CompactionsTable"_s;
    QTest::newRow("Proxy") << u"ProxyDock"_s << u"ProxyUpstream"_s;
}

// Each dock brought to the front (View > dock, Alt+digit): Tab from the prompt reaches its main view.
void TestKeyboard::everyDocksMainViewIsReachable()
{
    QFETCH(QString, dock);
    QFETCH(QString, view);
    m_window->findChild<QAction *>(dock + u"Action"_s)->trigger();
    QDockWidget *d = m_window->dock(dock);
    QTRY_VERIFY(m_window->rect().intersects(d->geometry()));
    auto *target = d->findChild<QWidget *>(view);
    QVERIFY(target);
    const QList<QWidget *> visited = walk(true);
    QVERIFY2(visited.contains(target), qPrintable(view + u" is not reached by Tab"_s));
    // Entering a dock selects in it and the other docks follow: the focus stays in view all along.
    QVERIFY2(m_unseen.isEmpty(), qPrintable(u"Off screen as they took the focus: "_s + m_unseen.join(u", ")));
}

// The Offloads, Anchors and Context docks sit behind the Thresholds tab: Tab passes them by (Qt only
// moves such a dock off the window), and comes to them once they are in front.
void TestKeyboard::tabSkipsDocksBehindATab()
{
    const QList<QWidget *> visited = walk(true);
    for (const QString &hidden : {u"AnchorsDock"_s, u"OffloadsDock"_s, u"ContextDock"_s, u"CompactionsDock"_s, u"ProxyDock"_s}) {
        for (QWidget *w : visited)
            QVERIFY2(dockOf(w) != m_window->dock(hidden), qPrintable(w->objectName() + u" in "_s + hidden));
    }
    QVERIFY(visited.contains(m_window->dock(u"ThresholdsDock"_s)->findChild<QWidget *>(u"ThresholdSlider_warn"_s)));
}

QTEST_MAIN(TestKeyboard)
#include "tst_keyboard.moc"
