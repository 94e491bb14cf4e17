#include "Paths.h"

#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>

namespace wl::Paths {

QString dataDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

QString defaultDatabasePath()
{
    return dataDir() + QStringLiteral("/sessions.db");
}

QString auditDir()
{
    return dataDir() + QStringLiteral("/compaction_records");
}

QString auditFile(const QString &sessionId)
{
    Q_ASSERT(isSafePathComponent(sessionId));
    return auditDir() + u'/' + sessionId + QStringLiteral(".jsonl");
}

QString offloadRelativeDir(const QString &sessionId)
{
    Q_ASSERT(isSafePathComponent(sessionId));
    return QStringLiteral(".waterline/tool_results/") + sessionId;
}

QString offloadDir(const QString &workspace, const QString &sessionId)
{
    return QDir(workspace).filePath(offloadRelativeDir(sessionId));
}

bool isSafePathComponent(const QString &component)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$"));
    return safe.match(component).hasMatch() && component != u".." && component != u".";
}

} // namespace wl::Paths
