#pragma once

#include "tools/ToolResult.h"

#include <QElapsedTimer>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace wl {

// One running tool call. Emits finished() exactly once, always after start() has
// returned (fast tools deliver through a queued call). Deleting a run that has
// not finished cancels it. The caller owns the run (parent or delete).
class ToolRun : public QObject
{
    Q_OBJECT
public:
    explicit ToolRun(const QString &toolName, QObject *parent = nullptr);
    ~ToolRun() override;

    QString toolName() const { return m_toolName; }
    bool isFinished() const { return m_finished; }
    ToolResult result() const { return m_result; }

    // Stops the work and finishes with a result that says it was cancelled. No-op once finished.
    virtual void cancel();

    // A run that finishes with `result` right after the caller returns to the event loop.
    static ToolRun *withResult(const QString &toolName, const ToolResult &result, QObject *parent = nullptr);

    // A run whose work happens on QThreadPool::globalInstance(). `work` must not touch
    // QObjects of this thread; it should poll `cancelled` and return early when set.
    using Work = std::function<ToolResult(const std::atomic_bool &cancelled)>;
    static ToolRun *inThread(const QString &toolName, Work work, QObject *parent = nullptr);

Q_SIGNALS:
    void finished(const wl::ToolResult &result);

protected:
    // Sets durationMs (when 0) and emits once; later calls are ignored.
    void finish(ToolResult result);
    // finish() through the event loop, so it never fires inside start().
    void finishQueued(ToolResult result);
    ToolResult cancelledResult() const;

private:
    struct ThreadState;
    QString m_toolName;
    QElapsedTimer m_clock;
    ToolResult m_result;
    bool m_finished = false;
    std::shared_ptr<ThreadState> m_thread;
};

} // namespace wl
