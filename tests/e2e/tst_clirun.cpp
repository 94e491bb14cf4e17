// `waterline-cli run` as a user runs it: the real binary against the fake LLM server, a real
// workspace and database. Usage errors, a headless run without and with --auto-approve, a provider
// failure, and SIGKILL in the middle of a task followed by --session to continue it.
#include "AppSettings.h"
#include "FakeLlmServer.h"

#include "store/SessionStore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {

struct CliResult
{
    int exitCode = -1;
    bool crashed = false;
    QString out;
    QString err;
};

QString cliPath()
{
    return QStringLiteral(WATERLINE_BIN_DIR "/waterline-cli");
}

FakeToolCall call(const QString &id, const QString &name, const QJsonObject &arguments)
{
    return FakeToolCall{id, name, QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact))};
}

// Starts the CLI; the event loop keeps running (the fake server lives in this process).
void start(QProcess &process, const QStringList &arguments)
{
    process.setProgram(cliPath());
    process.setArguments(arguments);
    process.setStandardInputFile(QProcess::nullDevice()); // stdin closed, as in a pipeline
    process.start();
}

CliResult finish(QProcess &process, int timeoutMs = 30000)
{
    QElapsedTimer clock;
    clock.start();
    while (process.state() != QProcess::NotRunning && clock.elapsed() < timeoutMs)
        QTest::qWait(10);
    CliResult r;
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(2000);
        r.err = u"[timed out]"_s;
    }
    r.crashed = process.exitStatus() == QProcess::CrashExit;
    r.exitCode = process.exitCode();
    r.out = QString::fromUtf8(process.readAllStandardOutput());
    r.err += QString::fromUtf8(process.readAllStandardError());
    return r;
}

CliResult runCli(const QStringList &arguments, int timeoutMs = 30000)
{
    QProcess process;
    start(process, arguments);
    return finish(process, timeoutMs);
}

QString pairingProblem(const QList<Message> &history)
{
    QHash<QString, int> results;
    QSet<QString> calls;
    for (const Message &m : history) {
        for (const ToolCall &c : m.toolCalls)
            calls.insert(c.id);
        if (m.isToolResult())
            ++results[m.toolCallId];
    }
    for (const QString &id : calls)
        if (results.value(id) != 1)
            return u"call %1 has %2 results"_s.arg(id).arg(results.value(id));
    return {};
}

} // namespace

class TestCliRun : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void usageErrors_data();
    void usageErrors();
    void withoutAutoApproveWritesAreDenied();
    void autoApproveRunsTools();
    void providerFailureExitsNonZero();
    void sigkillThenContinue();
    void profileFromTheSettings();
    void sandboxFlags_data();
    void sandboxFlags();

private:
    QStringList baseArguments() const
    {
        return {u"run"_s, u"--db"_s, m_db, u"--workspace"_s, m_workspace, u"--provider"_s, u"openai-chat"_s,
                u"--base-url"_s, m_server->openAiBaseUrl().toString(), u"--model"_s, u"fake-model"_s};
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeLlmServer> m_server;
    QString m_db;
    QString m_workspace;
};

void TestCliRun::init()
{
    QVERIFY(QFile::exists(cliPath()));
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_db = m_dir->filePath(u"sessions.db"_s);
    m_workspace = QDir(m_dir->filePath(u"ws"_s)).absolutePath();
    QVERIFY(QDir().mkpath(m_workspace));
    m_server = std::make_unique<FakeLlmServer>();
    QVERIFY(m_server->start());
}

