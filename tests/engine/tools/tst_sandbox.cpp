#include "Paths.h"
#include "tools/ApprovalPolicy.h"
#include "tools/CommandEnvironment.h"
#include "tools/Sandbox.h"
#include "tools/SandboxPolicy.h"

#include "ToolTestHelpers.h"

#include <QJsonArray>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

// The bwrap command line, the environment allow-list and the sandbox settings, without starting
// anything (tst_bashsandbox runs real commands through them).
class TestSandbox : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();

    void isolatesProcessesAndFileSystem();
    void networkIsOffOnlyWhenTheSettingSaysSo();
    void commandFollowsTheSeparatorUnchanged_data();
    void commandFollowsTheSeparatorUnchanged();
    void secretStoresAreHiddenAfterTheWorkspace();
    void workspaceInsideAStoreStaysVisible();
    void symlinkedStoreIsHiddenWhereItLies();
    void homeThatIsRootHidesNoStores();
    void waterlineDataAndConfigAreHidden();
    void privatePathsAreHidden();
    void workspaceWithSpacesIsOneArgument();

    void environmentAllowList_data();
    void environmentAllowList();
    void environmentKeepsValuesAndForcesNonInteractive();

    void policyJsonRoundTrip();
    void policyJsonRejectsBadValues_data();
    void policyJsonRejectsBadValues();
    void approvalPolicyCarriesTheSandbox();

private:
    // Index of the first occurrence of `sequence` as consecutive arguments, else -1.
    static qsizetype indexOf(const QStringList &args, const QStringList &sequence)
    {
        for (qsizetype i = 0; i + sequence.size() <= args.size(); ++i) {
            if (args.mid(i, sequence.size()) == sequence)
                return i;
        }
        return -1;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_workspace;
    QString m_home;
};

void TestSandbox::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestSandbox::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    const QString root = QFileInfo(m_dir->path()).canonicalFilePath();
    m_workspace = root + u"/project"_s;
    m_home = root + u"/home"_s;
    QVERIFY(QDir().mkpath(m_workspace));
    QVERIFY(QDir().mkpath(m_home));
}

void TestSandbox::isolatesProcessesAndFileSystem()
{
    const QStringList args = Sandbox(m_workspace, m_home).arguments({u"bash"_s, u"-c"_s, u"true"_s});
    for (const QString &option : {u"--die-with-parent"_s, u"--new-session"_s, u"--unshare-pid"_s, u"--unshare-ipc"_s})
        QVERIFY2(args.contains(option), qPrintable(option));
    QVERIFY(indexOf(args, {u"--cap-drop"_s, u"ALL"_s}) >= 0);
    const qsizetype root = indexOf(args, {u"--ro-bind"_s, u"/"_s, u"/"_s});
    const qsizetype workspace = indexOf(args, {u"--bind"_s, m_workspace, m_workspace});
    QVERIFY(root >= 0);
    QVERIFY2(workspace > root, "the workspace must be mounted over the read-only root");
    QVERIFY(indexOf(args, {u"--proc"_s, u"/proc"_s}) > root);
    QVERIFY(indexOf(args, {u"--dev"_s, u"/dev"_s}) > root);
    const qsizetype tmp = indexOf(args, {u"--tmpfs"_s, u"/tmp"_s});
    QVERIFY(tmp > root);
    QVERIFY2(tmp < workspace, "a workspace under /tmp must stay visible over the private /tmp");
    QVERIFY(indexOf(args, {u"--chdir"_s, m_workspace, u"--"_s}) > workspace);
    // Nothing else is writable: the only read-write bind is the workspace.
    QCOMPARE(args.count(u"--bind"_s), 1);
    QCOMPARE(args.count(u"--dev-bind"_s), 0);
}

void TestSandbox::networkIsOffOnlyWhenTheSettingSaysSo()
{
    const QStringList command{u"true"_s};
    QVERIFY(!Sandbox(m_workspace, m_home).arguments(command).contains(u"--unshare-net"_s));
    SandboxPolicy offline;
    offline.network = false;
    const QStringList args = Sandbox(m_workspace, m_home, offline).arguments(command);
    QVERIFY(args.contains(u"--unshare-net"_s));
    QVERIFY(args.indexOf(u"--unshare-net"_s) < args.indexOf(u"--"_s));
}

