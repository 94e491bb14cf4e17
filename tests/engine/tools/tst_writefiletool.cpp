#include "tools/Workspace.h"
#include "tools/WriteFileTool.h"

#include "ToolTestHelpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace wl;
using namespace Qt::StringLiterals;

class TestWriteFileTool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void createsFolders();
    void replacesAtomically();
    void keepsPermissions();
    void writesThroughLinkInside();
    void refusals_data();
    void refusals();
    void approvalShowsDiff();
    void refusesHardLinkedFile();
    void refusesSpecialFiles();

private:
    ToolResult write(const QString &path, const QString &content)
    {
        return test::runCall(*m_registry, m_context, u"write_file"_s, QJsonObject{{u"path"_s, path}, {u"content"_s, content}});
    }
    QString path(const QString &relative) const { return m_dir->path() + u'/' + relative; }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<ToolRegistry> m_registry;
    ToolContext m_context;
};

void TestWriteFileTool::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_workspace = std::make_unique<Workspace>(m_dir->path());
    m_registry = ToolRegistry::createDefault();
    m_context = ToolContext{m_workspace.get(), u"s1"_s, u"call-1"_s};
}

void TestWriteFileTool::createsFolders()
{
    const QString content = u"héllo 上下文 🚀\n"_s;
    const ToolResult result = write(u"a/b/c/new.txt"_s, content);
    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(test::readBytes(path(u"a/b/c/new.txt"_s)), content.toUtf8());
    QCOMPARE(result.metadata.value(u"created"_s).toBool(), true);
    QCOMPARE(result.metadata.value(u"bytes"_s).toInteger(), content.toUtf8().size());
    QCOMPARE(result.content, u"wrote %1 bytes to the new file 'a/b/c/new.txt'"_s.arg(content.toUtf8().size()));
}

void TestWriteFileTool::replacesAtomically()
{
    const QByteArray old = QByteArray("old line\n").repeated(1000);
    QVERIFY(test::writeBytes(path(u"f.txt"_s), old));
    struct stat before;
    QVERIFY(::stat(QFile::encodeName(path(u"f.txt"_s)).constData(), &before) == 0);
    // A reader that opened the file before the write keeps seeing the whole old file:
    // the new content arrives by rename, never by truncating the file in place.
    QFile reader(path(u"f.txt"_s));
    QVERIFY(reader.open(QIODevice::ReadOnly));

    const ToolResult result = write(u"f.txt"_s, u"new\n"_s);
    QVERIFY2(!result.isError, qPrintable(result.content));
    QCOMPARE(result.metadata.value(u"created"_s).toBool(), false);
    QCOMPARE(test::readBytes(path(u"f.txt"_s)), QByteArray("new\n"));
    QCOMPARE(reader.readAll(), old);
    struct stat after;
    QVERIFY(::stat(QFile::encodeName(path(u"f.txt"_s)).constData(), &after) == 0);
    QVERIFY(before.st_ino != after.st_ino);
    // No temporary file is left behind.
    QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden), QStringList{u"f.txt"_s});
}

void TestWriteFileTool::keepsPermissions()
{
    QVERIFY(test::writeBytes(path(u"run.sh"_s), "#!/bin/sh\n"));
    const auto executable = QFile::ExeOwner | QFile::ReadOwner | QFile::WriteOwner;
    QVERIFY(QFile::setPermissions(path(u"run.sh"_s), executable));
    QVERIFY(!write(u"run.sh"_s, u"#!/bin/sh\necho hi\n"_s).isError);
    QVERIFY(QFile::permissions(path(u"run.sh"_s)).testFlag(QFile::ExeOwner));
}

void TestWriteFileTool::writesThroughLinkInside()
{
    QVERIFY(test::writeBytes(path(u"sub/real.txt"_s), "old"));
    QVERIFY(QFile::link(u"sub/real.txt"_s, path(u"alias.txt"_s)));
    QVERIFY(!write(u"alias.txt"_s, u"new"_s).isError);
    QCOMPARE(test::readBytes(path(u"sub/real.txt"_s)), QByteArray("new"));
    QVERIFY(QFileInfo(path(u"alias.txt"_s)).isSymLink());
}

