#include "model/MessageCodec.h"

#include <QJsonDocument>
#include <QTest>

using namespace wl;
Q_DECLARE_METATYPE(wl::Message)
using namespace Qt::StringLiterals;

class TestMessageCodec : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data();
    void roundTrip();
    void emptyContentWithToolCallsIsNull();
    void invalidArgumentsKeptAndFlagged_data();
    void invalidArgumentsKeptAndFlagged();
    void unknownFieldsIgnored();
    void contentParts();
    void rejects_data();
    void rejects();
    void arrayErrorNamesIndex();
    void toolSpec();
};

void TestMessageCodec::roundTrip_data()
{
    QTest::addColumn<Message>("message");
    QTest::newRow("system") << Message::system(u"You are a careful agent."_s);
    QTest::newRow("user-cjk") << Message::user(u"上下文压缩不是删除历史 — ünïcödé 🚀"_s);
    QTest::newRow("assistant-two-calls") << Message::assistant(u"Reading both."_s,
        {{u"call_1"_s, u"read_file"_s, uR"({"path":"a.txt"})"_s, true},
         {u"call_2"_s, u"bash"_s, uR"({"command":"ls -la"})"_s, true}});
    QTest::newRow("assistant-empty-content") << Message::assistant(QString(), {{u"c"_s, u"glob"_s, u"{}"_s, true}});
    QTest::newRow("tool-result") << Message::toolResult(u"call_1"_s, u"line1\nline2\n"_s);
    QTest::newRow("tool-error") << Message::toolResult(u"call_2"_s, u"exit 1"_s, true);
    QTest::newRow("user-with-call-id") << [] { Message m = Message::user(u"imported result"_s); m.toolCallId = u"x"_s; return m; }();
}

void TestMessageCodec::roundTrip()
{
    QFETCH(Message, message);
    const QJsonObject json = MessageCodec::toJson(message);
    // Through text too, as files and the network carry it.
    const QJsonObject reparsed = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
    QString error;
    const auto decoded = MessageCodec::fromJson(reparsed, &error);
    QVERIFY2(decoded, qPrintable(error));
    QVERIFY(decoded->sameContent(message));
    QCOMPARE(decoded->content, message.content);
    QCOMPARE(decoded->toolCalls, message.toolCalls);
    QCOMPARE(decoded->byteCount(), message.computeBytes());
}

void TestMessageCodec::emptyContentWithToolCallsIsNull()
{
    const QJsonObject json = MessageCodec::toJson(Message::assistant(QString(), {{u"c1"_s, u"bash"_s, u"{}"_s, true}}));
    QVERIFY(json.value(u"content").isNull());
    QCOMPARE(json.value(u"tool_calls").toArray().size(), 1);
    QCOMPARE(json.value(u"tool_calls").toArray().at(0).toObject().value(u"type").toString(), u"function"_s);
}

void TestMessageCodec::invalidArgumentsKeptAndFlagged_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<bool>("valid");
    QTest::newRow("object") << uR"({"path":"x"})"_s << true;
    QTest::newRow("truncated") << uR"({"path":"x)"_s << false;
    QTest::newRow("not-object") << u"[1,2]"_s << false;
    QTest::newRow("empty") << QString() << false;
    QTest::newRow("prose") << u"please read x"_s << false;
}

void TestMessageCodec::invalidArgumentsKeptAndFlagged()
{
    QFETCH(QString, arguments);
    QFETCH(bool, valid);
    const QJsonObject json{
        {u"role"_s, u"assistant"_s},
        {u"content"_s, QJsonValue::Null},
        {u"tool_calls"_s, QJsonArray{QJsonObject{{u"id"_s, u"c"_s}, {u"type"_s, u"function"_s},
            {u"function"_s, QJsonObject{{u"name"_s, u"read_file"_s}, {u"arguments"_s, arguments}}}}}},
    };
    const auto m = MessageCodec::fromJson(json);
    QVERIFY(m);
    QCOMPARE(m->toolCalls.size(), 1);
    QCOMPARE(m->toolCalls.at(0).arguments, arguments);
    QCOMPARE(m->toolCalls.at(0).argumentsValid, valid);
    // Re-encoding sends the text exactly as received.
    QCOMPARE(MessageCodec::toJson(*m)["tool_calls"_L1][0]["function"_L1]["arguments"_L1].toString(), arguments);
}

