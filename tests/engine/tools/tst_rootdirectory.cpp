#include "tools/RootDirectory.h"
#include "tools/Workspace.h"

#include "ToolTestHelpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace wl;
using namespace Qt::StringLiterals;

// RootDirectory opens what Workspace::resolve() checked; these tests change the tree
// between the check and the open, as an attacker racing the tool would.
class TestRootDirectory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void folderSwappedForLinkAfterCheck_data();
    void folderSwappedForLinkAfterCheck();
    void fileSwappedForLinkAfterCheck();
    void writeCreatesFoldersWithoutFollowingLinks();
    void fifoIsNotOpened();
    void dotDotIsRefused();
    void kindsOfEntries();

private:
    QString inside(const QString &relative) const { return m_root + u'/' + relative; }

    std::unique_ptr<QTemporaryDir> m_base;
    QString m_root;
    QString m_outside;
};

void TestRootDirectory::init()
{
    m_base = std::make_unique<QTemporaryDir>();
    QVERIFY(m_base->isValid());
    const QString top = QFileInfo(m_base->path()).canonicalFilePath();
    m_root = top + u"/ws"_s;
    m_outside = top + u"/outside"_s;
    QVERIFY(test::writeBytes(inside(u"d/file.txt"_s), "inside\n"));
    QVERIFY(test::writeBytes(m_outside + u"/file.txt"_s, "outside\n"));
}

void TestRootDirectory::folderSwappedForLinkAfterCheck_data()
{
    QTest::addColumn<bool>("writing");
    QTest::newRow("read") << false;
    QTest::newRow("write") << true;
}

void TestRootDirectory::folderSwappedForLinkAfterCheck()
{
    QFETCH(bool, writing);
    Workspace workspace(m_root);
    const Workspace::Resolved resolved = workspace.resolve(u"d/file.txt"_s, Workspace::Access::Write);
    QVERIFY2(resolved.ok, qPrintable(resolved.error));
    // After the check: the folder becomes a link to the outside folder.
    QVERIFY(QDir(inside(u"d"_s)).removeRecursively());
    QVERIFY(QFile::link(m_outside, inside(u"d"_s)));

    const RootDirectory &root = *workspace.directory();
    if (writing) {
        const RootDirectory::Written written = root.write(resolved.relativePath, u"d/file.txt"_s, "attacker\n");
        QVERIFY2(written.error.contains(u"changed while it was being opened"_s), qPrintable(written.error));
    } else {
        const RootDirectory::Opened opened = root.open(resolved.relativePath, u"d/file.txt"_s);
        QVERIFY2(opened.error.contains(u"changed while it was being opened"_s), qPrintable(opened.error));
        QVERIFY(!opened.fd.isValid());
    }
    QCOMPARE(test::readBytes(m_outside + u"/file.txt"_s), QByteArray("outside\n"));
    QCOMPARE(QDir(m_outside).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{u"file.txt"_s});
}

void TestRootDirectory::fileSwappedForLinkAfterCheck()
{
    Workspace workspace(m_root);
    const Workspace::Resolved resolved = workspace.resolve(u"d/file.txt"_s, Workspace::Access::Write);
    QVERIFY(resolved.ok);
    QVERIFY(QFile::remove(inside(u"d/file.txt"_s)));
    QVERIFY(QFile::link(m_outside + u"/file.txt"_s, inside(u"d/file.txt"_s)));

    const RootDirectory &root = *workspace.directory();
    QVERIFY(!root.open(resolved.relativePath, u"d/file.txt"_s).ok());
    const RootDirectory::Written written = root.write(resolved.relativePath, u"d/file.txt"_s, "attacker\n");
    QVERIFY2(written.error.contains(u"symbolic link"_s), qPrintable(written.error));
    // Neither the link nor its target changed.
    QVERIFY(QFileInfo(inside(u"d/file.txt"_s)).isSymLink());
    QCOMPARE(test::readBytes(m_outside + u"/file.txt"_s), QByteArray("outside\n"));
}

void TestRootDirectory::writeCreatesFoldersWithoutFollowingLinks()
{
    const RootDirectory root(m_root);
    QVERIFY(root.isOpen());
    const RootDirectory::Written created = root.write(u"new/deeper/x.txt"_s, u"x"_s, "x\n");
    QVERIFY2(created.error.isEmpty(), qPrintable(created.error));
    QVERIFY(created.created);
    QCOMPARE(test::readBytes(inside(u"new/deeper/x.txt"_s)), QByteArray("x\n"));
    // A link where a folder would be created is not walked through.
    QVERIFY(QFile::link(m_outside, inside(u"linked"_s)));
    const RootDirectory::Written refused = root.write(u"linked/y.txt"_s, u"y"_s, "y\n");
    QVERIFY(!refused.error.isEmpty());
    QVERIFY(!QFileInfo::exists(m_outside + u"/y.txt"_s));
}

void TestRootDirectory::fifoIsNotOpened()
{
    QVERIFY(::mkfifo(QFile::encodeName(inside(u"d/pipe"_s)).constData(), 0600) == 0);
    const RootDirectory root(m_root);
    const RootDirectory::Opened opened = root.open(u"d/pipe"_s, u"d/pipe"_s);  // would block if it opened it
    QVERIFY2(opened.error.contains(u"FIFO"_s), qPrintable(opened.error));
}

void TestRootDirectory::dotDotIsRefused()
{
    const RootDirectory root(m_root);
    QVERIFY(!root.open(u"../outside/file.txt"_s, u"x"_s).ok());
    QVERIFY(!root.write(u"d/../../outside/file.txt"_s, u"x"_s, "attacker").error.isEmpty());
    QCOMPARE(test::readBytes(m_outside + u"/file.txt"_s), QByteArray("outside\n"));
}

void TestRootDirectory::kindsOfEntries()
{
    // The root itself opens as a folder; a missing file is Missing, not an error.
    const RootDirectory root(m_root);
    QCOMPARE(root.open(u"."_s, u"."_s).kind, RootDirectory::Kind::Folder);
    const RootDirectory::Opened missing = root.open(u"d/nope.txt"_s, u"d/nope.txt"_s);
    QVERIFY(missing.ok());
    QCOMPARE(missing.kind, RootDirectory::Kind::Missing);
    const RootDirectory::Opened file = root.open(u"d/file.txt"_s, u"d/file.txt"_s);
    QCOMPARE(file.kind, RootDirectory::Kind::File);
    QCOMPARE(file.size, 7);
    QCOMPARE(file.hardLinks, 1);
}

QTEST_GUILESS_MAIN(TestRootDirectory)
#include "tst_rootdirectory.moc"
