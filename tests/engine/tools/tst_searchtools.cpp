// glob and grep, and the pattern and walk they share.
#include "tools/GlobPattern.h"
#include "tools/GlobTool.h"
#include "tools/GrepTool.h"
#include "tools/Workspace.h"

#include "ToolTestHelpers.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace wl;
using namespace Qt::StringLiterals;

class TestSearchTools : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void globPattern_data();
    void globPattern();
    void glob_data();
    void glob();
    void globCapsResults();
    void globRefusals_data();
    void globRefusals();
    void grep_data();
    void grep();
    void grepCapsResults();
    void grepShortensLongLines();
    void grepInvalidRegex();
    void grepFlagsHardLinksAndSkipsSpecialFiles();

private:
    ToolResult call(const QString &tool, const QJsonObject &arguments)
    {
        return test::runCall(*m_registry, m_context, tool, arguments);
    }
    QString path(const QString &relative) const { return m_root + u'/' + relative; }

    QTemporaryDir m_dir;
    QString m_root;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<ToolRegistry> m_registry;
    ToolContext m_context;
};

void TestSearchTools::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_root = m_dir.path() + u"/ws"_s;
    QVERIFY(test::writeBytes(path(u"README.md"_s), "# Demo\nTODO: write docs\n"));
    QVERIFY(test::writeBytes(path(u"src/main.cpp"_s), "int main()\n{\n    return run(); // TODO tidy\n}\n"));
    QVERIFY(test::writeBytes(path(u"src/run.h"_s), "int run();\r\n"));
    QVERIFY(test::writeBytes(path(u"src/engine/core.cpp"_s), "// Core engine\nint run() { return 0; }\n"));
    QVERIFY(test::writeBytes(path(u"src/engine/上下文.txt"_s), u"上下文 TODO 压缩\n"_s.toUtf8()));
    QVERIFY(test::writeBytes(path(u"docs/guide.md"_s), "todo lower case\n"));
    QVERIFY(test::writeBytes(path(u"assets/logo.bin"_s), QByteArray("TODO\0\x01\x02", 7)));
    QVERIFY(test::writeBytes(path(u".git/config"_s), "TODO in git\n"));
    QVERIFY(test::writeBytes(path(u".waterline/tool_results/s1/c1.txt"_s), "TODO offloaded\n"));
    QVERIFY(test::writeBytes(path(u".hidden.cpp"_s), "// TODO hidden\n"));
    QVERIFY(test::writeBytes(m_dir.path() + u"/outside/secret.cpp"_s, "TODO secret\n"));
    QVERIFY(QFile::link(m_dir.path() + u"/outside"_s, path(u"outlink"_s)));
    QVERIFY(QFile::link(m_dir.path() + u"/outside/secret.cpp"_s, path(u"secretlink.cpp"_s)));
    QVERIFY(QFile::link(u"src/run.h"_s, path(u"alias.h"_s)));
    QVERIFY(QFile::link(u"."_s, path(u"src/self"_s)));  // a loop, if it were followed
    QByteArray large;
    while (large.size() <= GrepTool::maxFileBytes)
        large += "TODO filler line for a large file\n";
    QVERIFY(test::writeBytes(path(u"data/large.log"_s), large));

    m_workspace = std::make_unique<Workspace>(m_root);
    m_registry = ToolRegistry::createDefault();
    m_context = ToolContext{m_workspace.get(), u"s1"_s, u"c"_s};
}

void TestSearchTools::globPattern_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("matches");
    QTest::newRow("star in folder") << u"*.cpp"_s << u"main.cpp"_s << true;
    QTest::newRow("star stays in folder") << u"*.cpp"_s << u"src/main.cpp"_s << false;
    QTest::newRow("globstar any depth") << u"**/*.cpp"_s << u"src/engine/core.cpp"_s << true;
    QTest::newRow("globstar zero folders") << u"**/*.cpp"_s << u"main.cpp"_s << true;
    QTest::newRow("globstar in middle") << u"src/**/core.cpp"_s << u"src/core.cpp"_s << true;
    QTest::newRow("trailing globstar") << u"src/**"_s << u"src/a/b/c.txt"_s << true;
    QTest::newRow("question mark") << u"r?n.h"_s << u"run.h"_s << true;
    QTest::newRow("question mark not slash") << u"a?b"_s << u"a/b"_s << false;
    QTest::newRow("class") << u"[mr]*.cpp"_s << u"main.cpp"_s << true;
    QTest::newRow("negated class") << u"[!m]*.cpp"_s << u"main.cpp"_s << false;
    QTest::newRow("braces") << u"*.{h,cpp}"_s << u"run.h"_s << true;
    QTest::newRow("braces miss") << u"*.{h,cpp}"_s << u"run.c"_s << false;
    QTest::newRow("dot is literal") << u"*.cpp"_s << u"mainXcpp"_s << false;
    QTest::newRow("regex chars literal") << u"a+(b).txt"_s << u"a+(b).txt"_s << true;
    QTest::newRow("leading dot slash") << u"./src/*.h"_s << u"src/run.h"_s << true;
    QTest::newRow("unclosed bracket literal") << u"a[b"_s << u"a[b"_s << true;
}

