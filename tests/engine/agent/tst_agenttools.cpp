// Hostile tool calls from the model inside a real agent run: path escapes (`../x`, absolute paths,
// a symbolic link out of the workspace), a 100 MB bash output, binary output, invalid JSON arguments
// and unknown tools. Each gets a clear result the model can read, nothing leaves the workspace, and
// the agent goes on to its answer.
#include "AgentHarness.h"
#include "tools/BashTool.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QTcpServer>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

class TestAgentTools : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hostileCall_data();
    void hostileCall();
    void secretsInToolOutputNeverLeave_data();
    void secretsInToolOutputNeverLeave();
    void sessionSandboxSettingReachesTheCommand_data();
    void sessionSandboxSettingReachesTheCommand();
    void unsandboxedCommandsNeedTheSessionsOptIn();
    void sessionDatabaseIsOutOfSight();
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
    QDirIterator it(h.wsPath(u".waterline/tool_results"_s), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString text = fileText(it.next());
        ++files;
        QVERIFY(!text.contains(token));
        QVERIFY(text.contains(u"[redacted: GitHub token]"_s));
    }
    QCOMPARE(files, padding > 0 ? 1 : 0);
}

void TestAgentTools::sessionSandboxSettingReachesTheCommand_data()
{
    QTest::addColumn<bool>("network");
    QTest::newRow("network on (default)") << true;
    QTest::newRow("network off") << false;
}

void TestAgentTools::sessionSandboxSettingReachesTheCommand()
{
    // The setting comes from the session's stored approval policy, as a session opened later has it.
    QFETCH(bool, network);
    QTcpServer listener;
    QVERIFY(listener.listen(QHostAddress::LocalHost));
    AgentHarness h;
    ApprovalPolicy approval = ApprovalPolicy::allowAll();
    SandboxPolicy sandbox;
    sandbox.network = network;
    approval.setSandbox(sandbox);
    QVERIFY(h.store.setApprovalPolicy(
        h.sessionId, QString::fromUtf8(QJsonDocument(approval.toJson()).toJson(QJsonDocument::Compact))));
    AgentConfig config = h.config();
    config.approval.reset();

    const QString command = u"echo hi > /dev/tcp/127.0.0.1/%1 && echo connected || echo refused"_s.arg(listener.serverPort());
    h.server.enqueue(FakeReply::withToolCalls(
        {FakeToolCall{u"c1"_s, u"bash"_s, QString::fromUtf8(QJsonDocument(QJsonObject{{u"command"_s, command}}).toJson())}}));
    h.server.enqueue(FakeReply::withText(u"done"_s));
    AgentRun *run = h.open(config);
    QVERIFY(run->submit(u"connect"_s));
    QCOMPARE(h.settle(60000), AgentRun::State::Finished);
    const QList<Message> history = h.store.history(h.sessionId);
    QCOMPARE(history.size(), 4);
    const QString output = history[2].content;
    QCOMPARE(output.contains(u"\nconnected\n"_s) || output.startsWith(u"connected\n"_s), network);
    QCOMPARE(output.contains(u"refused\n"_s), !network);
    QCOMPARE(history[2].isError, false);
}

void TestAgentTools::unsandboxedCommandsNeedTheSessionsOptIn()
{
    // No bwrap here (simulated): refused, unless the session's setting allows unsandboxed commands.
    qputenv("WATERLINE_BWRAP", "/nonexistent/waterline-test/bwrap");
    for (const bool optIn : {false, true}) {
        AgentHarness h;
        AgentConfig config = h.config();
        SandboxPolicy sandbox;
        sandbox.allowUnsandboxed = optIn;
        config.approval->setSandbox(sandbox);
        h.server.enqueue(FakeReply::withToolCalls({FakeToolCall{u"c1"_s, u"bash"_s, uR"({"command":"touch ran"})"_s}}));
        h.server.enqueue(FakeReply::withText(u"done"_s));
        AgentRun *run = h.open(config);
        QVERIFY(run->submit(u"run it"_s));
        QCOMPARE(h.settle(60000), AgentRun::State::Finished);
        const QList<Message> history = h.store.history(h.sessionId);
        QCOMPARE(history.size(), 4);
        QCOMPARE(QFileInfo::exists(h.wsPath(u"ran"_s)), optIn);
        QCOMPARE(history[2].isError, !optIn);
        QVERIFY2(history[2].content.contains(optIn ? u"ran without a sandbox"_s : BashTool::unsandboxedSettingName()),
                 qPrintable(history[2].content));
    }
    qunsetenv("WATERLINE_BWRAP");
}

void TestAgentTools::sessionDatabaseIsOutOfSight()
{
    // The database where the README's --db example puts it: in the workspace (the host's /tmp,
    // where the harness keeps its own, is private to the sandbox anyway).
    AgentHarness h;
    SessionStore store;
    const QString database = h.wsPath(u".waterline-sessions.db"_s);
    QString error;
    QVERIFY2(store.open(database, &error), qPrintable(error));
    SessionInfo fields;
    fields.title = u"in the workspace"_s;
    fields.workspace = QDir(h.workspace).canonicalPath();
    const auto session = store.createSession(fields, &error);
    QVERIFY2(session, qPrintable(error));
    AgentConfig config = h.config();
    config.store = &store;
    config.sessionId = session->id;

    const QString command = u"head -c 15 .waterline-sessions.db; echo; ls -a"_s;
    h.server.enqueue(FakeReply::withToolCalls(
        {FakeToolCall{u"c1"_s, u"bash"_s, QString::fromUtf8(QJsonDocument(QJsonObject{{u"command"_s, command}}).toJson())}}));
    h.server.enqueue(FakeReply::withText(u"done"_s));
    AgentRun *run = h.open(config);
    QVERIFY(run->submit(u"read it"_s));
    QCOMPARE(h.settle(60000), AgentRun::State::Finished);
    const QList<Message> history = store.history(session->id);
    QCOMPARE(history.size(), 4);
    QVERIFY2(!history[2].content.contains(u"SQLite format"_s), qPrintable(history[2].content));
    QVERIFY2(history[2].content.contains(u".waterline-sessions.db"_s), qPrintable(history[2].content));  // hidden, not gone
    h.run.reset();
}

QTEST_GUILESS_MAIN(TestAgentTools)
#include "tst_agenttools.moc"
