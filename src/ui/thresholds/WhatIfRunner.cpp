#include "WhatIfRunner.h"

#include "compaction/ExtractiveSummarizer.h"
#include "whatif/SimulatedOffloads.h"

#include <QElapsedTimer>

namespace wl {

WhatIfRunner::WhatIfRunner(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<wl::CompactionPolicy>();
    qRegisterMetaType<wl::SimulationResult>();
    m_pool.setMaxThreadCount(1);
}

WhatIfRunner::~WhatIfRunner()
{
    m_pool.waitForDone();
}

void WhatIfRunner::setSession(const Simulator::Input &input)
{
    auto shared = std::make_shared<Simulator::Input>(input);
    if (!shared->extractiveFacts)
        shared->extractiveFacts = std::make_shared<const ExtractiveFacts>();
    if (!shared->offloads)
        shared->offloads = std::make_shared<SimulatedOffloads>();
    m_input = std::move(shared);
    m_pending.reset();
    ++m_generation;
}

std::shared_ptr<const ExtractiveFacts> WhatIfRunner::extractiveFacts() const
{
    return m_input ? m_input->extractiveFacts : nullptr;
}

void WhatIfRunner::request(const CompactionPolicy &policy)
{
    if (!m_input)
        return;
    m_pending = policy;
    if (!m_busy)
        startNext();
}

void WhatIfRunner::startNext()
{
    if (!m_pending || !m_input)
        return;
    const CompactionPolicy policy = *m_pending;
    m_pending.reset();
    m_busy = true;
    ++m_runs;
    const std::shared_ptr<const Simulator::Input> input = m_input;
    const quint64 generation = m_generation;
    m_pool.start([this, input, policy, generation] {
        QElapsedTimer timer;
        timer.start();
        Simulator::Input withPolicy = *input;
        withPolicy.policy = policy;
        const SimulationResult result = Simulator::simulate(withPolicy);
        const qint64 elapsed = timer.elapsed();
        QMetaObject::invokeMethod(this, [this, policy, result, elapsed, generation] {
            onFinished(policy, result, elapsed, generation);
        }, Qt::QueuedConnection);
    });
}

void WhatIfRunner::onFinished(const CompactionPolicy &policy, const SimulationResult &result, qint64 elapsedMs, quint64 generation)
{
    m_busy = false;
    if (generation == m_generation)
        Q_EMIT resultReady(policy, result, elapsedMs);
    startNext();
}

} // namespace wl
