// The session lifecycle without a window: a QCoreApplication (no widgets can exist here), a real
// database, a real transcript, and another connection holding the write lock where the test
// needs the database busy.
#include "FakeLlmServer.h"
#include "WriteLock.h"

#include "compaction/CompactionPolicy.h"
#include "proxy/ProxyRecorder.h"
#include "proxy/ProxyServer.h"
#include "store/SessionStore.h"
#include "workbench/DemoSession.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLifecycle.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;
using wl::test::WriteLock;

class TestSessionLifecycle : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void noWidgetsAreNeeded();
    void openFailsWithAReason();
    void aMissingLastSessionOpensNothingQuietly();
    void openLastReopensTheSessionShownLast();
    void importListsAndOpensTheSession();
    void refreshesCollapseAndFollowTheStore();
    void applyingAPolicyDoesNotWaitForABusyDatabase();
    void anotherStoreIsListed();
    void anOldDemoDatabaseGivesBackTheUsersSessions();
    void theDemoNeverHoldsTheUsersWork();
    void aDemoFileHoldingMoreThanTheDemoIsNeverDeleted();

private:
    QString databasePath() const { return m_dir->filePath(u"sessions.db"_s); }
    QString createStored(const QString &title);

    QTemporaryDir *m_dir = nullptr;
    SessionStore *m_store = nullptr;
    SessionLifecycle *m_sessions = nullptr;
};

void TestSessionLifecycle::init()
{
    m_dir = new QTemporaryDir;
    QVERIFY(m_dir->isValid());
    m_store = new SessionStore;
    QString error;
    QVERIFY2(m_store->open(databasePath(), &error), qPrintable(error));
    m_sessions = new SessionLifecycle;
    QSignalSpy listed(m_sessions, &SessionLifecycle::sessionsListed);
    m_sessions->setStore(m_store, databasePath());
    QVERIFY(listed.wait(5000));
    QVERIFY(listed.at(0).at(0).value<QList<SessionInfo>>().isEmpty());
}

void TestSessionLifecycle::cleanup()
{
    delete m_sessions;
    delete m_store;
    delete m_dir;
    QSettings().remove(u"Session/last"_s);
    QSettings().remove(u"Session/lastWasDemo"_s);
}

QString TestSessionLifecycle::createStored(const QString &title)
{
    SessionInfo fields;
    fields.title = title;
    fields.workspace = m_dir->path();
    const std::optional<SessionInfo> created = m_store->createSession(fields);
    return created ? created->id : QString();
}

void TestSessionLifecycle::noWidgetsAreNeeded()
{
    // QTEST_GUILESS_MAIN: a QWidget here would abort the test; the lifecycle must not need one.
    QVERIFY(!QCoreApplication::instance()->inherits("QGuiApplication"));
    QCOMPARE(m_sessions->store(), m_store);
    QCOMPARE(m_sessions->databasePath(), databasePath());
    QVERIFY(m_sessions->session().isEmpty());
}

void TestSessionLifecycle::openFailsWithAReason()
{
    QSignalSpy failed(m_sessions, &SessionLifecycle::openFailed);
    QSignalSpy opened(m_sessions, &SessionLifecycle::opened);
    m_sessions->open(u"no-such-session"_s);
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.at(0).at(0).toString(), u"no-such-session"_s);
    QVERIFY(failed.at(0).at(1).toString().contains(u"no-such-session"_s));
    QCOMPARE(opened.size(), 0);
}

void TestSessionLifecycle::aMissingLastSessionOpensNothingQuietly()
{
    QSettings().setValue(u"Session/last"_s, u"deleted-meanwhile"_s);
    QSignalSpy failed(m_sessions, &SessionLifecycle::openFailed);
    QSignalSpy opened(m_sessions, &SessionLifecycle::opened);
    QVERIFY(m_sessions->openLast());
    QVERIFY(opened.wait(5000));
    QVERIFY(opened.at(0).at(0).value<LoadedSession>().isEmpty());
    QCOMPARE(failed.size(), 0);
}

