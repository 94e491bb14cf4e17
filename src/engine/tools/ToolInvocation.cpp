#include "tools/ToolInvocation.h"

#include "tools/ApprovalGate.h"
#include "tools/Tool.h"
#include "tools/ToolRegistry.h"
#include "tools/ToolRun.h"

using namespace Qt::StringLiterals;

namespace wl {

ToolInvocation::ToolInvocation(const ToolRegistry &registry, ApprovalGate &gate, const ToolContext &context,
                               const ToolCall &call, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_gate(gate)
    , m_context(context)
    , m_call(call)
{
    if (m_context.callId.isEmpty())
        m_context.callId = call.id;
}

ToolInvocation::~ToolInvocation() = default;

void ToolInvocation::start()
{
    if (m_state != State::Idle)
        return;
    const ToolRegistry::Prepared prepared = m_registry.prepare(m_call);
    if (!prepared.ok()) {
        // Nothing would run, so there is nothing to approve: the model reads the error.
        setState(State::Running);
        finishQueued(ToolResult::error(prepared.error));
        return;
    }
    if (m_gate.needsApproval(m_call.name, prepared.tool->approvalKind())) {
        m_request = prepared.tool->approvalRequest(prepared.arguments, m_context);
        setState(State::AwaitingApproval);
        Q_EMIT approvalRequested(m_request);
        return;
    }
    run();
}

void ToolInvocation::decide(ApprovalDecision decision)
{
    if (m_state != State::AwaitingApproval)
        return;
    if (!m_gate.decide(m_request, decision)) {
        setState(State::Running);
        finishQueued(ApprovalGate::deniedResult(m_request));
        return;
    }
    run();
}

void ToolInvocation::cancel()
{
    switch (m_state) {
    case State::Idle:
    case State::AwaitingApproval: {
        setState(State::Running);
        ToolResult result = ToolResult::error(u"the %1 call was cancelled by the user"_s.arg(m_call.name));
        result.exitCode = -1;
        result.metadata.insert(u"cancelled"_s, true);
        finishQueued(result);
        break;
    }
    case State::Running:
        if (m_run)
            m_run->cancel();
        break;
    case State::Finished:
        break;
    }
}

void ToolInvocation::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void ToolInvocation::run()
{
    setState(State::Running);
    m_run = m_registry.start(m_call, m_context, this);
    connect(m_run, &ToolRun::finished, this, [this](const ToolResult &result) {
        finish(result);
        if (m_run)
            m_run->deleteLater();
    });
}

void ToolInvocation::finishQueued(const ToolResult &result)
{
    QMetaObject::invokeMethod(this, [this, result] { finish(result); }, Qt::QueuedConnection);
}

void ToolInvocation::finish(const ToolResult &result)
{
    if (m_state == State::Finished)
        return;
    m_result = result;
    setState(State::Finished);
    Q_EMIT finished(m_result);
}

} // namespace wl
