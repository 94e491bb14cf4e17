// The streaming scanner that feeds single-document JSON to the importers element by element.
#include "replay/JsonStreamScanner.h"

#include <QBuffer>
#include <QJsonDocument>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

class Recorder : public JsonStreamScanner::Handler
{
public:
    QMap<QString, JsonStreamScanner::MemberMode> modes;
    QStringList seen;      // "top/member[index]=bytes"
    QList<qint64> offsets;
    int stopAfter = -1;
    QList<int> skipTops;

    bool beginTop(int topIndex, char) override { return !skipTops.contains(topIndex); }
    JsonStreamScanner::MemberMode member(int, const QString &key) override
    {
        return modes.value(key, JsonStreamScanner::MemberMode::Skip);
    }
    bool element(JsonStreamScanner::Element &e) override
    {
        seen << u"%1/%2[%3]=%4"_s.arg(e.topIndex).arg(e.member).arg(e.index).arg(QString::fromUtf8(e.bytes));
        offsets << e.offset;
        return stopAfter < 0 || seen.size() < stopAfter;
    }
};

} // namespace

class TestJsonStreamScanner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void elements_data();
    void elements();
    void errors_data();
    void errors();
    void chunkBoundaries();
    void elementLimit();
    void stopAndSkip();
};

void TestJsonStreamScanner::elements_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("root array") << QByteArray(R"([1, "two", {"a":[3]}, [4,5], null, -1.5e3])")
                                << QStringList{u"0/[0]=1"_s, u"0/[1]=\"two\""_s, u"0/[2]={\"a\":[3]}"_s,
                                               u"0/[3]=[4,5]"_s, u"0/[4]=null"_s, u"0/[5]=-1.5e3"_s};
    QTest::newRow("empty array") << QByteArray("[ ]") << QStringList{};
    QTest::newRow("brackets and quotes in strings")
        << QByteArray(R"(["a]b", "c\"]d", "e\\", {"k}":"v{"}])")
        << QStringList{u"0/[0]=\"a]b\""_s, u"0/[1]=\"c\\\"]d\""_s, u"0/[2]=\"e\\\\\""_s, u"0/[3]={\"k}\":\"v{\"}"_s};
    QTest::newRow("object members")
        << QByteArray(R"({"skip":{"history":[9]},"history":[{"r":1},{"r":2}],"info":{"x":[1,{"y":2}]},"tail":"t"})")
        << QStringList{u"0/history[0]={\"r\":1}"_s, u"0/history[1]={\"r\":2}"_s, u"0/info[-1]={\"x\":[1,{\"y\":2}]}"_s};
    QTest::newRow("elements of a non-array member") << QByteArray(R"({"history":"none"})") << QStringList{u"0/history[-1]=\"none\""_s};
    QTest::newRow("escaped key") << QByteArray(R"({"hist\u006fry":[1]})") << QStringList{u"0/history[0]=1"_s};
    QTest::newRow("json lines") << QByteArray("{\"info\":1}\n{\"info\":2}\r\n\n{\"info\":3}")
                                << QStringList{u"0/info[-1]=1"_s, u"1/info[-1]=2"_s, u"2/info[-1]=3"_s};
    QTest::newRow("unicode") << QByteArray(R"(["上下文", "🚀"])") << QStringList{u"0/[0]=\"上下文\""_s, u"0/[1]=\"🚀\""_s};
}

void TestJsonStreamScanner::elements()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, expected);
    QBuffer buffer(&json);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    Recorder recorder;
    recorder.modes.insert(u"history"_s, JsonStreamScanner::MemberMode::Elements);
    recorder.modes.insert(u"info"_s, JsonStreamScanner::MemberMode::Value);
    JsonStreamScanner scanner(&buffer, 1 << 20);
    QVERIFY2(scanner.run(recorder), qPrintable(scanner.errorString()));
    QCOMPARE(recorder.seen, expected);
    // Each element's bytes parse on their own.
    for (const QString &s : recorder.seen) {
        const QByteArray bytes = s.section(u'=', 1).toUtf8();
        QJsonParseError error;
        QJsonDocument::fromJson("[" + bytes + "]", &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
    }
}