void TestCliRun::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString ws = u"%WS%"_s;
    QTest::newRow("no --db") << QStringList{u"run"_s, u"--workspace"_s, ws, u"--prompt"_s, u"x"_s} << u"--db"_s;
    QTest::newRow("no --prompt") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, ws} << u"--prompt"_s;
    QTest::newRow("empty --prompt") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, ws, u"--prompt"_s, u" "_s}
                                    << u"--prompt"_s;
    QTest::newRow("no workspace") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--prompt"_s, u"x"_s} << u"--workspace"_s;
    QTest::newRow("workspace missing") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, u"/nonexistent/ws"_s,
                                                      u"--prompt"_s, u"x"_s}
                                       << u"not a folder"_s;
    QTest::newRow("bad window") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, ws, u"--prompt"_s, u"x"_s,
                                               u"--window"_s, u"lots"_s}
                                << u"--window"_s;
    QTest::newRow("window int64 max") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, ws, u"--prompt"_s, u"x"_s,
                                                    u"--window"_s, u"9223372036854775807"_s}
                                      << u"--window"_s;
    QTest::newRow("bad max turns") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, ws, u"--prompt"_s,
                                                  u"x"_s, u"--max-turns"_s, u"0"_s}
                                   << u"--max-turns"_s;
    QTest::newRow("unknown provider") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, ws, u"--prompt"_s,
                                                     u"x"_s, u"--provider"_s, u"carrier-pigeon"_s, u"--model"_s, u"m"_s}
                                      << u"carrier-pigeon"_s;
    QTest::newRow("provider without model") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, ws,
                                                           u"--prompt"_s, u"x"_s, u"--provider"_s, u"anthropic"_s}
                                            << u"--model"_s;
    QTest::newRow("profile and provider") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, ws, u"--prompt"_s,
                                                         u"x"_s, u"--profile"_s, u"local"_s, u"--provider"_s,
                                                         u"anthropic"_s, u"--model"_s, u"m"_s}
                                          << u"exclude"_s;
    QTest::newRow("unknown profile") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, ws, u"--prompt"_s,
                                                    u"x"_s, u"--profile"_s, u"nope"_s}
                                     << u"unknown profile"_s;
    QTest::newRow("unknown option") << QStringList{u"run"_s, u"--frobnicate"_s} << u"frobnicate"_s;
    // The whole file system as the workspace: every key on the machine within the agent's reach.
    QTest::newRow("root as workspace") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, u"/"_s, u"--prompt"_s,
                                                      u"x"_s}
                                       << u"--allow-broad-workspace"_s;
    QTest::newRow("root spelled oddly") << QStringList{u"run"_s, u"--db"_s, u"%DB%"_s, u"--workspace"_s, u"/tmp/../"_s,
                                                       u"--prompt"_s, u"x"_s}
                                        << u"--allow-broad-workspace"_s;
}

void TestCliRun::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    arguments.replaceInStrings(u"%WS%"_s, m_workspace);
    arguments.replaceInStrings(u"%DB%"_s, m_db);
    const CliResult r = runCli(arguments);
    QVERIFY(!r.crashed);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QCOMPARE(m_server->requestCount(), 0);
}

void TestCliRun::withoutAutoApproveWritesAreDenied()
{
    m_server->enqueue(FakeReply::withToolCalls(
        {call(u"b1"_s, u"bash"_s, {{u"command"_s, u"touch made-by-bash"_s}}),
         call(u"w1"_s, u"write_file"_s, {{u"path"_s, u"made-by-write.txt"_s}, {u"content"_s, u"x"_s}}),
         call(u"g1"_s, u"glob"_s, {{u"pattern"_s, u"*"_s}})},
        u"Let me try."_s));
    m_server->enqueue(FakeReply::withText(u"I could not write anything: the user denied it."_s));
    const CliResult r = runCli(baseArguments() << u"--prompt"_s << u"make two files"_s);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(u"Let me try."_s), qPrintable(r.out));
    QVERIFY(r.out.contains(u"I could not write anything"_s));
    QCOMPARE(r.out.count(u"[approval] denied"_s), 2);
    QVERIFY(r.out.contains(u"--auto-approve"_s));
    QVERIFY(r.out.contains(u"[tool] glob"_s));
    QVERIFY(!QFile::exists(m_workspace + u"/made-by-bash"_s));
    QVERIFY(!QFile::exists(m_workspace + u"/made-by-write.txt"_s));

    SessionStore store;
    QVERIFY(store.open(m_db));
    const QList<SessionInfo> sessions = store.listSessions();
    QCOMPARE(sessions.size(), 1);
    QVERIFY(r.err.contains(u"session: "_s + sessions.first().id));
    const QList<Message> history = store.history(sessions.first().id);
    QCOMPARE(history.size(), 6);
    QVERIFY(history[2].isError && history[2].content.contains(u"denied"_s));
    QVERIFY(history[3].isError && history[3].content.contains(u"denied"_s));
    QVERIFY(!history[4].isError);
    // The model was told, in its next request.
    const QJsonArray sent = m_server->requests()[1].json().value(u"messages").toArray();
    QVERIFY(sent[3].toObject().value(u"content").toString().contains(u"denied"_s));
}