void TestSessionLifecycle::openLastReopensTheSessionShownLast()
{
    QVERIFY(!m_sessions->openLast()); // nothing remembered yet
    const QString id = createStored(u"remembered"_s);
    QSignalSpy opened(m_sessions, &SessionLifecycle::opened);
    m_sessions->open(id);
    QVERIFY(opened.wait(5000));

    SessionLifecycle again;
    QSignalSpy listed(&again, &SessionLifecycle::sessionsListed);
    again.setStore(m_store, databasePath());
    QSignalSpy reopened(&again, &SessionLifecycle::opened);
    QVERIFY(again.openLast());
    QVERIFY(reopened.wait(5000));
    QCOMPARE(again.session().info.id, id);
    QCOMPARE(again.session().info.title, u"remembered"_s);
    QVERIFY(listed.size() >= 1 || listed.wait(5000));
}

void TestSessionLifecycle::importListsAndOpensTheSession()
{
    const QString path = QStringLiteral(WATERLINE_TEST_DATA) + u"/replay/openai-chat/fncall-llm-message.json"_s;
    QSignalSpy finished(m_sessions, &SessionLifecycle::importFinished);
    QSignalSpy listed(m_sessions, &SessionLifecycle::sessionsListed);
    QSignalSpy opened(m_sessions, &SessionLifecycle::opened);
    m_sessions->importTranscript(path);
    QVERIFY(m_sessions->isImporting());
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.at(0).at(0).toString(), path);
    const QString id = finished.at(0).at(1).toString();
    QVERIFY2(finished.at(0).at(2).toString().isEmpty(), qPrintable(finished.at(0).at(2).toString()));
    QVERIFY(!id.isEmpty());
    QCOMPARE(finished.at(0).at(4).toInt(), 1);
    QVERIFY(!m_sessions->isImporting());
    QTRY_VERIFY(!opened.isEmpty());
    QCOMPARE(m_sessions->session().info.id, id);
    QVERIFY(m_sessions->session().info.readOnly);
    QVERIFY(m_sessions->session().requestCount() > 0);
    QTRY_VERIFY(!listed.isEmpty());
    QCOMPARE(listed.constLast().at(0).value<QList<SessionInfo>>().size(), 1);
}

void TestSessionLifecycle::refreshesCollapseAndFollowTheStore()
{
    const QString id = createStored(u"before"_s);
    QSignalSpy opened(m_sessions, &SessionLifecycle::opened);
    m_sessions->open(id);
    QVERIFY(opened.wait(5000));
    QVERIFY(m_store->renameSession(id, u"after"_s));
    QSignalSpy refreshed(m_sessions, &SessionLifecycle::refreshed);
    for (int i = 0; i < 5; ++i)
        m_sessions->scheduleRefresh(); // a burst of stored steps
    QVERIFY(refreshed.wait(5000));
    QTest::qWait(600); // no second reload follows the burst
    QCOMPARE(refreshed.size(), 1);
    QCOMPARE(opened.size(), 1); // a refresh is not an open
    QCOMPARE(refreshed.at(0).at(0).value<LoadedSession>().info.title, u"after"_s);
    QCOMPARE(m_sessions->session().info.title, u"after"_s);
}

void TestSessionLifecycle::applyingAPolicyDoesNotWaitForABusyDatabase()
{
    const QString id = createStored(u"tuned"_s);
    QSignalSpy opened(m_sessions, &SessionLifecycle::opened);
    m_sessions->open(id);
    QVERIFY(opened.wait(5000));
    CompactionPolicy policy = m_sessions->session().policy;
    policy.full = 0.77;
    QSignalSpy applied(m_sessions, &SessionLifecycle::policyApplied);
    {
        WriteLock lock(databasePath());
        QVERIFY(lock.isHeld());
        QElapsedTimer clock;
        clock.start();
        m_sessions->applyPolicy(policy);
        QVERIFY2(clock.elapsed() < 1000, qPrintable(u"the caller waited %1 ms"_s.arg(clock.elapsed())));
        QTest::qWait(300);
        QCOMPARE(applied.size(), 0); // still waiting for the lock
        QVERIFY(m_sessions->isWriting());
        QVERIFY(lock.release());
        QTRY_COMPARE(applied.size(), 1);
    }
    QCOMPARE(m_sessions->session().policy.full, 0.77);
    CompactionPolicy stored;
    QVERIFY(CompactionPolicy::fromJson(m_store->session(id)->policy, &stored));
    QCOMPARE(stored.full, 0.77);
}