void TestJsonStreamScanner::errors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    QTest::addColumn<qint64>("offset");
    QTest::newRow("truncated") << QByteArray(R"([{"a":1},{"b":)") << u"unexpected end of input"_s << qint64(14);
    QTest::newRow("truncated string") << QByteArray(R"(["abc)") << u"unexpected end of input"_s << qint64(5);
    QTest::newRow("mismatched") << QByteArray(R"([{"a":1]])") << u"unexpected ']'"_s << qint64(7);
    QTest::newRow("missing comma") << QByteArray(R"([1 2])") << u"unexpected value"_s << qint64(3);
    QTest::newRow("missing colon") << QByteArray(R"({"a" 1})") << u"unexpected value"_s << qint64(5);
    QTest::newRow("top-level scalar") << QByteArray("42") << u"expected an object or an array"_s << qint64(0);
    QTest::newRow("garbage") << QByteArray("[1, @]") << u"unexpected character '@'"_s << qint64(4);
    QTest::newRow("newline in string") << QByteArray("[\"ab\ncd\"]") << u"line break inside a string"_s << qint64(4);
    QTest::newRow("stray close") << QByteArray("[1]]") << u"unexpected ']'"_s << qint64(3);
    QTest::newRow("trailing comma in object") << QByteArray(R"({"a":1,})") << u"unexpected '}'"_s << qint64(7);
}

void TestJsonStreamScanner::errors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    QFETCH(qint64, offset);
    QBuffer buffer(&json);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    Recorder recorder;
    JsonStreamScanner scanner(&buffer, 1 << 20);
    QVERIFY(!scanner.run(recorder));
    QVERIFY(!scanner.stopped());
    QVERIFY2(scanner.errorString().contains(error), qPrintable(scanner.errorString()));
    QCOMPARE(scanner.errorOffset(), offset);
}

void TestJsonStreamScanner::chunkBoundaries()
{
    // Elements of 0.4–2.5 MB with escapes, brackets and multi-byte characters straddle the
    // scanner's 1 MB reads at many different positions.
    QByteArray json = "{\"pad\":\"" + QByteArray(1000003, 'p') + "\",\"history\":[";
    QList<QByteArray> elements;
    for (int i = 0; i < 6; ++i) {
        QByteArray text;
        const QByteArray unit = "ab\\\"]}[{ \\\\ é ";
        while (text.size() < 400000 * (i + 1))
            text += unit;
        elements << "{\"i\":" + QByteArray::number(i) + ",\"t\":\"" + text + "\"}";
    }
    json += elements.join(',') + "]}";
    QBuffer buffer(&json);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    Recorder recorder;
    recorder.modes.insert(u"history"_s, JsonStreamScanner::MemberMode::Elements);
    JsonStreamScanner scanner(&buffer, 16 << 20);
    QVERIFY2(scanner.run(recorder), qPrintable(scanner.errorString()));
    QCOMPARE(recorder.seen.size(), elements.size());
    for (int i = 0; i < elements.size(); ++i) {
        QCOMPARE(recorder.seen.at(i).section(u'=', 1).toUtf8(), elements.at(i));
        QCOMPARE(recorder.offsets.at(i), json.indexOf(elements.at(i)));
    }
}

void TestJsonStreamScanner::elementLimit()
{
    QByteArray json = "[\"" + QByteArray(3 << 20, 'x') + "\"]";
    QBuffer buffer(&json);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    Recorder recorder;
    JsonStreamScanner scanner(&buffer, 1 << 20);
    QVERIFY(!scanner.run(recorder));
    QVERIFY2(scanner.errorString().contains(u"larger than 1 MB"_s), qPrintable(scanner.errorString()));
    QCOMPARE(scanner.errorOffset(), 1);
}

void TestJsonStreamScanner::stopAndSkip()
{
    QByteArray json = "[1,2]\n[3,4]\n[5,6]";
    QBuffer buffer(&json);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    Recorder recorder;
    recorder.skipTops = {1};
    recorder.stopAfter = 3;
    JsonStreamScanner scanner(&buffer, 1024);
    QVERIFY(!scanner.run(recorder));
    QVERIFY(scanner.stopped());
    QVERIFY(scanner.errorString().isEmpty());
    QCOMPARE(recorder.seen, (QStringList{u"0/[0]=1"_s, u"0/[1]=2"_s, u"2/[0]=5"_s}));
}

QTEST_GUILESS_MAIN(TestJsonStreamScanner)
#include "tst_jsonstreamscanner.moc"
