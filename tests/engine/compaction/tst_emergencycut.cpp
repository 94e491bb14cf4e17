// EmergencyCut (docs/COMPACTION.md section 4): the last step of Emergency shortens a message to its
// head and end, says what was cut and where the whole is, and keeps tool-call arguments a JSON object,
// whatever the model sent.
#include "compaction/EmergencyCut.h"
#include "compaction/TokenEstimate.h"
#include "model/Message.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
const QString kPath = u".waterline/tool_results/s1/message-7.txt"_s;

bool wellFormedUtf16(const QString &text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i].isHighSurrogate() && (i + 1 >= text.size() || !text[i + 1].isLowSurrogate()))
            return false;
        if (text[i].isLowSurrogate() && (i == 0 || !text[i - 1].isHighSurrogate()))
            return false;
    }
    return true;
}
} // namespace

class TestEmergencyCut : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void contentKeepsHeadAndEnd_data();
    void contentKeepsHeadAndEnd();
    void argumentsStayAnObject_data();
    void argumentsStayAnObject();
    void smallMessageIsNotCut();
    void wholeTextHasTheCalls();
};

void TestEmergencyCut::contentKeepsHeadAndEnd_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("ascii") << (u"HEAD"_s + QString(50'000, u'x') + u"END"_s);
    // Emoji are pairs of UTF-16 units, CJK three UTF-8 bytes: no cut splits one.
    QTest::newRow("emoji") << (u"HEAD"_s + QString(20'000, u'x').replace(u"x"_s, u"😀"_s) + u"END"_s);
    QTest::newRow("cjk") << (u"HEAD"_s + QString(20'000, u'压') + u"END"_s);
    QTest::newRow("combining") << (u"HEAD"_s + QString(20'000, u'x').replace(u"x"_s, u"e\u0301"_s) + u"END"_s);
}

void TestEmergencyCut::contentKeepsHeadAndEnd()
{
    QFETCH(QString, text);
    Message m = Message::user(text);
    m.id = 7;
    m.cacheBytes();
    const auto cut = EmergencyCut::cut(m, 4000, kPath);
    QVERIFY(cut);
    QVERIFY(cut->content.startsWith(u"HEAD"_s));
    QVERIFY(cut->content.endsWith(u"END"_s));
    QVERIFY(cut->content.contains(u"the whole message is in "_s + kPath));
    QVERIFY(wellFormedUtf16(cut->content));
    QVERIFY(!cut->content.contains(u"\n\u0301"_s)); // the end never starts with a lone combining mark
    QVERIFY2(cut->bytes <= 4000 + 8, qPrintable(QString::number(cut->bytes)));
    QCOMPARE(cut->bytes, TokenEstimate::utf8Bytes(cut->content));
    QVERIFY(cut->arguments.isEmpty());
    // The note says how much was cut out of how much.
    const qint64 total = TokenEstimate::utf8Bytes(text);
    QVERIFY(cut->content.contains(u" of %1 bytes cut here"_s.arg(total)));
}

void TestEmergencyCut::argumentsStayAnObject_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("keptKey"); // a short field that must survive as it was ("" for none)
    const QString big(60'000, u'c');
    QTest::newRow("object") << QString::fromUtf8(QJsonDocument(QJsonObject{{u"path"_s, u"a.txt"_s}, {u"content"_s, big}}).toJson(QJsonDocument::Compact))
                            << u"path"_s;
    QTest::newRow("nested") << QString::fromUtf8(QJsonDocument(QJsonObject{
                                   {u"path"_s, u"a.txt"_s},
                                   {u"edits"_s, QJsonArray{QJsonObject{{u"old"_s, big}, {u"new"_s, big}}}}}).toJson(QJsonDocument::Compact))
                            << u"path"_s;
    QTest::newRow("escapes") << QString::fromUtf8(QJsonDocument(QJsonObject{{u"path"_s, u"q\"uote.txt"_s},
                                                                            {u"content"_s, QString(QString(20'000, u'"') + QString(20'000, u'\n'))}})
                                                      .toJson(QJsonDocument::Compact))
                             << u"path"_s;
    // What a model may send that is not an object: still an object afterwards.
    QTest::newRow("broken-json") << (u"{\"content\": \""_s + big) << QString();
    QString array = u"[1"_s;
    for (int i = 0; i < 15'000; ++i)
        array += u",1"_s;
    QTest::newRow("top-level-array") << (array + u']') << QString();
    QTest::newRow("plain-text") << big << QString();
}

void TestEmergencyCut::argumentsStayAnObject()
{
    QFETCH(QString, arguments);
    QFETCH(QString, keptKey);
    Message m = Message::assistant(u"writing"_s, {{u"w1"_s, u"write_file"_s, arguments, true}});
    m.id = 7;
    m.cacheBytes();
    const auto cut = EmergencyCut::cut(m, 5000, kPath);
    QVERIFY(cut);
    QCOMPARE(cut->arguments.size(), 1);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(cut->arguments[0].toUtf8(), &error);
    QVERIFY2(doc.isObject(), qPrintable(error.errorString()));
    if (!keptKey.isEmpty())
        QCOMPARE(doc.object().value(keptKey), QJsonDocument::fromJson(arguments.toUtf8()).object().value(keptKey));
    QVERIFY(cut->arguments[0].contains(kPath));
    QVERIFY2(cut->bytes < 12'000, qPrintable(QString::number(cut->bytes)));
    Message shown = m;
    EmergencyCut::apply(shown, cut->content, cut->arguments);
    QCOMPARE(shown.cachedBytes, cut->bytes);
    QCOMPARE(shown.toolCalls[0].id, u"w1"_s);
    QVERIFY(shown.toolCalls[0].argumentsValid);
}

void TestEmergencyCut::smallMessageIsNotCut()
{
    Message m = Message::user(u"short"_s);
    m.cacheBytes();
    QVERIFY(!EmergencyCut::cut(m, 0, kPath)); // a note would be longer than the text
}

void TestEmergencyCut::wholeTextHasTheCalls()
{
    const Message m = Message::assistant(u"text"_s, {{u"c1"_s, u"bash"_s, u"{\"command\":\"make\"}"_s, true}});
    QCOMPARE(EmergencyCut::wholeText(m), u"text\n[tool_call bash(c1)]: {\"command\":\"make\"}"_s);
}

QTEST_GUILESS_MAIN(TestEmergencyCut)
#include "tst_emergencycut.moc"
