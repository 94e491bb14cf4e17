#include "ProgressTask.h"

#include "BackgroundRunner.h"

namespace wl {

ProgressTask::ProgressTask(Job job, QObject *parent)
    : QObject(parent)
    , m_job(std::move(job))
    , m_runner(new BackgroundRunner(BackgroundRunner::Policy::Queue, this))
{
}

ProgressTask::~ProgressTask()
{
    m_cancel = true;
    delete m_runner; // waits for the job, which uses m_job and m_cancel
}

void ProgressTask::start()
{
    if (m_running)
        return;
    m_running = true;
    m_cancel = false;
    m_runner->run([this](QString &error) {
        error = m_job([this](const QString &stage, int percent) {
            QMetaObject::invokeMethod(this, [this, stage, percent] { Q_EMIT progress(stage, percent); }, Qt::QueuedConnection);
        }, m_cancel);
        return true;
    }, [this](bool, const QString &error) {
        m_running = false;
        Q_EMIT finished(error, m_cancel.load());
    });
}

} // namespace wl
