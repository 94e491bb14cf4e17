#include "ProgressTask.h"

#include <QThread>

namespace wl {

ProgressTask::ProgressTask(Job job, QObject *parent)
    : QObject(parent)
    , m_job(std::move(job))
{
}

ProgressTask::~ProgressTask()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
    }
}

void ProgressTask::start()
{
    if (m_running)
        return;
    m_running = true;
    m_cancel = false;
    auto error = std::make_shared<QString>();
    m_thread = QThread::create([this, error] {
        *error = m_job([this](const QString &stage, int percent) {
            QMetaObject::invokeMethod(this, [this, stage, percent] { Q_EMIT progress(stage, percent); }, Qt::QueuedConnection);
        }, m_cancel);
    });
    connect(m_thread, &QThread::finished, this, [this, error] {
        m_thread->deleteLater();
        m_thread = nullptr;
        m_running = false;
        Q_EMIT finished(*error, m_cancel.load());
    });
    m_thread->start();
}

} // namespace wl
