#pragma once

#include "model/ToolSpec.h"
#include "tools/ApprovalPolicy.h"
#include "tools/ApprovalRequest.h"
#include "tools/ToolContext.h"

#include <QCoreApplication> // Q_DECLARE_TR_FUNCTIONS, for the tools that say things to the user
#include <QJsonObject>

class QObject;

namespace wl {

class ToolRun;

// One tool the model can call. start() checks the arguments against spec().inputSchema
// first, so an implementation only sees arguments of the declared types; a bad call
// becomes an error result the model can read ("invalid arguments for edit_file: ...").
class Tool
{
public:
    virtual ~Tool();

    virtual ToolSpec spec() const = 0;
    virtual ApprovalKind approvalKind() const = 0;
    QString name() const;

    // Always returns a run (possibly one that fails at once); the caller owns it.
    ToolRun *start(const QJsonObject &arguments, const ToolContext &context, QObject *parent = nullptr);

    // An empty string when the arguments fit the schema, else "invalid arguments for NAME: why".
    QString checkArguments(const QJsonObject &arguments) const;

    // What the approval dialog shows for this call (the command, a diff of the change).
    ApprovalRequest approvalRequest(const QJsonObject &arguments, const ToolContext &context) const;

protected:
    // Arguments are valid for the schema here.
    virtual ToolRun *run(const QJsonObject &arguments, const ToolContext &context, QObject *parent) = 0;
    // Fills command / path / diff; the base has set callId, toolName, kind, arguments and summary.
    virtual void describe(const QJsonObject &arguments, const ToolContext &context, ApprovalRequest &request) const;

    ToolRun *fail(const QString &message, QObject *parent) const;
};

} // namespace wl
