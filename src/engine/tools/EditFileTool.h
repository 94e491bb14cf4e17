#pragma once

#include "tools/Tool.h"

namespace wl {

// edit_file(path, old_text, new_text): replaces the one place old_text occurs.
// Exact match first, then whitespace-tolerant (runs of spaces/tabs, indentation and
// trailing whitespace may differ, CRLF and LF are the same); zero or several
// matches are errors that say how many. The file keeps its line endings.
class EditFileTool : public Tool
{
    Q_DECLARE_TR_FUNCTIONS(wl::EditFileTool)
public:
    ToolSpec spec() const override;
    ApprovalKind approvalKind() const override { return ApprovalKind::Write; }

    enum class Match { None, Exact, WhitespaceTolerant };
    struct Edit
    {
        bool ok = false;
        Match match = Match::None;
        int matches = 0;        // how many places matched (the error case when not 1)
        QString text;           // the whole new text
        QString error;
    };
    // The edit on a text in memory; `displayPath` names the file in messages.
    static Edit apply(const QString &original, const QString &oldText, const QString &newText, const QString &displayPath);

protected:
    ToolRun *run(const QJsonObject &arguments, const ToolContext &context, QObject *parent) override;
    void describe(const QJsonObject &arguments, const ToolContext &context, ApprovalRequest &request) const override;
};

} // namespace wl
