#include "tools/Workspace.h"

#include "ToolTestHelpers.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestWorkspace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void resolve_data();
    void resolve();
    void outsideMessageNamesPathAndRoot();
    void rootIsCanonical();
    void missingRootRefusesEverything();
    void broadRootsNeedConfirmation_data();
    void broadRootsNeedConfirmation();
    void offloadReadsAreCounted();

private:
    QTemporaryDir m_dir;
    QString m_root;     // the workspace as created (canonical)
    QString m_outside;  // a sibling folder the workspace must not reach
};

void TestWorkspace::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString base = QFileInfo(m_dir.path()).canonicalFilePath();
    m_root = base + u"/ws"_s;
    m_outside = base + u"/outside"_s;
    QVERIFY(test::writeBytes(m_root + u"/a.txt"_s, "a"));
    QVERIFY(test::writeBytes(m_root + u"/sub/b.txt"_s, "b"));
    QVERIFY(test::writeBytes(m_root + u"/.waterline/tool_results/s1/c1.txt"_s, "offloaded"));
    QVERIFY(test::writeBytes(m_outside + u"/secret.txt"_s, "secret"));
    QVERIFY(QFile::link(m_outside, m_root + u"/out"_s));                       // folder link, absolute, out
    QVERIFY(QFile::link(m_outside + u"/secret.txt"_s, m_root + u"/secretlink"_s)); // file link, out
    QVERIFY(QFile::link(u"../outside"_s, m_root + u"/rel"_s));                 // relative link, out
    QVERIFY(QFile::link(m_outside + u"/new.txt"_s, m_root + u"/dangling"_s));  // dangling link, out
    QVERIFY(QFile::link(u"sub"_s, m_root + u"/inlink"_s));                     // link that stays inside
    QVERIFY(QFile::link(u"loop2"_s, m_root + u"/loop1"_s));
    QVERIFY(QFile::link(u"loop1"_s, m_root + u"/loop2"_s));
}

void TestWorkspace::resolve_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<Workspace::Access>("access");
    QTest::addColumn<QString>("relative");  // expected relative path, empty when refused
    QTest::addColumn<QString>("error");     // a part of the expected message

    const auto read = Workspace::Access::Read;
    const auto write = Workspace::Access::Write;
    const QString outside = u"outside the workspace"_s;
    const QString viaLink = u"through a symbolic link"_s;
    QTest::newRow("relative file") << u"a.txt"_s << read << u"a.txt"_s << QString();
    QTest::newRow("dot segments inside") << u"./sub/../a.txt"_s << read << u"a.txt"_s << QString();
    QTest::newRow("new file in new folders") << u"new/dir/file.txt"_s << write << u"new/dir/file.txt"_s << QString();
    QTest::newRow("root itself") << u"."_s << read << u"."_s << QString();
    QTest::newRow("absolute inside accepted") << m_root + u"/sub/b.txt"_s << read << u"sub/b.txt"_s << QString();
    QTest::newRow("link staying inside") << u"inlink/b.txt"_s << read << u"sub/b.txt"_s << QString();
    QTest::newRow("dotdot after inside link is physical") << u"inlink/../a.txt"_s << read << u"a.txt"_s << QString();
    QTest::newRow("parent escape") << u"../x"_s << read << QString() << outside;
    QTest::newRow("deep parent escape") << u"sub/../../x"_s << write << QString() << outside;
    QTest::newRow("absolute outside") << u"/etc/passwd"_s << read << QString() << outside;
    QTest::newRow("absolute sibling") << m_outside + u"/secret.txt"_s << read << QString() << outside;
    QTest::newRow("prefix sibling is not inside") << m_root + u"2/x"_s << read << QString() << outside;
    QTest::newRow("file link out") << u"secretlink"_s << read << QString() << viaLink;
    QTest::newRow("folder link out") << u"out/secret.txt"_s << read << QString() << viaLink;
    QTest::newRow("new file under folder link out") << u"out/new.txt"_s << write << QString() << viaLink;
    QTest::newRow("new folder under folder link out") << u"out/x/y/new.txt"_s << write << QString() << viaLink;
    QTest::newRow("relative link out") << u"rel/secret.txt"_s << read << QString() << viaLink;
    QTest::newRow("dangling link out") << u"dangling"_s << write << QString() << viaLink;
    QTest::newRow("missing folder then link out") << u"missing/../out/secret.txt"_s << read << QString() << viaLink;
    QTest::newRow("link loop") << u"loop1"_s << read << QString() << u"too many levels of symbolic links"_s;
    QTest::newRow("empty") << u""_s << read << QString() << u"empty"_s;
    // A name with a line break forges lines in tool output ("a.txt\nsecret.txt: ..."), so it is refused.
    const QString control = u"control character"_s;
    QTest::newRow("newline in name") << u"a.txt\nb.txt"_s << write << QString() << control;
    QTest::newRow("carriage return in name") << u"sub/x\r.txt"_s << read << QString() << control;
    QTest::newRow("escape sequence in name") << u"\x1b[31mred.txt"_s << write << QString() << control;
    QTest::newRow("tab in name") << u"a\tb"_s << read << QString() << control;
    QTest::newRow("C1 control in name") << u"a\u0085b"_s << read << QString() << control;
    QTest::newRow("offload readable") << u".waterline/tool_results/s1/c1.txt"_s << read
                                      << u".waterline/tool_results/s1/c1.txt"_s << QString();
    QTest::newRow("offload not writable") << u".waterline/tool_results/s1/c1.txt"_s << write << QString()
                                          << u"Waterline's own folder"_s;
    QTest::newRow("private folder not writable") << u"sub/../.waterline"_s << write << QString()
                                                 << u"Waterline's own folder"_s;
}

