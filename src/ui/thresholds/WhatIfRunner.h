#pragma once

#include "whatif/Simulator.h"

#include <QObject>
#include <QThreadPool>

#include <memory>
#include <optional>

namespace wl {

// Runs the what-if simulator off the GUI thread, latest request wins: while one
// run is in flight, newer policies replace each other and only the newest runs
// next, so dragging a slider never queues up stale work.
class WhatIfRunner : public QObject
{
    Q_OBJECT
public:
    explicit WhatIfRunner(QObject *parent = nullptr);
    ~WhatIfRunner() override;

    // The recorded session (its policy field is ignored). Resets any pending request. Unless the
    // input brings one, every run over this session shares one extractive facts cache, so a slider
    // step pays only the merge of cached per-message facts.
    void setSession(const Simulator::Input &input);
    // The facts cache the runs over the current session share (null before a session is set).
    std::shared_ptr<const ExtractiveFacts> extractiveFacts() const;
    bool hasSession() const { return bool(m_input); }

    void request(const CompactionPolicy &policy);
    bool isBusy() const { return m_busy; }
    int runsStarted() const { return m_runs; }

Q_SIGNALS:
    void resultReady(const wl::CompactionPolicy &policy, const wl::SimulationResult &result, qint64 elapsedMs);

private:
    void startNext();
    void onFinished(const CompactionPolicy &policy, const SimulationResult &result, qint64 elapsedMs, quint64 generation);

    QThreadPool m_pool; // one worker; the destructor waits for it, so tasks may use `this`
    std::shared_ptr<const Simulator::Input> m_input;
    std::optional<CompactionPolicy> m_pending;
    bool m_busy = false;
    int m_runs = 0;
    quint64 m_generation = 0; // bumped by setSession: results for an older session are dropped
};

} // namespace wl
