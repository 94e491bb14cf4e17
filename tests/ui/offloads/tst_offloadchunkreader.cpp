#include "offloads/OffloadChunkReader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
        return {};
    return path;
}

} // namespace

class TestOffloadChunkReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cutPoint_data();
    void cutPoint();
    void chunksRebuildTheFile_data();
    void chunksRebuildTheFile();
    void readsOnlyWhatIsAskedFor();
    void crlfBecomesLf();
    void peekDoesNotConsume();
    void missingFileSaysWhy();
    void looksBinary_data();
    void looksBinary();
};

void TestOffloadChunkReader::cutPoint_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<bool>("atEof");
    QTest::addColumn<int>("expected");
    QTest::newRow("after last newline") << QByteArray("one\ntwo\nthr") << false << 8;
    QTest::newRow("ends with newline") << QByteArray("one\ntwo\n") << false << 8;
    QTest::newRow("at eof takes all") << QByteArray("one\ntwo\nthr") << true << 11;
    QTest::newRow("no newline, ascii") << QByteArray("abcdef") << false << 6;
    // "é" is C3 A9: cut before a lone lead byte, after a complete pair.
    QTest::newRow("no newline, 2-byte char cut") << QByteArray("ab\xC3") << false << 2;
    QTest::newRow("no newline, 2-byte char whole") << QByteArray("ab\xC3\xA9") << false << 4;
    // "€" is E2 82 AC.
    QTest::newRow("no newline, 3-byte char, 2 of 3") << QByteArray("ab\xE2\x82") << false << 2;
    QTest::newRow("no newline, 3-byte char whole") << QByteArray("ab\xE2\x82\xAC") << false << 5;
    // "😀" is F0 9F 98 80.
    QTest::newRow("no newline, 4-byte char, 3 of 4") << QByteArray("a\xF0\x9F\x98") << false << 1;
    QTest::newRow("no newline, 4-byte char whole") << QByteArray("a\xF0\x9F\x98\x80") << false << 5;
}

void TestOffloadChunkReader::cutPoint()
{
    QFETCH(QByteArray, data);
    QFETCH(bool, atEof);
    QFETCH(int, expected);
    QCOMPARE(OffloadChunkReader::cutPoint(data, atEof), qsizetype(expected));
}

void TestOffloadChunkReader::chunksRebuildTheFile_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<int>("chunk");
    QByteArray lines;
    for (int i = 0; i < 500; ++i)
        lines += "line " + QByteArray::number(i) + " with \xC3\xA9t\xC3\xA9 and \xE2\x82\xAC and \xF0\x9F\x98\x80\n";
    const QByteArray oneLine = QByteArray("\xE2\x82\xAC\xF0\x9F\x98\x80x").repeated(3000);
    for (int chunk : {7, 64, 1000, 4096, 100000}) {
        QTest::addRow("lines/%d", chunk) << lines << chunk;
        QTest::addRow("one long line/%d", chunk) << oneLine << chunk;
    }
    QTest::newRow("no final newline") << QByteArray("a\nb\nc") << 3;
    QTest::newRow("empty") << QByteArray() << 10;
}

void TestOffloadChunkReader::chunksRebuildTheFile()
{
    QFETCH(QByteArray, content);
    QFETCH(int, chunk);
    QTemporaryDir dir;
    const QString path = writeFile(dir, u"f.txt"_s, content);
    OffloadChunkReader reader;
    QVERIFY(reader.open(path));
    QCOMPARE(reader.size(), content.size());
    QString all;
    qint64 rawTotal = 0;
    int chunks = 0;
    while (!reader.atEnd()) {
        qint64 raw = 0;
        const QString text = reader.readChunk(chunk, &raw);
        QVERIFY(raw > 0);
        QVERIFY(raw <= std::max(chunk, 4));
        // Never a broken character: decoding the piece alone gives no replacement character.
        QVERIFY(!text.contains(QChar::ReplacementCharacter));
        // Only the last chunk may end inside a line, unless the line is longer than a chunk.
        if (!reader.atEnd() && content.contains('\n') && chunk >= 100)
            QVERIFY(text.endsWith(u'\n'));
        all += text;
        rawTotal += raw;
        QCOMPARE(reader.consumed(), rawTotal);
        ++chunks;
        QVERIFY(chunks < 1000000);
    }
    QCOMPARE(all, QString::fromUtf8(content));
    QCOMPARE(rawTotal, content.size());
    // Every byte read once: what was read past a cut is kept, not read again.
    QCOMPARE(reader.bytesReadFromDisk(), content.size());
    qint64 raw = -1;
    QVERIFY(reader.readChunk(chunk, &raw).isEmpty());
    QCOMPARE(raw, 0);
}

