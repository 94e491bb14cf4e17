#pragma once

#include "tools/Tool.h"

namespace wl {

// grep(pattern, path, glob, ignore_case, max_results): lines matching a regular
// expression (QRegularExpression, Perl syntax) in the files under `path` (or in the
// file `path`), as "file:line: text". Skips binary files and files over maxFileBytes.
class GrepTool : public Tool
{
public:
    static constexpr int defaultMaxResults = 100;
    static constexpr int maxMaxResults = 1000;
    static constexpr qint64 maxFileBytes = 4 * 1024 * 1024;
    static constexpr int maxLineChars = 300;

    ToolSpec spec() const override;
    ApprovalKind approvalKind() const override { return ApprovalKind::Read; }

protected:
    ToolRun *run(const QJsonObject &arguments, const ToolContext &context, QObject *parent) override;
};

} // namespace wl
