#include "WhatIfBinding.h"

#include "common/BackgroundRunner.h"
#include "thresholds/ThresholdsPanel.h"
#include "timeline/TimelineModel.h"
#include "whatif/WhatIfSession.h"

#include <QElapsedTimer>

namespace wl {

namespace {
struct Run
{
    CompactionPolicy policy;
    SimulationResult result;
    qint64 elapsedMs = 0;
};
} // namespace

WhatIfBinding::WhatIfBinding(ThresholdsPanel *panel, TimelineModel *timeline, QObject *parent)
    : QObject(parent)
    , m_panel(panel)
    , m_timeline(timeline)
    , m_runner(new BackgroundRunner(BackgroundRunner::Policy::LatestOnly, this))
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
    m_session = std::make_shared<const WhatIfSession>(input);
}

void WhatIfBinding::request(const CompactionPolicy &policy)
{
    if (!m_session)
        return;
    m_runner->run([session = m_session, policy](QString &) {
        QElapsedTimer timer;
        timer.start();
        Run run{policy, session->simulate(policy)};
        run.elapsedMs = timer.elapsed();
        return run;
    }, [this](const Run &run, const QString &) {
        show(run.policy, run.result, run.elapsedMs);
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

void WhatIfBinding::show(const CompactionPolicy &policy, const SimulationResult &result, qint64 elapsedMs)
{
    if (m_timeline) {
        QList<WhatIfRow> rows;
        rows.reserve(result.rows.size());
        for (const SimulationRow &row : result.rows)
            rows.append({row.ratioAfter, row.tier, row.totalTokensAfter, row.tokensBefore, row.tokensAfter, row.summarized, row.offloaded});
        // The ratios are of the replayed policy's window, which the slider may have changed.
        m_timeline->setWhatIf(rows, policy.contextWindow);
    }
    if (m_panel)
        m_panel->setWhatIfTotals(result.totals, elapsedMs);
}

} // namespace wl