void TestCliRun::autoApproveRunsTools()
{
    m_server->enqueue(FakeReply::withToolCalls({call(u"b1"_s, u"bash"_s, {{u"command"_s, u"echo hello > out.txt"_s}})}));
    m_server->enqueue(FakeReply::withText(u"Wrote out.txt."_s));
    const CliResult r = runCli(baseArguments() << u"--prompt"_s << u"write it"_s << u"--auto-approve"_s << u"--window"_s
                                               << u"50000"_s << u"--max-turns"_s << u"5"_s);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(u"[tool] bash"_s), qPrintable(r.out));
    QVERIFY(r.out.contains(u"Wrote out.txt."_s));
    QFile out(m_workspace + u"/out.txt"_s);
    QVERIFY(out.open(QIODevice::ReadOnly));
    QCOMPARE(out.readAll(), QByteArray("hello\n"));
    SessionStore store;
    QVERIFY(store.open(m_db));
    const SessionInfo s = store.listSessions().first();
    QCOMPARE(s.policy.value(u"context_window").toInteger(), 50000);
    QCOMPARE(store.requests(s.id).size(), 2);
}

void TestCliRun::providerFailureExitsNonZero()
{
    m_server->enqueue(FakeReply::withStatus(401, R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}})"));
    const CliResult r = runCli(baseArguments() << u"--prompt"_s << u"hi"_s);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(u"Incorrect API key provided"_s), qPrintable(r.err));
}

void TestCliRun::sigkillThenContinue()
{
    // Three quick steps, then a long command during which the process is killed.
    m_server->enqueue(FakeReply::withToolCalls({call(u"c1"_s, u"bash"_s, {{u"command"_s, u"echo one > one.txt"_s}})}));
    m_server->enqueue(FakeReply::withToolCalls({call(u"c2"_s, u"write_file"_s, {{u"path"_s, u"two.txt"_s}, {u"content"_s, u"2"_s}})}));
    m_server->enqueue(FakeReply::withToolCalls({call(u"c3"_s, u"read_file"_s, {{u"path"_s, u"two.txt"_s}})}));
    m_server->enqueue(FakeReply::withToolCalls(
        {call(u"c4"_s, u"bash"_s, {{u"command"_s, u"echo $$ > pgid; touch marker; sleep 30"_s}})}, u"Now the slow part."_s));

    QProcess process;
    start(process, baseArguments() << u"--prompt"_s << u"do the four steps"_s << u"--auto-approve"_s);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(m_workspace + u"/marker"_s), 20000);
    QTest::qWait(100);
    process.kill(); // SIGKILL
    QVERIFY(process.waitForFinished(5000));
    QCOMPARE(process.exitStatus(), QProcess::CrashExit);
    {
        QFile pgid(m_workspace + u"/pgid"_s);
        if (pgid.open(QIODevice::ReadOnly))
            ::kill(-pid_t(pgid.readAll().trimmed().toLongLong()), SIGKILL); // the orphaned sleep
    }

    QString sessionId;
    QList<Message> before;
    {
        SessionStore store;
        QVERIFY(store.open(m_db));
        const QList<SessionInfo> sessions = store.listSessions();
        QCOMPARE(sessions.size(), 1);
        sessionId = sessions.first().id;
        before = store.history(sessionId);
        QCOMPARE(store.requests(sessionId).size(), 4);
        store.close();
    }
    // Everything up to the call in flight is there: prompt, 4 calls, 3 results.
    QCOMPARE(before.size(), 8);
    QCOMPARE(before.constLast().role, Role::Assistant);
    QCOMPARE(before.constLast().toolCalls.first().id, u"c4"_s);

    m_server->enqueue(FakeReply::withText(u"Resumed after the interruption."_s));
    const CliResult r = runCli({u"run"_s, u"--db"_s, m_db, u"--session"_s, sessionId, u"--prompt"_s,
                                u"continue where you stopped"_s, u"--base-url"_s, m_server->openAiBaseUrl().toString(),
                                u"--model"_s, u"fake-model"_s, u"--auto-approve"_s});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(u"Resumed after the interruption."_s), qPrintable(r.out + r.err));

    SessionStore store;
    QVERIFY(store.open(m_db));
    QCOMPARE(store.listSessions().size(), 1);
    const QList<Message> after = store.history(sessionId);
    // Nothing lost: the old messages are there unchanged, in order.
    QCOMPARE(after.size(), before.size() + 3);
    for (qsizetype i = 0; i < before.size(); ++i) {
        QCOMPARE(after[i].id, before[i].id);
        QVERIFY(after[i].sameContent(before[i]));
    }
    // Nothing duplicated: the interrupted call got one result, then the new prompt and the answer.
    QCOMPARE(after[8].toolCallId, u"c4"_s);
    QVERIFY(after[8].isError && after[8].content.contains(u"interrupted"_s));
    QCOMPARE(after[9].content, u"continue where you stopped"_s);
    QCOMPARE(after[10].content, u"Resumed after the interruption."_s);
    QVERIFY2(pairingProblem(after).isEmpty(), qPrintable(pairingProblem(after)));
    QSet<qint64> ids;
    for (const Message &m : after)
        ids.insert(m.id);
    QCOMPARE(ids.size(), after.size());
    QCOMPARE(store.requests(sessionId).size(), 5);
    // The continued request carried the whole conversation, interrupted result included.
    const QJsonArray sent = m_server->requests().constLast().json().value(u"messages").toArray();
    QCOMPARE(sent.size(), 1 + 10);
    QCOMPARE(sent[9].toObject().value(u"tool_call_id").toString(), u"c4"_s);
}

