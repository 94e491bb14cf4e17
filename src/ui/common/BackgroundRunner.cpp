#include "BackgroundRunner.h"

#include <QFutureWatcher>
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
    m_waiting.clear();
    m_watcher->disconnect(this);
    m_watcher->waitForFinished();
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
    ++m_started;
    m_watcher->setFuture(QtConcurrent::run([work = m_running->work, error = m_runningError]() mutable {
        try {
            work(*error);
        } catch (const std::exception &e) {
            *error = QString::fromLocal8Bit(e.what());
        } catch (...) {
            *error = tr("the background job failed");
        }
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
