#include "tools/ToolRun.h"

#include "LoggingCategories.h"

#include <QCoreApplication>
#include <QMutex>
#include <QThreadPool>

using namespace Qt::StringLiterals;

namespace wl {

// Shared between a run and its pool task, so either may go away first.
struct ToolRun::ThreadState
{
    QMutex mutex;
    ToolRun *owner = nullptr;  // cleared (under the mutex) when the run is destroyed
    std::atomic_bool cancelled = false;
};

ToolRun::ToolRun(const QString &toolName, QObject *parent)
    : QObject(parent)
    , m_toolName(toolName)
{
    m_clock.start();
}

ToolRun::~ToolRun()
{
    if (m_thread) {
        m_thread->cancelled = true;
        QMutexLocker locker(&m_thread->mutex);
        m_thread->owner = nullptr;
    }
}

void ToolRun::cancel()
{
    if (m_finished)
        return;
    if (m_thread)
        m_thread->cancelled = true;
    finish(cancelledResult());
}

ToolResult ToolRun::cancelledResult() const
{
    ToolResult result = ToolResult::error(
        u"the %1 call was cancelled by the user"_s.arg(m_toolName));
    result.exitCode = -1;
    result.metadata.insert(u"cancelled"_s, true);
    return result;
}

void ToolRun::finish(ToolResult result)
{
    if (m_finished)
        return;
    m_finished = true;
    if (result.durationMs == 0)
        result.durationMs = m_clock.elapsed();
    m_result = result;
    qCDebug(lcTools) << "tool" << m_toolName << "finished in" << result.durationMs << "ms, error:" << result.isError;
    Q_EMIT finished(m_result);
}

void ToolRun::finishQueued(ToolResult result)
{
    QMetaObject::invokeMethod(this, [this, result] { finish(result); }, Qt::QueuedConnection);
}

ToolRun *ToolRun::withResult(const QString &toolName, const ToolResult &result, QObject *parent)
{
    auto *run = new ToolRun(toolName, parent);
    run->finishQueued(result);
    return run;
}

ToolRun *ToolRun::inThread(const QString &toolName, Work work, QObject *parent)
{
    auto *run = new ToolRun(toolName, parent);
    auto state = std::make_shared<ThreadState>();
    state->owner = run;
    run->m_thread = state;
    QThreadPool::globalInstance()->start([state, work = std::move(work)] {
        if (state->cancelled)
            return;
        ToolResult result = work(state->cancelled);
        QMutexLocker locker(&state->mutex);
        // Posting while holding the mutex: the owner cannot be destroyed in between,
        // and destroying it afterwards discards the posted call.
        if (ToolRun *owner = state->owner)
            QMetaObject::invokeMethod(owner, [owner, result] { owner->finish(result); }, Qt::QueuedConnection);
    });
    return run;
}

} // namespace wl
