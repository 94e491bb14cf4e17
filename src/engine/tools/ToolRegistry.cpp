#include "tools/ToolRegistry.h"

#include "LoggingCategories.h"
#include "tools/BashTool.h"
#include "tools/EditFileTool.h"
#include "tools/GlobTool.h"
#include "tools/GrepTool.h"
#include "tools/PinFactTool.h"
#include "tools/ReadFileTool.h"
#include "tools/ToolArguments.h"
#include "tools/ToolRun.h"
#include "tools/WriteFileTool.h"

using namespace Qt::StringLiterals;

namespace wl {

ToolRegistry::ToolRegistry() = default;
ToolRegistry::~ToolRegistry() = default;

std::unique_ptr<ToolRegistry> ToolRegistry::createDefault()
{
    auto registry = std::make_unique<ToolRegistry>();
    registry->add(std::make_unique<ReadFileTool>());
    registry->add(std::make_unique<WriteFileTool>());
    registry->add(std::make_unique<EditFileTool>());
    registry->add(std::make_unique<BashTool>());
    registry->add(std::make_unique<GlobTool>());
    registry->add(std::make_unique<GrepTool>());
    registry->add(std::make_unique<PinFactTool>());
    return registry;
}

void ToolRegistry::add(std::unique_ptr<Tool> tool)
{
    const QString name = tool->name();
    for (auto &existing : m_tools) {
        if (existing->name() == name) {
            existing = std::move(tool);
            return;
        }
    }
    m_tools.push_back(std::move(tool));
}

Tool *ToolRegistry::tool(const QString &name) const
{
    for (const auto &candidate : m_tools) {
        if (candidate->name() == name)
            return candidate.get();
    }
    return nullptr;
}

QStringList ToolRegistry::names() const
{
    QStringList names;
    for (const auto &tool : m_tools)
        names << tool->name();
    return names;
}

QList<ToolSpec> ToolRegistry::specs() const
{
    QList<ToolSpec> specs;
    for (const auto &tool : m_tools)
        specs << tool->spec();
    return specs;
}

ToolRegistry::Prepared ToolRegistry::prepare(const ToolCall &call) const
{
    Prepared prepared;
    prepared.tool = tool(call.name);
    if (!prepared.tool) {
        prepared.error = u"unknown tool '%1'; the available tools are: %2"_s.arg(call.name, names().join(u", "_s));
        return prepared;
    }
    const QString parseError = ToolArguments::parse(call.arguments, &prepared.arguments);
    if (!parseError.isEmpty()) {
        prepared.error = u"invalid arguments for %1: %2"_s.arg(call.name, parseError);
        return prepared;
    }
    prepared.error = prepared.tool->checkArguments(prepared.arguments);
    return prepared;
}

ToolRun *ToolRegistry::start(const ToolCall &call, const ToolContext &context, QObject *parent) const
{
    const Prepared prepared = prepare(call);
    if (!prepared.ok()) {
        qCDebug(lcTools) << "tool call refused:" << prepared.error;
        return ToolRun::withResult(call.name, ToolResult::error(prepared.error), parent);
    }
    return prepared.tool->start(prepared.arguments, context, parent);
}

ApprovalRequest ToolRegistry::approvalRequest(const ToolCall &call, const ToolContext &context) const
{
    const Prepared prepared = prepare(call);
    if (!prepared.tool) {
        ApprovalRequest request;
        request.callId = context.callId;
        request.toolName = call.name;
        request.summary = call.name;
        request.problem = prepared.error;
        return request;
    }
    ApprovalRequest request = prepared.tool->approvalRequest(prepared.arguments, context);
    if (!prepared.ok())
        request.problem = prepared.error;
    return request;
}

} // namespace wl
