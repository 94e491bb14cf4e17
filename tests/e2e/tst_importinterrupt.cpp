// Several real `waterline-cli import` processes on one session database (issue #31 section 1):
// an import killed with SIGKILL at random moments never leaves a session that is listed as if it
// were complete, the next open removes what it left, and two imports writing at the same time
// both store every row, once.
//
// WATERLINE_TEST_CLI runs the same checks against another build's waterline-cli (to see them
// fail on a Waterline without import claims).
#include "store/SessionStore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <sys/types.h>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// Messages of the generated transcript: several of the importer's 1,000-message batches.
constexpr qint64 kMessages = 8001;

QString cliPath()
{
    const QString other = qEnvironmentVariable("WATERLINE_TEST_CLI");
    return other.isEmpty() ? QStringLiteral(WATERLINE_BIN_DIR "/waterline-cli") : other;
}

// An OpenAI Chat message array: a system prompt, then user and assistant turns.
void writeTranscript(const QString &path)
{
    QJsonArray messages;
    messages.append(QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"You are a careful assistant."_s}});
    for (int i = 1; i < int(kMessages); ++i) {
        const bool user = i % 2 == 1;
        messages.append(QJsonObject{{u"role"_s, user ? u"user"_s : u"assistant"_s},
                                    {u"content"_s, u"%1 turn %2: %3"_s.arg(user ? u"Question"_s : u"Answer"_s).arg(i)
                                                       .arg(QString(200, QChar(u'a' + i % 26)))}});
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(messages).toJson(QJsonDocument::Compact));
}

void startImport(QProcess &process, const QString &db, const QString &transcript)
{
    process.setProgram(cliPath());
    process.setArguments({u"import"_s, u"--db"_s, db, transcript});
    process.setStandardInputFile(QProcess::nullDevice());
    process.start();
}

// Rows of a table per session, read with a connection of the test's own.
qint64 count(const QString &db, const QString &sql)
{
    qint64 result = -1;
    {
        QSqlDatabase c = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"counter"_s);
        c.setDatabaseName(db);
        if (c.open()) {
            QSqlQuery q(c);
            if (q.exec(sql) && q.next())
                result = q.value(0).toLongLong();
        }
    }
    QSqlDatabase::removeDatabase(u"counter"_s);
    return result;
}

} // namespace

class TestImportInterrupt : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void killedImportsAreNeverListed();
    void twoImportsWriteAtOnce();

private:
    QTemporaryDir m_dir;
    QString m_transcript;
    qint64 m_importMs = 0;
    qint64 m_requests = 0;
};

void TestImportInterrupt::initTestCase()
{
    QVERIFY(QFile::exists(cliPath()));
    m_transcript = m_dir.filePath(u"long-chat.json"_s);
    writeTranscript(m_transcript);
    // One whole import: how long it takes (the kills fall inside it) and what a complete one holds.
    const QString db = m_dir.filePath(u"whole.db"_s);
    QProcess process;
    QElapsedTimer clock;
    clock.start();
    startImport(process, db, m_transcript);
    QVERIFY(process.waitForFinished(60000));
    m_importMs = clock.elapsed();
    QCOMPARE(process.exitCode(), 0);
    SessionStore store;
    QVERIFY(store.open(db));
    const QList<SessionInfo> sessions = store.listSessions();
    QCOMPARE(sessions.size(), 1);
    QCOMPARE(sessions.at(0).messageCount, kMessages);
    m_requests = sessions.at(0).requestCount;
    QVERIFY(m_requests > 0);
    qInfo("one import of %lld messages takes %lld ms", kMessages, m_importMs);
}

