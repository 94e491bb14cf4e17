// The session lifecycle without a window: a QCoreApplication (no widgets can exist here), a real
// database, a real transcript, and another connection holding the write lock where the test
// needs the database busy.
#include "WriteLock.h"

#include "compaction/CompactionPolicy.h"
#include "store/SessionStore.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLifecycle.h"

#include <QCoreApplication>
#include <QElapsedTimer>
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
}

QTEST_GUILESS_MAIN(TestSessionLifecycle)
#include "tst_sessionlifecycle.moc"
