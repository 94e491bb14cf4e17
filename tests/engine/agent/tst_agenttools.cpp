// Hostile tool calls from the model inside a real agent run: path escapes (`../x`, absolute paths,
// a symbolic link out of the workspace), a 100 MB bash output, binary output, invalid JSON arguments
// and unknown tools. Each gets a clear result the model can read, nothing leaves the workspace, and
// the agent goes on to its answer.
#include "AgentHarness.h"

#include <QDirIterator>
#include <QFileInfo>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

class TestAgentTools : public QObject
{
    Q_OBJECT
private slots:
    void hostileCall_data();
    void hostileCall();
    void secretsInToolOutputNeverLeave_data();
    void secretsInToolOutputNeverLeave();
};

void TestAgentTools::hostileCall_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("arguments");     // raw JSON text, as the model sent it
    QTest::addColumn<bool>("isError");
    QTest::addColumn<QStringList>("expected");  // all must be in the result
    QTest::addColumn<QString>("mustNotExist");  // a path outside the workspace (relative to the temp dir)

    QTest::newRow("read ../x") << u"read_file"_s << uR"({"path":"../outside/secret.txt"})"_s << true
                               << QStringList{u"outside the workspace"_s} << QString();
    QTest::newRow("read absolute") << u"read_file"_s << u"{\"path\":\"%OUTSIDE%/secret.txt\"}"_s << true
                                   << QStringList{u"outside the workspace"_s} << QString();
    QTest::newRow("read through a link out") << u"read_file"_s << uR"({"path":"link/secret.txt"})"_s << true
                                             << QStringList{u"symbolic link"_s, u"outside the workspace"_s} << QString();
    QTest::newRow("write ../x") << u"write_file"_s << uR"({"path":"../escaped.txt","content":"x"})"_s << true
                                << QStringList{u"outside the workspace"_s} << u"escaped.txt"_s;
    QTest::newRow("write through a link out") << u"write_file"_s << uR"({"path":"link/planted.txt","content":"x"})"_s
                                              << true << QStringList{u"outside the workspace"_s}
                                              << u"outside/planted.txt"_s;
    QTest::newRow("edit absolute") << u"edit_file"_s
                                   << u"{\"path\":\"%OUTSIDE%/secret.txt\",\"old_text\":\"top\",\"new_text\":\"x\"}"_s
                                   << true << QStringList{u"outside the workspace"_s} << QString();
    QTest::newRow("100 MB of bash output") << u"bash"_s
                                           << uR"({"command":"head -c 100000000 /dev/zero | tr '\\0' 'a'"})"_s << false
                                           << QStringList{u"bytes of output left out"_s, u"100000000 bytes in total"_s}
                                           << QString();
    QTest::newRow("binary bash output") << u"bash"_s << uR"({"command":"printf 'a\\000b\\377\\376'; head -c 2000 /dev/urandom"})"_s
                                        << false << QStringList{u"binary output"_s} << QString();
    QTest::newRow("invalid JSON arguments") << u"read_file"_s << uR"({"path": "a.txt", )"_s << true
                                            << QStringList{u"invalid arguments for read_file"_s} << QString();
    QTest::newRow("arguments of the wrong type") << u"read_file"_s << uR"({"path": 42})"_s << true
                                                 << QStringList{u"invalid arguments for read_file"_s} << QString();
    QTest::newRow("unknown tool") << u"frobnicate"_s << u"{}"_s << true
                                  << QStringList{u"unknown tool 'frobnicate'"_s} << QString();
}