// Ten imports, each killed at a random moment of its run: whatever the moment, a listed session
// is a complete one, and the next open (removeAbandonedImports, as the window does) leaves no
// trace of the others.
void TestImportInterrupt::killedImportsAreNeverListed()
{
    const quint32 seed = QRandomGenerator::global()->generate();
    qInfo("seed %u", seed);
    QRandomGenerator random(seed);
    int complete = 0;
    for (int run = 0; run < 10; ++run) {
        // A new file each time: the kill may fall while the first import creates and migrates it.
        const QString db = m_dir.filePath(u"killed-%1.db"_s.arg(run));
        QProcess process;
        startImport(process, db, m_transcript);
        QVERIFY(process.waitForStarted(10000));
        const int delay = int(random.bounded(quint32(std::max<qint64>(m_importMs, 50))));
        QTest::qSleep(delay);
        ::kill(pid_t(process.processId()), SIGKILL);
        QVERIFY(process.waitForFinished(10000));
        const bool finished = process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;

        SessionStore store;
        QString error;
        QVERIFY2(store.open(db, &error), qPrintable(error));
        for (const SessionInfo &s : store.listSessions()) {
            QVERIFY2(s.messageCount == kMessages && s.requestCount == m_requests,
                     qPrintable(u"run %1 (killed after %2 ms): session %3 is listed with %4 of %5 messages and %6 of %7 requests"_s
                                    .arg(run).arg(delay).arg(s.id).arg(s.messageCount).arg(kMessages)
                                    .arg(s.requestCount).arg(m_requests)));
        }
        const std::optional<int> removed = store.removeAbandonedImports(&error);
        QVERIFY2(removed, qPrintable(error));
        store.close();
        complete += finished ? 1 : 0;
        // Nothing of an unfinished import is left: every message belongs to a complete session.
        QCOMPARE(count(db, u"SELECT count(*) FROM sessions WHERE import_claim IS NOT NULL"_s), 0);
        const qint64 sessions = count(db, u"SELECT count(*) FROM sessions"_s);
        QCOMPARE(count(db, u"SELECT count(*) FROM messages"_s), sessions * kMessages);
    }
    qInfo("%d of 10 imports had finished before their kill", complete);
}

// Two imports into one new database at the same moment (both create and migrate it, then append
// in batches): both succeed, and each session holds every message once, in order.
void TestImportInterrupt::twoImportsWriteAtOnce()
{
    const QString db = m_dir.filePath(u"shared.db"_s);
    QProcess first;
    QProcess second;
    startImport(first, db, m_transcript);
    startImport(second, db, m_transcript);
    QVERIFY(first.waitForFinished(60000));
    QVERIFY(second.waitForFinished(60000));
    QVERIFY2(first.exitCode() == 0, first.readAllStandardError().constData());
    QVERIFY2(second.exitCode() == 0, second.readAllStandardError().constData());
    const QString a = QString::fromUtf8(first.readAllStandardOutput()).trimmed();
    const QString b = QString::fromUtf8(second.readAllStandardOutput()).trimmed();
    QVERIFY(!a.isEmpty() && !b.isEmpty() && a != b);

    SessionStore store;
    QVERIFY(store.open(db));
    const QList<SessionInfo> sessions = store.listSessions();
    QCOMPARE(sessions.size(), 2);
    for (const QString &id : {a, b}) {
        const std::optional<SessionInfo> s = store.session(id);
        QVERIFY(s);
        QCOMPARE(s->messageCount, kMessages);
        QCOMPARE(s->requestCount, m_requests);
        const QList<Message> history = store.history(id);
        QCOMPARE(qint64(history.size()), kMessages);
        for (int i = 1; i < int(kMessages); i += 997)
            QVERIFY(history.at(i).content.startsWith(u"%1 turn %2:"_s.arg(i % 2 == 1 ? u"Question"_s : u"Answer"_s).arg(i)));
    }
    store.close();
    QCOMPARE(count(db, u"SELECT count(*) FROM messages"_s), 2 * kMessages);
    QCOMPARE(count(db, u"SELECT count(DISTINCT session_id || ':' || seq) FROM messages"_s), 2 * kMessages);
    QCOMPARE(count(db, u"SELECT count(*) FROM requests"_s), 2 * m_requests);
}

QTEST_GUILESS_MAIN(TestImportInterrupt)
#include "tst_importinterrupt.moc"
