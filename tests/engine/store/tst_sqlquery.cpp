// SqlQuery: positional '?' become named placeholders before QtSql sees them, and every kind of
// value still reaches SQLite as the same type and bytes.
#include "store/SqlConnection.h"
#include "store/SqlQuery.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace wl;
using namespace Qt::StringLiterals;

class TestSqlQuery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void namedPlaceholders_data();
    void namedPlaceholders();
    void roundTripsEachType_data();
    void roundTripsEachType();
    void utf8TextIsStoredAsText_data();
    void utf8TextIsStoredAsText();
    void nullUtf8IsNull();
    void reExecutionBindsFromTheStart();
    void manyPlaceholders();
    void walSizeIsLimited();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SqlConnection> m_connection;
};

void TestSqlQuery::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_connection = std::make_unique<SqlConnection>(u"tst-sqlquery"_s, m_dir->filePath(u"q.db"_s));
    QString error;
    QVERIFY2(m_connection->open(&error), qPrintable(error));
    QVERIFY2(m_connection->execute(u"CREATE TABLE t (v)"_s, &error), qPrintable(error));
}

void TestSqlQuery::cleanup()
{
    m_connection.reset();
    m_dir.reset();
}

void TestSqlQuery::walSizeIsLimited()
{
    // Every connection bounds the WAL: after a checkpoint it is cut back to the limit instead of
    // keeping the size of the largest transaction it ever held (an import can be hundreds of MB).
    QSqlQuery q(m_connection->database());
    QVERIFY(q.exec(u"PRAGMA journal_size_limit"_s));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toLongLong(), SqlConnection::kJournalSizeLimit);
    QVERIFY(SqlConnection::kJournalSizeLimit > 0);
}

void TestSqlQuery::namedPlaceholders_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("expected");
    QTest::newRow("none") << u"SELECT 1"_s << u"SELECT 1"_s;
    QTest::newRow("two") << u"SELECT ?, ?"_s << u"SELECT :p0, :p1"_s;
    QTest::newRow("string literal") << u"SELECT '?', ?"_s << u"SELECT '?', :p0"_s;
    QTest::newRow("doubled quote") << u"SELECT 'it''s ?', ?"_s << u"SELECT 'it''s ?', :p0"_s;
    QTest::newRow("identifier") << u"SELECT \"a?\", `b?`, [c?] FROM t WHERE v = ?"_s
                                << u"SELECT \"a?\", `b?`, [c?] FROM t WHERE v = :p0"_s;
    QTest::newRow("adjacent") << u"VALUES (?,?)"_s << u"VALUES (:p0,:p1)"_s;
    QTest::newRow("eleven") << u"? ? ? ? ? ? ? ? ? ? ?"_s << u":p0 :p1 :p2 :p3 :p4 :p5 :p6 :p7 :p8 :p9 :p10"_s;
}

void TestSqlQuery::namedPlaceholders()
{
    QFETCH(QString, sql);
    QFETCH(QString, expected);
    QCOMPARE(wl::namedPlaceholders(sql), expected);
}

void TestSqlQuery::roundTripsEachType_data()
{
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QString>("sqlType");
    QTest::addColumn<QVariant>("expected");
    QTest::newRow("text") << QVariant(u"héllo ✓ 𝄞"_s) << u"text"_s << QVariant(u"héllo ✓ 𝄞"_s);
    QTest::newRow("empty text") << QVariant(u""_s) << u"text"_s << QVariant(u""_s);
    QTest::newRow("text with NUL") << QVariant(QString(u"a\0b"_s)) << u"text"_s << QVariant(QString(u"a\0b"_s));
    QTest::newRow("int64 max") << QVariant(std::numeric_limits<qint64>::max()) << u"integer"_s
                               << QVariant(std::numeric_limits<qint64>::max());
    QTest::newRow("int64 min") << QVariant(std::numeric_limits<qint64>::min()) << u"integer"_s
                               << QVariant(std::numeric_limits<qint64>::min());
    QTest::newRow("int") << QVariant(-7) << u"integer"_s << QVariant(qint64(-7));
    QTest::newRow("null") << QVariant(QMetaType::fromType<qint64>()) << u"null"_s << QVariant();
}

