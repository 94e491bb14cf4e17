#include "sessions/ContinueSessionDialog.h"
#include "sessions/NewSessionDialog.h"
#include "sessions/SessionListModel.h"
#include "sessions/SessionsPanel.h"

#include "store/SessionSource.h"
#include "store/SessionStore.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLifecycle.h"
#include "WriteLock.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLocale>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTest>
#include <QTreeView>

using namespace wl;
using namespace Qt::StringLiterals;
using wl::test::WriteLock;

class TestSessionsDock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void modelTester();
    void createRenameDelete();
    void deleteRemovesOnlyThatSession();
    void deleteRunsOffTheGuiThread();
    void createAndRenameRunOffTheGuiThread();
    void failedWriteFromADialogIsShown();
    void activationOpens();
    void broadWorkspaceIsConfirmed_data();
    void broadWorkspaceIsConfirmed();
    void importedSessionIsContinuedThroughTheDialog();
    void recordedTrafficIsSaidToBeRecorded();
    void aListAskedBeforeAChangeNeverLandsAfterIt();
    void theDemoIsListedUnderItsOwnHeading();
    void continueDialogTakesNothingFromTheFile();
    void newSessionDialogChoosesProviderAndPolicy();
    void newSessionStartsOnTheChoices();
    void continueRunsOffTheGuiThread();

private:
    QTemporaryDir *m_dir = nullptr;
    SessionStore *m_store = nullptr;
    SessionLifecycle *m_sessions = nullptr;
    // Creates a session through the panel and waits until it is stored and listed.
    QString create(SessionsPanel &panel, const QString &title);
    // A read-only session (an import or recorded traffic, no source yet) stored directly.
    std::optional<SessionInfo> createReadOnly(const QString &title);
};

void TestSessionsDock::init()
{
    m_dir = new QTemporaryDir;
    m_store = new SessionStore;
    QString error;
    QVERIFY2(m_store->open(m_dir->filePath(u"sessions.db"_s), &error), qPrintable(error));
    m_sessions = new SessionLifecycle;
    m_sessions->setStore(m_store, m_dir->filePath(u"sessions.db"_s));
}

void TestSessionsDock::cleanup()
{
    delete m_sessions; // waits for its workers before the store goes
    delete m_store;
    delete m_dir;
}

void TestSessionsDock::modelTester()
{
    SessionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    SessionInfo a;
    a.id = u"a"_s;
    a.title = u"Alpha"_s;
    a.workspace = u"/w/alpha"_s;
    a.messageCount = 1234;
    SessionInfo b = a;
    b.id = u"b"_s;
    b.title = QString();
    b.readOnly = true;
    model.setSessions({a, b});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, 0).data(SessionListModel::ReadOnlyRole).toBool(), false);
    QCOMPARE(model.index(1, 0).data(SessionListModel::ReadOnlyRole).toBool(), true);
    // An import shows no folder as its workspace: it has none until it is continued.
    QVERIFY(model.index(1, SessionListModel::WorkspaceColumn).data().toString() != u"/w/alpha"_s);
    QCOMPARE(model.index(0, SessionListModel::MessagesColumn).data().toString(), QLocale().toString(1234));
    QCOMPARE(model.index(1, SessionListModel::TitleColumn).data().toString(), u"Untitled session"_s);
    QCOMPARE(model.rowForSession(u"b"_s), 1);
    model.setSessions({});
    QCOMPARE(model.rowCount(), 0);
}

std::optional<SessionInfo> TestSessionsDock::createReadOnly(const QString &title)
{
    SessionInfo fields;
    fields.workspace = m_store->importFolder();
    fields.readOnly = true;
    fields.title = title;
    return m_store->createSession(fields);
}

