// BackgroundRunner: work off the GUI thread, results on it, errors carried, stale results dropped,
// every queued write run in order, and a destroyed runner waits for its work.
#include "BackgroundRunner.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <stdexcept>

using namespace wl;
using namespace Qt::StringLiterals;

class TestBackgroundRunner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void workOffTheGuiThreadResultOnIt();
    void errorsCarried();
    void latestOnlyRunsOnlyTheNewestWaitingJob();
    void cancelDropsTheRunningResult();
    void queueRunsEveryJobInOrder();
    void destructionWaitsForTheWork();
    void destroyedQueueStillRunsItsWaitingWrites();
    void destroyedLatestOnlyDropsItsWaitingReads();
};

void TestBackgroundRunner::workOffTheGuiThreadResultOnIt()
{
    BackgroundRunner runner(BackgroundRunner::Policy::LatestOnly);
    QThread *workThread = nullptr;
    QThread *deliverThread = nullptr;
    int got = 0;
    runner.run([&](QString &) {
        workThread = QThread::currentThread();
        return 42;
    }, [&](int value, const QString &error) {
        deliverThread = QThread::currentThread();
        got = value;
        QVERIFY(error.isEmpty());
    });
    QVERIFY(runner.isBusy());
    QTRY_COMPARE(got, 42);
    QVERIFY(workThread != nullptr);
    QVERIFY(workThread != QThread::currentThread());
    QCOMPARE(deliverThread, QThread::currentThread());
    QVERIFY(!runner.isBusy());
}

void TestBackgroundRunner::errorsCarried()
{
    BackgroundRunner runner(BackgroundRunner::Policy::Queue);
    QStringList errors;
    QList<int> values;
    auto deliver = [&](int value, const QString &error) {
        values.append(value);
        errors.append(error);
    };
    runner.run([](QString &error) {
        error = u"disk full"_s;
        return 7;
    }, deliver);
    runner.run([](QString &) -> int { throw std::runtime_error("worker blew up"); }, deliver);
    QTRY_COMPARE(values.size(), 2);
    QCOMPARE(values.at(0), 7);
    QCOMPARE(errors.at(0), u"disk full"_s);
    QCOMPARE(values.at(1), 0); // a default result with the exception's text
    QCOMPARE(errors.at(1), u"worker blew up"_s);
}

void TestBackgroundRunner::latestOnlyRunsOnlyTheNewestWaitingJob()
{
    BackgroundRunner runner(BackgroundRunner::Policy::LatestOnly);
    QSemaphore gate;
    std::atomic_int ran{0};
    QList<int> delivered;
    auto deliver = [&](int value, const QString &) { delivered.append(value); };
    runner.run([&](QString &) {
        gate.acquire();
        ran.fetch_or(1);
        return 1;
    }, deliver);
    for (int job = 2; job <= 4; ++job) {
        runner.run([&, job](QString &) {
            ran.fetch_or(1 << (job - 1));
            return job;
        }, deliver);
    }
    gate.release();
    QTRY_VERIFY(!runner.isBusy());
    // The running job answers what was asked then; of the waiting ones only the newest ran.
    QCOMPARE(delivered, (QList<int>{1, 4}));
    QCOMPARE(ran.load(), 1 | (1 << 3));
    QCOMPARE(runner.jobsStarted(), 2);
}

void TestBackgroundRunner::cancelDropsTheRunningResult()
{
    BackgroundRunner runner(BackgroundRunner::Policy::LatestOnly);
    QSemaphore gate;
    std::atomic_bool finished{false};
    QList<int> delivered;
    auto deliver = [&](int value, const QString &) { delivered.append(value); };
    runner.run([&](QString &) {
        gate.acquire();
        finished = true;
        return 1;
    }, deliver);
    runner.run([](QString &) { return 2; }, deliver);
    runner.cancel(); // another session was opened: neither answer applies
    runner.run([](QString &) { return 3; }, deliver);
    gate.release();
    QTRY_VERIFY(!runner.isBusy());
    QVERIFY(finished.load());
    QCOMPARE(delivered, QList<int>{3});
}

void TestBackgroundRunner::queueRunsEveryJobInOrder()
{
    BackgroundRunner runner(BackgroundRunner::Policy::Queue);
    QSemaphore gate;
    QList<int> delivered;
    auto deliver = [&](int value, const QString &) { delivered.append(value); };
    runner.run([&](QString &) {
        gate.acquire();
        return 0;
    }, deliver);
    for (int job = 1; job < 5; ++job)
        runner.run([job](QString &) { return job; }, deliver);
    gate.release();
    QTRY_VERIFY(!runner.isBusy());
    QCOMPARE(delivered, (QList<int>{0, 1, 2, 3, 4}));
    QCOMPARE(runner.jobsStarted(), 5);
}

void TestBackgroundRunner::destructionWaitsForTheWork()
{
    std::atomic_bool done{false};
    bool delivered = false;
    QSemaphore started;
    {
        BackgroundRunner runner(BackgroundRunner::Policy::Queue);
        runner.run([&](QString &) {
            started.release();
            QThread::msleep(200);
            done = true;
            return 1;
        }, [&](int, const QString &) { delivered = true; });
        started.acquire();
    }
    QVERIFY(done.load()); // the destructor waited for the work that uses our objects
    QCoreApplication::processEvents();
    QVERIFY(!delivered);
}

// A queue holds writes (a step of the agent, a deleted session): destroying it must not lose
// the ones still waiting. Their work runs off this thread; nothing is delivered.
void TestBackgroundRunner::destroyedQueueStillRunsItsWaitingWrites()
{
    QList<int> written;
    QList<QThread *> threads;
    int delivered = 0;
    {
        BackgroundRunner runner(BackgroundRunner::Policy::Queue);
        for (int i = 0; i < 4; ++i)
            runner.run([&, i](QString &) {
                QThread::msleep(20);
                written.append(i);
                threads.append(QThread::currentThread());
                return i;
            }, [&](int, const QString &) { ++delivered; });
    }
    QCOMPARE(written, (QList<int>{0, 1, 2, 3}));
    for (QThread *thread : std::as_const(threads))
        QVERIFY(thread != QThread::currentThread());
    QCoreApplication::processEvents();
    QCOMPARE(delivered, 0);
}

void TestBackgroundRunner::destroyedLatestOnlyDropsItsWaitingReads()
{
    std::atomic_int ran{0};
    QSemaphore started;
    {
        BackgroundRunner runner(BackgroundRunner::Policy::LatestOnly);
        runner.run([&](QString &) {
            started.release();
            QThread::msleep(50);
            return ++ran;
        }, [](int, const QString &) {});
        started.acquire();
        runner.run([&](QString &) { return ++ran; }, [](int, const QString &) {});
    }
    QCOMPARE(ran.load(), 1); // a read nobody waits for any more is not worth running
}

QTEST_GUILESS_MAIN(TestBackgroundRunner)
#include "tst_backgroundrunner.moc"
