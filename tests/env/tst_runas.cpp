// Waterline runs as the user who started it (issue #18 item 9). Run through scripts/in-env (as
// CTest is), the process has the invoking user's uid; HOME and the XDG folders are that user's own
// folders on the host, bound into the Debian 13 root at the same paths (never folders of the root
// itself, which a refresh deletes); and the session database, a file the agent writes with a file
// tool and one its sandboxed command writes all belong to that user. On a native host there is no
// root and the mount checks have nothing to compare; the ownership checks still run.
#include "FakeLlmServer.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {

// scripts/setup leaves this stamp at the top of the Debian 13 root.
constexpr auto kRootStamp = "/.waterline-packages.stamp";

bool insideBuildRoot()
{
    return QFile::exists(QString::fromLatin1(kRootStamp));
}

// The owner's uid of a path (not following a final link); -1 when it cannot be read.
long long ownerOf(const QString &path)
{
    struct stat st{};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return st.st_uid;
}

// Undoes mountinfo's octal escapes (\040 for a space, ...).
QString unescapeMountPath(const QByteArray &field)
{
    QByteArray out;
    for (qsizetype i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size()) {
            bool ok = false;
            const int c = field.mid(i + 1, 3).toInt(&ok, 8);
            if (ok) {
                out.append(char(c));
                i += 3;
                continue;
            }
        }
        out.append(field[i]);
    }
    return QString::fromUtf8(out);
}

// The mount point of the mount that holds `path` (the longest mount point that is a prefix of it).
QString mountPointOf(const QString &path)
{
    QFile info(u"/proc/self/mountinfo"_s);
    if (!info.open(QIODevice::ReadOnly))
        return {};
    const QString real = QFileInfo(path).canonicalFilePath();
    QString best;
    const QList<QByteArray> lines = info.readAll().split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() < 5)
            continue;
        const QString point = unescapeMountPath(fields[4]);
        const bool holds = point == u"/"_s || real == point || real.startsWith(point + u'/');
        if (holds && point.size() > best.size())
            best = point;
    }
    return best;
}

FakeToolCall call(const QString &id, const QString &name, const QJsonObject &arguments)
{
    return FakeToolCall{id, name, QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact))};
}

} // namespace

class TestRunAs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void homeIsTheUsersOwn();
    void xdgFoldersAreOnTheHost();
    void whatTheAgentWritesBelongsToTheUser();
};

void TestRunAs::homeIsTheUsersOwn()
{
    const QString home = qEnvironmentVariable("HOME");
    QVERIFY2(QDir::isAbsolutePath(home), qPrintable(home));
    QVERIFY2(QFileInfo(home).isDir(), qPrintable(home));
    // The user's own home, not the root's /root seen from another identity.
    QCOMPARE(ownerOf(home), static_cast<long long>(::getuid()));
    QVERIFY2(QFileInfo(home).isWritable(), qPrintable(home));
    if (!insideBuildRoot())
        return;
    // Inside the root, the home is a folder of the host bound at the same path: the mount that
    // holds it is not the root's own (mounted at /), whose files a refresh deletes.
    const QString point = mountPointOf(home);
    QVERIFY2(!point.isEmpty() && point != u"/"_s,
             qPrintable(u"HOME (%1) lies in the build root itself"_s.arg(home)));
}

void TestRunAs::xdgFoldersAreOnTheHost()
{
    if (!insideBuildRoot())
        QSKIP("not inside the Debian 13 build root: the folders are the host's own");
    // CTest points these at the build folder; scripts/in-env passes them through and binds them.
    int checked = 0;
    for (const char *name : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"}) {
        const QString dir = qEnvironmentVariable(name);
        if (dir.isEmpty())
            continue;
        QVERIFY(QDir().mkpath(dir));
        const QString point = mountPointOf(dir);
        QVERIFY2(!point.isEmpty() && point != u"/"_s, qPrintable(u"%1 (%2) lies in the build root"_s.arg(QString::fromLatin1(name), dir)));
        ++checked;
    }
    QVERIFY(checked > 0);
}

void TestRunAs::whatTheAgentWritesBelongsToTheUser()
{
    const QString cli = QStringLiteral(WATERLINE_BIN_DIR "/waterline-cli");
    QVERIFY(QFile::exists(cli));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString workspace = dir.filePath(u"ws"_s);
    const QString database = dir.filePath(u"sessions.db"_s);
    QVERIFY(QDir().mkpath(workspace));

    FakeLlmServer server;
    QVERIFY(server.start());
    server.enqueue(FakeReply::withToolCalls(
        {call(u"w1"_s, u"write_file"_s, {{u"path"_s, u"by-tool.txt"_s}, {u"content"_s, u"from the file tool"_s}}),
         call(u"b1"_s, u"bash"_s, {{u"command"_s, u"id -u > by-command.txt"_s}})}));
    server.enqueue(FakeReply::withText(u"Done."_s));

    QProcess process;
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(cli, {u"run"_s, u"--db"_s, database, u"--workspace"_s, workspace, u"--provider"_s, u"openai-chat"_s, u"--base-url"_s,
                        server.openAiBaseUrl().toString(), u"--model"_s, u"fake-model"_s, u"--auto-approve"_s,
                        u"--prompt"_s, u"write two files"_s});
    QElapsedTimer clock;
    clock.start();
    while (process.state() != QProcess::NotRunning && clock.elapsed() < 60000)
        QTest::qWait(10);
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(2000);
        QFAIL("waterline-cli run did not finish within 60 s");
    }
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(process.exitCode() == 0, qPrintable(err));

    const auto me = static_cast<long long>(::getuid());
    const QString byTool = workspace + u"/by-tool.txt"_s;
    const QString byCommand = workspace + u"/by-command.txt"_s;
    for (const QString &path : {database, byTool, byCommand}) {
        QVERIFY2(QFile::exists(path), qPrintable(path + u" is missing; stderr: "_s + err));
        QCOMPARE(ownerOf(path), me);
    }
    // The command ran in the sandbox as the user too.
    QFile command(byCommand);
    QVERIFY(command.open(QIODevice::ReadOnly));
    QCOMPARE(command.readAll().trimmed().toLongLong(), me);
    if (insideBuildRoot()) {
        for (const QString &path : {database, byTool})
            QVERIFY2(mountPointOf(path) != u"/"_s, qPrintable(path + u" lies in the build root"_s));
    }
}

QTEST_GUILESS_MAIN(TestRunAs)
#include "tst_runas.moc"
