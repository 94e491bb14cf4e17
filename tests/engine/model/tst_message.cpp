#include "model/Message.h"

#include <QTest>

using namespace wl;
Q_DECLARE_METATYPE(wl::Message)
using namespace Qt::StringLiterals;

class TestMessage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void byteCount_data();
    void byteCount();
    void cacheIsUsed();
    void lineCache();
    void roleNames();
};

void TestMessage::byteCount_data()
{
    QTest::addColumn<Message>("message");
    QTest::addColumn<qint64>("bytes");
    QTest::newRow("ascii") << Message::user(u"abcd"_s) << qint64(4);
    QTest::newRow("cjk-3-bytes-each") << Message::user(u"上下文"_s) << qint64(9);
    QTest::newRow("emoji-4-bytes") << Message::user(u"🚀"_s) << qint64(4);
    QTest::newRow("latin1-2-bytes") << Message::user(u"é"_s) << qint64(2);
    QTest::newRow("call-fields") << Message::assistant(u"x"_s, {{u"id1"_s, u"bash"_s, u"{}"_s, true}}) << qint64(1 + 3 + 4 + 2);
    QTest::newRow("result-id") << Message::toolResult(u"call"_s, u"ok"_s) << qint64(4 + 2);
}

void TestMessage::byteCount()
{
    QFETCH(Message, message);
    QFETCH(qint64, bytes);
    QCOMPARE(message.computeBytes(), bytes);
    // Agrees with Qt's own encoder for valid text.
    QCOMPARE(message.content.toUtf8().size() + message.toolCallId.toUtf8().size()
             + (message.toolCalls.isEmpty() ? 0 : message.toolCalls[0].id.toUtf8().size() + message.toolCalls[0].name.toUtf8().size() + message.toolCalls[0].arguments.toUtf8().size()),
             bytes);
}

void TestMessage::cacheIsUsed()
{
    Message m = Message::user(u"abcd"_s);
    QCOMPARE(m.byteCount(), 4);
    m.cachedBytes = 100;
    QCOMPARE(m.byteCount(), 100);
    m.cacheBytes();
    QCOMPARE(m.byteCount(), 4);
    QCOMPARE(m.cachedLines, -1); // only results are ever offloaded: no count for others
}

void TestMessage::lineCache()
{
    Message r = Message::toolResult(u"c1"_s, u"one\ntwo\nthree\n"_s);
    QCOMPARE(r.contentLines(), 3); // counted when not cached
    r.cachedLines = 40;
    QCOMPARE(r.contentLines(), 40); // the cache wins, as for bytes
    r.cacheBytes();
    QCOMPARE(r.cachedLines, 3);
    r.content = u"a\nb"_s;
    r.cacheBytes();
    QCOMPARE(r.contentLines(), 2);
    QCOMPARE(r.byteCount(), 3 + 2);
}

void TestMessage::roleNames()
{
    for (Role r : {Role::System, Role::User, Role::Assistant, Role::Tool}) {
        Role back = Role::User;
        QVERIFY(roleFromName(roleName(r), &back));
        QCOMPARE(back, r);
    }
    Role r = Role::User;
    QVERIFY(!roleFromName(u"System"_s, &r));
    QVERIFY(!roleFromName(u""_s, &r));
}

QTEST_GUILESS_MAIN(TestMessage)
#include "tst_message.moc"