void TestSandbox::commandFollowsTheSeparatorUnchanged_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::newRow("plain") << QStringList{u"bash"_s, u"-c"_s, u"ls -la"_s};
    // A model's command that looks like bwrap options is still only bash's argument.
    QTest::newRow("option lookalike") << QStringList{u"bash"_s, u"-c"_s, u"--bind / /"_s};
    QTest::newRow("separator inside") << QStringList{u"bash"_s, u"-c"_s, u"-- ; --dev-bind / /"_s};
    QTest::newRow("newlines and quotes") << QStringList{u"bash"_s, u"-c"_s, u"echo 'a\nb' \"$HOME\" `id`"_s};
}

void TestSandbox::commandFollowsTheSeparatorUnchanged()
{
    QFETCH(QStringList, command);
    const QStringList args = Sandbox(m_workspace, m_home).arguments(command);
    const qsizetype separator = args.indexOf(u"--"_s);
    QVERIFY(separator > 0);
    QCOMPARE(args.mid(separator + 1), command);
}

void TestSandbox::secretStoresAreHiddenAfterTheWorkspace()
{
    QVERIFY(test::writeBytes(m_home + u"/.ssh/id_ed25519"_s, "FAKE KEY"));
    QVERIFY(test::writeBytes(m_home + u"/.aws/credentials"_s, "[default]"));
    QVERIFY(test::writeBytes(m_home + u"/.config/gh/hosts.yml"_s, "token: x"));
    QVERIFY(test::writeBytes(m_home + u"/.local/share/keyrings/login.keyring"_s, "k"));
    QVERIFY(test::writeBytes(m_home + u"/.netrc"_s, "machine x password y"));
    QVERIFY(test::writeBytes(m_home + u"/.docker/config.json"_s, "{}"));
    QVERIFY(test::writeBytes(m_home + u"/.kube/config"_s, "k"));
    QVERIFY(test::writeBytes(m_home + u"/notes.txt"_s, "ordinary"));

    const QStringList args = Sandbox(m_workspace, m_home).arguments({u"true"_s});
    const qsizetype workspace = indexOf(args, {u"--bind"_s, m_workspace, m_workspace});
    for (const QString &folder : {u".ssh"_s, u".aws"_s, u".config/gh"_s, u".local/share/keyrings"_s, u".docker"_s, u".kube"_s}) {
        const qsizetype at = indexOf(args, {u"--tmpfs"_s, m_home + u'/' + folder});
        QVERIFY2(at > workspace, qPrintable(folder));
    }
    // A file cannot take a tmpfs: an empty file is bound over it.
    QVERIFY(indexOf(args, {u"--ro-bind"_s, u"/dev/null"_s, m_home + u"/.netrc"_s}) > workspace);
    // What does not exist is not mounted (a mount point would be created in the home).
    QVERIFY(!args.contains(m_home + u"/.gnupg"_s));
    QVERIFY(!args.contains(m_home + u"/notes.txt"_s));
    QVERIFY(!args.contains(m_home));
}

void TestSandbox::workspaceInsideAStoreStaysVisible()
{
    const QString workspace = m_home + u"/.config/gh/project"_s;
    QVERIFY(QDir().mkpath(workspace));
    QVERIFY(test::writeBytes(m_home + u"/.config/gh/hosts.yml"_s, "token: x"));
    const QStringList args = Sandbox(workspace, m_home).arguments({u"true"_s});
    const qsizetype store = indexOf(args, {u"--tmpfs"_s, m_home + u"/.config/gh"_s});
    QVERIFY(store > 0);
    // Bound again over the store's empty mount.
    QVERIFY(indexOf(args.mid(store), {u"--bind"_s, workspace, workspace}) > 0);
}

void TestSandbox::symlinkedStoreIsHiddenWhereItLies()
{
    const QString elsewhere = m_dir->path() + u"/vault/ssh"_s;
    QVERIFY(test::writeBytes(elsewhere + u"/id_rsa"_s, "FAKE KEY"));
    QVERIFY(QFile::link(elsewhere, m_home + u"/.ssh"_s));
    const QStringList args = Sandbox(m_workspace, m_home).arguments({u"true"_s});
    QVERIFY(indexOf(args, {u"--tmpfs"_s, QFileInfo(elsewhere).canonicalFilePath()}) > 0);
}

void TestSandbox::homeThatIsRootHidesNoStores()
{
    // HOME=/ (a service account): the stores are not looked for under /; / itself is never hidden.
    const QStringList hidden = Sandbox(m_workspace, u"/"_s).hiddenPaths();
    QVERIFY(!hidden.contains(u"/"_s));
    for (const QString &path : hidden)
        QVERIFY2(!path.startsWith(u"/."_s), qPrintable(path));
}