void TestSearchTools::globPattern()
{
    QFETCH(QString, pattern);
    QFETCH(QString, path);
    QFETCH(bool, matches);
    const QRegularExpression regex = GlobPattern::toRegularExpression(pattern);
    QVERIFY2(regex.isValid(), qPrintable(regex.errorString()));
    QCOMPARE(regex.match(path).hasMatch(), matches);
}

void TestSearchTools::glob_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("expected");
    QTest::newRow("top level only") << u"*.md"_s << QString() << u"README.md"_s;
    QTest::newRow("recursive, skips .git .waterline and links out")
        << u"**/*.cpp"_s << QString() << u".hidden.cpp\nsrc/engine/core.cpp\nsrc/main.cpp"_s;
    QTest::newRow("in a folder, paths from the root") << u"*.cpp"_s << u"src/engine"_s << u"src/engine/core.cpp"_s;
    QTest::newRow("link to a file inside is listed") << u"*.h"_s << QString() << u"alias.h"_s;
    QTest::newRow("unicode names") << u"**/*.txt"_s << u"src"_s << u"src/engine/上下文.txt"_s;
    QTest::newRow("offloaded results when asked for") << u"*"_s << u".waterline/tool_results/s1"_s
                                                      << u".waterline/tool_results/s1/c1.txt"_s;
}

void TestSearchTools::glob()
{
    QFETCH(QString, pattern);
    QFETCH(QString, folder);
    QFETCH(QString, expected);
    QJsonObject arguments{{u"pattern"_s, pattern}};
    if (!folder.isEmpty())
        arguments.insert(u"path"_s, folder);
    const ToolResult result = call(u"glob"_s, arguments);
    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.content, expected);
}

void TestSearchTools::globCapsResults()
{
    QTemporaryDir dir;
    for (int i = 0; i < GlobTool::maxResults + 20; ++i)
        QVERIFY(test::writeBytes(dir.path() + u"/f%1.txt"_s.arg(i, 4, 10, QChar(u'0')), "x"));
    Workspace workspace(dir.path());
    const ToolResult result
        = test::runCall(*m_registry, ToolContext{&workspace, u"s"_s, u"c"_s}, u"glob"_s, QJsonObject{{u"pattern"_s, u"*.txt"_s}});
    const QStringList lines = result.content.split(u'\n');
    QCOMPARE(lines.size(), GlobTool::maxResults + 1);
    QCOMPARE(lines.last(), u"[showing %1 of %2 matches; narrow the pattern or the path]"_s.arg(GlobTool::maxResults).arg(GlobTool::maxResults + 20));
    QCOMPARE(result.metadata.value(u"matches"_s).toInteger(), GlobTool::maxResults + 20);
}

void TestSearchTools::globRefusals_data()
{
    QTest::addColumn<QJsonObject>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("outside") << QJsonObject{{u"pattern"_s, u"*"_s}, {u"path"_s, u".."_s}} << u"outside the workspace"_s;
    QTest::newRow("link out") << QJsonObject{{u"pattern"_s, u"*"_s}, {u"path"_s, u"outlink"_s}}
                              << u"through a symbolic link"_s;
    QTest::newRow("not a folder") << QJsonObject{{u"pattern"_s, u"*"_s}, {u"path"_s, u"README.md"_s}} << u"is not a folder"_s;
    QTest::newRow("absolute pattern") << QJsonObject{{u"pattern"_s, u"/etc/*"_s}} << u"must be relative"_s;
    QTest::newRow("no pattern") << QJsonObject{{u"path"_s, u"src"_s}} << u"invalid arguments for glob: 'pattern' is required"_s;
}

void TestSearchTools::globRefusals()
{
    QFETCH(QJsonObject, arguments);
    QFETCH(QString, message);
    const ToolResult result = call(u"glob"_s, arguments);
    QVERIFY(result.isError);
    QVERIFY2(result.content.contains(message), qPrintable(result.content));
}

