#pragma once

#include "tools/ApprovalPolicy.h"

#include <QJsonObject>
#include <QString>

namespace wl {

// What the approval dialog shows for one tool call.
struct ApprovalRequest
{
    QString callId;
    QString toolName;
    ApprovalKind kind = ApprovalKind::Execute;
    QJsonObject arguments;
    QString summary;   // one line: "bash: make test", "edit_file src/main.cpp"
    QString command;   // bash: the exact command
    QString path;      // write_file / edit_file: the path relative to the workspace
    QString diff;      // write_file / edit_file: unified diff of the change
    QString problem;   // set when the change cannot be previewed (the call will fail the same way)
};

} // namespace wl
