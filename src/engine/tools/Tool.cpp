#include "tools/Tool.h"

#include "tools/ToolArguments.h"
#include "tools/ToolRun.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace wl {

Tool::~Tool() = default;

QString Tool::name() const
{
    return spec().name;
}

QString Tool::checkArguments(const QJsonObject &arguments) const
{
    const ToolSpec toolSpec = spec();
    const QString problem = ToolArguments::validate(toolSpec.inputSchema, arguments);
    if (problem.isEmpty())
        return {};
    return u"invalid arguments for %1: %2"_s.arg(toolSpec.name, problem);
}

ToolRun *Tool::start(const QJsonObject &arguments, const ToolContext &context, QObject *parent)
{
    const QString problem = checkArguments(arguments);
    if (!problem.isEmpty())
        return fail(problem, parent);
    if (!context.workspace)
        return fail(u"%1 cannot run: the session has no workspace"_s.arg(name()), parent);
    return run(arguments, context, parent);
}

ApprovalRequest Tool::approvalRequest(const QJsonObject &arguments, const ToolContext &context) const
{
    ApprovalRequest request;
    request.callId = context.callId;
    request.toolName = name();
    request.kind = approvalKind();
    request.arguments = arguments;
    request.summary = name() + u' ' + QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact));
    request.problem = checkArguments(arguments);
    if (request.problem.isEmpty() && context.workspace)
        describe(arguments, context, request);
    return request;
}

void Tool::describe(const QJsonObject &, const ToolContext &, ApprovalRequest &) const
{
}

ToolRun *Tool::fail(const QString &message, QObject *parent) const
{
    return ToolRun::withResult(name(), ToolResult::error(message), parent);
}

} // namespace wl
