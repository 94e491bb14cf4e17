#pragma once

#include <QStringList>

namespace wl::cli {

// `waterline-cli show --db PATH SESSION [--json]`: a stored session as the workbench shows it,
// one row per request from the engine's RecordedRequests (the gauge's and the Context dock's
// numbers): a readable table, or with --json one object
//   {"session": {"id", "title", "source_format", "window", "window_source"},
//    "requests": [{"index", "tier", "window", "gauge_tokens", "sent_tokens",
//                  "composition": {part: tokens} (adding up to gauge_tokens),
//                  "source_compacted", "view_messages", "history_messages",
//                  "provider_input_tokens" (null when not reported)}]}
int runShow(const QStringList &arguments);

} // namespace wl::cli
