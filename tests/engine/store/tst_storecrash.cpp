// Crash safety: a child process appends steps in a loop and is killed with SIGKILL at random
// moments; every id it reported as committed must survive, the file must pass integrity_check,
// and the store must accept new appends afterwards.
#include "store/SessionStore.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestStoreCrash : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void killedChildLosesNothing();

private:
    QString integrityCheck();

    QTemporaryDir m_dir;
    QString m_db;
    QString m_session;
};

void TestStoreCrash::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(u"crash.db"_s);
    SessionStore store;
    QString error;
    QVERIFY2(store.open(m_db, &error), qPrintable(error));
    SessionInfo fields;
    fields.title = u"crash"_s;
    const auto session = store.createSession(fields, &error);
    QVERIFY2(session, qPrintable(error));
    m_session = session->id;
}

QString TestStoreCrash::integrityCheck()
{
    QString result;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"integrity"_s);
        db.setDatabaseName(m_db);
        if (!db.open())
            return u"cannot open"_s;
        QSqlQuery q(db);
        if (!q.exec(u"PRAGMA integrity_check"_s))
            return u"integrity_check failed to run"_s;
        QStringList lines;
        while (q.next())
            lines << q.value(0).toString();
        result = lines.join(u'\n');
    }
    QSqlDatabase::removeDatabase(u"integrity"_s);
    return result;
}

void TestStoreCrash::killedChildLosesNothing()
{
    const QString child = QStringLiteral(WATERLINE_BIN_DIR "/store_crash_child");
    QVERIFY2(QFileInfo::exists(child), qPrintable(child));

    bool seedOk = false;
    quint32 seed = qEnvironmentVariable("WATERLINE_CRASH_SEED").toUInt(&seedOk);
    if (!seedOk)
        seed = QRandomGenerator::global()->generate();
    qInfo("crash seed %u (set WATERLINE_CRASH_SEED to repeat)", seed);
    QRandomGenerator random(seed);

    qint64 totalReported = 0;
    for (int round = 0; round < 20; ++round) {
        QProcess process;
        process.start(child, {m_db, m_session});
        QVERIFY2(process.waitForStarted(), qPrintable(process.errorString()));

        // Kill at a random moment once the child is appending: 0-250 ms after its first commit.
        QByteArray out;
        QElapsedTimer clock;
        clock.start();
        while (!out.contains('\n') && clock.elapsed() < 20000 && process.state() == QProcess::Running) {
            process.waitForReadyRead(20);
            out += process.readAllStandardOutput();
        }
        QVERIFY2(out.contains('\n'), process.readAllStandardError().constData());
        const int delay = int(random.bounded(250));
        clock.restart();
        while (clock.elapsed() < delay && process.state() == QProcess::Running) {
            process.waitForReadyRead(5);
            out += process.readAllStandardOutput();
        }
        QVERIFY2(process.state() == QProcess::Running, process.readAllStandardError().constData());
        process.kill(); // SIGKILL on Unix
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitStatus(), QProcess::CrashExit);
        out += process.readAllStandardOutput();

        // Only complete lines were reported: a line cut by the kill is not a report.
        QSet<qint64> reported;
        const QList<QByteArray> lines = out.left(out.lastIndexOf('\n')).split('\n');
        for (const QByteArray &line : lines) {
            bool ok = false;
            const qint64 id = line.toLongLong(&ok);
            QVERIFY2(ok, line.constData());
            reported.insert(id);
        }
        totalReported += reported.size();

        QCOMPARE(integrityCheck(), u"ok"_s);

        SessionStore store;
        QString error;
        QVERIFY2(store.open(m_db, &error), qPrintable(error));
        const QList<Message> history = store.history(m_session, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSet<qint64> stored;
        for (const Message &m : history)
            stored.insert(m.id);
        for (qint64 id : std::as_const(reported))
            QVERIFY2(stored.contains(id), qPrintable(u"round %1: reported id %2 is missing"_s.arg(round).arg(id)));
        // The kept counter agrees with the rows (both change in the step's one transaction).
        QCOMPARE(store.messageCount(m_session), qint64(history.size()));

        StepAppend step;
        step.messages << Message::user(u"after crash %1"_s.arg(round));
        const auto ids = store.appendStep(m_session, step, &error);
        QVERIFY2(ids, qPrintable(error));
        QCOMPARE(store.messageCount(m_session), qint64(history.size()) + 1);
        QCOMPARE(store.message(ids->messageIds.first())->content, u"after crash %1"_s.arg(round));
    }
    QVERIFY(totalReported >= 20);
}

QTEST_GUILESS_MAIN(TestStoreCrash)
#include "tst_storecrash.moc"
