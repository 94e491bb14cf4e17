#include "TestSupport.h"

#include <QFile>
#include <QTest>

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

} // namespace wl::test
