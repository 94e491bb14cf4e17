#pragma once

#include "tools/Tool.h"
#include "tools/ToolResult.h"

namespace wl {

class RootDirectory;

// read_file(path, offset, limit): one page of a text file by byte offset (docs/COMPACTION.md section 6).
// Pages never split a UTF-8 sequence; a partial page ends with a line naming the next
// offset and the total size. Binary files are reported, not dumped. Reads of offloaded
// results (.waterline/tool_results/...) are counted by the Workspace.
class ReadFileTool : public Tool
{
public:
    static constexpr qint64 defaultLimit = 8192;
    static constexpr qint64 maxLimit = 65536;
    static constexpr qint64 binarySniffBytes = 8192;

    ToolSpec spec() const override;
    ApprovalKind approvalKind() const override { return ApprovalKind::Read; }

    // The page as the model sees it; `displayPath` names the file in messages. The file is opened
    // through `root` (no links followed; FIFOs, sockets and devices refused); a file with more
    // than one hard link is read but flagged, since another name for it may be outside.
    static ToolResult readPage(const RootDirectory &root, const QString &relativePath, const QString &displayPath,
                               qint64 offset, qint64 limit);

protected:
    ToolRun *run(const QJsonObject &arguments, const ToolContext &context, QObject *parent) override;
};

} // namespace wl