void TestWorkspace::resolve()
{
    QFETCH(QString, path);
    QFETCH(Workspace::Access, access);
    QFETCH(QString, relative);
    QFETCH(QString, error);

    Workspace workspace(m_root);
    QVERIFY(workspace.isValid());
    const Workspace::Resolved resolved = workspace.resolve(path, access);
    if (relative.isEmpty()) {
        QVERIFY2(!resolved.ok, qPrintable(resolved.absolutePath));
        QVERIFY2(resolved.error.contains(error), qPrintable(resolved.error));
        QVERIFY(resolved.absolutePath.isEmpty());
    } else {
        QVERIFY2(resolved.ok, qPrintable(resolved.error));
        QCOMPARE(resolved.relativePath, relative);
        QCOMPARE(resolved.absolutePath, relative == u"." ? m_root : m_root + u'/' + relative);
    }
}

void TestWorkspace::outsideMessageNamesPathAndRoot()
{
    Workspace workspace(m_root);
    QCOMPARE(workspace.resolve(u"../x"_s).error, u"path '../x' is outside the workspace "_s + m_root);
    const QString viaLink = workspace.resolve(u"out/secret.txt"_s).error;
    QVERIFY2(viaLink.contains(m_outside + u"/secret.txt"_s), qPrintable(viaLink));
    QVERIFY2(viaLink.contains(m_root), qPrintable(viaLink));
}

void TestWorkspace::rootIsCanonical()
{
    // A workspace opened through a link and with a trailing "/." resolves to the real folder.
    const QString linkToRoot = QFileInfo(m_dir.path()).canonicalFilePath() + u"/wslink"_s;
    QVERIFY(QFile::link(m_root, linkToRoot));
    Workspace workspace(linkToRoot + u"/."_s);
    QCOMPARE(workspace.root(), m_root);
    const Workspace::Resolved resolved = workspace.resolve(linkToRoot + u"/a.txt"_s);
    QVERIFY2(resolved.ok, qPrintable(resolved.error));
    QCOMPARE(resolved.absolutePath, m_root + u"/a.txt"_s);
}

void TestWorkspace::missingRootRefusesEverything()
{
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"workspace root is not a folder"_s));
    Workspace workspace(m_root + u"/does-not-exist"_s);
    QVERIFY(!workspace.isValid());
    const Workspace::Resolved resolved = workspace.resolve(u"a.txt"_s);
    QVERIFY(!resolved.ok);
    QVERIFY(!resolved.error.isEmpty());
}

void TestWorkspace::broadRootsNeedConfirmation_data()
{
    QTest::addColumn<QString>("root");       // relative to a fake home folder, or absolute
    QTest::addColumn<bool>("refused");
    QTest::newRow("file system root") << u"/"_s << true;
    QTest::newRow("file system root spelled oddly") << u"/tmp/.."_s << true;
    QTest::newRow("home folder") << u"HOME"_s << true;
    QTest::newRow("home folder with trailing slash and dot") << u"HOME/./"_s << true;
    QTest::newRow("link to the home folder") << u"HOMELINK"_s << true;
    QTest::newRow("a project in the home folder") << u"HOME/project"_s << false;
}

void TestWorkspace::broadRootsNeedConfirmation()
{
    QFETCH(QString, root);
    QFETCH(bool, refused);
    // A home folder of our own: the test must not depend on the real one.
    QTemporaryDir base;
    QVERIFY(base.isValid());
    const QString home = QFileInfo(base.path()).canonicalFilePath() + u"/home"_s;
    QVERIFY(QDir().mkpath(home + u"/project"_s));
    QVERIFY(QFile::link(home, base.path() + u"/homelink"_s));
    const QByteArray oldHome = qgetenv("HOME");
    qputenv("HOME", QFile::encodeName(home));
    const auto restoreHome = qScopeGuard([&] { qputenv("HOME", oldHome); });
    root.replace(u"HOMELINK"_s, base.path() + u"/homelink"_s).replace(u"HOME"_s, home);

    if (refused)
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"workspace root"_s));
    Workspace workspace(root);
    QCOMPARE(workspace.isValid(), !refused);
    const Workspace::Resolved resolved = workspace.resolve(u"x.txt"_s, Workspace::Access::Write);
    QCOMPARE(resolved.ok, !refused);
}

void TestWorkspace::offloadReadsAreCounted()
{
    Workspace workspace(m_root);
    QSignalSpy spy(&workspace, &Workspace::offloadReadBack);
    workspace.noteRead(u"a.txt"_s);
    QCOMPARE(spy.size(), 0);
    const QString offloaded = u".waterline/tool_results/s1/c1.txt"_s;
    workspace.noteRead(offloaded);
    workspace.noteRead(offloaded);
    QCOMPARE(spy.size(), 2);
    QCOMPARE(spy.at(1).at(0).toString(), offloaded);
    QCOMPARE(spy.at(1).at(1).toInt(), 2);
    QCOMPARE(workspace.offloadReadCount(offloaded), 2);
    QCOMPARE(workspace.offloadReadCounts().size(), 1);
}

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
