#include "Paths.h"

#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace wl::Paths {

QString dataDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

QString proxyOffloadRoot()
{
    return dataDir() + u"/proxy"_s;
}

QString defaultDatabasePath()
{
    return dataDir() + u"/sessions.db"_s;
}

QString auditDir()
{
    return dataDir() + u"/compaction_records"_s;
}

QString auditFile(const QString &sessionId)
{
    Q_ASSERT(isSafePathComponent(sessionId));
    return auditDir() + u'/' + sessionId + u".jsonl"_s;
}

QString offloadRelativeDir(const QString &sessionId)
{
    Q_ASSERT(isSafePathComponent(sessionId));
    return u".waterline/tool_results/"_s + sessionId;
}

QString offloadDir(const QString &workspace, const QString &sessionId)
{
    return QDir(workspace).filePath(offloadRelativeDir(sessionId));
}

bool isSafePathComponent(const QString &component)
{
    static const QRegularExpression safe(u"^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$"_s);
    return safe.match(component).hasMatch() && component != u".." && component != u".";
}

} // namespace wl::Paths
