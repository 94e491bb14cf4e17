#include "tools/OutputCapture.h"
#include "tools/Utf8Text.h"

#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestOutputCapture : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keepsEverythingThatFits();
    void headAndTailOfLongStream_data();
    void headAndTailOfLongStream();
    void cutsOnUtf8Boundaries();
    void utf8Helpers_data();
    void utf8Helpers();
    void validation_data();
    void validation();
};

void TestOutputCapture::keepsEverythingThatFits()
{
    OutputCapture capture(10, 10);
    capture.append("hello ");
    capture.append("world, 20 by");
    QCOMPARE(capture.totalBytes(), 18);
    QVERIFY(!capture.isTruncated());
    QCOMPARE(capture.parts().head, QByteArray("hello world, 20 by"));
    QVERIFY(capture.parts().tail.isEmpty());
}

void TestOutputCapture::headAndTailOfLongStream_data()
{
    QTest::addColumn<int>("chunkSize");
    for (int chunk : {1, 3, 7, 10, 11, 64, 1000, 5000})
        QTest::addRow("chunks of %d", chunk) << chunk;
}

void TestOutputCapture::headAndTailOfLongStream()
{
    QFETCH(int, chunkSize);
    QByteArray stream;
    for (int i = 0; stream.size() < 5000; ++i)
        stream += QByteArray::number(i) + ',';
    OutputCapture capture(100, 50);
    for (qsizetype at = 0; at < stream.size(); at += chunkSize) {
        capture.append(QByteArrayView(stream).sliced(at, qMin<qsizetype>(chunkSize, stream.size() - at)));
        QVERIFY(capture.retainedBytes() <= 150);
    }
    const OutputCapture::Parts parts = capture.parts();
    QCOMPARE(capture.totalBytes(), stream.size());
    QCOMPARE(parts.head, stream.left(100));
    QCOMPARE(parts.tail, stream.right(50));
    QCOMPARE(parts.omittedBytes, stream.size() - 150);
}

void TestOutputCapture::cutsOnUtf8Boundaries()
{
    const QByteArray stream = u"🚀上"_s.repeated(500).toUtf8();  // 7 bytes per pair
    for (qsizetype limit : {8, 9, 10, 11, 100, 101}) {
        OutputCapture capture(limit, limit);
        capture.append(stream);
        const OutputCapture::Parts parts = capture.parts();
        QVERIFY(Utf8Text::isValid(parts.head));
        QVERIFY(Utf8Text::isValid(parts.tail));
        QVERIFY(parts.head.size() > limit - 4 && parts.head.size() <= limit);
        QVERIFY(parts.tail.size() > limit - 4 && parts.tail.size() <= limit);
        QVERIFY(stream.startsWith(parts.head));
        QVERIFY(stream.endsWith(parts.tail));
        QCOMPARE(parts.omittedBytes, stream.size() - parts.head.size() - parts.tail.size());
    }
}

void TestOutputCapture::utf8Helpers_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<int>("pos");
    QTest::addColumn<int>("before");
    QTest::addColumn<int>("after");
    const QByteArray mixed = u"a上🚀"_s.toUtf8();  // a | 上 (1..3) | 🚀 (4..7)
    QTest::newRow("ascii") << mixed << 1 << 1 << 1;
    QTest::newRow("inside 3-byte") << mixed << 2 << 1 << 4;
    QTest::newRow("inside 3-byte late") << mixed << 3 << 1 << 4;
    QTest::newRow("at 4-byte lead") << mixed << 4 << 4 << 4;
    QTest::newRow("inside 4-byte") << mixed << 6 << 4 << 8;
    QTest::newRow("end") << mixed << 8 << 8 << 8;
    QTest::newRow("start") << mixed << 0 << 0 << 0;
}

void TestOutputCapture::utf8Helpers()
{
    QFETCH(QByteArray, data);
    QFETCH(int, pos);
    QFETCH(int, before);
    QFETCH(int, after);
    QCOMPARE(Utf8Text::boundaryAtOrBefore(data, pos), before);
    QCOMPARE(Utf8Text::boundaryAtOrAfter(data, pos), after);
    QCOMPARE(Utf8Text::completePrefixLength(data.left(pos)), before);
}

void TestOutputCapture::validation_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<bool>("validAsPrefix");
    QTest::newRow("ascii") << QByteArray("abc") << true << true;
    QTest::newRow("cjk emoji") << u"上🚀"_s.toUtf8() << true << true;
    QTest::newRow("truncated at end") << u"上"_s.toUtf8().left(2) << false << true;
    QTest::newRow("lone continuation") << QByteArray("a\x80") << false << false;
    QTest::newRow("overlong") << QByteArray("\xC0\xAF") << false << false;
    QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << false << false;
    QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << false << false;
    QTest::newRow("latin1") << QByteArray("caf\xE9!") << false << false;
}

void TestOutputCapture::validation()
{
    QFETCH(QByteArray, data);
    QFETCH(bool, valid);
    QFETCH(bool, validAsPrefix);
    QCOMPARE(Utf8Text::isValid(data), valid);
    QCOMPARE(Utf8Text::isValid(data, true), validAsPrefix);
    // Qt's decoder agrees on what is valid.
    QCOMPARE(QString::fromUtf8(data).toUtf8() == data, valid);
}

QTEST_GUILESS_MAIN(TestOutputCapture)
#include "tst_outputcapture.moc"