QString TestSessionsDock::create(SessionsPanel &panel, const QString &title)
{
    QSignalSpy created(m_sessions, &SessionLifecycle::sessionCreated);
    const int rows = panel.model()->rowCount();
    panel.createSession(title, m_dir->path());
    if (!created.wait(5000))
        return {};
    const QString id = created.at(0).at(0).toString();
    const bool listed = QTest::qWaitFor([&] { return panel.model()->rowCount() == rows + 1; }, 5000);
    return listed ? id : QString();
}

void TestSessionsDock::createRenameDelete()
{
    SessionsPanel panel(m_sessions);
    QCOMPARE(panel.model()->rowCount(), 0);
    QSignalSpy opened(m_sessions, &SessionLifecycle::opened);
    const QString id = create(panel, u"Web server"_s);
    QVERIFY(!id.isEmpty());
    QCOMPARE(panel.model()->rowCount(), 1);
    // A created session is opened, and the dock selects it.
    QTRY_COMPARE(opened.size(), 1);
    QCOMPARE(m_sessions->session().info.id, id);
    QTRY_COMPARE(panel.currentSessionId(), id);
    QCOMPARE(panel.model()->sessions().at(0).workspace, QDir(m_dir->path()).absolutePath());
    QSignalSpy renamed(m_sessions, &SessionLifecycle::sessionRenamed);
    panel.renameSession(id, u"Web server, take two"_s);
    QVERIFY(renamed.wait(5000));
    QTRY_COMPARE(panel.model()->index(0, 0).data().toString(), u"Web server, take two"_s);
    QCOMPARE(m_store->session(id)->title, u"Web server, take two"_s);
    QCOMPARE(m_sessions->session().info.title, u"Web server, take two"_s); // the open session follows
    QSignalSpy deleted(m_sessions, &SessionLifecycle::sessionDeleted);
    QSignalSpy failed(m_sessions, &SessionLifecycle::writeFailed);
    panel.deleteSession(id);
    QTRY_COMPARE(deleted.size(), 1);
    QCOMPARE(failed.size(), 0);
    QTRY_COMPARE(panel.model()->rowCount(), 0);
    QVERIFY(!m_store->session(id));
    QVERIFY(m_sessions->session().isEmpty()); // the open session was the deleted one
}

void TestSessionsDock::deleteRemovesOnlyThatSession()
{
    SessionsPanel panel(m_sessions);
    const QString keep = create(panel, u"keep"_s);
    const QString drop = create(panel, u"drop"_s);
    QVERIFY(!keep.isEmpty() && !drop.isEmpty());
    QSignalSpy deleted(m_sessions, &SessionLifecycle::sessionDeleted);
    panel.deleteSession(drop);
    QTRY_COMPARE(deleted.size(), 1);
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    QCOMPARE(panel.model()->sessions().at(0).id, keep);

    // A session that is not there: the failure comes back with its reason.
    QSignalSpy failed(m_sessions, &SessionLifecycle::writeFailed);
    panel.deleteSession(drop);
    QTRY_COMPARE(failed.size(), 1);
    QCOMPARE(failed.at(0).at(0).value<SessionLifecycle::Write>(), SessionLifecycle::Write::Delete);
    QCOMPARE(failed.at(0).at(1).toString(), drop);
    QVERIFY(!failed.at(0).at(2).toString().isEmpty());
    QCOMPARE(deleted.size(), 1);
}

void TestSessionsDock::deleteRunsOffTheGuiThread()
{
    SessionsPanel panel(m_sessions);
    const QString id = create(panel, u"doomed"_s);
    QVERIFY(!id.isEmpty());
    QSignalSpy deleted(m_sessions, &SessionLifecycle::sessionDeleted);
    {
        WriteLock lock(m_dir->filePath(u"sessions.db"_s));
        QVERIFY(lock.isHeld());
        QElapsedTimer clock;
        clock.start();
        panel.deleteSession(id);
        QVERIFY2(clock.elapsed() < 1000, qPrintable(u"the GUI thread waited %1 ms"_s.arg(clock.elapsed())));
        QTest::qWait(300); // the event loop runs meanwhile; the deletion still waits
        QVERIFY(m_sessions->isWriting());
        QCOMPARE(deleted.size(), 0);
        QVERIFY(lock.release());
        QTRY_COMPARE(deleted.size(), 1);
        QVERIFY(!m_store->session(id));
    }
}

