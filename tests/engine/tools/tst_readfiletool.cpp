#include "tools/ReadFileTool.h"
#include "tools/Utf8Text.h"
#include "tools/Workspace.h"

#include "ToolTestHelpers.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace wl;
using namespace Qt::StringLiterals;

class TestReadFileTool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void firstPageOfLargeFile();
    void pageNeverSplitsUtf8_data();
    void pageNeverSplitsUtf8();
    void boundaryLineIsExact();
    void offsetInsideSequenceStartsAtItsLead();
    void limitAboveMaxIsClamped();
    void lastPageHasNoNote();
    void offsetPastEnd_data();
    void offsetPastEnd();
    void emptyFile();
    void binaryFiles_data();
    void binaryFiles();
    void textCutAtSniffBoundaryIsNotBinary();
    void missingFileAndFolder();
    void specialFilesRefusedWithoutBlocking_data();
    void specialFilesRefusedWithoutBlocking();
    void hardLinkIsFlagged();
    void invalidArguments_data();
    void invalidArguments();
    void offloadReadBackIsCounted();

private:
    ToolResult read(const QJsonObject &arguments) { return test::runCall(*m_registry, m_context, u"read_file"_s, arguments); }
    QString path(const QString &relative) const { return m_dir->path() + u'/' + relative; }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<ToolRegistry> m_registry;
    ToolContext m_context;
};

// The page text without the "[showing bytes ...]" line: the first metadata.bytes bytes.
static QString pageText(const ToolResult &result)
{
    const QByteArray content = result.content.toUtf8();
    const qint64 bytes = result.metadata.value(u"bytes"_s).toInteger(content.size());
    if (result.metadata.contains(u"nextOffset"_s)) {
        // Whatever follows the page is one optional line break and the note line.
        static const QRegularExpression note(u"^\\n?\\[showing bytes \\d+-\\d+ of \\d+ total; next offset: \\d+\\]$"_s);
        const QString rest = QString::fromUtf8(content.mid(bytes));
        if (!note.match(rest).hasMatch())
            return u"UNEXPECTED TAIL: "_s + rest;
    }
    return QString::fromUtf8(content.left(bytes));
}

void TestReadFileTool::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_workspace = std::make_unique<Workspace>(m_dir->path());
    m_registry = ToolRegistry::createDefault();
    m_context = ToolContext{m_workspace.get(), u"s1"_s, u"call-1"_s};
}

void TestReadFileTool::firstPageOfLargeFile()
{
    QByteArray bytes;
    for (int i = 0; bytes.size() < 20000; ++i)
        bytes += "line " + QByteArray::number(i) + '\n';
    QVERIFY(test::writeBytes(path(u"big.txt"_s), bytes));
    const ToolResult result = read({{u"path"_s, u"big.txt"_s}});
    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.metadata.value(u"bytes"_s).toInteger(), ReadFileTool::defaultLimit);
    QCOMPARE(result.metadata.value(u"nextOffset"_s).toInteger(), ReadFileTool::defaultLimit);
    QCOMPARE(result.metadata.value(u"totalBytes"_s).toInteger(), bytes.size());
    QCOMPARE(pageText(result).toUtf8(), bytes.left(ReadFileTool::defaultLimit));
    QVERIFY2(result.content.endsWith(u"next offset: 8192]"_s), qPrintable(result.content.right(80)));
    QVERIFY(result.content.contains(u"of %1 total"_s.arg(bytes.size())));
}

void TestReadFileTool::pageNeverSplitsUtf8_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("limit");
    const QString cjk = u"上下文压缩引擎把旧的工具结果移到文件里。"_s.repeated(5);
    const QString emoji = u"🚀🌊✨ok🧭"_s.repeated(7);
    const QString mixed = u"a上🚀bé\n"_s.repeated(9);
    for (int limit : {1, 2, 3, 4, 5, 7, 10, 13, 64}) {
        QTest::addRow("cjk limit %d", limit) << cjk << limit;
        QTest::addRow("emoji limit %d", limit) << emoji << limit;
        QTest::addRow("mixed limit %d", limit) << mixed << limit;
    }
}