void TestSearchTools::grep_data()
{
    QTest::addColumn<QJsonObject>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("whole workspace, skips binary, large, .git, .waterline, links out")
        << QJsonObject{{u"pattern"_s, u"TODO"_s}}
        << u".hidden.cpp:1: // TODO hidden\nREADME.md:2: TODO: write docs\nsrc/main.cpp:3:     return run(); // TODO tidy\n"
           "src/engine/上下文.txt:1: 上下文 TODO 压缩\n[1 files over 4 MB were not searched]"_s;
    QTest::newRow("ignore case") << QJsonObject{{u"pattern"_s, u"TODO LOWER"_s}, {u"ignore_case"_s, true}, {u"path"_s, u"docs"_s}}
                                 << u"docs/guide.md:1: todo lower case"_s;
    QTest::newRow("case sensitive by default") << QJsonObject{{u"pattern"_s, u"TODO LOWER"_s}, {u"path"_s, u"docs"_s}}
                                               << u"no matches for 'TODO LOWER' in 'docs' (1 files searched)"_s;
    QTest::newRow("glob on names") << QJsonObject{{u"pattern"_s, u"run\\("_s}, {u"glob"_s, u"*.h"_s}}
                                   << u"alias.h:1: int run();\nsrc/run.h:1: int run();"_s;
    QTest::newRow("glob on paths") << QJsonObject{{u"pattern"_s, u"run"_s}, {u"glob"_s, u"src/engine/*"_s}}
                                   << u"src/engine/core.cpp:2: int run() { return 0; }"_s;
    QTest::newRow("one file") << QJsonObject{{u"pattern"_s, u"^\\}$"_s}, {u"path"_s, u"src/main.cpp"_s}}
                              << u"src/main.cpp:4: }"_s;
    QTest::newRow("regex features") << QJsonObject{{u"pattern"_s, u"\\bint\\s+\\w+\\(\\)\\s*\\{"_s}, {u"path"_s, u"src"_s}}
                                    << u"src/engine/core.cpp:2: int run() { return 0; }"_s;
    QTest::newRow("offloaded results when asked for")
        << QJsonObject{{u"pattern"_s, u"TODO"_s}, {u"path"_s, u".waterline"_s}}
        << u".waterline/tool_results/s1/c1.txt:1: TODO offloaded"_s;
}

void TestSearchTools::grep()
{
    QFETCH(QJsonObject, arguments);
    QFETCH(QString, expected);
    const ToolResult result = call(u"grep"_s, arguments);
    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.content, expected);
}

void TestSearchTools::grepCapsResults()
{
    const ToolResult result = call(u"grep"_s, {{u"pattern"_s, u"."_s}, {u"path"_s, u"src"_s}, {u"max_results"_s, 3}});
    const QStringList lines = result.content.split(u'\n');
    QCOMPARE(lines.size(), 4);
    QVERIFY2(lines.last().startsWith(u"[reached max_results (3 lines)"_s), qPrintable(lines.last()));
    QCOMPARE(result.metadata.value(u"capped"_s).toBool(), true);
    QCOMPARE(result.metadata.value(u"matches"_s).toInteger(), 3);
}

void TestSearchTools::grepShortensLongLines()
{
    QTemporaryDir dir;
    QVERIFY(test::writeBytes(dir.path() + u"/long.txt"_s, "needle " + QByteArray(5000, 'x') + '\n'));
    Workspace workspace(dir.path());
    const ToolResult result = test::runCall(*m_registry, ToolContext{&workspace, u"s"_s, u"c"_s}, u"grep"_s,
                                            QJsonObject{{u"pattern"_s, u"needle"_s}});
    QCOMPARE(result.content, u"long.txt:1: needle "_s + QString(GrepTool::maxLineChars - 7, u'x') + u"…"_s);
}

void TestSearchTools::grepInvalidRegex()
{
    const ToolResult result = call(u"grep"_s, {{u"pattern"_s, u"foo(bar"_s}});
    QVERIFY(result.isError);
    QVERIFY2(result.content.startsWith(u"invalid regular expression 'foo(bar': "_s), qPrintable(result.content));
    QVERIFY(result.content.contains(u"at offset 7"_s));
}

void TestSearchTools::grepFlagsHardLinksAndSkipsSpecialFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString root = dir.path() + u"/ws"_s;
    QVERIFY(test::writeBytes(root + u"/plain.txt"_s, "needle inside\n"));
    QVERIFY(test::writeBytes(dir.path() + u"/outside.txt"_s, "needle from outside\n"));
    QVERIFY(::link(QFile::encodeName(dir.path() + u"/outside.txt"_s).constData(),
                   QFile::encodeName(root + u"/hard.txt"_s).constData()) == 0);
    // A FIFO in the walk would block a reader forever: it is passed over, not opened.
    QVERIFY(::mkfifo(QFile::encodeName(root + u"/pipe.txt"_s).constData(), 0600) == 0);
    Workspace workspace(root);
    const ToolResult result = test::runCall(*m_registry, ToolContext{&workspace, u"s"_s, u"c"_s}, u"grep"_s,
                                            QJsonObject{{u"pattern"_s, u"needle"_s}}, 5000);
    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.metadata.value(u"filesSearched"_s).toInteger(), 2);
    QCOMPARE(result.metadata.value(u"hardLinked"_s).toArray(), QJsonArray{u"hard.txt"_s});
    QVERIFY2(result.content.contains(u"have several hard links"_s), qPrintable(result.content));
    QVERIFY(result.content.startsWith(u"hard.txt:1: needle from outside\nplain.txt:1: needle inside\n"_s));
}

QTEST_GUILESS_MAIN(TestSearchTools)
#include "tst_searchtools.moc"