// Creating, renaming and listing wait for a busy database on a worker, never on the GUI thread
// (all three ran on the GUI thread before).
void TestSessionsDock::createAndRenameRunOffTheGuiThread()
{
    SessionsPanel panel(m_sessions);
    const QString first = create(panel, u"first"_s);
    QVERIFY(!first.isEmpty());
    QSignalSpy created(m_sessions, &SessionLifecycle::sessionCreated);
    QSignalSpy renamed(m_sessions, &SessionLifecycle::sessionRenamed);
    QSignalSpy listed(m_sessions, &SessionLifecycle::sessionsListed);
    {
        WriteLock lock(m_dir->filePath(u"sessions.db"_s));
        QVERIFY(lock.isHeld());
        QElapsedTimer clock;
        clock.start();
        panel.createSession(u"second"_s, m_dir->path());
        panel.renameSession(first, u"first, renamed"_s);
        panel.refresh();
        QVERIFY2(clock.elapsed() < 1000, qPrintable(u"the GUI thread waited %1 ms"_s.arg(clock.elapsed())));
        QTest::qWait(300); // the event loop runs meanwhile; the writes still wait
        QCOMPARE(created.size(), 0);
        QCOMPARE(renamed.size(), 0);
        QVERIFY(lock.release());
        QTRY_COMPARE(created.size(), 1);
        QTRY_COMPARE(renamed.size(), 1);
    }
    QTRY_COMPARE(panel.model()->rowCount(), 2);
    QVERIFY(listed.size() >= 1);
    QCOMPARE(m_store->session(first)->title, u"first, renamed"_s);
}

// A write a dialog asked for that fails is shown to the user; one asked for by code is only signalled.
void TestSessionsDock::failedWriteFromADialogIsShown()
{
    SessionsPanel panel(m_sessions);
    const QString id = create(panel, u"one"_s);
    QVERIFY(!id.isEmpty());
    QTRY_COMPARE(panel.currentSessionId(), id);
    m_store->deleteSession(id); // gone behind the dock's back
    QString shown;
    QTimer::singleShot(0, &panel, [&] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box)
            return;
        box->button(QMessageBox::Yes)->click(); // "delete it?"
    });
    QSignalSpy failed(m_sessions, &SessionLifecycle::writeFailed);
    // The failure's message box: closed as soon as it shows, its text kept.
    QTimer watcher;
    connect(&watcher, &QTimer::timeout, &panel, [&] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (box && box->icon() == QMessageBox::Warning && shown.isEmpty()) {
            shown = box->text();
            box->close();
        }
    });
    watcher.start(20);
    panel.findChild<QTreeView *>()->setFocus();
    const QList<QAction *> actions = panel.view()->actions();
    QAction *deleteAction = nullptr;
    for (QAction *a : actions)
        if (a->shortcut() == QKeySequence(QKeySequence::Delete))
            deleteAction = a;
    QVERIFY(deleteAction);
    deleteAction->trigger();
    QTRY_COMPARE(failed.size(), 1);
    QTRY_VERIFY(!shown.isEmpty());
    QCOMPARE(shown, failed.at(0).at(2).toString());
}

void TestSessionsDock::activationOpens()
{
    SessionsPanel panel(m_sessions);
    const QString id = create(panel, u"one"_s);
    QVERIFY(!id.isEmpty());
    QTRY_COMPARE(panel.currentSessionId(), id);
    QSignalSpy open(m_sessions, &SessionLifecycle::opening);
    Q_EMIT panel.view()->activated(panel.view()->currentIndex());
    QCOMPARE(open.size(), 1);
    QCOMPARE(open.at(0).at(0).toString(), id);
}

