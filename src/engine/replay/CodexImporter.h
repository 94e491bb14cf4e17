#pragma once

#include "TranscriptImporter.h"

namespace wl {

// OpenAI Codex CLI rollout JSONL ({timestamp, type, payload} lines). session_meta's
// base_instructions become the system message; response_item messages, function_call /
// custom_tool_call (apply_patch text kept raw, argumentsValid false) and their outputs become
// messages; one assistant message per model response, closed by the response's token_count
// event (its last_token_usage is the request's usage). `reasoning` (encrypted) and
// `web_search_call` are counted in ignoredRecords; event_msg duplicates are not replayed,
// except user_message when the rollout has no user response_item (trimmed Desktop files).
// `compacted` lines become ExternalCompactions that replace the history (what a
// replacement_history repeats is sent instead; its compaction items become messages, encrypted
// ones as an opaque note with their size). token_count's model_context_window is the session's
// window when it is a plausible number (1,024 to 100,000,000 tokens).
class CodexImporter : public TranscriptImporter
{
public:
    CodexImporter();
    int canRead(const TranscriptSample &sample) const override;

protected:
    bool read(ImportContext &context) const override;
};

} // namespace wl