void TestSandbox::waterlineDataAndConfigAreHidden()
{
    const QString data = Paths::dataDir();
    const QString config = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    QVERIFY(!data.isEmpty() && !config.isEmpty());
    QVERIFY(test::writeBytes(data + u"/sessions.db"_s, "db"));
    QVERIFY(test::writeBytes(config + u"/settings.ini"_s, "ini"));
    const QStringList args = Sandbox(m_workspace, m_home).arguments({u"true"_s});
    QVERIFY(indexOf(args, {u"--tmpfs"_s, QFileInfo(data).canonicalFilePath()}) > 0);
    QVERIFY(indexOf(args, {u"--tmpfs"_s, QFileInfo(config).canonicalFilePath()}) > 0);
    QDir(data).removeRecursively();
    QDir(config).removeRecursively();
}

void TestSandbox::privatePathsAreHidden()
{
    // The session database where --db put it, here inside the workspace.
    const QString database = m_workspace + u"/.waterline-sessions.db"_s;
    QVERIFY(test::writeBytes(database, "SQLite format 3"));
    QVERIFY(test::writeBytes(m_workspace + u"/-wal"_s, "x"));
    const QStringList args
        = Sandbox(m_workspace, m_home, {}, {database, database + u"-wal"_s, u"-wal"_s, QString()}).arguments({u"true"_s});
    const qsizetype workspace = indexOf(args, {u"--bind"_s, m_workspace, m_workspace});
    QVERIFY(indexOf(args, {u"--ro-bind"_s, u"/dev/null"_s, database}) > workspace);
    // What does not exist, and relative paths (taken from no known folder), are left out.
    QVERIFY(!args.contains(database + u"-wal"_s));
    QVERIFY(!args.contains(u"-wal"_s));
    QVERIFY(!args.contains(m_workspace + u"/-wal"_s));
}

void TestSandbox::workspaceWithSpacesIsOneArgument()
{
    const QString workspace = m_dir->path() + u"/my project; rm -rf ~"_s;
    QVERIFY(QDir().mkpath(workspace));
    const QStringList args = Sandbox(workspace, m_home).arguments({u"true"_s});
    QVERIFY(indexOf(args, {u"--bind"_s, workspace, workspace}) > 0);
    QVERIFY(indexOf(args, {u"--chdir"_s, workspace}) > 0);
}

void TestSandbox::environmentAllowList_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("allowed");
    for (const char *name : {"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM"})
        QTest::newRow(name) << QString::fromLatin1(name) << true;
    // The attacker's list: tokens, keys, cloud credentials, agent and bus sockets, provider
    // addresses, and variables that make a shell or the loader run something else.
    for (const char *name : {"GITHUB_TOKEN", "GH_TOKEN", "CI_JOB_TOKEN", "NPM_TOKEN", "AWS_ACCESS_KEY_ID",
                             "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "SSH_AUTH_SOCK", "SSH_AGENT_PID",
                             "DBUS_SESSION_BUS_ADDRESS", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL",
                             "ANTHROPIC_BASE_URL", "GOOGLE_APPLICATION_CREDENTIALS", "DISPLAY", "XAUTHORITY",
                             "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "LD_PRELOAD", "LD_LIBRARY_PATH", "BASH_ENV",
                             "ENV", "PROMPT_COMMAND", "http_proxy", "HTTPS_PROXY", "PATHX", "LC", "XPATH",
                             "WATERLINE_PROFILE"})
        QTest::newRow(name) << QString::fromLatin1(name) << false;
}

void TestSandbox::environmentAllowList()
{
    QFETCH(QString, name);
    QFETCH(bool, allowed);
    QCOMPARE(CommandEnvironment::isAllowed(name, {}), allowed);
    // A name the user added passes; the others stay out.
    QVERIFY(CommandEnvironment::isAllowed(name, {name}));
    QCOMPARE(CommandEnvironment::isAllowed(name, {u"SOMETHING_ELSE"_s}), allowed);
}

