#pragma once

// Helpers shared by the tools tests: run a tool call to its result, write fixture files.

#include "tools/ToolContext.h"
#include "tools/ToolRegistry.h"
#include "tools/ToolResult.h"
#include "tools/ToolRun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace wl::test {

// Starts the call, checks that finished() does not fire inside start(), waits for it
// exactly once and returns the result. An empty result with isError and a "TIMEOUT"
// content means it never came (the caller's QCOMPARE then fails with a clear text).
inline ToolResult runCall(const ToolRegistry &registry, const ToolContext &context, const QString &name,
                          const QString &argumentsText, int timeoutMs = 20000)
{
    std::unique_ptr<ToolRun> run(registry.start(ToolCall{QStringLiteral("call-1"), name, argumentsText, true}, context));
    if (run->isFinished())
        return ToolResult::error(QStringLiteral("finished() fired inside start()"));
    QSignalSpy spy(run.get(), &ToolRun::finished);
    if (!spy.wait(timeoutMs))
        return ToolResult::error(QStringLiteral("TIMEOUT waiting for finished()"));
    QTest::qWait(0);  // a second emission would be queued right behind the first
    if (spy.size() != 1)
        return ToolResult::error(QStringLiteral("finished() fired %1 times").arg(spy.size()));
    return spy.first().first().value<ToolResult>();
}

inline ToolResult runCall(const ToolRegistry &registry, const ToolContext &context, const QString &name,
                          const QJsonObject &arguments, int timeoutMs = 20000)
{
    return runCall(registry, context, name,
                   QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact)), timeoutMs);
}

inline bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(bytes) == bytes.size();
}

inline QByteArray readBytes(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

} // namespace wl::test
