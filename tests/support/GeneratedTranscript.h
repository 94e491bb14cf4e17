#pragma once

#include <QString>

namespace wl::test {

// A Claude Code session transcript (JSONL, the records `claude` writes under ~/.claude/projects)
// of `exchanges` tool calls, made from `seed` alone: a user prompt, then per exchange an assistant
// record with one tool_use (Bash, Read or Edit) and provider usage that grows with the session,
// and a user record with its tool_result (an exchange is about 2 KB of JSONL in all; a real
// Claude Code session of 70,000 calls was 101 MB); every 25th exchange the user writes again and the assistant answers
// in text first. Returns the bytes written, -1 when `path` cannot be written.
qint64 writeClaudeCodeTranscript(const QString &path, int exchanges, quint32 seed = 1);

} // namespace wl::test
