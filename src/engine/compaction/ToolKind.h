#pragma once

class QString;

namespace wl {

// What a tool call does, as far as an extractive summary cares: it writes files, runs a command,
// reads a file, sets a plan, or something else (shown by name only).
enum class ToolKind { Other, Edit, Shell, Read, Plan };

// The kind of a tool by its name, ignoring case: the tools of Waterline and of the agents whose
// transcripts it imports (Claude Code, Codex, OpenHands, SWE-agent, Cline...). Unknown names are Other.
ToolKind toolKindOf(const QString &name);

// True for the edit tools that write a whole file (Write, write_file, create_file...): what they
// touch first in a summarised span, they created.
bool writesWholeFiles(const QString &name);

} // namespace wl
