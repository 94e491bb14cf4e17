#include "WhatIfSession.h"

#include "compaction/ExtractiveSummarizer.h"
#include "compaction/PinnedSection.h"
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

WhatIfSession::PinsAfterRecording WhatIfSession::pinsAfterRecording(const CompactionPolicy &policy,
                                                                   const SimulationTotals &withThem) const
{
    PinsAfterRecording out;
    Simulator::Input without = m_input;
    without.policy = policy;
    without.pins.clear();
    without.pinsFrom.clear();
    QList<Pin> late;
    for (qsizetype i = 0; i < m_input.pins.size(); ++i) {
        const qsizetype from = m_input.pinsFrom.value(i, -1);
        if (from < 0) {
            late.append(m_input.pins[i]);
            continue;
        }
        without.pins.append(m_input.pins[i]);
        without.pinsFrom.append(from);
    }
    if (late.isEmpty())
        return out;
    out.pins = int(late.size());
    // What they add to the section: the section with every pin less the section without them.
    out.pinnedTokens = PinnedSection::tokens(m_input.pins) - PinnedSection::tokens(without.pins);
    out.with = withThem;
    out.without = Simulator::simulate(without).totals;
    return out;
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
