#pragma once

#include <QStringList>

namespace wl::cli {

// `waterline-cli proxy --listen 127.0.0.1:PORT --upstream URL`: a local provider proxy for agents
// the user already runs. Prints the base URL to give the agent (token included) as the first line
// of standard output, then one line per forwarded request on standard error, until stopped.
int runProxy(const QStringList &arguments);

} // namespace wl::cli
