#pragma once

#include <QFuture>
#include <QObject>
#include <QString>

#include <deque>
#include <functional>
#include <memory>
#include <optional>

template<typename T>
class QFutureWatcher;

namespace wl {

// The one way the UI runs work off the GUI thread: each job's work runs on Qt's thread pool
// (QtConcurrent), one job of this runner at a time, and its result is delivered on the thread
// that owns the runner (a QFutureWatcher), with the error text the work reported.
//
//   LatestOnly: for reads whose newest request is the only one that matters (loading a
//   session, a what-if run). A job started while another runs waits, and a newer one replaces
//   it (the replaced one never runs): dragging a slider never queues up stale work. The running
//   job's result is still delivered (it answers what was asked a moment ago) unless cancel()
//   said it no longer applies (another session was opened).
//   Queue: for writes that must all happen (deleting sessions): every job runs, in order, and
//   every result is delivered.
//
// The work must not touch QObjects of the GUI thread; store work opens its own connection on
// the worker (SessionStore does, per thread). Destroying the runner drops the waiting jobs and
// waits for the running one, so work may use objects the owner outlives.
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
    QFutureWatcher<void> *m_watcher;
    int m_started = 0;
};

} // namespace wl
