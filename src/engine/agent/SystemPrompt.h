#pragma once

#include <QString>

namespace wl::SystemPrompt {

// The default system prompt of an agent session: a coding agent in a workspace folder,
// the six tools, how offloaded results are read back, what a [Context Compaction]
// message is. A session stores the prompt it was created with (SessionInfo::systemPrompt).
QString defaultText();

} // namespace wl::SystemPrompt
