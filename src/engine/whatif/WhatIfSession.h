#pragma once

#include "whatif/Simulator.h"

#include <memory>

namespace wl {

class ExtractiveFacts;
class SimulatedOffloads;

// One recorded session under what-if: its replay input and the caches every run over it shares
// (the extractive summariser's per-message facts, the simulated offloads), so a slider step after
// the first pays only for what changed. The UI holds one per open session and asks it for
// results; it never builds or reads the caches. simulate() may run on any thread, several at once.
class WhatIfSession
{
public:
    // `input.policy` is ignored (each run brings its own); caches the input brings are kept.
    explicit WhatIfSession(Simulator::Input input);
    ~WhatIfSession();
    WhatIfSession(const WhatIfSession &) = delete;
    WhatIfSession &operator=(const WhatIfSession &) = delete;

    // The session replayed under `policy` (docs/COMPACTION.md section 10).
    SimulationResult simulate(const CompactionPolicy &policy) const;
    // The same, handing `observer` every replayed request's step (a scorer of the run).
    SimulationResult simulate(const CompactionPolicy &policy, std::function<void(const Simulator::Step &)> observer) const;

    const Simulator::Input &input() const { return m_input; }
    // How many messages' facts and simulated offloads the runs so far left for the next one.
    qsizetype cachedFacts() const;
    qsizetype cachedOffloads() const;

private:
    Simulator::Input m_input;
};

} // namespace wl