// --profile NAME reads the profiles the application's Settings saved (AppSettings, no secrets).
void TestCliRun::profileFromTheSettings()
{
    const QString config = m_dir->filePath(u"config"_s);
    {
        AppSettings settings(config + u"/Waterline/waterline.conf"_s);
        ProviderProfile profile;
        profile.name = u"my fake"_s;
        profile.baseUrl = m_server->openAiBaseUrl();
        profile.model = u"profile-model"_s;
        QString error;
        QVERIFY2(settings.setProfiles({profile}, &error), qPrintable(error));
        settings.sync();
    }
    m_server->enqueue(FakeReply::withText(u"hello from the profile"_s));
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CONFIG_HOME"_s, config);
    process.setProcessEnvironment(env);
    start(process, {u"run"_s, u"--db"_s, m_db, u"--workspace"_s, m_workspace, u"--profile"_s, u"my fake"_s,
                    u"--prompt"_s, u"hi"_s});
    const CliResult r = finish(process);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains(u"hello from the profile"_s));
    QCOMPARE(m_server->requestCount(), 1);
    QCOMPARE(m_server->requests().constFirst().json().value(u"model").toString(), u"profile-model"_s);

    // A name the settings do not hold is refused with the names they do.
    process.setProcessEnvironment(env);
    start(process, {u"run"_s, u"--db"_s, m_db, u"--workspace"_s, m_workspace, u"--profile"_s, u"nope"_s,
                    u"--prompt"_s, u"hi"_s});
    const CliResult refused = finish(process);
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(u"my fake"_s), qPrintable(refused.err));
}

void TestCliRun::sandboxFlags_data()
{
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<bool>("bwrap");       // false: simulate a machine without bubblewrap
    QTest::addColumn<bool>("ran");
    QTest::addColumn<QString>("expected"); // in the stored tool result
    QTest::newRow("no bwrap: refused") << QStringList() << false << false << u"--allow-unsandboxed"_s;
    QTest::newRow("no bwrap, --allow-unsandboxed") << QStringList{u"--allow-unsandboxed"_s} << false << true
                                                   << u"ran without a sandbox"_s;
    QTest::newRow("network by default") << QStringList() << true << true << QString();
    QTest::newRow("--no-network") << QStringList{u"--no-network"_s} << true << false << QString();
}

void TestCliRun::sandboxFlags()
{
    QFETCH(QStringList, flags);
    QFETCH(bool, bwrap);
    QFETCH(bool, ran);
    QFETCH(QString, expected);
    // The command reaches the fake provider's own port: only possible with the network.
    const QString command = u"echo hi > /dev/tcp/127.0.0.1/%1 && touch ran"_s.arg(m_server->port());
    m_server->enqueue(FakeReply::withToolCalls({call(u"b1"_s, u"bash"_s, {{u"command"_s, command}})}));
    m_server->enqueue(FakeReply::withText(u"done"_s));
    if (!bwrap)
        qputenv("WATERLINE_BWRAP", "/nonexistent/waterline-test/bwrap");
    const CliResult r = runCli(baseArguments() << u"--prompt"_s << u"connect"_s << u"--auto-approve"_s << flags);
    qunsetenv("WATERLINE_BWRAP");
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(QFile::exists(m_workspace + u"/ran"_s), ran);
    SessionStore store;
    QVERIFY(store.open(m_db));
    const QList<Message> history = store.history(store.listSessions().first().id);
    QCOMPARE(history.size(), 4);
    QVERIFY2(history[2].content.contains(expected), qPrintable(history[2].content));
}

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_clirun.moc"
