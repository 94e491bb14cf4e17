#include "tools/BashTool.h"
#include "tools/Utf8Text.h"
#include "tools/Workspace.h"

#include "ToolTestHelpers.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// Peak resident memory of this process, in kB (Linux).
qint64 peakResidentKb()
{
    const QByteArray status = test::readBytes(u"/proc/self/status"_s);
    for (const QByteArray &line : status.split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

} // namespace

class TestBashTool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void exitCodes_data();
    void exitCodes();
    void mergesStdoutAndStderr();
    void runsInWorkspaceWithEmptyStdin();
    void killedBySignal();
    void apiKeysAreNotPassedOn();
    void timeoutKillsProcessGroup();
    void cancelKillsProcessGroup();
    void deletingRunKillsProcessGroup();
    void hugeOutputIsCappedInBoundedMemory();
    void capKeepsUtf8Sequences();
    void binaryOutputIsNotDumped();
    void timeoutIsClamped();
    void emptyCommandIsRefused();
    void approvalCarriesCommand();

private:
    ToolResult bash(const QJsonObject &arguments, int waitMs = 20000)
    {
        return test::runCall(*m_registry, m_context, u"bash"_s, arguments, waitMs);
    }
    std::unique_ptr<ToolRun> startBash(const QString &command)
    {
        const QJsonObject arguments{{u"command"_s, command}};
        return std::unique_ptr<ToolRun>(m_registry->start(
            ToolCall{u"c"_s, u"bash"_s, QString::fromUtf8(QJsonDocument(arguments).toJson()), true}, m_context));
    }
    QString path(const QString &relative) const { return m_dir->path() + u'/' + relative; }
    // Whether a process the command started wrote `relative` after it should have been killed.
    // (Pids printed inside the sandbox are of its own PID namespace, not the host's: the test
    // watches for a late file instead.)
    bool wroteLate(const QString &relative)
    {
        QTest::qWait(2500);
        return QFile::exists(path(relative));
    }
    qint64 waitForPidFile(const QString &relative)
    {
        // The script writes the pid of a child it started; wait until it is complete.
        QByteArray text;
        if (!QTest::qWaitFor([&] {
                text = test::readBytes(path(relative));
                return text.endsWith('\n');
            },
                             10000))
            return -1;
        return text.trimmed().toLongLong();
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<ToolRegistry> m_registry;
    ToolContext m_context;
};

void TestBashTool::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_workspace = std::make_unique<Workspace>(m_dir->path());
    m_registry = ToolRegistry::createDefault();
    m_context = ToolContext{m_workspace.get(), u"s1"_s, u"call-1"_s};
}

void TestBashTool::exitCodes_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("content");
    QTest::newRow("true") << u"true"_s << 0 << u"(no output)\n[exit code: 0]"_s;
    QTest::newRow("false") << u"false"_s << 1 << u"(no output)\n[exit code: 1]"_s;
    QTest::newRow("exit 3 with output") << u"echo héllo; exit 3"_s << 3 << u"héllo\n[exit code: 3]"_s;
    QTest::newRow("no trailing newline") << u"printf abc"_s << 0 << u"abc\n[exit code: 0]"_s;
    QTest::newRow("command not found") << u"waterline-no-such-command-xyz"_s << 127 << QString();
}

void TestBashTool::exitCodes()
{
    QFETCH(QString, command);
    QFETCH(int, exitCode);
    QFETCH(QString, content);
    const ToolResult result = bash({{u"command"_s, command}});
    QCOMPARE(result.exitCode, exitCode);
    QCOMPARE(result.isError, exitCode != 0);
    QCOMPARE(result.metadata.value(u"exitCode"_s).toInt(), exitCode);
    if (!content.isEmpty())
        QCOMPARE(result.content, content);
    else
        QVERIFY2(result.content.endsWith(u"[exit code: %1]"_s.arg(exitCode)), qPrintable(result.content));
}

void TestBashTool::mergesStdoutAndStderr()
{
    const ToolResult result = bash({{u"command"_s, u"echo out; echo err >&2; echo out2"_s}});
    QCOMPARE(result.content, u"out\nerr\nout2\n[exit code: 0]"_s);
}

void TestBashTool::runsInWorkspaceWithEmptyStdin()
{
    // `cat` would wait forever on a terminal or an open pipe; stdin is /dev/null.
    const ToolResult result = bash({{u"command"_s, u"pwd -P; cat; echo done"_s}});
    QCOMPARE(result.content, m_workspace->root() + u"\ndone\n[exit code: 0]"_s);
}

