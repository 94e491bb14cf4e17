#include "LogCapture.h"

#include <QLoggingCategory>

using namespace Qt::StringLiterals;

namespace wl::test {

namespace {
LogCapture *s_active = nullptr;
}

LogCapture::LogCapture()
{
    Q_ASSERT(!s_active);
    s_active = this;
    m_previous = qInstallMessageHandler(&LogCapture::handler);
    QLoggingCategory::setFilterRules(u"*.debug=true"_s);
}

LogCapture::~LogCapture()
{
    QLoggingCategory::setFilterRules(QString());
    qInstallMessageHandler(m_previous);
    s_active = nullptr;
}

void LogCapture::handler(QtMsgType, const QMessageLogContext &context, const QString &message)
{
    if (!s_active)
        return;
    const QMutexLocker lock(&s_active->m_mutex);
    s_active->m_lines << QString::fromLatin1(context.category ? context.category : "default") + u": "_s + message;
}

QStringList LogCapture::lines() const
{
    const QMutexLocker lock(&m_mutex);
    return m_lines;
}

QString LogCapture::text() const
{
    return lines().join(u'\n');
}

bool LogCapture::contains(const QString &needle) const
{
    return text().contains(needle);
}

qsizetype LogCapture::size() const
{
    const QMutexLocker lock(&m_mutex);
    return m_lines.size();
}

} // namespace wl::test
