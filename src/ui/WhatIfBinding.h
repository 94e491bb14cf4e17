#pragma once

#include "whatif/Simulator.h"

#include <QJsonObject>
#include <QObject>

#include <memory>

namespace wl {

class BackgroundRunner;
class SessionScoring;
class ThresholdsPanel;
struct LoadedSession;
struct RunScore;
class TimelineModel;
class WhatIfSession;

// The UI's one binding to the engine's what-if (engine/whatif): every edit in the Thresholds
// dock asks the open session's WhatIfSession for a replay off the GUI thread (latest request
// wins: while one runs, newer policies replace each other and only the newest runs next), and
// each result lands on the timeline and in the dock's totals; the threshold lines follow the
// edited policy at once.
class WhatIfBinding : public QObject
{
    Q_OBJECT
public:
    // Either may be null (tests, benchmarks): the results are then only signalled.
    WhatIfBinding(ThresholdsPanel *panel, TimelineModel *timeline, QObject *parent = nullptr);
    ~WhatIfBinding() override;

    // The recorded session (its policy field is ignored); drops what was asked for the one before.
    void setSession(const Simulator::Input &input);
    // Scores every run of `session` (coverage of the facts its requests used, cost with prompt
    // caching at the prices with `priceOverrides`): the session's facts are found once, off the GUI
    // thread, then each run is scored in the same pass as its replay.
    void scoreSession(const LoadedSession &session, const QJsonObject &priceOverrides);
    std::shared_ptr<const SessionScoring> scoring() const { return m_scoring; }
    // The session the runs replay, with the caches they share (null before a session is set).
    std::shared_ptr<const WhatIfSession> session() const { return m_session; }

    void request(const CompactionPolicy &policy);
    bool isBusy() const;
    int runsStarted() const;

Q_SIGNALS:
    void resultReady(const wl::CompactionPolicy &policy, const wl::SimulationResult &result, qint64 elapsedMs);
    void scoringReady();
    void scoreReady(const wl::RunScore &score);

private:
    void show(const CompactionPolicy &policy, const SimulationResult &result, qint64 elapsedMs, const RunScore *score);

    ThresholdsPanel *m_panel;
    TimelineModel *m_timeline;
    BackgroundRunner *m_runner;
    BackgroundRunner *m_scorer;  // builds a session's scoring, latest only
    std::shared_ptr<const WhatIfSession> m_session;
    std::shared_ptr<const SessionScoring> m_scoring;
    CompactionPolicy m_lastPolicy;
    bool m_requested = false;
};

} // namespace wl