void TestReadFileTool::pageNeverSplitsUtf8()
{
    QFETCH(QString, text);
    QFETCH(int, limit);
    const QByteArray bytes = text.toUtf8();
    QVERIFY(test::writeBytes(path(u"utf8.txt"_s), bytes));

    // Page through the whole file by following "next offset"; the pages must add up to the file.
    QByteArray reassembled;
    qint64 offset = 0;
    int pages = 0;
    while (true) {
        const ToolResult result = read({{u"path"_s, u"utf8.txt"_s}, {u"offset"_s, offset}, {u"limit"_s, limit}});
        QVERIFY2(!result.isError, qPrintable(result.content));
        const QByteArray page = pageText(result).toUtf8();
        QVERIFY(!page.isEmpty());
        QVERIFY2(Utf8Text::isValid(page), "a page split a UTF-8 sequence");
        QCOMPARE(result.metadata.value(u"offset"_s).toInteger(), offset);
        QVERIFY(page.size() <= qMax(limit, 4));
        reassembled += page;
        ++pages;
        QVERIFY(pages <= bytes.size());
        if (!result.metadata.contains(u"nextOffset"_s))
            break;
        const qint64 next = result.metadata.value(u"nextOffset"_s).toInteger();
        QCOMPARE(next, offset + page.size());
        QVERIFY2(result.content.contains(u"next offset: %1]"_s.arg(next)), qPrintable(result.content));
        offset = next;
    }
    QCOMPARE(reassembled, bytes);
}

void TestReadFileTool::boundaryLineIsExact()
{
    // "上" is 3 bytes: a limit of 3 from offset 0 must stop before it.
    QVERIFY(test::writeBytes(path(u"b.txt"_s), u"ab上x"_s.toUtf8()));
    const ToolResult result = read({{u"path"_s, u"b.txt"_s}, {u"limit"_s, 3}});
    QCOMPARE(result.content, u"ab\n[showing bytes 0-2 of 6 total; next offset: 2]"_s);
    const ToolResult next = read({{u"path"_s, u"b.txt"_s}, {u"offset"_s, 2}, {u"limit"_s, 3}});
    QCOMPARE(next.content, u"上\n[showing bytes 2-5 of 6 total; next offset: 5]"_s);
}

void TestReadFileTool::offsetInsideSequenceStartsAtItsLead()
{
    QVERIFY(test::writeBytes(path(u"b.txt"_s), u"ab🚀x"_s.toUtf8()));
    for (int offset : {3, 4, 5}) {
        const ToolResult result = read({{u"path"_s, u"b.txt"_s}, {u"offset"_s, offset}});
        QCOMPARE(result.content, u"🚀x"_s);
        QCOMPARE(result.metadata.value(u"offset"_s).toInteger(), 2);
    }
}

void TestReadFileTool::limitAboveMaxIsClamped()
{
    const QByteArray bytes(100000, 'z');
    QVERIFY(test::writeBytes(path(u"z.txt"_s), bytes));
    const ToolResult result = read({{u"path"_s, u"z.txt"_s}, {u"limit"_s, 1000000}});
    QVERIFY(!result.isError);
    QCOMPARE(pageText(result).size(), ReadFileTool::maxLimit);
    QCOMPARE(result.metadata.value(u"nextOffset"_s).toInteger(), ReadFileTool::maxLimit);
    QCOMPARE(result.metadata.value(u"limitClampedTo"_s).toInteger(), ReadFileTool::maxLimit);
    QVERIFY(result.content.endsWith(u"of 100000 total; next offset: 65536]"_s));
}

void TestReadFileTool::lastPageHasNoNote()
{
    QVERIFY(test::writeBytes(path(u"s.txt"_s), "0123456789"));
    const ToolResult result = read({{u"path"_s, u"s.txt"_s}, {u"offset"_s, 4}});
    QCOMPARE(result.content, u"456789"_s);
    QVERIFY(!result.metadata.contains(u"nextOffset"_s));
}

void TestReadFileTool::offsetPastEnd_data()
{
    QTest::addColumn<int>("offset");
    QTest::newRow("at end") << 10;
    QTest::newRow("past end") << 11;
    QTest::newRow("far past end") << 1000000;
}

