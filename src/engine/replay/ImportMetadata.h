#pragma once

#include <QJsonObject>

namespace wl {

struct ImportedSession;

// What a transcript import keeps beside the history, as the JSON the store holds in
// SessionSource::details (schema 3), for the UI to draw beside Waterline's own compactions:
//
//   {"model", "title", "message_count", "tool_call_count", "tool_result_count",
//    "window": tokens|null, "window_field" (the window the transcript states, and where),
//    "compactions": [{"message": seq, "request": index|null, "tokens_before", "trigger", "summary",
//                     "kind", "timestamp", "effect": "replaces_history"|"clears_results"|"unknown",
//                     "sent_instead", "cleared_calls": [call ids]}],
//    "issues": [{"kind": "call_without_result"|"result_for_unknown_call"|"duplicate_result"|"note",
//                "message": seq, "call_id", "text"}],
//    "skipped", "problems": [...], "record_counts": {...}, "ignored_records": {...},
//    "tools": [OpenAI tool JSON], "total_usage": {"input", "output", "cache_read", "cache_write", "context"},
//    "run_index", "run_count"}
//
// "message" is the position (seq) of the message in the stored history, which is the
// import's message index: the importer stores every message it produced, in order. "request"
// is the first request at or after that message (where the timeline draws the marker).
namespace ImportMetadata {

QJsonObject toJson(const ImportedSession &session);

// Fills everything toJson() wrote except the messages and requests; unknown or missing keys
// leave the defaults. Never fails: details are for display.
void fromJson(const QJsonObject &object, ImportedSession *session);

} // namespace ImportMetadata
} // namespace wl
