#include "TestSupport.h"

#include <QFile>
#include <QTest>

using namespace Qt::StringLiterals;

namespace wl::test {

QString dataPath(const QString &relative)
{
    return QStringLiteral(WATERLINE_TEST_DATA_DIR "/") + relative;
}

QByteArray readData(const QString &relative)
{
    QFile file(dataPath(relative));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("test data missing: %s", qPrintable(file.fileName()));
    return file.readAll();
}

qint64 peakRss()
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine()) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return -1;
}

bool resetPeak()
{
    QFile clear(u"/proc/self/clear_refs"_s);
    return clear.open(QIODevice::WriteOnly) && clear.write("5") == 1;
}

} // namespace wl::test
