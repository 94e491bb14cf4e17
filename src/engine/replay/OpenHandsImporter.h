#pragma once

#include "TranscriptImporter.h"

namespace wl {

// OpenHands event histories:
//  - V0 evaluation output.jsonl: one run per line; ImportOptions::runIndex picks the run
//    (default the first), runCount reports how many the file holds;
//  - V0 trajectory export: a bare JSON array of the same events;
//  - V1 software-agent-sdk events.jsonl: `kind`-typed events.
// Actions with tool_call_metadata become assistant turns (content and calls from the stored
// model_response, usage from its `usage`); observations become tool results. Error
// observations without a call become user messages with a Note issue. Condensation events
// become ExternalCompactions.
class OpenHandsImporter : public TranscriptImporter
{
public:
    OpenHandsImporter();
    int canRead(const TranscriptSample &sample) const override;

protected:
    bool read(ImportContext &context) const override;
};

} // namespace wl
