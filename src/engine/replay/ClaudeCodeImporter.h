#pragma once

#include "TranscriptImporter.h"

namespace wl {

// Claude Code session JSONL (~/.claude/projects/<project>/<session>.jsonl and sub-agent
// files). Records of one API response (shared message.id, one content block each) become one
// assistant message with one request (usage de-duplicated); `thinking` blocks are left out;
// `progress`, `file-history-snapshot`, `queue-operation` and other UI records are counted in
// ignoredRecords. `system/compact_boundary` + the `isCompactSummary` record become an
// ExternalCompaction that replaces the history (the summary is what Claude Code sent instead, not a
// message unless keepCompactionSummaries); `system/microcompact_boundary` one that clears the
// results of its compactedToolIds. A boundary whose logicalParentUuid is not earlier in the file,
// a summary without its boundary and metadata that is no object are noted, never fatal. In a main
// file, sidechain records (their compactions included) are left out; a sub-agent file (all
// sidechain) imports as is.
// Order is file order (FORMATS.md: nearly chronological), not the parentUuid tree.
class ClaudeCodeImporter : public TranscriptImporter
{
public:
    ClaudeCodeImporter();
    int canRead(const TranscriptSample &sample) const override;

protected:
    bool read(ImportContext &context) const override;
};

} // namespace wl