void TestSandbox::environmentKeepsValuesAndForcesNonInteractive()
{
    QProcessEnvironment source;
    source.insert(u"PATH"_s, u"/usr/bin:/bin"_s);
    source.insert(u"LC_TIME"_s, u"de_DE.UTF-8"_s);
    source.insert(u"TERM"_s, u"xterm-256color"_s);
    source.insert(u"GITHUB_TOKEN"_s, u"ghp_planted"_s);
    source.insert(u"MY_FLAG"_s, u"1"_s);
    const QProcessEnvironment built = CommandEnvironment::build(source, {u"MY_FLAG"_s});
    QCOMPARE(built.value(u"PATH"_s), u"/usr/bin:/bin"_s);
    QCOMPARE(built.value(u"LC_TIME"_s), u"de_DE.UTF-8"_s);
    QCOMPARE(built.value(u"MY_FLAG"_s), u"1"_s);
    QCOMPARE(built.value(u"TERM"_s), u"dumb"_s);
    QCOMPARE(built.value(u"PAGER"_s), u"cat"_s);
    QCOMPARE(built.value(u"GIT_PAGER"_s), u"cat"_s);
    QVERIFY(!built.contains(u"GITHUB_TOKEN"_s));
    QCOMPARE(built.keys().size(), 6);
}

void TestSandbox::policyJsonRoundTrip()
{
    QVERIFY(SandboxPolicy{}.isDefault());
    QCOMPARE(SandboxPolicy::fromJson({}), SandboxPolicy{});
    SandboxPolicy policy;
    policy.network = false;
    policy.allowUnsandboxed = true;
    policy.extraEnvironment = {u"MY_FLAG"_s, u"_X1"_s};
    QString error;
    QCOMPARE(SandboxPolicy::fromJson(policy.toJson(), &error), policy);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Duplicates collapse.
    QCOMPARE(SandboxPolicy::fromJson({{u"environment"_s, QJsonArray{u"A"_s, u"A"_s}}}).extraEnvironment,
             QStringList{u"A"_s});
}

void TestSandbox::policyJsonRejectsBadValues_data()
{
    QTest::addColumn<QJsonObject>("json");
    QTest::addColumn<QString>("key");
    QTest::newRow("network as text") << QJsonObject{{u"network"_s, u"off"_s}} << u"network"_s;
    QTest::newRow("opt-in as number") << QJsonObject{{u"allow_unsandboxed"_s, 1}} << u"allow_unsandboxed"_s;
    QTest::newRow("environment as text") << QJsonObject{{u"environment"_s, u"PATH"_s}} << u"environment"_s;
    QTest::newRow("name with =") << QJsonObject{{u"environment"_s, QJsonArray{u"A=B"_s}}} << u"environment"_s;
    QTest::newRow("name with space") << QJsonObject{{u"environment"_s, QJsonArray{u"A B"_s}}} << u"environment"_s;
    QTest::newRow("leading digit") << QJsonObject{{u"environment"_s, QJsonArray{u"1A"_s}}} << u"environment"_s;
    QTest::newRow("empty name") << QJsonObject{{u"environment"_s, QJsonArray{u""_s}}} << u"environment"_s;
    QTest::newRow("number in list") << QJsonObject{{u"environment"_s, QJsonArray{7}}} << u"environment"_s;
}

void TestSandbox::policyJsonRejectsBadValues()
{
    QFETCH(QJsonObject, json);
    QFETCH(QString, key);
    QString error;
    // The bad key keeps its (safe) default, and the error names it.
    QCOMPARE(SandboxPolicy::fromJson(json, &error), SandboxPolicy{});
    QVERIFY2(error.contains(key), qPrintable(error));
}

void TestSandbox::approvalPolicyCarriesTheSandbox()
{
    // The default sandbox adds nothing to the stored approval policy.
    QVERIFY(!ApprovalPolicy().toJson().contains(u"sandbox"_s));
    ApprovalPolicy approval;
    SandboxPolicy sandbox;
    sandbox.network = false;
    sandbox.extraEnvironment = {u"MY_FLAG"_s};
    approval.setSandbox(sandbox);
    QString error;
    const ApprovalPolicy back = ApprovalPolicy::fromJson(approval.toJson(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(back.sandbox(), sandbox);
    QCOMPARE(back, approval);
    QCOMPARE(ApprovalPolicy::allowAll().sandbox(), SandboxPolicy{});
    const ApprovalPolicy bad = ApprovalPolicy::fromJson({{u"sandbox"_s, u"none"_s}}, &error);
    QVERIFY(error.contains(u"sandbox"_s));
    QCOMPARE(bad.sandbox(), SandboxPolicy{});
}

QTEST_GUILESS_MAIN(TestSandbox)
#include "tst_sandbox.moc"