void TestSessionsDock::broadWorkspaceIsConfirmed_data()
{
    QTest::addColumn<QString>("workspace");
    QTest::addColumn<int>("answer");  // the button pressed when asked; 0: must not ask
    QTest::addColumn<bool>("accepted");
    QTest::newRow("ordinary folder") << u"TMP"_s << 0 << true;
    QTest::newRow("file system root, cancelled") << u"/"_s << int(QMessageBox::Cancel) << false;
    QTest::newRow("file system root, confirmed") << u"/"_s << int(QMessageBox::Yes) << true;
}

void TestSessionsDock::broadWorkspaceIsConfirmed()
{
    QFETCH(QString, workspace);
    QFETCH(int, answer);
    QFETCH(bool, accepted);
    if (workspace == u"TMP")
        workspace = m_dir->path();
    SessionsPanel panel(m_sessions);
    bool asked = false;
    // Answers the message box once it shows.
    QTimer::singleShot(0, &panel, [&] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box)
            return;
        asked = true;
        box->button(QMessageBox::StandardButton(answer))->click();
    });
    QCOMPARE(panel.confirmWorkspace(workspace), accepted);
    QCOMPARE(asked, answer != 0);
}

// A session the proxy recorded from an agent's traffic is not called an import: the list says
// where it came from (the store reads its source's format with the session).
void TestSessionsDock::recordedTrafficIsSaidToBeRecorded()
{
    QString error;
    const auto imported = createReadOnly(u"Imported run"_s);
    const auto recorded = createReadOnly(u"Claude Code through the proxy"_s);
    QVERIFY(imported && recorded);
    QVERIFY(m_store->setSessionSource(imported->id, SessionSource{u"codex"_s, u"/tmp/rollout.jsonl"_s, QDateTime::currentDateTimeUtc(), {}}, &error));
    QVERIFY(m_store->setSessionSource(recorded->id, SessionSource{u"proxy"_s, u"https://api.anthropic.com"_s, QDateTime::currentDateTimeUtc(), {}}, &error));
    QCOMPARE(m_store->session(recorded->id)->sourceFormat, u"proxy"_s);
    QCOMPARE(m_store->session(imported->id)->sourceFormat, u"codex"_s);

    SessionsPanel panel(m_sessions);
    panel.refresh();
    QTRY_COMPARE(panel.model()->rowCount(), 2);
    const QAbstractItemModel *model = panel.model();
    auto workspaceOf = [model](const QString &id) {
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->index(row, 0).data(SessionListModel::SessionIdRole).toString() == id)
                return model->index(row, SessionListModel::WorkspaceColumn).data().toString();
        return QString();
    };
    QCOMPARE(workspaceOf(recorded->id), u"recorded by the proxy, read-only"_s);
    QCOMPARE(workspaceOf(imported->id), u"imported, read-only"_s);
}

// The race behind recordedTrafficIsSaidToBeRecorded's failures under load: a list that read the
// store before the session's source was written answered after the list asked for once it was.
// Here the first list has read the store for certain (the pool is idle) when the source is
// written and the second list is asked for: only the newest may reach the dock.
void TestSessionsDock::aListAskedBeforeAChangeNeverLandsAfterIt()
{
    QString error;
    const auto recorded = createReadOnly(u"Claude Code through the proxy"_s);
    QVERIFY(recorded);
    SessionsPanel panel(m_sessions);
    QSignalSpy listed(m_sessions, &SessionLifecycle::sessionsListed);
    m_sessions->listSessions();
    QThreadPool::globalInstance()->waitForDone(); // it has read the store; its answer waits
    QVERIFY(m_store->setSessionSource(recorded->id, SessionSource{u"proxy"_s, u"https://api.anthropic.com"_s, QDateTime::currentDateTimeUtc(), {}}, &error));
    m_sessions->listSessions();
    QTRY_VERIFY(!listed.isEmpty());
    QTest::qWait(50); // a stale answer would come in now
    for (const QList<QVariant> &answer : std::as_const(listed)) {
        const QList<SessionInfo> sessions = answer.at(0).value<QList<SessionInfo>>();
        QCOMPARE(sessions.size(), 1);
        QCOMPARE(sessions.at(0).sourceFormat, u"proxy"_s);
    }
    QCOMPARE(panel.model()->index(0, SessionListModel::WorkspaceColumn).data().toString(), u"recorded by the proxy, read-only"_s);
}

