// CompactJson writes the step's JSON columns by hand; these tests hold it to QJsonDocument's
// compact output byte for byte on input meant to break an encoder.
#include "model/ToolCall.h"
#include "store/CompactJson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <limits>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

QByteArray reference(const QString &text)
{
    // A string alone is not a document: wrap it in an array and cut the brackets off.
    const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

QByteArray referenceToolCalls(const QList<ToolCall> &calls)
{
    QJsonArray array;
    for (const ToolCall &call : calls) {
        QJsonObject o{{u"id"_s, call.id}, {u"name"_s, call.name}, {u"arguments"_s, call.arguments}};
        if (!call.argumentsValid)
            o.insert(u"valid"_s, false);
        array.append(o);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}

QString allControlCharacters()
{
    QString s;
    for (char16_t c = 0; c < 0x20; ++c)
        s.append(QChar(c));
    return s;
}

QString fromUnits(std::initializer_list<char16_t> units)
{
    QString s;
    for (char16_t u : units)
        s.append(QChar(u));
    return s;
}

} // namespace

class TestCompactJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stringMatchesQJsonDocument_data();
    void stringMatchesQJsonDocument();
    void unpairedSurrogateIsRefused_data();
    void unpairedSurrogateIsRefused();
    void randomStringsMatchQJsonDocument();
    void toolCallsMatchQJsonDocument_data();
    void toolCallsMatchQJsonDocument();
};

void TestCompactJson::stringMatchesQJsonDocument_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << QString();
    QTest::newRow("plain") << u"read_file"_s;
    QTest::newRow("quotes and backslashes") << u"say \"hi\" \\ C:\\path\\ \\\" end"_s;
    QTest::newRow("control characters") << allControlCharacters();
    QTest::newRow("DEL and slash") << u"a\x7f/b</script>"_s;
    QTest::newRow("NUL inside") << QString(u"a\0b"_s);
    QTest::newRow("latin and greek") << u"naïve café Ωμέγα"_s;
    QTest::newRow("CJK") << u"日本語のテキスト"_s;
    QTest::newRow("line separators") << fromUnits({u'a', 0x2028, u'b', 0x2029, u'c'});
    QTest::newRow("BOM and non-characters") << fromUnits({0xfeff, 0xfffe, 0xffff, 0xfdd0});
    QTest::newRow("emoji (surrogate pairs)") << u"🙂 𝄞 👩‍💻"_s;
    QTest::newRow("max code point") << fromUnits({0xdbff, 0xdfff});
    QTest::newRow("JSON inside") << uR"({"path":"src/a.cpp","n":[1,2.5e10,-3],"s":"x\ny"})"_s;
}

void TestCompactJson::stringMatchesQJsonDocument()
{
    QFETCH(QString, text);
    QByteArray out("prefix");
    QVERIFY(CompactJson::appendString(out, text));
    QCOMPARE(out, QByteArray("prefix") + reference(text));
}

void TestCompactJson::unpairedSurrogateIsRefused_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("lone high") << fromUnits({u'a', 0xd83d, u'b'});
    QTest::newRow("lone low") << fromUnits({u'a', 0xde42});
    QTest::newRow("high at end") << fromUnits({u'a', 0xd83d});
    QTest::newRow("reversed pair") << fromUnits({0xde42, 0xd83d});
}

void TestCompactJson::unpairedSurrogateIsRefused()
{
    QFETCH(QString, text);
    QByteArray out("keep");
    QVERIFY(!CompactJson::appendString(out, text));
    QCOMPARE(out, QByteArray("keep"));
    // ... and a tool-call list holding it still comes out as QJsonDocument writes it.
    const QList<ToolCall> calls{{u"call_1"_s, u"run"_s, text, true}, {text, u"x"_s, u"{}"_s, false}};
    QCOMPARE(CompactJson::toolCalls(calls), referenceToolCalls(calls));
}

void TestCompactJson::randomStringsMatchQJsonDocument()
{
    // Random UTF-16 drawn mostly from the ranges an encoder gets wrong (controls, escapes,
    // boundaries of the 1/2/3-byte forms, valid pairs); seeded, so a failure repeats.
    QRandomGenerator rng(4242);
    const char16_t edges[] = {0x00, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1f, 0x20, 0x22, 0x2f, 0x5c, 0x7e, 0x7f, 0x80,
                              0x7ff, 0x800, 0xfff, 0xd7ff, 0xe000, 0xfffd, 0xffff};
    for (int round = 0; round < 2000; ++round) {
        QString text;
        const int length = int(rng.bounded(40));
        for (int i = 0; i < length; ++i) {
            switch (rng.bounded(4)) {
            case 0:
                text.append(QChar(edges[rng.bounded(int(std::size(edges)))]));
                break;
            case 1:
                text.append(QChar(char16_t(rng.bounded(0x80))));
                break;
            case 2: {
                const char32_t u = 0x10000 + rng.bounded(0x100000);
                text.append(QChar(QChar::highSurrogate(u)));
                text.append(QChar(QChar::lowSurrogate(u)));
                break;
            }
            default:
                text.append(QChar(char16_t(0x80 + rng.bounded(0xd800 - 0x80))));
                break;
            }
        }
        QByteArray out;
        QVERIFY(CompactJson::appendString(out, text));
        QCOMPARE(out, reference(text));
    }
}

void TestCompactJson::toolCallsMatchQJsonDocument_data()
{
    QTest::addColumn<QList<ToolCall>>("calls");
    QTest::newRow("one") << QList<ToolCall>{{u"call_1"_s, u"read_file"_s, uR"({"path":"a.cpp"})"_s, true}};
    QTest::newRow("invalid arguments") << QList<ToolCall>{{u"c"_s, u"bash"_s, u"{not json"_s, false}};
    QTest::newRow("several, odd text")
        << QList<ToolCall>{{u"id \"q\""_s, u"naïve\ttool"_s, QString(), true},
                           {QString(), QString(), allControlCharacters(), false},
                           {u"🙂"_s, u"日本"_s, uR"({"k":"v\\n"})"_s, true}};
}

void TestCompactJson::toolCallsMatchQJsonDocument()
{
    QFETCH(QList<ToolCall>, calls);
    QCOMPARE(CompactJson::toolCalls(calls), referenceToolCalls(calls));
}

QTEST_GUILESS_MAIN(TestCompactJson)
#include "tst_compactjson.moc"
