#pragma once

#include "TranscriptImporter.h"

namespace wl {

// SWE-agent trajectories (.traj, one JSON object). Reads the top-level `history` (the chat
// as sent to the model) element by element and skips `trajectory` unread. 0.x histories keep
// their role/content turns (observations are user messages, no tool calls); 1.0
// function-calling histories carry `tool_calls` and `tool_call_ids`. Only the first agent's
// messages are kept. info.model_stats gives the run totals (zeros are treated as unknown).
class SweAgentImporter : public TranscriptImporter
{
public:
    SweAgentImporter();
    int canRead(const TranscriptSample &sample) const override;

protected:
    bool read(ImportContext &context) const override;
};

} // namespace wl