// The demo, once built, is listed apart from the user's sessions, under a heading of its own;
// before that there is no heading.
void TestSessionsDock::theDemoIsListedUnderItsOwnHeading()
{
    SessionsPanel panel(m_sessions);
    panel.show();
    auto *heading = panel.findChild<QLabel *>(u"DemoHeading"_s);
    QVERIFY(heading);
    QVERIFY(!heading->isVisible());
    QVERIFY(!panel.demoView()->isVisible());
    QAbstractItemModelTester tester(panel.demoModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QString mine = create(panel, u"My session"_s);
    QVERIFY(!mine.isEmpty());
    SessionInfo demo;
    demo.id = u"demo-id"_s;
    demo.title = u"Demo: a Claude Code session, replayed"_s;
    demo.readOnly = true;
    demo.sourceFormat = u"claude-code"_s;
    Q_EMIT m_sessions->demoListed({demo});
    QVERIFY(heading->isVisible());
    QVERIFY(panel.demoView()->isVisible());
    QVERIFY(heading->text().contains(u"Demo"_s));
    QCOMPARE(panel.demoModel()->rowCount(), 1);
    QCOMPARE(panel.demoModel()->index(0, 0).data(SessionListModel::SessionIdRole).toString(), u"demo-id"_s);
    // The user's list holds only the user's sessions.
    QCOMPARE(panel.model()->rowCount(), 1);
    QCOMPARE(panel.model()->index(0, 0).data(SessionListModel::SessionIdRole).toString(), mine);
}

void TestSessionsDock::importedSessionIsContinuedThroughTheDialog()
{
    QString error;
    SessionInfo fields;
    fields.title = u"Imported run"_s;
    fields.workspace = m_store->importFolder(&error);
    fields.readOnly = true;
    const auto imported = m_store->createSession(fields, &error);
    QVERIFY2(imported, qPrintable(error));
    SessionsPanel panel(m_sessions);
    panel.refresh();
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    ProviderProfile local = ProviderProfile::defaultProfile();
    ProviderProfile other = local;
    other.name = u"second"_s;
    panel.setNewSessionDefaults({}, local, {local, other});
    panel.setCurrentSession(imported->id);
    QVERIFY(panel.continueAction()->isEnabled());

    const QString workspace = m_dir->filePath(u"chosen"_s);
    QVERIFY(QDir().mkpath(workspace));
    QSignalSpy opened(m_sessions, &SessionLifecycle::opened);
    bool filled = false;
    QTimer::singleShot(0, &panel, [&] {
        auto *dialog = qobject_cast<ContinueSessionDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        filled = true;
        auto *buttons = dialog->findChild<QDialogButtonBox *>();
        QVERIFY(!buttons->button(QDialogButtonBox::Ok)->isEnabled()); // no folder yet
        dialog->setWorkspace(workspace);
        QVERIFY(dialog->setProfileName(u"second"_s));
        QVERIFY(buttons->button(QDialogButtonBox::Ok)->isEnabled());
        buttons->button(QDialogButtonBox::Ok)->click();
    });
    panel.continueAction()->trigger();
    QVERIFY(filled);
    QTRY_COMPARE(opened.size(), 1);
    const auto after = m_store->session(imported->id);
    QVERIFY(!after->readOnly);
    QCOMPARE(after->workspace, QFileInfo(workspace).canonicalFilePath());
    QCOMPARE(after->providerName, u"second"_s);
    QTRY_VERIFY(!panel.continueAction()->isEnabled());
}

void TestSessionsDock::continueDialogTakesNothingFromTheFile()
{
    ProviderProfile local = ProviderProfile::defaultProfile();
    ContinueSessionDialog dialog(u"<b>title</b>"_s, {local}, local.name);
    QVERIFY(dialog.workspace().isEmpty());
    QCOMPARE(dialog.profile().name, local.name);
    dialog.setWorkspace(m_dir->filePath(u"missing"_s));
    QVERIFY(!dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
    // The title is shown as text, not markup.
    bool escaped = false;
    for (const QLabel *label : dialog.findChildren<QLabel *>())
        escaped = escaped || label->text().contains(u"&lt;b&gt;title"_s);
    QVERIFY(escaped);
}

// Continuing moves files and writes the store: the window must not wait for either.
void TestSessionsDock::continueRunsOffTheGuiThread()
{
    QString error;
    SessionInfo fields;
    fields.workspace = m_store->importFolder(&error);
    fields.readOnly = true;
    const auto imported = m_store->createSession(fields, &error);
    QVERIFY2(imported, qPrintable(error));
    SessionsPanel panel(m_sessions);
    QSignalSpy opened(m_sessions, &SessionLifecycle::sessionContinued);
    QSignalSpy failed(m_sessions, &SessionLifecycle::writeFailed);
    const QString workspace = m_dir->filePath(u"chosen"_s);
    QVERIFY(QDir().mkpath(workspace));
    {
        WriteLock lock(m_dir->filePath(u"sessions.db"_s));
        QVERIFY(lock.isHeld());
        QElapsedTimer clock;
        clock.start();
        panel.continueSession(imported->id, workspace, ProviderProfile::defaultProfile());
        QVERIFY2(clock.elapsed() < 1000, qPrintable(u"the GUI thread waited %1 ms"_s.arg(clock.elapsed())));
        QTest::qWait(300);
        QCOMPARE(opened.size(), 0);
        QVERIFY(lock.release());
        QTRY_COMPARE(opened.size(), 1);
    }
    QCOMPARE(failed.size(), 0);
    QVERIFY(!m_store->session(imported->id)->readOnly);

    // A second continuation fails, and says so.
    panel.continueSession(imported->id, workspace, ProviderProfile::defaultProfile());
    QTRY_COMPARE(failed.size(), 1);
    QVERIFY(failed.at(0).at(2).toString().contains(u"not an import"_s));
}

namespace {

ProviderProfile profileNamed(const QString &name, const QString &model, qint64 window)
{
    ProviderProfile p = ProviderProfile::defaultProfile();
    p.name = name;
    p.model = model;
    p.contextWindow = window;
    return p;
}

} // namespace

// New Session picks the provider and the policy; the policy follows the chosen model's window
// unless it names one of its own.
void TestSessionsDock::newSessionDialogChoosesProviderAndPolicy()
{
    const ProviderProfile local = profileNamed(u"Local"_s, u"qwen3:8b"_s, 32768);
    const ProviderProfile cloud = profileNamed(u"Cloud"_s, u"big-model"_s, 200000);
    CompactionPolicy tight;
    tight.contextWindow = 50000;
    tight.warn = 0.5;
    NewSessionDialog dialog({local, cloud}, u"Local"_s,
                            {{u"Default"_s, CompactionPolicy()}, {u"Tight"_s, tight}});
    QCOMPARE(dialog.providerCombo()->count(), 2);
    QCOMPARE(dialog.policyCombo()->count(), 2);
    QCOMPARE(dialog.profile().name, u"Local"_s);
    QCOMPARE(dialog.policy().contextWindow, 32768);
    QVERIFY(!dialog.buttons()->button(QDialogButtonBox::Ok)->isEnabled()); // no folder yet

    const QString folder = m_dir->filePath(u"project"_s);
    QVERIFY(QDir().mkpath(folder));
    dialog.setWorkspace(folder);
    QVERIFY(dialog.buttons()->button(QDialogButtonBox::Ok)->isEnabled());
    QCOMPARE(dialog.title(), u"project"_s); // the folder's name unless one is typed

    QVERIFY(dialog.setProfileName(u"Cloud"_s));
    QCOMPARE(dialog.policy().contextWindow, 200000);
    QVERIFY2(dialog.policySummary()->text().contains(QLocale().toString(200000)), qPrintable(dialog.policySummary()->text()));
    dialog.setPolicyIndex(1);
    QCOMPARE(dialog.policy().contextWindow, 50000); // its own window stays
    QCOMPARE(dialog.policy().warn, 0.5);
    QVERIFY(dialog.policySummary()->text().contains(QLocale().toString(50000)));
    dialog.setTitle(u"Named"_s);
    QCOMPARE(dialog.title(), u"Named"_s);
    // For the docs and a look: the dialog as filled in above.
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(dialog.grab().save(QDir::temp().filePath(u"waterline-new-session.png"_s)));
}

// Through the Sessions dock: the session is stored with the provider and policy the dialog chose,
// and the open session's policy is one of the choices.
void TestSessionsDock::newSessionStartsOnTheChoices()
{
    const ProviderProfile local = profileNamed(u"Local"_s, u"qwen3:8b"_s, 32768);
    const ProviderProfile cloud = profileNamed(u"Cloud"_s, u"big-model"_s, 200000);
    SessionsPanel panel(m_sessions);
    panel.setNewSessionDefaults(local.sizedPolicy(CompactionPolicy()), local, {local, cloud});
    CompactionPolicy tuned;
    tuned.contextWindow = 64000;
    tuned.full = 0.75;
    panel.setOpenSessionPolicy(u"Tuned run"_s, tuned);
    const auto choices = panel.newSessionPolicies();
    QCOMPARE(choices.size(), 3);
    QVERIFY(choices.at(2).label.contains(u"Tuned run"_s));

    const QString folder = m_dir->filePath(u"work"_s);
    QVERIFY(QDir().mkpath(folder));
    QSignalSpy opened(m_sessions, &SessionLifecycle::sessionCreated); // then opened
    bool filled = false;
    QTimer::singleShot(0, &panel, [&] {
        auto *dialog = qobject_cast<NewSessionDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        filled = true;
        QCOMPARE(dialog->profile().name, u"Local"_s);
        dialog->setWorkspace(folder);
        QVERIFY(dialog->setProfileName(u"Cloud"_s));
        dialog->setPolicyIndex(0); // the default, sized to the chosen model
        dialog->buttons()->button(QDialogButtonBox::Ok)->click();
    });
    panel.newSessionDialog();
    QVERIFY(filled);
    QVERIFY(opened.wait(10000)); // stored off the GUI thread
    QCOMPARE(opened.size(), 1);
    const auto info = m_store->session(opened.first().first().toString());
    QVERIFY(info);
    QCOMPARE(info->title, u"work"_s);
    QCOMPARE(info->providerName, u"Cloud"_s);
    CompactionPolicy stored;
    QVERIFY(CompactionPolicy::fromJson(info->policy, &stored));
    QCOMPARE(stored.contextWindow, 200000);

    // The open session's policy keeps its own window on any model.
    filled = false;
    QTimer::singleShot(0, &panel, [&] {
        auto *dialog = qobject_cast<NewSessionDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        filled = true;
        dialog->setWorkspace(folder);
        dialog->setPolicyIndex(2);
        dialog->buttons()->button(QDialogButtonBox::Ok)->click();
    });
    panel.newSessionDialog();
    QVERIFY(filled);
    QVERIFY(opened.wait(10000));
    QCOMPARE(opened.size(), 2);
    QVERIFY(CompactionPolicy::fromJson(m_store->session(opened.last().first().toString())->policy, &stored));
    QCOMPARE(stored, tuned);
}

QTEST_MAIN(TestSessionsDock)
#include "tst_sessionsdock.moc"
