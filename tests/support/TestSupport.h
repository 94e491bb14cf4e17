#pragma once

#include <QByteArray>
#include <QString>

namespace wl::test {

// Absolute path of a file under tests/data.
QString dataPath(const QString &relative);
QByteArray readData(const QString &relative);

} // namespace wl::test
