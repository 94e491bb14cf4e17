// PrivateFiles::restrictFile on a file this process holds a POSIX lock on (as SQLite does on a
// database, its -wal and -shm): the file becomes private and the lock stays. Closing an ordinary
// descriptor of the file would drop every such lock of the process; another process closing its
// last connection then deletes the WAL this one still writes to (issue 23: the proxy's recordings
// stayed invisible until it exited).
#include "PrivateFiles.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

class TestPrivateFiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void restrictFileKeepsThisProcessesLocks();
    void restrictFileNeverFollowsALink();
};

void TestPrivateFiles::restrictFileKeepsThisProcessesLocks()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"locked.db"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("data");
    file.close();
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CLOEXEC);
    QVERIFY(fd >= 0);
    struct flock lock = {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = 0;
    lock.l_len = 1;
    QCOMPARE(::fcntl(fd, F_SETLK, &lock), 0);

    QVERIFY(wl::PrivateFiles::restrictFile(path));
    QCOMPARE(QFile::permissions(path) & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
             QFile::Permissions());

    // Another process cannot take the lock: this one still holds it.
    QProcess probe;
    probe.start(u"python3"_s, {u"-c"_s, u"import fcntl, sys\n"
                                        "f = open(sys.argv[1], 'r+')\n"
                                        "try:\n"
                                        "    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 0)\n"
                                        "except OSError:\n"
                                        "    sys.exit(3)\n"_s,
                               path});
    QVERIFY(probe.waitForFinished(10000));
    QCOMPARE(probe.exitCode(), 3);
    ::close(fd);
}

void TestPrivateFiles::restrictFileNeverFollowsALink()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString target = dir.filePath(u"target"_s);
    QFile file(target);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    const QFile::Permissions open = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;
    QVERIFY(QFile::setPermissions(target, open));
    const QString link = dir.filePath(u"link"_s);
    QVERIFY(QFile::link(target, link));
    QVERIFY(!wl::PrivateFiles::restrictFile(link));
    QCOMPARE(QFile::permissions(target) & open, open);
    QVERIFY(wl::PrivateFiles::restrictFile(dir.filePath(u"missing"_s)));
}

QTEST_GUILESS_MAIN(TestPrivateFiles)
#include "tst_privatefiles.moc"
