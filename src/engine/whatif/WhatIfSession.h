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

    // What the pins made after the recording (Simulator::Input::pinsFrom negative) change in the
    // run `withThem` under `policy`: the recorded views never carried them, every replayed request
    // does, so this is why a what-if at the session's own policy differs from the recording.
    struct PinsAfterRecording
    {
        int pins = 0;                 // how many (0: none; then nothing below is set)
        qint64 pinnedTokens = 0;      // what they add to every request's pinned section
        SimulationTotals with;        // the run with them (the what-if shown)
        SimulationTotals without;     // the same policy without them
        qint64 tokensSentAdded() const { return with.tokensSent - without.tokensSent; }
        bool changesTiers() const { return with.tiers != without.tiers; }
    };
    // Runs the session once more without those pins (none when there are none).
    PinsAfterRecording pinsAfterRecording(const CompactionPolicy &policy, const SimulationTotals &withThem) const;

    const Simulator::Input &input() const { return m_input; }
    // How many messages' facts and simulated offloads the runs so far left for the next one.
    qsizetype cachedFacts() const;
    qsizetype cachedOffloads() const;

private:
    Simulator::Input m_input;
};

} // namespace wl
