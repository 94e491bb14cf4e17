#pragma once

#include <QObject>

#include <atomic>
#include <functional>

namespace wl {

class BackgroundRunner;

// Runs one long job (an import, building the demo) off the GUI thread (a BackgroundRunner),
// with progress reported back on the GUI thread and a cancel flag the job polls. Destroying
// the task cancels the job and waits for it; the task object itself is owned by its parent.
class ProgressTask : public QObject
{
    Q_OBJECT
public:
    using Report = std::function<void(const QString &stage, int percent)>;
    // The job returns an error text (empty on success).
    using Job = std::function<QString(const Report &report, const std::atomic_bool &cancel)>;

    explicit ProgressTask(Job job, QObject *parent = nullptr);
    ~ProgressTask() override;

    void start();
    void cancel() { m_cancel = true; }
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void progress(const QString &stage, int percent);
    void finished(const QString &error, bool cancelled);

private:
    Job m_job;
    BackgroundRunner *m_runner;
    std::atomic_bool m_cancel{false};
    bool m_running = false;
};

} // namespace wl
