// Tool-kind detection and what the extractive summariser reads from one tool call: names of every
// agent whose transcripts Waterline imports, paths and commands from arguments that are JSON,
// argv arrays, patches, bare command lines or broken, and plan tools' open steps.
#include "compaction/CallFacts.h"
#include "compaction/ToolKind.h"
#include "model/ToolCall.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestCallFacts : public QObject
{
    Q_OBJECT

private:
    static ToolCall call(const QString &name, const QString &arguments, bool valid = true)
    {
        ToolCall c;
        c.id = u"call_1"_s;
        c.name = name;
        c.arguments = arguments;
        c.argumentsValid = valid;
        return c;
    }

private Q_SLOTS:
    void toolKind_data();
    void toolKind();
    void paths_data();
    void paths();
    void command_data();
    void command();
    void commandLinesAreOneLineAtEachWidth();
    void planSteps();
};

void TestCallFacts::toolKind_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("kind");
    const auto edit = int(ToolKind::Edit), shell = int(ToolKind::Shell), read = int(ToolKind::Read);
    const auto plan = int(ToolKind::Plan), other = int(ToolKind::Other);
    QTest::newRow("waterline write_file") << u"write_file"_s << edit;
    QTest::newRow("waterline edit_file") << u"edit_file"_s << edit;
    QTest::newRow("codex apply_patch") << u"apply_patch"_s << edit;
    QTest::newRow("openhands str_replace_editor") << u"str_replace_editor"_s << edit;
    QTest::newRow("claude code Write, any case") << u"Write"_s << edit;
    QTest::newRow("claude code MultiEdit") << u"MultiEdit"_s << edit;
    QTest::newRow("claude code NotebookEdit") << u"NotebookEdit"_s << edit;
    QTest::newRow("cline replace_in_file") << u"replace_in_file"_s << edit;
    QTest::newRow("bash") << u"bash"_s << shell;
    QTest::newRow("claude code Bash") << u"Bash"_s << shell;
    QTest::newRow("codex shell") << u"shell"_s << shell;
    QTest::newRow("codex exec_command") << u"exec_command"_s << shell;
    QTest::newRow("openhands execute_bash") << u"execute_bash"_s << shell;
    QTest::newRow("upper case") << u"RUN_TERMINAL_CMD"_s << shell;
    QTest::newRow("read_file") << u"read_file"_s << read;
    QTest::newRow("claude code Read") << u"Read"_s << read;
    QTest::newRow("swe-agent open") << u"open"_s << read;
    QTest::newRow("codex update_plan") << u"update_plan"_s << plan;
    QTest::newRow("claude code TodoWrite") << u"TodoWrite"_s << plan;
    QTest::newRow("grep is other") << u"grep"_s << other;
    QTest::newRow("empty") << QString() << other;
    QTest::newRow("prefix of a known name") << u"bas"_s << other;
    QTest::newRow("known name with a space") << u"bash "_s << other;
    QTest::newRow("dotless I does not fold to i") << u"ed\u0131t"_s << other;
}

void TestCallFacts::toolKind()
{
    QFETCH(QString, name);
    QFETCH(int, kind);
    QCOMPARE(int(toolKindOf(name)), kind);
    QCOMPARE(int(CallFacts::of(call(name, u"{}"_s)).kind), kind);
}

void TestCallFacts::paths_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QStringList>("paths");
    QTest::addColumn<int>("kind");
    const auto edit = int(ToolKind::Edit), read = int(ToolKind::Read);
    QTest::newRow("path") << u"write_file"_s << uR"({"path": "src/a.cpp", "content": "x"})"_s << QStringList{u"src/a.cpp"_s} << edit;
    QTest::newRow("file_path, escaped") << u"Edit"_s << uR"({"file_path": "C:\\src\\a b.cpp"})"_s
                                        << QStringList{u"C:\\src\\a b.cpp"_s} << edit;
    QTest::newRow("first path only") << u"edit_file"_s << uR"({"path": "a", "path": "b"})"_s << QStringList{u"a"_s} << edit;
    QTest::newRow("a path key inside a value does not count")
        << u"write_file"_s << uR"({"content": "{\"path\": \"evil\"}", "path": "good"})"_s << QStringList{u"good"_s} << edit;
    QTest::newRow("str_replace_editor view reads") << u"str_replace_editor"_s << uR"({"command": "view", "path": "/r/x.py"})"_s
                                                   << QStringList{u"/r/x.py"_s} << read;
    QTest::newRow("str_replace_editor create edits") << u"str_replace_editor"_s << uR"({"command": "create", "path": "/r/y.py"})"_s
                                                     << QStringList{u"/r/y.py"_s} << edit;
    QTest::newRow("codex patch") << u"apply_patch"_s
                                 << uR"({"input": "*** Begin Patch\n*** Update File: src/m.rs\n@@\n-a\n+b\n*** Add File: src/n.rs\n"})"_s
                                 << QStringList{u"src/m.rs"_s, u"src/n.rs"_s} << edit;
    QTest::newRow("unified diff") << u"apply_diff"_s << u"--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n"_s << QStringList{u"x.c"_s} << edit;
    QTest::newRow("no path") << u"write_file"_s << uR"({"content": "x"})"_s << QStringList{} << edit;
    QTest::newRow("broken JSON") << u"write_file"_s << uR"({"path": "unterminated)"_s << QStringList{} << edit;
    QTest::newRow("path past 4 KB is not read") << u"write_file"_s
                                                << uR"({"content": ")"_s + QString(5000, u'x') + uR"(", "path": "late"})"_s
                                                << QStringList{} << edit;
}

