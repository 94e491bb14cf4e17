#pragma once

#include <QString>

namespace wl {

// The title of an imported session: the first line of the first real user request. Agents put
// their own text in user messages ahead of it (Codex: "# AGENTS.md instructions ...",
// <environment_context>, <user_instructions>, "# Files mentioned by the user" before
// "## My request for Codex:"; Claude Code: "Caveat: ...", <command-name>, <system-reminder>);
// that text never names the session.
namespace ImportTitle {

constexpr qsizetype maxLength = 80;

// The request line of a user message, or an empty string when the message holds only agent
// boilerplate. Markdown heading marks are dropped; the line is cut to maxLength characters.
QString fromUserText(const QString &text);

} // namespace ImportTitle
} // namespace wl