void TestOffloadChunkReader::readsOnlyWhatIsAskedFor()
{
    QTemporaryDir dir;
    QByteArray content;
    for (int i = 0; content.size() < 4 * 1024 * 1024; ++i)
        content += "row " + QByteArray::number(i) + '\n';
    const QString path = writeFile(dir, u"big.txt"_s, content);
    OffloadChunkReader reader;
    QVERIFY(reader.open(path));
    const QString first = reader.readChunk(64 * 1024);
    QVERIFY(reader.bytesReadFromDisk() <= 64 * 1024);
    QVERIFY(reader.consumed() > 60 * 1024);
    QVERIFY(first.endsWith(u'\n'));
    QVERIFY(content.startsWith(first.toUtf8()));
    const QString second = reader.readChunk(64 * 1024);
    QVERIFY(reader.bytesReadFromDisk() <= 128 * 1024);
    QVERIFY(content.startsWith((first + second).toUtf8()));
    QVERIFY(!reader.atEnd());
}

void TestOffloadChunkReader::crlfBecomesLf()
{
    QTemporaryDir dir;
    OffloadChunkReader reader;
    QVERIFY(reader.open(writeFile(dir, u"crlf.txt"_s, "a\r\nb\r\nc")));
    QCOMPARE(reader.readChunk(1024), u"a\nb\nc"_s);
}

void TestOffloadChunkReader::peekDoesNotConsume()
{
    QTemporaryDir dir;
    OffloadChunkReader reader;
    QVERIFY(reader.open(writeFile(dir, u"p.txt"_s, "hello\nworld\n")));
    QCOMPARE(reader.peek(5), QByteArray("hello"));
    QCOMPARE(reader.consumed(), 0);
    QCOMPARE(reader.readChunk(1024), u"hello\nworld\n"_s);
    QCOMPARE(reader.bytesReadFromDisk(), 12);
}

void TestOffloadChunkReader::missingFileSaysWhy()
{
    QTemporaryDir dir;
    OffloadChunkReader reader;
    const QString path = dir.filePath(u"nope.txt"_s);
    QVERIFY(!reader.open(path));
    QVERIFY(reader.errorString().contains(path));
    QVERIFY(!reader.isOpen());
    QVERIFY(reader.readChunk(10).isEmpty());
}

void TestOffloadChunkReader::looksBinary_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<bool>("binary");
    QTest::newRow("text") << QByteArray("hello\tworld\r\n") << false;
    QTest::newRow("ansi colours") << QByteArray("\x1b[31merror\x1b[0m: failed\n") << false;
    QTest::newRow("utf-8") << QByteArray("\xC3\xA9t\xC3\xA9\n") << false;
    QTest::newRow("nul byte") << QByteArray("abc\0def", 7) << true;
    QTest::newRow("png header") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << true;
    QTest::newRow("control soup") << QByteArray("\x01\x02\x03\x04\x05\x06" "abc") << true;
    QTest::newRow("empty") << QByteArray() << false;
}

void TestOffloadChunkReader::looksBinary()
{
    QFETCH(QByteArray, head);
    QFETCH(bool, binary);
    QCOMPARE(OffloadChunkReader::looksBinary(head), binary);
}

QTEST_MAIN(TestOffloadChunkReader)
#include "tst_offloadchunkreader.moc"