void TestSessionLifecycle::anotherStoreIsListed()
{
    createStored(u"first database"_s);
    QTemporaryDir other;
    SessionStore second;
    QVERIFY(second.open(other.filePath(u"other.db"_s)));
    QSignalSpy changed(m_sessions, &SessionLifecycle::storeChanged);
    QSignalSpy listed(m_sessions, &SessionLifecycle::sessionsListed);
    m_sessions->setStore(&second, other.filePath(u"other.db"_s));
    QCOMPARE(changed.size(), 1);
    QVERIFY(listed.wait(5000));
    QVERIFY(listed.constLast().at(0).value<QList<SessionInfo>>().isEmpty());
    m_sessions->setStore(m_store, databasePath()); // before `second` goes
    QVERIFY(listed.wait(5000));
    QCOMPARE(listed.constLast().at(0).value<QList<SessionInfo>>().size(), 1);
    // A store must outlive the work queued on it: the start-up setStore queued for `second` (its
    // interrupted imports, the demo) may still be running on the write queue.
    QTRY_VERIFY(!m_sessions->isWriting());
}

namespace {
// Session ids of a list.
QStringList idsOf(const QList<SessionInfo> &sessions)
{
    QStringList ids;
    for (const SessionInfo &s : sessions)
        ids.append(s.id);
    return ids;
}
} // namespace

// Waterline up to demo version 3 wrote everything made after File > Open the Demo into the demo's
// database, which the next demo deleted. At the first start of this version those sessions move
// into the user's store (and say how many), and the old file is left as it is.
void TestSessionLifecycle::anOldDemoDatabaseGivesBackTheUsersSessions()
{
    // The data folder as an older Waterline left it (nothing of an earlier run of this test).
    QTRY_VERIFY(!m_sessions->isWriting());
    QDir folder(DemoSession::defaultFolder());
    QVERIFY(folder.removeRecursively());
    QVERIFY(QDir().mkpath(folder.path()));
    const QString legacy = folder.filePath(u"demo.db"_s);
    QString liveId;
    QString importedId;
    {
        SessionStore old;
        QVERIFY(old.open(legacy));
        SessionInfo fields;
        fields.title = u"made after opening the demo"_s;
        fields.workspace = m_dir->path();
        fields.providerName = u"local"_s;
        const auto live = old.createSession(fields);
        QVERIFY(live);
        liveId = live->id;
        StepAppend step;
        step.messages = {Message::user(u"fix the parser"_s), Message::assistant(u"Done."_s)};
        QVERIFY(old.appendStep(liveId, step));
        fields = SessionInfo();
        fields.title = u"an import"_s;
        fields.workspace = folder.filePath(u"imported"_s);
        fields.readOnly = true;
        const auto imported = old.createSession(fields);
        QVERIFY(imported);
        importedId = imported->id;
        QVERIFY(old.setSessionSource(importedId, SessionSource{u"codex"_s, u"/home/me/rollout.jsonl"_s, QDateTime::currentDateTimeUtc(), {}}));
        // The old demo's own session: it stays behind.
        fields.title = u"Demo: a Claude Code session, replayed"_s;
        const auto demoOwn = old.createSession(fields);
        QVERIFY(demoOwn);
        QVERIFY(old.setSessionSource(demoOwn->id, SessionSource{u"claude-code"_s, folder.filePath(u"demo-transcript.jsonl"_s), QDateTime::currentDateTimeUtc(), {}}));
        QFile stamp(folder.filePath(u"demo-version"_s));
        QVERIFY(stamp.open(QIODevice::WriteOnly));
        stamp.write("2\n" + demoOwn->id.toUtf8() + '\n');
    }

    // The first start of this version.
    delete m_sessions;
    m_sessions = new SessionLifecycle;
    QSignalSpy moved(m_sessions, &SessionLifecycle::demoSessionsMoved);
    m_sessions->setStore(m_store, databasePath());
    QVERIFY(moved.wait(10000));
    QCOMPARE(moved.at(0).at(0).toInt(), 2);
    QVERIFY2(moved.at(0).at(1).toString().isEmpty(), qPrintable(moved.at(0).at(1).toString()));
    const QStringList ids = idsOf(m_store->listSessions());
    QCOMPARE(ids.size(), 2);
    QVERIFY(ids.contains(liveId) && ids.contains(importedId));
    const std::optional<SessionInfo> live = m_store->session(liveId);
    QVERIFY(!live->readOnly); // it runs on, as before
    QCOMPARE(live->workspace, m_dir->path());
    QCOMPARE(live->providerName, u"local"_s);
    QCOMPARE(m_store->history(liveId).constLast().content, u"Done."_s);
    QCOMPARE(m_store->sessionSource(importedId)->format, u"codex"_s);

    // The demo is built anew beside it; the old file keeps all it held.
    QSignalSpy built(m_sessions, &SessionLifecycle::demoFinished);
    QSignalSpy failed(m_sessions, &SessionLifecycle::demoFailed);
    m_sessions->openDemo();
    QVERIFY(built.wait(120000) || !failed.isEmpty());
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    QVERIFY(m_sessions->demoDatabasePath() != legacy);
    {
        SessionStore old;
        QVERIFY(old.open(legacy));
        QCOMPARE(old.listSessions().size(), 3);
    }

    // A later start moves nothing again (the user may have deleted a moved session meanwhile).
    QVERIFY(m_store->deleteSession(importedId));
    SessionLifecycle again;
    QSignalSpy movedAgain(&again, &SessionLifecycle::demoSessionsMoved);
    QSignalSpy demoListed(&again, &SessionLifecycle::demoListed);
    again.setStore(m_store, databasePath());
    QVERIFY(demoListed.wait(10000));
    QTRY_VERIFY(!again.isWriting());
    QCOMPARE(movedAgain.size(), 0);
    QCOMPARE(idsOf(m_store->listSessions()), QStringList{liveId});
}

