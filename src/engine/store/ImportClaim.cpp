#include "ImportClaim.h"

#include <QCoreApplication>
#include <QFile>
#include <QSysInfo>

#include <cerrno>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace wl::ImportClaim {

namespace {

// Field 22 of /proc/<pid>/stat (the process's start time); 0 when there is none to read.
qint64 startTime(qint64 pid)
{
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray line = stat.read(4096);
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const qsizetype end = line.lastIndexOf(')');
    if (end < 0)
        return 0;
    const QList<QByteArray> fields = line.mid(end + 2).split(' ');
    // fields[0] is field 3 (state), so field 22 is fields[19].
    return fields.size() > 19 ? fields.at(19).toLongLong() : 0;
}

bool alive(qint64 pid)
{
    if (pid <= 0)
        return false;
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

} // namespace

QString mine()
{
    const qint64 pid = QCoreApplication::applicationPid();
    return u"%1 %2 %3"_s.arg(QSysInfo::machineHostName()).arg(pid).arg(startTime(pid));
}

bool isAbandoned(const QString &claim)
{
    const QStringList parts = claim.split(u' ');
    if (parts.size() != 3 || parts.at(0) != QSysInfo::machineHostName())
        return false;
    bool pidOk = false;
    bool startOk = false;
    const qint64 pid = parts.at(1).toLongLong(&pidOk);
    const qint64 start = parts.at(2).toLongLong(&startOk);
    if (!pidOk || !startOk || pid <= 0)
        return false;
    if (!alive(pid))
        return true;
    // The pid is in use: by the importer still, unless another process got it since.
    const qint64 now = startTime(pid);
    return start != 0 && now != 0 && now != start;
}

} // namespace wl::ImportClaim
