#pragma once

#include "model/ToolCall.h"
#include "model/ToolSpec.h"
#include "tools/ApprovalRequest.h"
#include "tools/ToolContext.h"

#include <QJsonObject>
#include <QList>

#include <memory>
#include <vector>

class QObject;

namespace wl {

class Tool;
class ToolRun;

// The tools offered to the model, by name. Dispatches a model's tool call: unknown
// names and bad argument text become error results the model can read.
class ToolRegistry
{
public:
    ToolRegistry();
    ~ToolRegistry();
    ToolRegistry(const ToolRegistry &) = delete;
    ToolRegistry &operator=(const ToolRegistry &) = delete;

    // read_file, write_file, edit_file, bash, glob, grep.
    static std::unique_ptr<ToolRegistry> createDefault();

    // Replaces a tool of the same name.
    void add(std::unique_ptr<Tool> tool);
    Tool *tool(const QString &name) const;
    QStringList names() const;     // in the order added
    QList<ToolSpec> specs() const; // for the LLM request

    // A tool call checked before anything runs.
    struct Prepared
    {
        Tool *tool = nullptr;       // null for an unknown name
        QJsonObject arguments;
        QString error;              // empty when the call can run
        bool ok() const { return error.isEmpty(); }
    };
    Prepared prepare(const ToolCall &call) const;

    // Always returns a run; a call that cannot run finishes with an error result.
    ToolRun *start(const ToolCall &call, const ToolContext &context, QObject *parent = nullptr) const;

    // What the approval dialog shows. For a call that cannot run, `problem` says why.
    ApprovalRequest approvalRequest(const ToolCall &call, const ToolContext &context) const;

private:
    std::vector<std::unique_ptr<Tool>> m_tools;
};

} // namespace wl
