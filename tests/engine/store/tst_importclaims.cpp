// Imports in progress (schema 10, issue #31 section 1): a session an import is still writing is
// never listed, what a dead importer left is removed (in batches), a live importer's is not; and
// a session moved from another database of the user's keeps its id and its own fields.
#include "store/ImportClaim.h"
#include "store/SessionStore.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestImportClaims : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void anImportInProgressIsNotListed();
    void onlyImportsOfGoneProcessesAreRemoved();
    void claimsThatCannotBeReadAreKept_data();
    void claimsThatCannotBeReadAreKept();
    void anImportedExportIsListedOnceComplete();
    void adoptedSessionKeepsItsIdAndFields();
    void adoptRefusesAnIdThatIsNoSessionId();

private:
    QString dbPath() const { return m_dir->filePath(u"sessions.db"_s); }
    QString createImporting(int messages);
    void setClaim(const QString &id, const QString &claim);

    QTemporaryDir *m_dir = nullptr;
    SessionStore *m_store = nullptr;
};

void TestImportClaims::init()
{
    m_dir = new QTemporaryDir;
    m_store = new SessionStore;
    QString error;
    QVERIFY2(m_store->open(dbPath(), &error), qPrintable(error));
}

void TestImportClaims::cleanup()
{
    delete m_store;
    delete m_dir;
}

QString TestImportClaims::createImporting(int messages)
{
    SessionInfo fields;
    fields.title = u"a long import"_s;
    fields.readOnly = true;
    fields.importing = true;
    const auto created = m_store->createSession(fields);
    if (!created)
        return {};
    StepAppend step;
    for (int i = 0; i < messages; ++i) {
        step.messages.append(Message::user(u"message %1"_s.arg(i)));
        if (step.messages.size() == 400 || i == messages - 1) {
            if (!m_store->appendStep(created->id, step))
                return {};
            step = StepAppend();
        }
    }
    return created->id;
}

void TestImportClaims::setClaim(const QString &id, const QString &claim)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"claims"_s);
        db.setDatabaseName(dbPath());
        QVERIFY(db.open());
        QSqlQuery q(db);
        q.prepare(u"UPDATE sessions SET import_claim = ? WHERE id = ?"_s);
        q.addBindValue(claim);
        q.addBindValue(id);
        QVERIFY(q.exec());
        QCOMPARE(q.numRowsAffected(), 1);
    }
    QSqlDatabase::removeDatabase(u"claims"_s);
}

void TestImportClaims::anImportInProgressIsNotListed()
{
    const QString id = createImporting(10);
    QVERIFY(!id.isEmpty());
    QVERIFY(m_store->listSessions().isEmpty());
    QVERIFY(m_store->session(id)->importing);
    QString error;
    QVERIFY2(m_store->finishImport({id}, &error), qPrintable(error));
    const QList<SessionInfo> listed = m_store->listSessions();
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed.at(0).id, id);
    QVERIFY(!listed.at(0).importing);
    QCOMPARE(listed.at(0).messageCount, qint64(10));
    // A session that is not there is an error, and nothing else is changed.
    QVERIFY(!m_store->finishImport({u"no-such-session"_s}, &error));
    QVERIFY(!error.isEmpty());
}

void TestImportClaims::onlyImportsOfGoneProcessesAreRemoved()
{
    // 1,300 messages: several of removeAbandonedImports' batches.
    const QString dead = createImporting(1300);
    const QString running = createImporting(5); // claimed by this (living) process
    const QString done = createImporting(3);
    QVERIFY(!dead.isEmpty() && !running.isEmpty() && !done.isEmpty());
    QVERIFY(m_store->finishImport({done}));
    // No process has this pid (above Linux's pid_max): the importer is gone.
    setClaim(dead, u"%1 999999999 0"_s.arg(QSysInfo::machineHostName()));

    QString error;
    const std::optional<int> removed = m_store->removeAbandonedImports(&error);
    QVERIFY2(removed, qPrintable(error));
    QCOMPARE(*removed, 1);
    QVERIFY(!m_store->session(dead));
    QCOMPARE(m_store->messageCount(dead), qint64(0));
    QVERIFY(m_store->session(running));
    QVERIFY(m_store->session(running)->importing);
    QCOMPARE(m_store->listSessions().size(), 1);
    QCOMPARE(m_store->listSessions().at(0).id, done);
    QCOMPARE(*m_store->removeAbandonedImports(), 0);
}