void TestAgentTools::hostileCall()
{
    QFETCH(QString, tool);
    QFETCH(QString, arguments);
    QFETCH(bool, isError);
    QFETCH(QStringList, expected);
    QFETCH(QString, mustNotExist);

    AgentHarness h;
    const QString outside = QDir(h.dir.filePath(u"outside"_s)).absolutePath();
    QVERIFY(writeFile(outside + u"/secret.txt"_s, "top secret\n"));
    QVERIFY(QFile::link(outside, h.wsPath(u"link"_s)));
    QVERIFY(writeFile(h.wsPath(u"a.txt"_s), "inside\n"));
    arguments.replace(u"%OUTSIDE%"_s, outside);

    h.server.enqueue(FakeReply::withToolCalls({FakeToolCall{u"bad"_s, tool, arguments}}));
    h.server.enqueue(FakeReply::withText(u"handled"_s));
    AgentRun *run = h.open();
    QVERIFY(run->submit(u"try something odd"_s));
    QCOMPARE(h.settle(60000), AgentRun::State::Finished);
    QCOMPARE(run->lastAnswer(), u"handled"_s);

    const QList<Message> history = h.store.history(h.sessionId);
    QCOMPARE(history.size(), 4);
    const Message &result = history[2];
    QCOMPARE(result.toolCallId, u"bad"_s);
    QCOMPARE(result.isError, isError);
    for (const QString &text : std::as_const(expected))
        QVERIFY2(result.content.contains(text), qPrintable(result.content.left(400)));
    QVERIFY(!result.content.contains(u"top secret"_s));
    QVERIFY(result.content.toUtf8().size() <= 20000);
    QCOMPARE(fileText(outside + u"/secret.txt"_s), u"top secret\n"_s);
    if (!mustNotExist.isEmpty())
        QVERIFY(!QFileInfo::exists(h.dir.filePath(mustNotExist)));

    // The model read the same result in its next request, after a well-formed view.
    const QJsonObject next = h.server.requests()[1].json();
    QVERIFY(viewProblem(next).isEmpty());
    const QJsonArray messages = next.value(u"messages").toArray();
    QCOMPARE(messages.last().toObject().value(u"tool_call_id").toString(), u"bad"_s);
}

// A command that prints secrets (a token file, a key in the environment): the result is scrubbed
// before it is stored, offloaded or sent, small or large enough for gate 1.
void TestAgentTools::secretsInToolOutputNeverLeave_data()
{
    QTest::addColumn<int>("padding"); // bytes after the secrets: 0 stays inline, 20000 is offloaded at gate 1
    QTest::newRow("inline result") << 0;
    QTest::newRow("offloaded result") << 20000;
}

void TestAgentTools::secretsInToolOutputNeverLeave()
{
    QFETCH(int, padding);
    const QString token = u"ghp_"_s + QString(36, u'Z');
    const QByteArray keyBlock = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAAB3NzaPlantedPrivateKeyMaterial\n-----END OPENSSH PRIVATE KEY-----\n";
    AgentHarness h;
    QVERIFY(writeFile(h.wsPath(u"leak.txt"_s), "GITHUB_TOKEN=" + token.toUtf8() + "\n" + keyBlock));
    const QString command = u"cat leak.txt; yes a | head -c %1"_s.arg(padding);
    h.server.enqueue(callReply(u"leak"_s, u"bash"_s, QJsonObject{{u"command"_s, command}}));
    h.server.enqueue(FakeReply::withText(u"done"_s));
    AgentRun *run = h.open();
    QVERIFY(run->submit(u"show me the file"_s));
    QCOMPARE(h.settle(60000), AgentRun::State::Finished);

    const QList<Message> history = h.store.history(h.sessionId);
    QCOMPARE(history.size(), 4);
    const Message &result = history[2];
    QVERIFY2(result.content.contains(u"[redacted: GitHub token]"_s), qPrintable(result.content.left(300)));
    QVERIFY2(result.content.contains(u"[redacted: private key]"_s), qPrintable(result.content.left(300)));
    // Nowhere: not in the stored message, the request the model read, nor any file Waterline wrote.
    QVERIFY(!result.content.contains(token));
    QVERIFY(!result.content.contains(u"PlantedPrivateKeyMaterial"_s));
    const QByteArray body = h.server.requests()[1].body;
    QVERIFY(!body.contains(token.toUtf8()));
    QVERIFY(!body.contains("PlantedPrivateKeyMaterial"));
    int files = 0;
    QDirIterator it(h.wsPath(u".waterline"_s), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString text = fileText(it.next());
        ++files;
        QVERIFY(!text.contains(token));
        QVERIFY(text.contains(u"[redacted: GitHub token]"_s));
    }
    QCOMPARE(files, padding > 0 ? 1 : 0);
}

QTEST_GUILESS_MAIN(TestAgentTools)
#include "tst_agenttools.moc"