void TestCallFacts::paths()
{
    QFETCH(QString, name);
    QFETCH(QString, arguments);
    QFETCH(QStringList, paths);
    QFETCH(int, kind);
    const CallFacts facts = CallFacts::of(call(name, arguments));
    QCOMPARE(facts.paths, paths);
    QCOMPARE(int(facts.kind), kind);
    QCOMPARE(facts.name, name);
}

void TestCallFacts::command_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("command");
    QTest::newRow("command") << uR"({"command": "make test"})"_s << true << u"make test"_s;
    QTest::newRow("cmd") << uR"({"cmd": "ls -la"})"_s << true << u"ls -la"_s;
    QTest::newRow("escaped") << uR"({"command": "echo \"hi\"\nls"})"_s << true << u"echo \"hi\"\nls"_s;
    QTest::newRow("argv with -lc") << uR"({"command": ["bash", "-lc", "cargo build"]})"_s << true << u"cargo build"_s;
    QTest::newRow("argv") << uR"({"command": ["git", "status"]})"_s << true << u"git status"_s;
    QTest::newRow("bare command line") << u"pytest -x"_s << false << u"pytest -x"_s;
    QTest::newRow("no command") << uR"({"timeout": 5})"_s << true << QString();
}

void TestCallFacts::command()
{
    QFETCH(QString, arguments);
    QFETCH(bool, valid);
    QFETCH(QString, command);
    const CallFacts facts = CallFacts::of(call(u"bash"_s, arguments, valid));
    QCOMPARE(facts.command, command);
}

void TestCallFacts::commandLinesAreOneLineAtEachWidth()
{
    const QString longCommand = u"# build\n  "_s + QString(300, u'a') + u"\n"_s;
    for (const QString &command : {u"make   -j2\n&& ctest"_s, longCommand}) {
        ToolCall c = call(u"bash"_s, {}, true);
        c.arguments = QString::fromUtf8(QJsonDocument(QJsonObject{{u"command"_s, command}}).toJson(QJsonDocument::Compact));
        const CallFacts facts = CallFacts::of(c);
        QCOMPARE(facts.command, command);
        for (qsizetype width : CallFacts::kCommandWidths) {
            const QString line = facts.commandLine(width);
            QVERIFY2(line.size() <= width, qPrintable(line));
            QVERIFY(!line.contains(u'\n'));
            QVERIFY(!line.startsWith(u'#'));
        }
    }
    QCOMPARE(CallFacts::of(call(u"bash"_s, uR"({"command": "make   -j2\n&& ctest"})"_s)).commandLine(60), u"make -j2 && ctest"_s);
}

void TestCallFacts::planSteps()
{
    const CallFacts codex = CallFacts::of(call(u"update_plan"_s,
        uR"({"plan": [{"step": "Read code", "status": "completed"}, {"step": "Fix bug", "status": "in_progress"}, {"step": "Test", "status": "pending"}]})"_s));
    QCOMPARE(int(codex.kind), int(ToolKind::Plan));
    QCOMPARE(codex.pendingSteps, (QStringList{u"Fix bug"_s, u"Test"_s}));
    const CallFacts claude = CallFacts::of(call(u"TodoWrite"_s,
        uR"({"todos": [{"content": "Write\n  tests", "status": "pending"}, {"content": "", "status": "pending"}]})"_s));
    QCOMPARE(claude.pendingSteps, QStringList{u"Write tests"_s});
    QVERIFY(CallFacts::of(call(u"update_plan"_s, u"not json"_s, false)).pendingSteps.isEmpty());
}

QTEST_GUILESS_MAIN(TestCallFacts)
#include "tst_callfacts.moc"
