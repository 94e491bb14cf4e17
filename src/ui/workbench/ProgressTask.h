#pragma once

#include <QObject>

#include <atomic>
#include <functional>

class QThread;

namespace wl {

// Runs one long job (an import, building the demo) on its own thread, with progress
// reported back on the GUI thread and a cancel flag the job polls. Deletes its
// thread when done; the task object itself is owned by its parent.
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
    QThread *m_thread = nullptr;
    std::atomic_bool m_cancel{false};
    bool m_running = false;
};

} // namespace wl
