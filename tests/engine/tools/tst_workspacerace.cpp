#include "tools/Workspace.h"

#include "ToolTestHelpers.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cstdio>
#include <fcntl.h>
#include <thread>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

using namespace wl;
using namespace Qt::StringLiterals;

// A folder in the workspace is swapped, over and over, for a symbolic link to a folder
// outside while write_file, read_file and grep run on paths through it. Whatever the
// timing, nothing may be written outside and nothing outside may be read.
class TestWorkspaceRace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void swappedFolderNeverLeadsOutside();
};

void TestWorkspaceRace::swappedFolderNeverLeadsOutside()
{
    QTemporaryDir base;
    QVERIFY(base.isValid());
    const QString top = QFileInfo(base.path()).canonicalFilePath();
    const QString root = top + u"/ws"_s;
    const QString outside = top + u"/outside"_s;
    const QByteArray secret = "OUTSIDE-SECRET-" + QByteArray::number(QDateTime::currentMSecsSinceEpoch()) + '\n';
    QVERIFY(test::writeBytes(outside + u"/secret.txt"_s, secret));
    QVERIFY(test::writeBytes(root + u"/d/secret.txt"_s, "inside\n"));
    // "d" is a real folder, "d.alt" a link out; the swapper exchanges the two names atomically.
    QVERIFY(QFile::link(outside, root + u"/d.alt"_s));

    Workspace workspace(root);
    QVERIFY(workspace.isValid());
    auto registry = ToolRegistry::createDefault();
    const ToolContext context{&workspace, u"s1"_s, u"call-1"_s};

    std::atomic_bool stop = false;
    std::atomic<qint64> swaps = 0;
    const QByteArray d = QFile::encodeName(root + u"/d"_s);
    const QByteArray alt = QFile::encodeName(root + u"/d.alt"_s);
    std::thread swapper([&] {
        while (!stop.load()) {
            if (::renameat2(AT_FDCWD, d.constData(), AT_FDCWD, alt.constData(), RENAME_EXCHANGE) == 0)
                ++swaps;
            std::this_thread::yield();  // let the tools run between swaps, as a real attacker's loop would
        }
    });
    const auto joinSwapper = qScopeGuard([&] {
        stop = true;
        swapper.join();
    });

    const QString escapedFile = outside + u"/f.txt"_s;
    int writeEscapes = 0;
    int readEscapes = 0;
    int grepEscapes = 0;
    int writesDone = 0;
    int readsDone = 0;
    int grepsDone = 0;
    int caughtAtOpen = 0;  // passed the check, then found the link when opening: the race really happened
    const auto caught = [&](const ToolResult &result) {
        if (result.isError && result.content.contains(u"changed while it was being opened"_s))
            ++caughtAtOpen;
    };
    constexpr int iterations = 1000;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < iterations; ++i) {
        const ToolResult written = test::runCall(*registry, context, u"write_file"_s,
                                                 QJsonObject{{u"path"_s, u"d/f.txt"_s}, {u"content"_s, u"try %1\n"_s.arg(i)}});
        if (!written.isError)
            ++writesDone;
        caught(written);
        if (QFileInfo::exists(escapedFile)) {
            ++writeEscapes;
            QFile::remove(escapedFile);
        }
        const ToolResult read = test::runCall(*registry, context, u"read_file"_s, QJsonObject{{u"path"_s, u"d/secret.txt"_s}});
        if (!read.isError)
            ++readsDone;
        caught(read);
        if (read.content.contains(QString::fromUtf8(secret.trimmed())))
            ++readEscapes;
        const ToolResult grep = test::runCall(*registry, context, u"grep"_s,
                                              QJsonObject{{u"pattern"_s, u"SECRET|inside"_s}, {u"path"_s, u"d"_s}});
        if (!grep.isError)
            ++grepsDone;
        caught(grep);
        if (grep.content.contains(u"OUTSIDE-SECRET"_s))
            ++grepEscapes;
    }
    stop = true;
    qInfo() << "iterations" << iterations << "swaps" << swaps.load() << "ms" << timer.elapsed() << "writes done"
            << writesDone << "reads done" << readsDone << "greps done" << grepsDone << "escapes: writes" << writeEscapes
            << "reads" << readEscapes << "greps" << grepEscapes << "caught at open" << caughtAtOpen;

    QCOMPARE(writeEscapes, 0);
    QCOMPARE(readEscapes, 0);
    QCOMPARE(grepEscapes, 0);
    // Nothing else appeared outside either (no temporary files), and the secret is untouched.
    QCOMPARE(QDir(outside).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
             QStringList{u"secret.txt"_s});
    QCOMPARE(test::readBytes(outside + u"/secret.txt"_s), secret);
    // The race really ran: the folder changed under the tools many times.
    QVERIFY2(swaps.load() >= iterations, qPrintable(QString::number(swaps.load())));
    QVERIFY(caughtAtOpen > 0);
    // And the tools still worked whenever the folder was in place.
    QVERIFY(writesDone > 0);
    QVERIFY(readsDone > 0);
}

QTEST_GUILESS_MAIN(TestWorkspaceRace)
#include "tst_workspacerace.moc"