// Open the demo, then import, record through the proxy and start a live session: everything goes
// to the user's store. After a restart (a new lifecycle on the same settings and data folder) it
// is all there and the demo is as it was; the demo itself takes no writes.
void TestSessionLifecycle::theDemoNeverHoldsTheUsersWork()
{
    QSignalSpy built(m_sessions, &SessionLifecycle::demoFinished);
    QSignalSpy demoListed(m_sessions, &SessionLifecycle::demoListed);
    QSignalSpy opened(m_sessions, &SessionLifecycle::opened);
    m_sessions->openDemo();
    QVERIFY(built.wait(120000));
    QTRY_VERIFY(m_sessions->showsDemo());
    const QString demoId = m_sessions->session().info.id;
    const QString demoPath = m_sessions->demoDatabasePath();
    QVERIFY(!demoId.isEmpty() && demoPath != databasePath());
    QCOMPARE(m_sessions->databasePath(), databasePath()); // what the agent and the proxy write to
    QCOMPARE(m_sessions->store(), m_store);
    QCOMPARE(idsOf(demoListed.constLast().at(0).value<QList<SessionInfo>>()), QStringList{demoId});
    qint64 demoMessages = 0;
    {
        SessionStore demo;
        QVERIFY(demo.open(demoPath));
        QCOMPARE(idsOf(demo.listSessions()), QStringList{demoId});
        demoMessages = demo.session(demoId)->messageCount;
    }

    // An import.
    QSignalSpy imported(m_sessions, &SessionLifecycle::importFinished);
    m_sessions->importTranscript(QStringLiteral(WATERLINE_TEST_DATA) + u"/replay/openai-chat/fncall-llm-message.json"_s);
    QVERIFY(imported.wait(60000));
    const QString importedId = imported.at(0).at(1).toString();
    QVERIFY2(!importedId.isEmpty(), qPrintable(imported.at(0).at(2).toString()));

    // A request through the proxy, recorded into the database the window names.
    QString recordedId;
    {
        test::FakeLlmServer upstream;
        QVERIFY(upstream.start());
        upstream.enqueue(test::FakeReply::withText(u"Recorded."_s));
        ProxyServer proxy;
        ProxyServer::Options options;
        options.upstream = upstream.url();
        QString error;
        QVERIFY2(proxy.listen(options, &error), qPrintable(error));
        ProxyRecorder recorder(m_sessions->databasePath());
        recorder.attach(&proxy);
        QSignalSpy recorded(&recorder, &ProxyRecorder::sessionUpdated);
        QNetworkAccessManager client;
        QNetworkRequest request(QUrl(proxy.baseUrl().toString() + u"/v1/chat/completions"_s));
        request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
        const QJsonObject body{{u"model"_s, u"gpt-test"_s}, {u"stream"_s, true},
                               {u"messages"_s, QJsonArray{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"hello"_s}}}}};
        QNetworkReply *reply = client.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 10000);
        reply->deleteLater();
        QVERIFY(recorded.wait(10000) || !recorded.isEmpty());
        recordedId = recorded.at(0).at(0).toString();
    }

    // A live session: created through the lifecycle, its steps stored where the agent stores them.
    QSignalSpy created(m_sessions, &SessionLifecycle::sessionCreated);
    SessionInfo fields;
    fields.title = u"live"_s;
    fields.workspace = m_dir->path();
    m_sessions->createSession(fields);
    QVERIFY(created.wait(5000));
    const QString liveId = created.at(0).at(0).toString();
    StepAppend step;
    step.messages = {Message::user(u"what is here?"_s), Message::assistant(u"A parser."_s)};
    QVERIFY(m_sessions->store()->appendStep(liveId, step));

    // The demo, opened again beside the user's database, takes no writes.
    QSignalSpy openedDemo(m_sessions, &SessionLifecycle::opened);
    m_sessions->open(demoId);
    QVERIFY(openedDemo.wait(10000));
    QVERIFY(m_sessions->showsDemo());
    QSignalSpy refused(m_sessions, &SessionLifecycle::writeFailed);
    m_sessions->renameSession(demoId, u"mine now"_s);
    QCOMPARE(refused.size(), 1);
    QVERIFY(refused.at(0).at(2).toString().contains(u"read-only"_s));

    // Restart.
    QTRY_VERIFY(!m_sessions->isWriting());
    delete m_sessions;
    m_sessions = new SessionLifecycle;
    QSignalSpy listed(m_sessions, &SessionLifecycle::sessionsListed);
    QSignalSpy demoAgain(m_sessions, &SessionLifecycle::demoListed);
    m_sessions->setStore(m_store, databasePath());
    QVERIFY(listed.wait(5000));
    const QStringList ids = idsOf(listed.constLast().at(0).value<QList<SessionInfo>>());
    for (const QString &id : {importedId, recordedId, liveId})
        QVERIFY2(ids.contains(id), qPrintable(u"%1 is not listed after the restart: %2"_s.arg(id, ids.join(u", "_s))));
    QVERIFY(!ids.contains(demoId));
    // The demo may be listed before the user's sessions are: count what came, then wait.
    QVERIFY(!demoAgain.isEmpty() || demoAgain.wait(10000));
    QCOMPARE(idsOf(demoAgain.constLast().at(0).value<QList<SessionInfo>>()), QStringList{demoId});
    SessionStore demo;
    QVERIFY(demo.open(demoPath));
    QCOMPARE(idsOf(demo.listSessions()), QStringList{demoId});
    QCOMPARE(demo.session(demoId)->messageCount, demoMessages);

    // The demo shown last is opened again from its own database.
    QSignalSpy reopened(m_sessions, &SessionLifecycle::opened);
    QVERIFY(m_sessions->openLast());
    QVERIFY(reopened.wait(10000));
    QCOMPARE(m_sessions->session().info.id, demoId);
    QVERIFY(m_sessions->showsDemo());
}

