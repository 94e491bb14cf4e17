#pragma once

#include <QFuture>
#include <QObject>
#include <QString>

#include <deque>
#include <functional>
#include <memory>
#include <optional>

class QSemaphore;
template<typename T>
class QFutureWatcher;

namespace wl {

// The one way Waterline runs work off the thread that asks for it (the window's reads and writes,
// the agent's steps): each job's work runs on Qt's thread pool
// (QtConcurrent), one job of this runner at a time, and its result is delivered on the thread
// that owns the runner (a QFutureWatcher), with the error text the work reported.
//
//   LatestOnly: for reads whose newest request is the only one that matters (loading a
//   session, a what-if run). A job started while another runs waits, and a newer one replaces
//   it (the replaced one never runs): dragging a slider never queues up stale work. The running
//   job's result is still delivered (it answers what was asked a moment ago) unless cancel()
//   said it no longer applies (another session was opened).
//   Queue: for writes that must all happen (deleting sessions, the agent's steps): every job
//   runs, in order, each after the previous one's result was delivered, and every result is
//   delivered.
//
// The work must not touch QObjects of the GUI thread; store work opens its own connection on
// the worker (SessionStore does, per thread). Destroying the runner waits for the running job, so
// work may use objects the owner outlives; a LatestOnly runner drops its waiting jobs, a Queue
// runs them first (off this thread, waiting for them): no write is lost. Nothing is delivered
// after destruction.
class BackgroundRunner : public QObject
{
    Q_OBJECT
public:
    enum class Policy { LatestOnly, Queue };

    explicit BackgroundRunner(Policy policy, QObject *parent = nullptr);
    ~BackgroundRunner() override;

    // Runs `work(error)` on a worker thread, then `deliver(result, error)` on this object's
    // thread (unless dropped as above). `error` is empty unless the work set it; an exception
    // escaping the work is delivered as an error with a default-constructed result.
    template<typename Work, typename Deliver>
    void run(Work work, Deliver deliver)
    {
        using Result = std::invoke_result_t<Work &, QString &>;
        auto slot = std::make_shared<std::optional<Result>>();
        enqueue([slot, work = std::move(work)](QString &error) mutable { slot->emplace(work(error)); },
                [slot, deliver = std::move(deliver)](const QString &error) mutable {
                    deliver(slot->has_value() ? std::move(**slot) : Result(), error);
                });
    }

    // Drops the waiting jobs and the running job's result (the work itself runs to its end):
    // what it answers no longer applies.
    void cancel();
    // True from run() until the last job's result was delivered or dropped.
    bool isBusy() const { return m_running || !m_waiting.empty(); }
    // Jobs whose work was started (tests: a LatestOnly runner collapses a burst).
    int jobsStarted() const { return m_started; }

private:
    struct Job
    {
        std::function<void(QString &)> work;
        std::function<void(const QString &)> deliver;
    };
    void enqueue(std::function<void(QString &)> work, std::function<void(const QString &)> deliver);
    void startNext();
    void onFinished();

    Policy m_policy;
    std::deque<Job> m_waiting;
    std::optional<Job> m_running;
    bool m_runningStale = false;
    std::shared_ptr<QString> m_runningError;
    std::shared_ptr<QSemaphore> m_runningDone; // released when the running job's work returned
    QFutureWatcher<void> *m_watcher;
    int m_started = 0;
};

} // namespace wl
