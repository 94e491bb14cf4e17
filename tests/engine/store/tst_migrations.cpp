#include "store/Migrations.h"
#include "store/SessionStore.h"
#include "store/SqlConnection.h"
#include "store/SqlQuery.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
}

// The schema as SQLite reports it: name -> SQL of every table and index we made.
QMap<QString, QString> schemaOf(const QString &path)
{
    QMap<QString, QString> out;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"schema"_s);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            q.exec(u"SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"_s);
            while (q.next())
                out.insert(q.value(0).toString(), q.value(1).toString());
        }
    }
    QSqlDatabase::removeDatabase(u"schema"_s);
    return out;
}

// Makes a database at schema `version` with the migration steps themselves, plus one session.
void makeDatabaseAt(const QString &path, int version)
{
    SqlConnection connection(u"make-db"_s, path);
    QString error;
    QVERIFY2(connection.open(&error), qPrintable(error));
    QVERIFY(connection.execute(u"PRAGMA journal_mode = WAL"_s, &error));
    QVERIFY2(Migrations::migrate(connection, version, &error), qPrintable(error));
    QCOMPARE(Migrations::schemaVersion(connection, &error), version);
    if (version >= 1) {
        QVERIFY(connection.execute(u"INSERT INTO sessions (id, title, created_at, updated_at) "
                                   "VALUES ('s-old', 'from v%1', 1, 1)"_s.arg(version),
                                   &error));
        QVERIFY(connection.execute(u"INSERT INTO messages (session_id, seq, role, content, tool_call_id, bytes, "
                                   "created_at) VALUES ('s-old', 0, 'user', 'hello', NULL, 5, 1), "
                                   "('s-old', 1, 'tool', 'result', 'call_1', 6, 2)"_s,
                                   &error));
    }
}

} // namespace

class TestMigrations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void freshFile_data();
    void freshFile();
    void upgradeFromEachEarlierVersion_data();
    void upgradeFromEachEarlierVersion();
    void upgradeUsesTheNewIndex();
    void futureVersionRefusedUntouched();
    void corruptFileReportedUntouched_data();
    void corruptFileReportedUntouched();
    void foreignDatabaseRefused();
    void damagedPageFoundByIntegrityCheck();
    void reopenIsIdempotent();
    void manyOpenANewFileAtOnce();
    void importsBeforeV6BecomeReadOnly();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestMigrations::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestMigrations::freshFile_data()
{
    QTest::addColumn<bool>("emptyFileExists");
    QTest::newRow("missing file, missing folder") << false;
    QTest::newRow("empty file") << true;
}

void TestMigrations::freshFile()
{
    QFETCH(bool, emptyFileExists);
    const QString path = m_dir->filePath(u"sub/dir/sessions.db"_s);
    if (emptyFileExists) {
        QVERIFY(QDir().mkpath(m_dir->filePath(u"sub/dir"_s)));
        writeFile(path, {});
    }
    SessionStore store;
    QString error;
    QVERIFY2(store.open(path, &error), qPrintable(error));
    QCOMPARE(store.schemaVersion(), Migrations::latestVersion());
    QVERIFY(store.createSession({}, &error));
    store.close();

    const QMap<QString, QString> schema = schemaOf(path);
    for (const QString &table : {u"sessions"_s, u"messages"_s, u"requests"_s, u"checkpoints"_s, u"offloads"_s,
                                 u"compaction_records"_s, u"anchor_history"_s, u"messages_by_tool_call"_s})
        QVERIFY2(schema.contains(table), qPrintable(table));
}

void TestMigrations::upgradeFromEachEarlierVersion_data()
{
    QTest::addColumn<int>("version");
    for (int v = 0; v < Migrations::latestVersion(); ++v)
        QTest::addRow("from v%d", v) << v;
}

void TestMigrations::upgradeFromEachEarlierVersion()
{
    QFETCH(int, version);
    const QString old = m_dir->filePath(u"old.db"_s);
    makeDatabaseAt(old, version);

    SessionStore store;
    QString error;
    QVERIFY2(store.open(old, &error), qPrintable(error));
    QCOMPARE(store.schemaVersion(), Migrations::latestVersion());
    if (version >= 1) {
        // The rows written by the old schema read through the current API.
        QCOMPARE(store.session(u"s-old"_s)->title, u"from v%1"_s.arg(version));
        const QList<Message> history = store.history(u"s-old"_s);
        QCOMPARE(history.size(), 2);
        QCOMPARE(history[1].toolCallId, u"call_1"_s);
        StepAppend step;
        step.messages << Message::user(u"after upgrade"_s);
        QVERIFY2(store.appendStep(u"s-old"_s, step, &error), qPrintable(error));
        QCOMPARE(store.messageCount(u"s-old"_s), 3);
    }
    store.close();

    // An upgraded file has exactly the schema of a new one.
    const QString fresh = m_dir->filePath(u"fresh.db"_s);
    SessionStore freshStore;
    QVERIFY(freshStore.open(fresh));
    freshStore.close();
    QCOMPARE(schemaOf(old), schemaOf(fresh));
}