// A demo database that holds a session that is not the demo's (and was never moved out) stops
// the build: the file is left as it is and the error says why.
void TestSessionLifecycle::aDemoFileHoldingMoreThanTheDemoIsNeverDeleted()
{
    QTemporaryDir folder;
    const QString target = DemoSession::find(folder.path()).databasePath;
    QString mine;
    {
        SessionStore store;
        QVERIFY(store.open(target));
        SessionInfo fields;
        fields.title = u"mine"_s;
        fields.workspace = folder.path();
        mine = store.createSession(fields)->id;
        StepAppend step;
        step.messages = {Message::user(u"keep me"_s)};
        QVERIFY(store.appendStep(mine, step));
    }
    const DemoSession::Result result = DemoSession::ensure(folder.path());
    QVERIFY(!result.ok);
    QVERIFY2(result.error.contains(u"left as it is"_s) && result.error.contains(u"not the demo's"_s), qPrintable(result.error));
    SessionStore store;
    QVERIFY(store.open(target));
    QCOMPARE(idsOf(store.listSessions()), QStringList{mine});
    QCOMPARE(store.history(mine).constFirst().content, u"keep me"_s);
}

QTEST_GUILESS_MAIN(TestSessionLifecycle)
#include "tst_sessionlifecycle.moc"
