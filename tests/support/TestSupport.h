#pragma once

#include <QByteArray>
#include <QString>

namespace wl::test {

// Absolute path of a file under tests/data.
QString dataPath(const QString &relative);
QByteArray readData(const QString &relative);

// Peak resident set size of this process in bytes (VmHWM), -1 when unavailable.
qint64 peakRss();
// Resets VmHWM to the current RSS (Linux "echo 5 > /proc/self/clear_refs"); false if it cannot.
bool resetPeak();

} // namespace wl::test