void TestReadFileTool::offsetPastEnd()
{
    QFETCH(int, offset);
    QVERIFY(test::writeBytes(path(u"s.txt"_s), "0123456789"));
    const ToolResult result = read({{u"path"_s, u"s.txt"_s}, {u"offset"_s, offset}});
    QVERIFY(result.isError);
    QCOMPARE(result.content, u"offset %1 is past the end of 's.txt' (10 bytes)"_s.arg(offset));
}

void TestReadFileTool::emptyFile()
{
    QVERIFY(test::writeBytes(path(u"empty.txt"_s), QByteArray()));
    const ToolResult result = read({{u"path"_s, u"empty.txt"_s}});
    QVERIFY(!result.isError);
    QVERIFY(result.content.contains(u"empty"_s));
    QCOMPARE(result.metadata.value(u"totalBytes"_s).toInteger(), 0);
}

void TestReadFileTool::binaryFiles_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("nul byte") << QByteArray("text\0more", 9);
    QTest::newRow("invalid utf8") << QByteArray("caf\xe9 au lait");
    QTest::newRow("png header") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
    QTest::newRow("nul late in sniff window") << QByteArray(8000, 'a') + QByteArray(1, '\0') + QByteArray(100, 'b');
}

void TestReadFileTool::binaryFiles()
{
    QFETCH(QByteArray, bytes);
    QVERIFY(test::writeBytes(path(u"bin.dat"_s), bytes));
    const ToolResult result = read({{u"path"_s, u"bin.dat"_s}});
    QVERIFY(result.isError);
    QCOMPARE(result.content, u"'bin.dat' is a binary file (%1 bytes); read_file shows text files only"_s.arg(bytes.size()));
    QCOMPARE(result.metadata.value(u"binary"_s).toBool(), true);
}

void TestReadFileTool::textCutAtSniffBoundaryIsNotBinary()
{
    // The 8 KB sniff window ends inside "上": that is a cut, not invalid UTF-8.
    QByteArray bytes(8191, 'a');
    bytes += u"上下文"_s.toUtf8();
    QVERIFY(test::writeBytes(path(u"t.txt"_s), bytes));
    const ToolResult result = read({{u"path"_s, u"t.txt"_s}, {u"offset"_s, 8191}});
    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.content, u"上下文"_s);
}

void TestReadFileTool::missingFileAndFolder()
{
    QVERIFY(QDir(m_dir->path()).mkdir(u"folder"_s));
    const ToolResult missing = read({{u"path"_s, u"nope.txt"_s}});
    QVERIFY(missing.isError);
    QCOMPARE(missing.content, u"file not found: 'nope.txt'"_s);
    const ToolResult folder = read({{u"path"_s, u"folder"_s}});
    QVERIFY(folder.isError);
    QVERIFY2(folder.content.contains(u"is a folder"_s), qPrintable(folder.content));
    const ToolResult escape = read({{u"path"_s, u"../x"_s}});
    QVERIFY(escape.isError);
    QVERIFY2(escape.content.startsWith(u"path '../x' is outside the workspace"_s), qPrintable(escape.content));
}

void TestReadFileTool::specialFilesRefusedWithoutBlocking_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("fifo") << u"fifo"_s << u"is a FIFO"_s;
    QTest::newRow("socket") << u"socket"_s << u"is a socket"_s;
}

void TestReadFileTool::specialFilesRefusedWithoutBlocking()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    const QByteArray special = QFile::encodeName(path(u"special"_s));
    int listener = -1;
    if (kind == u"fifo") {
        QVERIFY(::mkfifo(special.constData(), 0600) == 0);
    } else {
        listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
        QVERIFY(listener >= 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        QVERIFY(size_t(special.size()) < sizeof(address.sun_path));
        std::memcpy(address.sun_path, special.constData(), size_t(special.size()));
        QVERIFY(::bind(listener, reinterpret_cast<const sockaddr *>(&address), sizeof(address)) == 0);
    }
    const auto cleanup = qScopeGuard([&] {
        if (listener >= 0)
            ::close(listener);
        // A reader stuck on the FIFO (the old behaviour) is released by a writer coming and going.
        const int writer = ::open(special.constData(), O_WRONLY | O_NONBLOCK);
        if (writer >= 0)
            ::close(writer);
    });
    // Opening a FIFO for reading blocks until a writer comes: the tool must answer at once.
    QElapsedTimer timer;
    timer.start();
    const ToolResult result = test::runCall(*m_registry, m_context, u"read_file"_s, QJsonObject{{u"path"_s, u"special"_s}}, 3000);
    QVERIFY2(result.isError, qPrintable(result.content));
    QVERIFY2(result.content.contains(message), qPrintable(result.content));
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
}