void TestMigrations::upgradeUsesTheNewIndex()
{
    const QString path = m_dir->filePath(u"v1.db"_s);
    makeDatabaseAt(path, 1);
    SessionStore store;
    QVERIFY(store.open(path));
    const auto result = store.toolResult(u"s-old"_s, u"call_1"_s);
    QVERIFY(result);
    QCOMPARE(result->content, u"result"_s);
    store.close();

    QString plan;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"plan"_s);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.prepare(u"EXPLAIN QUERY PLAN SELECT id FROM messages WHERE session_id = ? AND tool_call_id = ? "
                          "ORDER BY seq LIMIT 1"_s));
        q.addBindValue(u"s-old"_s);
        q.addBindValue(u"call_1"_s);
        QVERIFY(q.exec());
        while (q.next())
            plan += q.value(3).toString() + u'\n';
    }
    QSqlDatabase::removeDatabase(u"plan"_s);
    QVERIFY2(plan.contains(u"messages_by_tool_call"), qPrintable(plan));
}

void TestMigrations::futureVersionRefusedUntouched()
{
    const QString path = m_dir->filePath(u"future.db"_s);
    makeDatabaseAt(path, Migrations::latestVersion());
    {
        SqlConnection connection(u"bump"_s, path);
        QString error;
        QVERIFY(connection.open(&error));
        QVERIFY(connection.execute(u"PRAGMA user_version = %1"_s.arg(Migrations::latestVersion() + 1), &error));
    }
    QVERIFY(!QFile::exists(path + u"-wal"_s)); // closed cleanly: everything is in the main file
    const QByteArray before = fileBytes(path);

    SessionStore store;
    QString error;
    QVERIFY(!store.open(path, &error));
    QCOMPARE(error, u"this database was written by a newer Waterline (schema %1); this version reads up to %2"_s
                        .arg(Migrations::latestVersion() + 1)
                        .arg(Migrations::latestVersion()));
    QVERIFY(!store.isOpen());
    QCOMPARE(fileBytes(path), before);
}

void TestMigrations::corruptFileReportedUntouched_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("sqliteWords");
    QTest::newRow("4 KB of garbage") << u"garbage"_s << u"file is not a database"_s;
    QTest::newRow("truncated real database") << u"truncated"_s << u"malformed"_s;
    QTest::newRow("damaged header") << u"header"_s << u"file is not a database"_s;
}

