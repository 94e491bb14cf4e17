#pragma once
// Runs a Preflight to completion in a test, spinning the event loop while it waits.

#include "compaction/Preflight.h"
#include "compaction/Summarizer.h"

#include <QSignalSpy>
#include <QTest>

namespace wl::test {

inline PreflightInput preflightInput(const QString &systemPrompt, const QList<Message> &history,
                                     const CompactionPolicy &policy, const QString &workspace = {})
{
    PreflightInput in;
    in.sessionId = QStringLiteral("s1");
    in.systemPrompt = systemPrompt;
    in.history = history;
    in.policy = policy;
    in.workspaceDir = workspace;
    in.simulateOffloads = workspace.isEmpty();
    in.requestIndex = 1;
    return in;
}

inline PreflightResult runPreflight(PreflightInput input, Summarizer *configured = nullptr, Summarizer *mainModel = nullptr,
                                    int waitMs = 10000)
{
    Preflight preflight(std::move(input));
    preflight.setSummarizers(configured, mainModel);
    QSignalSpy spy(&preflight, &Preflight::finished);
    preflight.start();
    if (!preflight.isFinished())
        spy.wait(waitMs);
    if (!preflight.isFinished())
        qWarning("preflight did not finish");
    return preflight.takeResult();
}

} // namespace wl::test
