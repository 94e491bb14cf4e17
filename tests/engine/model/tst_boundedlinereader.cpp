// BoundedLineReader: lines of untrusted input with a cap on one line, never the whole input.
#include "model/BoundedLineReader.h"

#include <QBuffer>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

struct Read
{
    QList<QByteArray> lines;
    QList<qint64> numbers;
    BoundedLineReader::Status status = BoundedLineReader::Status::Line;
    qint64 lastNumber = 0;
    qint64 consumed = 0;
};

Read readAll(QByteArray input, qint64 cap)
{
    QBuffer buffer(&input);
    buffer.open(QIODevice::ReadOnly);
    BoundedLineReader in(&buffer, cap);
    Read r;
    QByteArray line;
    while (in.next(&line) == BoundedLineReader::Status::Line) {
        r.lines << line;
        r.numbers << in.lineNumber();
    }
    r.status = in.status();
    r.lastNumber = in.lineNumber();
    r.consumed = in.consumed();
    return r;
}

// A device whose reads fail after `good` bytes.
class FailingDevice : public QIODevice
{
public:
    explicit FailingDevice(QByteArray good) : m_good(std::move(good)) { open(ReadOnly); }
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *data, qint64 maxSize) override
    {
        if (m_good.isEmpty()) {
            setErrorString(u"disk on fire"_s);
            return -1;
        }
        const qint64 n = std::min<qint64>(maxSize, m_good.size());
        memcpy(data, m_good.constData(), size_t(n));
        m_good.remove(0, n);
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QByteArray m_good;
};

} // namespace

class TestBoundedLineReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void lines_data();
    void lines();
    void lineAcrossReadBuffers();
    void lineAtTheCapIsRead();
    void lineOverTheCapStopsAtOnce();
    void readErrorStops();
};

void TestBoundedLineReader::lines_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QList<QByteArray>>("expected");
    QTest::newRow("empty") << QByteArray() << QList<QByteArray>{};
    QTest::newRow("one with newline") << QByteArray("a\n") << QList<QByteArray>{"a"};
    QTest::newRow("last without newline") << QByteArray("a\nb") << QList<QByteArray>{"a", "b"};
    QTest::newRow("blank lines are lines") << QByteArray("\n\na\n") << QList<QByteArray>{"", "", "a"};
    QTest::newRow("carriage returns kept") << QByteArray("a\r\nb\r\n") << QList<QByteArray>{"a\r", "b\r"};
    QTest::newRow("NUL kept") << QByteArray("a\0b\n", 4) << QList<QByteArray>{QByteArray("a\0b", 3)};
}

void TestBoundedLineReader::lines()
{
    QFETCH(QByteArray, input);
    QFETCH(QList<QByteArray>, expected);
    const Read r = readAll(input, 100);
    QCOMPARE(r.status, BoundedLineReader::Status::End);
    QCOMPARE(r.lines, expected);
    for (qsizetype i = 0; i < r.numbers.size(); ++i)
        QCOMPARE(r.numbers[i], i + 1);
    QCOMPARE(r.lastNumber, qint64(expected.size()));
    QCOMPARE(r.consumed, qint64(input.size()));
}

void TestBoundedLineReader::lineAcrossReadBuffers()
{
    const QByteArray longLine(3 * 1024 * 1024 + 17, 'x');
    const Read r = readAll("a\n" + longLine + "\nb\n", 4 << 20);
    QCOMPARE(r.status, BoundedLineReader::Status::End);
    QCOMPARE(r.lines.size(), 3);
    QCOMPARE(r.lines[1], longLine);
    QCOMPARE(r.lines[2], "b");
}

void TestBoundedLineReader::lineAtTheCapIsRead()
{
    const Read r = readAll(QByteArray(10, 'x') + '\n' + QByteArray(10, 'y'), 10);
    QCOMPARE(r.status, BoundedLineReader::Status::End);
    QCOMPARE(r.lines, (QList<QByteArray>{QByteArray(10, 'x'), QByteArray(10, 'y')}));
}

void TestBoundedLineReader::lineOverTheCapStopsAtOnce()
{
    QByteArray input = "ok\n" + QByteArray(5000, 'z') + "\nnever\n";
    QBuffer buffer(&input);
    buffer.open(QIODevice::ReadOnly);
    BoundedLineReader in(&buffer, 10);
    QByteArray line;
    QCOMPARE(in.next(&line), BoundedLineReader::Status::Line);
    QCOMPARE(line, "ok");
    QCOMPARE(in.next(&line), BoundedLineReader::Status::TooLong);
    QCOMPARE(in.lineNumber(), 2);
    QVERIFY(line.isEmpty());
    QVERIFY2(in.errorString().startsWith(u"line is longer than"_s), qPrintable(in.errorString()));
    // It stays stopped: "never" is not handed out.
    QCOMPARE(in.next(&line), BoundedLineReader::Status::TooLong);
    QVERIFY(line.isEmpty());
}

void TestBoundedLineReader::readErrorStops()
{
    FailingDevice device("a\nb");
    BoundedLineReader in(&device, 100);
    QByteArray line;
    QCOMPARE(in.next(&line), BoundedLineReader::Status::Line);
    QCOMPARE(line, "a");
    QCOMPARE(in.next(&line), BoundedLineReader::Status::ReadError);
    QVERIFY2(in.errorString().contains(u"disk on fire"_s), qPrintable(in.errorString()));
}

QTEST_GUILESS_MAIN(TestBoundedLineReader)
#include "tst_boundedlinereader.moc"