void TestImportClaims::claimsThatCannotBeReadAreKept_data()
{
    QTest::addColumn<QString>("claim");
    QTest::newRow("another host") << u"some-other-host-%1 999999999 0"_s.arg(QSysInfo::machineHostName());
    QTest::newRow("garbage") << u"rm -rf /"_s;
    QTest::newRow("no pid") << u"%1 x 0"_s.arg(QSysInfo::machineHostName());
    QTest::newRow("blank") << u"   "_s;
}

// A claim naming no process of this machine may be an import another machine runs on a shared
// folder, or a damaged row: it is never taken for abandoned (it stays out of the list either way).
void TestImportClaims::claimsThatCannotBeReadAreKept()
{
    QFETCH(QString, claim);
    QVERIFY(!ImportClaim::isAbandoned(claim));
    const QString id = createImporting(2);
    setClaim(id, claim);
    QCOMPARE(*m_store->removeAbandonedImports(), 0);
    QVERIFY(m_store->session(id));
    QVERIFY(m_store->listSessions().isEmpty());
    QVERIFY(!ImportClaim::isAbandoned(ImportClaim::mine()));
}

// importSession (a Waterline export) writes its session in batches too: while it is not complete
// it is claimed, and the finished one is listed.
void TestImportClaims::anImportedExportIsListedOnceComplete()
{
    const QString id = createImporting(50);
    QVERIFY(m_store->finishImport({id}));
    const QString exported = m_dir->filePath(u"export.jsonl"_s);
    QString error;
    QVERIFY2(m_store->exportSession(id, exported, &error), qPrintable(error));
    const std::optional<QString> copy = m_store->importSession(exported, m_dir->path(), &error);
    QVERIFY2(copy, qPrintable(error));
    QVERIFY(!m_store->session(*copy)->importing);
    QCOMPARE(m_store->listSessions().size(), 2);
    QCOMPARE(m_store->session(*copy)->messageCount, qint64(50));
}

void TestImportClaims::adoptedSessionKeepsItsIdAndFields()
{
    SessionInfo fields;
    fields.title = u"my own work"_s;
    fields.workspace = m_dir->path();
    fields.providerName = u"local"_s;
    fields.providerProfile = QJsonObject{{u"name"_s, u"local"_s}, {u"base_url"_s, u"http://127.0.0.1:11434/v1"_s}};
    fields.approvalPolicy = u"ask"_s;
    fields.systemPrompt = u"be brief"_s;
    const auto live = m_store->createSession(fields);
    QVERIFY(live);
    StepAppend step;
    step.messages = {Message::user(u"hello"_s), Message::assistant(u"hi"_s)};
    QVERIFY(m_store->appendStep(live->id, step));
    const QString exported = m_dir->filePath(u"live.jsonl"_s);
    QVERIFY(m_store->exportSession(live->id, exported));

    QTemporaryDir otherDir;
    SessionStore other;
    QVERIFY(other.open(otherDir.filePath(u"user.db"_s)));
    QString error;
    QVERIFY2(other.adoptSession(exported, *m_store->session(live->id), &error), qPrintable(error));
    const std::optional<SessionInfo> adopted = other.session(live->id);
    QVERIFY(adopted);
    QCOMPARE(adopted->title, fields.title);
    QCOMPARE(adopted->workspace, fields.workspace);
    QCOMPARE(adopted->providerName, fields.providerName);
    QCOMPARE(adopted->providerProfile, fields.providerProfile);
    QCOMPARE(adopted->approvalPolicy, fields.approvalPolicy);
    QCOMPARE(adopted->systemPrompt, fields.systemPrompt);
    QVERIFY(!adopted->readOnly); // the agent can go on with it, as before
    QVERIFY(!adopted->importing);
    const QList<Message> history = other.history(live->id);
    QCOMPARE(history.size(), 2);
    QCOMPARE(history.at(1).content, u"hi"_s);
    // Twice is an error, not a second copy.
    QVERIFY(!other.adoptSession(exported, *m_store->session(live->id), &error));
    QCOMPARE(other.listSessions().size(), 1);
}

void TestImportClaims::adoptRefusesAnIdThatIsNoSessionId()
{
    const QString id = createImporting(1);
    QVERIFY(m_store->finishImport({id}));
    const QString exported = m_dir->filePath(u"one.jsonl"_s);
    QVERIFY(m_store->exportSession(id, exported));
    SessionInfo hostile = *m_store->session(id);
    hostile.id = u"../../escape"_s;
    QString error;
    QVERIFY(!m_store->adoptSession(exported, hostile, &error));
    QVERIFY(error.contains(u"../../escape"_s));
    QCOMPARE(m_store->listSessions().size(), 1);
}

QTEST_GUILESS_MAIN(TestImportClaims)
#include "tst_importclaims.moc"
