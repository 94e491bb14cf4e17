#pragma once

#include <QMutex>
#include <QString>
#include <QStringList>

namespace wl::test {

// Captures every Qt log message (all categories, debug level and up) while it
// lives: installs a message handler and the filter rule "*.debug=true", and
// restores both on destruction. One instance at a time.
class LogCapture
{
public:
    LogCapture();
    ~LogCapture();
    LogCapture(const LogCapture &) = delete;
    LogCapture &operator=(const LogCapture &) = delete;

    QStringList lines() const;          // "category: message"
    QString text() const;               // lines joined by '\n'
    bool contains(const QString &needle) const;
    qsizetype size() const;

private:
    static void handler(QtMsgType type, const QMessageLogContext &context, const QString &message);

    mutable QMutex m_mutex;
    QStringList m_lines;
    QtMessageHandler m_previous = nullptr;
};

} // namespace wl::test
