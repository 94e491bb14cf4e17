#include "WhatIfSession.h"

#include "compaction/ExtractiveSummarizer.h"
#include "whatif/SimulatedOffloads.h"

namespace wl {

WhatIfSession::WhatIfSession(Simulator::Input input)
    : m_input(std::move(input))
{
    if (!m_input.extractiveFacts)
        m_input.extractiveFacts = std::make_shared<const ExtractiveFacts>();
    if (!m_input.offloads)
        m_input.offloads = std::make_shared<SimulatedOffloads>();
}

WhatIfSession::~WhatIfSession() = default;

SimulationResult WhatIfSession::simulate(const CompactionPolicy &policy) const
{
    return simulate(policy, {});
}

SimulationResult WhatIfSession::simulate(const CompactionPolicy &policy, std::function<void(const Simulator::Step &)> observer) const
{
    Simulator::Input withPolicy = m_input;
    withPolicy.policy = policy;
    withPolicy.observer = std::move(observer);
    return Simulator::simulate(withPolicy);
}

qsizetype WhatIfSession::cachedFacts() const
{
    return m_input.extractiveFacts->size();
}

qsizetype WhatIfSession::cachedOffloads() const
{
    return m_input.offloads->size();
}

} // namespace wl
