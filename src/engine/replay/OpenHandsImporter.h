#pragma once

#include "TranscriptImporter.h"

namespace wl {

// OpenHands event histories:
//  - V0 evaluation output.jsonl: one run per line; ImportOptions::runIndex picks the run
//    (default the first), runCount reports how many the file holds;
//  - V0 trajectory export: a bare JSON array of the same events;
//  - V1 software-agent-sdk events.jsonl: `kind`-typed events;
//  - a conversation folder of one JSON file per event (`<folder>/events/<n>.json`), V0 or V1
//    events, read one file at a time in the order of the numbers in their names;
//  - older evaluation output with no tool_call_metadata (and often no ids), where history may
//    also be a list of [action, observation] pairs: calls get made-up ids and are answered by
//    the next observation (by position), with one Note issue saying so;
//  - the older resolver output: one object per line naming the `issue` it resolved (an
//    instance_id too, sometimes after the history), events with their arguments inline (no
//    `args`) and no source: the first message is the user's, every other action the agent's.
// Actions with tool_call_metadata become assistant turns (content and calls from the stored
// model_response, usage from its `usage`); observations become tool results. Error
// observations without a call become user messages with a Note issue. Condensation events
// become ExternalCompactions.
class OpenHandsImporter : public TranscriptImporter
{
public:
    OpenHandsImporter();
    int canRead(const TranscriptSample &sample) const override;
    int canReadFolder(const QString &path) const override;

protected:
    bool read(ImportContext &context) const override;
    bool readFolder(ImportContext &context, const QString &path) const override;
};

} // namespace wl