void TestReadFileTool::hardLinkIsFlagged()
{
    // A hard link looks like any file in the workspace, but it is the same file as one outside.
    QTemporaryDir outside;
    QVERIFY(outside.isValid());
    QVERIFY(test::writeBytes(outside.path() + u"/key.txt"_s, "outside content\n"));
    QVERIFY(::link(QFile::encodeName(outside.path() + u"/key.txt"_s).constData(),
                   QFile::encodeName(path(u"innocent.txt"_s)).constData()) == 0);
    const ToolResult result = read({{u"path"_s, u"innocent.txt"_s}});
    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.metadata.value(u"hardLinks"_s).toInteger(), 2);
    QVERIFY2(result.content.contains(u"has 2 hard links"_s), qPrintable(result.content));
    QVERIFY(result.content.startsWith(u"outside content\n"_s));

    // A file with one name is not flagged.
    QVERIFY(test::writeBytes(path(u"plain.txt"_s), "plain\n"));
    const ToolResult plain = read({{u"path"_s, u"plain.txt"_s}});
    QVERIFY(!plain.metadata.contains(u"hardLinks"_s));
    QCOMPARE(plain.content, u"plain\n"_s);
}

void TestReadFileTool::invalidArguments_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("no path") << u"{}"_s << u"invalid arguments for read_file: 'path' is required"_s;
    QTest::newRow("path not a string") << u"{\"path\": 7}"_s
                                       << u"invalid arguments for read_file: 'path' must be a string, got a number"_s;
    QTest::newRow("limit zero") << u"{\"path\": \"a\", \"limit\": 0}"_s
                                << u"invalid arguments for read_file: 'limit' must be at least 1"_s;
    QTest::newRow("negative offset") << u"{\"path\": \"a\", \"offset\": -5}"_s
                                     << u"invalid arguments for read_file: 'offset' must be at least 0"_s;
    QTest::newRow("offset fraction") << u"{\"path\": \"a\", \"offset\": 1.5}"_s
                                     << u"invalid arguments for read_file: 'offset' must be an integer, got a number"_s;
    QTest::newRow("offset string") << u"{\"path\": \"a\", \"offset\": \"10\"}"_s
                                   << u"invalid arguments for read_file: 'offset' must be an integer, got a string"_s;
}

void TestReadFileTool::invalidArguments()
{
    QFETCH(QString, arguments);
    QFETCH(QString, message);
    const ToolResult result = test::runCall(*m_registry, m_context, u"read_file"_s, arguments);
    QVERIFY(result.isError);
    QCOMPARE(result.content, message);
}

void TestReadFileTool::offloadReadBackIsCounted()
{
    const QString offloaded = u".waterline/tool_results/s1/call_7.txt"_s;
    QVERIFY(test::writeBytes(path(offloaded), "the full output\n"));
    QVERIFY(test::writeBytes(path(u"plain.txt"_s), "plain\n"));
    QSignalSpy spy(m_workspace.get(), &Workspace::offloadReadBack);

    QCOMPARE(read({{u"path"_s, offloaded}}).content, u"the full output\n"_s);
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), offloaded);
    QCOMPARE(spy.at(0).at(1).toInt(), 1);

    // An absolute path to the same file counts under the same relative name.
    read({{u"path"_s, path(offloaded)}});
    QCOMPARE(m_workspace->offloadReadCount(offloaded), 2);

    // Ordinary files and failed reads are not counted.
    read({{u"path"_s, u"plain.txt"_s}});
    read({{u"path"_s, offloaded}, {u"offset"_s, 999}});
    QCOMPARE(spy.size(), 2);
}

QTEST_GUILESS_MAIN(TestReadFileTool)
#include "tst_readfiletool.moc"
