#include "WhatIfBinding.h"

#include "BackgroundRunner.h"
#include "score/PriceTable.h"
#include "score/RecordedRun.h"
#include "score/SessionScoring.h"
#include "thresholds/PolicyScoreView.h"
#include "thresholds/ThresholdsPanel.h"
#include "timeline/TimelineModel.h"
#include "whatif/WhatIfSession.h"
#include "workbench/LoadedSession.h"

#include <QElapsedTimer>

namespace wl {

namespace {
struct Run
{
    CompactionPolicy policy;
    SimulationResult result;
    qint64 elapsedMs = 0;
    std::optional<RunScore> score;
    WhatIfSession::PinsAfterRecording pinsAfterRecording;
};
} // namespace

WhatIfBinding::WhatIfBinding(ThresholdsPanel *panel, TimelineModel *timeline, QObject *parent)
    : QObject(parent)
    , m_panel(panel)
    , m_timeline(timeline)
    , m_runner(new BackgroundRunner(BackgroundRunner::Policy::LatestOnly, this))
    , m_scorer(new BackgroundRunner(BackgroundRunner::Policy::LatestOnly, this))
{
    qRegisterMetaType<wl::CompactionPolicy>();
    qRegisterMetaType<wl::SimulationResult>();
    if (m_panel) {
        connect(m_panel, &ThresholdsPanel::policyEdited, this, [this](const CompactionPolicy &policy) {
            if (m_timeline)
                m_timeline->setThresholds({policy.warn, policy.soft, policy.full, policy.emergency});
            request(policy);
        });
    }
}

WhatIfBinding::~WhatIfBinding() = default;

void WhatIfBinding::setSession(const Simulator::Input &input)
{
    m_runner->cancel(); // a result for the session before is not this one's
    m_scorer->cancel();
    m_session = std::make_shared<const WhatIfSession>(input);
    m_scoring.reset();
    m_requested = false;
    if (m_panel)
        m_panel->scoreView()->setScoring(nullptr);
}

void WhatIfBinding::scoreSession(const LoadedSession &session, const QJsonObject &priceOverrides)
{
    m_scorer->cancel();
    if (session.isEmpty() || session.requestCount() == 0)
        return;
    if (m_panel)
        m_panel->scoreView()->setPending();
    QList<qint64> reportedOutput;
    reportedOutput.reserve(session.requests.size());
    for (const RequestRecord &r : session.requests)
        reportedOutput.append(r.outputTokens.value_or(-1));
    m_scorer->run([replay = session.replay, requests = session.requests, overlays = session.overlays, records = session.records,
                   reportedOutput, priceOverrides](QString &) {
        PriceTable prices = PriceTable::builtIn();
        prices.applyOverrides(priceOverrides);
        const RecordedRun recorded = RecordedRun::fromStored(replay, requests, overlays, records);
        return SessionScoring::build(replay, recorded, reportedOutput, prices);
    }, [this](const std::shared_ptr<const SessionScoring> &scoring, const QString &) {
        if (!scoring)
            return;
        m_scoring = scoring;
        if (m_panel)
            m_panel->scoreView()->setScoring(scoring);
        Q_EMIT scoringReady();
        if (m_requested)
            request(m_lastPolicy); // the shown what-if, scored
    });
}

void WhatIfBinding::request(const CompactionPolicy &policy)
{
    if (!m_session)
        return;
    m_lastPolicy = policy;
    m_requested = true;
    m_runner->run([session = m_session, scoring = m_scoring, policy](QString &) {
        QElapsedTimer timer;
        timer.start();
        Run run{policy, {}};
        if (scoring) {
            RunScorer scorer = scoring->scorer();
            run.result = session->simulate(policy, scorer.observer());
            run.score = scorer.score();
        } else {
            run.result = session->simulate(policy);
        }
        run.elapsedMs = timer.elapsed();
        // Pins the recording never carried make the what-if differ from it: say by how much.
        run.pinsAfterRecording = session->pinsAfterRecording(policy, run.result.totals);
        return run;
    }, [this](const Run &run, const QString &) {
        show(run.policy, run.result, run.elapsedMs, run.score ? &*run.score : nullptr);
        if (m_panel)
            m_panel->setPinsAfterRecording(run.pinsAfterRecording);
        if (run.score) {
            if (m_panel)
                m_panel->scoreView()->setWhatIf(*run.score);
            Q_EMIT scoreReady(*run.score);
        }
        Q_EMIT resultReady(run.policy, run.result, run.elapsedMs);
    });
}

bool WhatIfBinding::isBusy() const
{
    return m_runner->isBusy();
}

int WhatIfBinding::runsStarted() const
{
    return m_runner->jobsStarted();
}

void WhatIfBinding::show(const CompactionPolicy &policy, const SimulationResult &result, qint64 elapsedMs, const RunScore *score)
{
    if (m_timeline) {
        QList<WhatIfRow> rows;
        rows.reserve(result.rows.size());
        for (const SimulationRow &row : result.rows) {
            const qsizetype i = rows.size();
            const int lost = score && i < score->perRequest.size() ? score->perRequest.at(i).lost : -1;
            rows.append({row.ratioAfter, row.tier, row.totalTokensAfter, row.tokensBefore, row.tokensAfter, row.summarized,
                         row.offloaded, lost, row.composition});
        }
        // The ratios are of the replayed policy's window, which the slider may have changed.
        m_timeline->setWhatIf(rows, policy.contextWindow);
    }
    if (m_panel)
        m_panel->setWhatIfTotals(result.totals, elapsedMs);
}

} // namespace wl