void TestWriteFileTool::refusals_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("message");
    QTest::newRow("parent escape") << u"../x.txt"_s << u"is outside the workspace"_s;
    QTest::newRow("absolute outside") << u"/tmp/waterline-should-not-exist.txt"_s << u"is outside the workspace"_s;
    QTest::newRow("offloaded results") << u".waterline/tool_results/s1/c.txt"_s << u"Waterline's own folder"_s;
    QTest::newRow("folder") << u"sub"_s << u"is a folder"_s;
}

void TestWriteFileTool::refusals()
{
    QFETCH(QString, target);
    QFETCH(QString, message);
    QVERIFY(QDir(m_dir->path()).mkpath(u"sub"_s));
    const ToolResult result = write(target, u"x"_s);
    QVERIFY(result.isError);
    QVERIFY2(result.content.contains(message), qPrintable(result.content));
    QVERIFY(!QFileInfo::exists(u"/tmp/waterline-should-not-exist.txt"_s));
    QVERIFY(!QFileInfo::exists(path(u".waterline"_s)));
}

void TestWriteFileTool::approvalShowsDiff()
{
    QVERIFY(test::writeBytes(path(u"old.txt"_s), "one\ntwo\nthree\n"));
    const ToolCall overwrite{u"c1"_s, u"write_file"_s,
                             u"{\"path\": \"old.txt\", \"content\": \"one\\n2\\nthree\\n\"}"_s, true};
    const ApprovalRequest request = m_registry->approvalRequest(overwrite, m_context);
    QCOMPARE(request.kind, ApprovalKind::Write);
    QCOMPARE(request.path, u"old.txt"_s);
    QVERIFY(request.problem.isEmpty());
    QCOMPARE(request.diff, u"--- a/old.txt\n+++ b/old.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"_s);

    const ToolCall create{u"c2"_s, u"write_file"_s, u"{\"path\": \"n/new.txt\", \"content\": \"x\\n\"}"_s, true};
    QCOMPARE(m_registry->approvalRequest(create, m_context).diff, u"--- /dev/null\n+++ b/n/new.txt\n@@ -0,0 +1 @@\n+x\n"_s);
    // Asking is not doing.
    QVERIFY(!QFileInfo::exists(path(u"n"_s)));
    QCOMPARE(test::readBytes(path(u"old.txt"_s)), QByteArray("one\ntwo\nthree\n"));
}

void TestWriteFileTool::refusesHardLinkedFile()
{
    // The name is in the workspace, the file is also outside (e.g. ~/.ssh/authorized_keys): not changed.
    QTemporaryDir outside;
    QVERIFY(outside.isValid());
    const QString outsideFile = outside.path() + u"/authorized_keys"_s;
    QVERIFY(test::writeBytes(outsideFile, "ssh-ed25519 AAAA owner\n"));
    QVERIFY(::link(QFile::encodeName(outsideFile).constData(), QFile::encodeName(path(u"keys.txt"_s)).constData()) == 0);
    const ToolResult result = write(u"keys.txt"_s, u"ssh-ed25519 BBBB attacker\n"_s);
    QVERIFY(result.isError);
    QVERIFY2(result.content.contains(u"hard links"_s), qPrintable(result.content));
    QCOMPARE(test::readBytes(outsideFile), QByteArray("ssh-ed25519 AAAA owner\n"));
    QCOMPARE(test::readBytes(path(u"keys.txt"_s)), QByteArray("ssh-ed25519 AAAA owner\n"));
    // Nothing half-written is left next to it.
    QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden | QDir::System), QStringList{u"keys.txt"_s});
}

void TestWriteFileTool::refusesSpecialFiles()
{
    const QByteArray fifo = QFile::encodeName(path(u"pipe"_s));
    QVERIFY(::mkfifo(fifo.constData(), 0600) == 0);
    const ToolResult result = write(u"pipe"_s, u"x"_s);
    QVERIFY(result.isError);
    QVERIFY2(result.content.contains(u"is a FIFO"_s), qPrintable(result.content));
    struct stat info;
    QVERIFY(::lstat(fifo.constData(), &info) == 0);
    QVERIFY(S_ISFIFO(info.st_mode));
}

QTEST_GUILESS_MAIN(TestWriteFileTool)
#include "tst_writefiletool.moc"