void TestSqlQuery::roundTripsEachType()
{
    QFETCH(QVariant, value);
    QFETCH(QString, sqlType);
    QFETCH(QVariant, expected);
    {
        SqlQuery insert(*m_connection, u"INSERT INTO t (v) VALUES (?)"_s);
        insert.bind(value);
        QVERIFY2(insert.exec(), qPrintable(insert.error()));
    }
    SqlQuery select(*m_connection, u"SELECT typeof(v), v FROM t"_s);
    QVERIFY(select.exec());
    QVERIFY(select.next());
    QCOMPARE(select.text(0), sqlType);
    if (expected.isNull()) {
        QVERIFY(select.isNull(1));
    } else if (expected.typeId() == QMetaType::QString) {
        QCOMPARE(select.text(1), expected.toString());
    } else {
        QCOMPARE(select.int64(1), expected.toLongLong());
    }
}

void TestSqlQuery::utf8TextIsStoredAsText_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("ascii") << u"plain text"_s;
    QTest::newRow("null string") << QString();
    QTest::newRow("empty") << u""_s;
    QTest::newRow("non-ASCII") << u"naïve café 日本語 🙂 𝄞"_s;
    QTest::newRow("NUL inside") << QString(u"before\0after"_s);
    QTest::newRow("large") << QString(3 * 1024 * 1024, QChar(u'é'));
}

void TestSqlQuery::utf8TextIsStoredAsText()
{
    // bindText must store exactly what bind(QString) stores: the same type, bytes and length.
    QFETCH(QString, text);
    {
        SqlQuery insert(*m_connection, u"INSERT INTO t (v) VALUES (CAST(? AS TEXT)), (?)"_s);
        insert.bindText(text).bind(text);
        QVERIFY2(insert.exec(), qPrintable(insert.error()));
    }
    SqlQuery select(*m_connection, u"SELECT typeof(v), length(CAST(v AS BLOB)), hex(v) = hex(?), v FROM t ORDER BY rowid"_s);
    select.bind(text);
    QVERIFY(select.exec());
    for (int row = 0; row < 2; ++row) {
        QVERIFY(select.next());
        QCOMPARE(select.text(0), u"text"_s);
        QCOMPARE(select.int64(1), text.toUtf8().size());
        QCOMPARE(select.int64(2), 1);
        QCOMPARE(select.text(3), text.isNull() ? u""_s : text);
    }
    QVERIFY(!select.next());
}

void TestSqlQuery::nullUtf8IsNull()
{
    {
        SqlQuery insert(*m_connection, u"INSERT INTO t (v) VALUES (CAST(? AS TEXT))"_s);
        insert.bindUtf8(QByteArray());
        QVERIFY2(insert.exec(), qPrintable(insert.error()));
    }
    SqlQuery select(*m_connection, u"SELECT typeof(v) FROM t"_s);
    QVERIFY(select.exec() && select.next());
    QCOMPARE(select.text(0), u"null"_s);
}

void TestSqlQuery::reExecutionBindsFromTheStart()
{
    // One statement object executed twice: the second set of values must go to :p0, :p1 again.
    SqlQuery insert(*m_connection, u"INSERT INTO t (v) VALUES (? || ?)"_s);
    insert.bind(u"a"_s).bind(u"b"_s);
    QVERIFY2(insert.exec(), qPrintable(insert.error()));
    insert.bind(u"c"_s).bind(u"d"_s);
    QVERIFY2(insert.exec(), qPrintable(insert.error()));
    SqlQuery select(*m_connection, u"SELECT group_concat(v, ',') FROM (SELECT v FROM t ORDER BY rowid)"_s);
    QVERIFY(select.exec() && select.next());
    QCOMPARE(select.text(0), u"ab,cd"_s);
}

void TestSqlQuery::manyPlaceholders()
{
    // More placeholders than the prebuilt names: the rest are named on the fly.
    constexpr int kCount = 100;
    QStringList marks;
    for (int i = 0; i < kCount; ++i)
        marks.append(u"?"_s);
    SqlQuery q(*m_connection, u"SELECT "_s + marks.join(u", "_s));
    for (int i = 0; i < kCount; ++i)
        q.bind(qint64(i) * 3);
    QVERIFY2(q.exec(), qPrintable(q.error()));
    QVERIFY(q.next());
    for (int i = 0; i < kCount; ++i)
        QCOMPARE(q.int64(i), qint64(i) * 3);
}

QTEST_GUILESS_MAIN(TestSqlQuery)
#include "tst_sqlquery.moc"