void TestMessageCodec::unknownFieldsIgnored()
{
    const QJsonObject json{{u"role"_s, u"user"_s}, {u"content"_s, u"hi"_s}, {u"name"_s, u"bob"_s},
                           {u"refusal"_s, QJsonValue::Null}, {u"x_custom"_s, QJsonObject{{u"a"_s, 1}}}};
    const auto m = MessageCodec::fromJson(json);
    QVERIFY(m);
    QCOMPARE(m->content, u"hi"_s);
    QCOMPARE(MessageCodec::toJson(*m).keys(), (QStringList{u"content"_s, u"role"_s}));
}

void TestMessageCodec::contentParts()
{
    const QJsonObject json{{u"role"_s, u"user"_s},
        {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"one"_s}},
                                  QJsonObject{{u"type"_s, u"image_url"_s}},
                                  QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"two"_s}}}}};
    const auto m = MessageCodec::fromJson(json);
    QVERIFY(m);
    QCOMPARE(m->content, u"one\ntwo"_s);
}

void TestMessageCodec::rejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("field");
    QTest::newRow("no-role") << QByteArray(R"({"content":"x"})") << u"'role'"_s;
    QTest::newRow("bad-role") << QByteArray(R"({"role":"wizard","content":"x"})") << u"wizard"_s;
    QTest::newRow("content-number") << QByteArray(R"({"role":"user","content":42})") << u"'content'"_s;
    QTest::newRow("calls-object") << QByteArray(R"({"role":"assistant","tool_calls":{}})") << u"'tool_calls'"_s;
    QTest::newRow("call-no-name") << QByteArray(R"({"role":"assistant","tool_calls":[{"id":"a","function":{}}]})") << u"tool_calls[0]"_s;
    QTest::newRow("call-id-number") << QByteArray(R"({"role":"tool","tool_call_id":7,"content":"x"})") << u"'tool_call_id'"_s;
}

void TestMessageCodec::rejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, field);
    QString error;
    const auto m = MessageCodec::fromJson(QJsonDocument::fromJson(json).object(), &error);
    QVERIFY(!m);
    QVERIFY2(error.contains(field), qPrintable(error));
}

void TestMessageCodec::arrayErrorNamesIndex()
{
    const QJsonArray array = QJsonDocument::fromJson(R"([{"role":"user","content":"a"},{"role":"user","content":false}])").array();
    QString error;
    QVERIFY(!MessageCodec::fromJson(array, &error));
    QVERIFY2(error.startsWith(u"message 1:"_s), qPrintable(error));
}

void TestMessageCodec::toolSpec()
{
    const ToolSpec spec{u"read_file"_s, u"Read a file"_s,
        QJsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, QJsonObject{{u"path"_s, QJsonObject{{u"type"_s, u"string"_s}}}}}}};
    const auto back = MessageCodec::toolSpecFromJson(QJsonObject{{u"type"_s, u"function"_s}, {u"function"_s, MessageCodec::toJson(spec)}});
    QVERIFY(back);
    QCOMPARE(*back, spec);
    QVERIFY(!MessageCodec::toolSpecFromJson(QJsonObject{{u"description"_s, u"x"_s}}));
    // name + description + compact schema, in UTF-8 bytes.
    QCOMPARE(spec.byteCount(), qint64(9 + 11 + QJsonDocument(spec.inputSchema).toJson(QJsonDocument::Compact).size()));
}

QTEST_GUILESS_MAIN(TestMessageCodec)
#include "tst_messagecodec.moc"