void TestBashTool::killedBySignal()
{
    const ToolResult result = bash({{u"command"_s, u"echo before; kill -9 $$"_s}});
    QVERIFY(result.isError);
    QCOMPARE(result.exitCode, -1);
    QCOMPARE(result.content, u"before\n[the command was killed by a signal]"_s);
}

void TestBashTool::apiKeysAreNotPassedOn()
{
    // An allow-list (issue #18): a variable of no known use to a command stays out as well;
    // the locale passes.
    qputenv("ANTHROPIC_API_KEY", "sk-test-secret");
    qputenv("OPENAI_API_KEY", "sk-test-secret");
    qputenv("WATERLINE_TEST_PLAIN", "unknown");
    qputenv("LC_WATERLINE_TEST", "visible");
    const ToolResult result = bash({{u"command"_s, u"echo \"[$ANTHROPIC_API_KEY][$OPENAI_API_KEY][$WATERLINE_TEST_PLAIN]"
                                                    "[$LC_WATERLINE_TEST]\""_s}});
    qunsetenv("ANTHROPIC_API_KEY");
    qunsetenv("OPENAI_API_KEY");
    qunsetenv("WATERLINE_TEST_PLAIN");
    qunsetenv("LC_WATERLINE_TEST");
    QCOMPARE(result.content, u"[][][][visible]\n[exit code: 0]"_s);
}

void TestBashTool::timeoutKillsProcessGroup()
{
    QElapsedTimer clock;
    clock.start();
    const ToolResult result = bash({{u"command"_s, u"(sleep 2; touch late) & echo started; wait"_s}, {u"timeout_s"_s, 1}});
    const qint64 elapsed = clock.elapsed();
    QVERIFY2(elapsed < 5000, qPrintable(QString::number(elapsed)));  // 1 s timeout plus start-up on a loaded machine
    QVERIFY(result.isError);
    QCOMPARE(result.exitCode, -1);
    QCOMPARE(result.metadata.value(u"timedOut"_s).toBool(), true);
    QVERIFY2(result.content.contains(u"[timed out after 1 s; the command and every process it started were killed]"_s),
             qPrintable(result.content));
    QCOMPARE(result.content.section(u'\n', 0, 0), u"started"_s);
    QVERIFY2(!wroteLate(u"late"_s), "a process the command started outlived the timeout");
}

void TestBashTool::cancelKillsProcessGroup()
{
    // A grandchild in a subshell is in the same group and must die too.
    std::unique_ptr<ToolRun> run
        = startBash(u"((sleep 2; touch late) & echo $! > grandchild.pid; wait) & sleep 30; echo never"_s);
    QSignalSpy spy(run.get(), &ToolRun::finished);
    const qint64 pid = waitForPidFile(u"grandchild.pid"_s);
    QVERIFY(pid > 0);

    QElapsedTimer clock;
    clock.start();
    run->cancel();
    QVERIFY(spy.wait(1000));
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(spy.size(), 1);
    const ToolResult result = spy.first().first().value<ToolResult>();
    QVERIFY(result.isError);
    QCOMPARE(result.metadata.value(u"cancelled"_s).toBool(), true);
    QVERIFY(result.content.contains(u"stopped by the user"_s));
    QVERIFY(!result.content.contains(u"never"_s));
    QVERIFY2(!wroteLate(u"late"_s), "a process the command started outlived the cancel");
    run->cancel();  // a second cancel changes nothing
    QTest::qWait(50);
    QCOMPARE(spy.size(), 1);
}

void TestBashTool::deletingRunKillsProcessGroup()
{
    std::unique_ptr<ToolRun> run = startBash(u"(sleep 2; touch late) & echo $! > child.pid; wait"_s);
    const qint64 pid = waitForPidFile(u"child.pid"_s);
    QVERIFY(pid > 0);
    run.reset();
    QVERIFY2(!wroteLate(u"late"_s), "a process the command started outlived its run");
}

