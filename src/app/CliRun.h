#pragma once

#include <QStringList>

namespace wl::cli {

// `waterline-cli run`: the agent loop headless. Streams the model's text and the tool activity to
// stdout; Write and Execute tool calls are denied unless --auto-approve (there is no one to ask).
// Exit codes: 0 a finished answer, 1 a failure (provider error, turn limit, store), 2 usage.
int runAgent(const QStringList &arguments);

} // namespace wl::cli