void TestMigrations::corruptFileReportedUntouched()
{
    QFETCH(QString, kind);
    QFETCH(QString, sqliteWords);
    const QString path = m_dir->filePath(u"corrupt.db"_s);
    if (kind == u"garbage") {
        QByteArray garbage(4096, Qt::Uninitialized);
        QRandomGenerator random(1234);
        for (char &c : garbage)
            c = char(random.bounded(256));
        writeFile(path, garbage);
    } else {
        {
            SessionStore store;
            QVERIFY(store.open(path));
            const auto s = store.createSession({});
            for (int i = 0; i < 20; ++i) {
                StepAppend step;
                step.messages << Message::user(QString(2000, QChar(char16_t(u'a' + i))));
                QVERIFY(store.appendStep(s->id, step));
            }
        }
        QByteArray bytes = fileBytes(path);
        QVERIFY(bytes.size() > 16384);
        if (kind == u"truncated")
            bytes.truncate(bytes.size() / 2);
        else
            bytes.replace(0, 16, QByteArray(16, 'X')); // "SQLite format 3\0" gone
        writeFile(path, bytes);
    }
    const QByteArray before = fileBytes(path);

    SessionStore store;
    QString error;
    QVERIFY(!store.open(path, &error));
    QVERIFY2(error.contains(sqliteWords), qPrintable(error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY(!store.isOpen());
    QCOMPARE(fileBytes(path), before);
    QVERIFY(!QFile::exists(path + u"-wal"_s) || QFileInfo(path + u"-wal"_s).size() == 0);
}

void TestMigrations::foreignDatabaseRefused()
{
    const QString path = m_dir->filePath(u"other-app.db"_s);
    {
        SqlConnection connection(u"foreign"_s, path);
        QString error;
        QVERIFY(connection.open(&error));
        QVERIFY(connection.execute(u"CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)"_s, &error));
        QVERIFY(connection.execute(u"INSERT INTO notes (text) VALUES ('mine')"_s, &error));
    }
    const QByteArray before = fileBytes(path);
    SessionStore store;
    QString error;
    QVERIFY(!store.open(path, &error));
    QVERIFY2(error.contains(u"not a Waterline session database"), qPrintable(error));
    QCOMPARE(fileBytes(path), before);

    // Same for a versioned file with another application id.
    {
        SqlConnection connection(u"foreign2"_s, path);
        QVERIFY(connection.open(&error));
        QVERIFY(connection.execute(u"PRAGMA user_version = 1"_s, &error));
    }
    const QByteArray before2 = fileBytes(path);
    QVERIFY(!store.open(path, &error));
    QVERIFY2(error.contains(u"not a Waterline session database"), qPrintable(error));
    QCOMPARE(fileBytes(path), before2);
}

void TestMigrations::damagedPageFoundByIntegrityCheck()
{
    const QString path = m_dir->filePath(u"damaged.db"_s);
    {
        SessionStore store;
        QVERIFY(store.open(path));
        QVERIFY(store.integrityProblems().isEmpty());
        const auto s = store.createSession({});
        for (int i = 0; i < 200; ++i) {
            StepAppend step;
            step.messages << Message::user(QString(300, QChar(char16_t(u'a' + i % 26))));
            QVERIFY(store.appendStep(s->id, step));
        }
    }
    // Clobber the b-tree header of a page in the middle: the header and schema still read fine.
    QByteArray bytes = fileBytes(path);
    const qsizetype pageSize = 4096;
    const qsizetype pages = bytes.size() / pageSize;
    QVERIFY(pages > 10);
    bytes.replace((pages / 2) * pageSize, 12, QByteArray(12, char(0xEE)));
    writeFile(path, bytes);

    SessionStore store;
    QString error;
    QVERIFY2(store.open(path, &error), qPrintable(error));
    const QStringList problems = store.integrityProblems(&error);
    QVERIFY(!problems.isEmpty());
}

void TestMigrations::reopenIsIdempotent()
{
    const QString path = m_dir->filePath(u"again.db"_s);
    QString sessionId;
    {
        SessionStore store;
        QVERIFY(store.open(path));
        sessionId = store.createSession({})->id;
    }
    const QMap<QString, QString> schema = schemaOf(path);
    SessionStore store;
    QString error;
    QVERIFY2(store.open(path, &error), qPrintable(error));
    QCOMPARE(store.schemaVersion(), Migrations::latestVersion());
    QVERIFY(store.session(sessionId));
    store.close();
    QCOMPARE(schemaOf(path), schema);
}

void TestMigrations::importsBeforeV6BecomeReadOnly()
{
    // A v5 database with one imported session (it has a source row) and one of the user's own.
    const QString path = m_dir->filePath(u"v5.db"_s);
    makeDatabaseAt(path, 5);
    {
        SqlConnection connection(u"add-import"_s, path);
        QString error;
        QVERIFY2(connection.open(&error), qPrintable(error));
        QVERIFY2(connection.execute(u"INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s-imp', 'imported', 1, 1)"_s, &error),
                 qPrintable(error));
        QVERIFY2(connection.execute(u"INSERT INTO session_sources (session_id, format, source_path, imported_at, details) "
                                    "VALUES ('s-imp', 'codex', '/tmp/x.jsonl', 1, '{}')"_s,
                                    &error),
                 qPrintable(error));
    }
    SessionStore store;
    QString error;
    QVERIFY2(store.open(path, &error), qPrintable(error));
    QCOMPARE(store.session(u"s-imp"_s)->readOnly, true);
    QCOMPARE(store.session(u"s-old"_s)->readOnly, false);
}

// Several stores (each its own connection, as separate processes have) creating one new file at
// the same moment: every one opens it. One used to read the schema version before another's
// migration and the table count after it ("not a Waterline session database"), or meet
// "database is locked" switching to write-ahead logging, where SQLite does not wait.
void TestMigrations::manyOpenANewFileAtOnce()
{
    constexpr int kFiles = 40;
    constexpr int kOpeners = 6;
    for (int f = 0; f < kFiles; ++f) {
        const QString path = m_dir->filePath(u"shared-%1.db"_s.arg(f));
        QList<QString> errors(kOpeners);
        std::vector<std::unique_ptr<QThread>> threads;
        for (int t = 0; t < kOpeners; ++t) {
            threads.emplace_back(QThread::create([&errors, path, t] {
                SessionStore store;
                QString error;
                if (!store.open(path, &error))
                    errors[t] = error.isEmpty() ? u"failed without a reason"_s : error;
            }));
        }
        for (auto &thread : threads)
            thread->start();
        for (auto &thread : threads)
            QVERIFY(thread->wait(30000));
        for (int t = 0; t < kOpeners; ++t)
            QVERIFY2(errors[t].isEmpty(), qPrintable(u"file %1, opener %2: %3"_s.arg(f).arg(t).arg(errors[t])));
    }
}

QTEST_GUILESS_MAIN(TestMigrations)
#include "tst_migrations.moc"