void TestBashTool::hugeOutputIsCappedInBoundedMemory()
{
    const qint64 peakBefore = peakResidentKb();
    QVERIFY(peakBefore > 0);
    const ToolResult result = bash({{u"command"_s, u"head -c 100000000 /dev/zero | tr '\\0' a"_s}}, 120000);
    // 100 MB went through; memory grew by far less than that.
    const qint64 growthKb = peakResidentKb() - peakBefore;
    QVERIFY2(growthKb < 30 * 1024, qPrintable(u"peak memory grew by %1 kB"_s.arg(growthKb)));
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.metadata.value(u"totalBytes"_s).toInteger(), 100000000);
    QVERIFY(result.metadata.value(u"retainedBytes"_s).toInteger() <= BashTool::outputCap);

    const QString expectedNote = u"[... 99984000 bytes of output left out; 100000000 bytes in total ...]"_s;
    const QStringList lines = result.content.split(u'\n');
    QCOMPARE(lines.size(), 4);  // head, note, tail, exit code
    QCOMPARE(lines[0], QString(BashTool::outputCap / 2, u'a'));
    QCOMPARE(lines[1], expectedNote);
    QCOMPARE(lines[2], QString(BashTool::outputCap / 2, u'a'));
    QCOMPARE(lines[3], u"[exit code: 0]"_s);
    QVERIFY(lines[0].size() + lines[2].size() <= BashTool::outputCap);
}

void TestBashTool::capKeepsUtf8Sequences()
{
    // 300,000 three-byte characters: 8,000 is not a multiple of 3, so both cuts fall inside one.
    const ToolResult result = bash({{u"command"_s, u"head -c 300000 /dev/zero | tr '\\0' x | sed 's/x/上/g'"_s}});
    QCOMPARE(result.exitCode, 0);
    const QStringList lines = result.content.split(u'\n');
    QCOMPARE(lines.size(), 4);
    for (const QString &part : {lines[0], lines[2]}) {
        QVERIFY(!part.isEmpty());
        QVERIFY2(part.count(u'上') == part.size(), "a cut left a partial sequence");
        QVERIFY(part.toUtf8().size() <= BashTool::outputCap / 2);
        QVERIFY(part.toUtf8().size() > BashTool::outputCap / 2 - 3);
    }
    const qint64 kept = lines[0].toUtf8().size() + lines[2].toUtf8().size();
    QVERIFY(lines[1].contains(u"%1 bytes of output left out"_s.arg(900000 - kept)));
}

void TestBashTool::binaryOutputIsNotDumped()
{
    const ToolResult result = bash({{u"command"_s, u"printf 'PK\\003\\004\\000\\000\\377\\376'"_s}});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.content.startsWith(u"[the command wrote 8 bytes of binary output"_s), qPrintable(result.content));
    QVERIFY(!result.content.contains(QChar(0)));
    QVERIFY(!result.content.contains(u"PK"_s));
    QVERIFY(result.content.endsWith(u"[exit code: 0]"_s));
}

void TestBashTool::timeoutIsClamped()
{
    QCOMPARE(bash({{u"command"_s, u"true"_s}, {u"timeout_s"_s, 100000}}).metadata.value(u"timeoutSeconds"_s).toInt(),
             BashTool::maxTimeoutSeconds);
    QCOMPARE(bash({{u"command"_s, u"true"_s}}).metadata.value(u"timeoutSeconds"_s).toInt(),
             BashTool::defaultTimeoutSeconds);
    const ToolResult zero = bash({{u"command"_s, u"true"_s}, {u"timeout_s"_s, 0}});
    QVERIFY(zero.isError);
    QCOMPARE(zero.content, u"invalid arguments for bash: 'timeout_s' must be at least 1"_s);
}

void TestBashTool::emptyCommandIsRefused()
{
    const ToolResult result = bash({{u"command"_s, u"   "_s}});
    QVERIFY(result.isError);
    QCOMPARE(result.content, u"invalid arguments for bash: 'command' is empty"_s);
}

void TestBashTool::approvalCarriesCommand()
{
    const QString command = u"rm -rf build && make -j2 2>&1 | tail -n 20"_s;
    const ApprovalRequest request = m_registry->approvalRequest(
        ToolCall{u"c9"_s, u"bash"_s, QString::fromUtf8(QJsonDocument(QJsonObject{{u"command"_s, command}}).toJson()), true},
        ToolContext{m_workspace.get(), u"s1"_s, u"c9"_s});
    QCOMPARE(request.kind, ApprovalKind::Execute);
    QCOMPARE(request.command, command);
    QCOMPARE(request.callId, u"c9"_s);
    QVERIFY(request.diff.isEmpty());
    QVERIFY(request.problem.isEmpty());
}

QTEST_GUILESS_MAIN(TestBashTool)
#include "tst_bashtool.moc"
