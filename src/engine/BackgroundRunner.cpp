#include "BackgroundRunner.h"

#include <QFutureWatcher>
#include <QSemaphore>
#include <QThreadPool>
#include <QtConcurrentRun>

#include <exception>

namespace wl {

BackgroundRunner::BackgroundRunner(Policy policy, QObject *parent)
    : QObject(parent)
    , m_policy(policy)
    , m_watcher(new QFutureWatcher<void>(this))
{
    connect(m_watcher, &QFutureWatcher<void>::finished, this, &BackgroundRunner::onFinished);
}

BackgroundRunner::~BackgroundRunner()
{
    m_watcher->disconnect(this);
    // The running job's own signal, not QFuture::waitForFinished: that may run a job the pool has
    // not started yet on this thread.
    if (m_running)
        m_runningDone->acquire();
    m_watcher->waitForFinished();
    if (m_policy == Policy::Queue && !m_waiting.empty()) {
        // Writes must all happen: the waiting ones run now, in order, still off this thread.
        std::deque<Job> waiting;
        waiting.swap(m_waiting);
        // Not QFuture::waitForFinished: it may run a task that has not started on the waiting thread.
        QSemaphore done;
        QThreadPool::globalInstance()->start([&waiting, &done] {
            for (Job &job : waiting) {
                QString ignored;
                try {
                    job.work(ignored);
                } catch (...) {
                }
            }
            done.release();
        });
        done.acquire();
    }
    m_waiting.clear();
}

void BackgroundRunner::enqueue(std::function<void(QString &)> work, std::function<void(const QString &)> deliver)
{
    if (m_policy == Policy::LatestOnly)
        m_waiting.clear();
    m_waiting.push_back({std::move(work), std::move(deliver)});
    if (!m_running)
        startNext();
}

void BackgroundRunner::cancel()
{
    m_waiting.clear();
    m_runningStale = m_running.has_value();
}

void BackgroundRunner::startNext()
{
    if (m_waiting.empty())
        return;
    m_running = std::move(m_waiting.front());
    m_waiting.pop_front();
    m_runningStale = false;
    m_runningError = std::make_shared<QString>();
    m_runningDone = std::make_shared<QSemaphore>();
    ++m_started;
    m_watcher->setFuture(QtConcurrent::run([work = m_running->work, error = m_runningError, done = m_runningDone]() mutable {
        try {
            work(*error);
        } catch (const std::exception &e) {
            *error = QString::fromLocal8Bit(e.what());
        } catch (...) {
            *error = tr("the background job failed");
        }
        done->release();
    }));
}

void BackgroundRunner::onFinished()
{
    Job done = std::move(*m_running);
    m_running.reset();
    const bool stale = m_runningStale;
    const QString error = *m_runningError;
    // The next job starts first: a delivery that starts another job queues behind it.
    startNext();
    if (!stale)
        done.deliver(error);
}

} // namespace wl
