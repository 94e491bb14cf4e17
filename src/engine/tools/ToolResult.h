#pragma once

#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace wl {

// What a tool hands back to the agent loop. `content` is what the model reads.
struct ToolResult
{
    QString content;
    bool isError = false;
    int exitCode = 0;        // bash: the process exit code (-1: no exit code, e.g. killed); others 0, or 1 on error
    qint64 durationMs = 0;   // wall time from start to finish
    QJsonObject metadata;    // for the UI and the records, never sent to the model

    static ToolResult error(const QString &message, const QJsonObject &metadata = {})
    {
        return ToolResult{message, true, 1, 0, metadata};
    }
    static ToolResult success(const QString &content, const QJsonObject &metadata = {})
    {
        return ToolResult{content, false, 0, 0, metadata};
    }

    friend bool operator==(const ToolResult &, const ToolResult &) = default;
};

} // namespace wl

Q_DECLARE_METATYPE(wl::ToolResult)
