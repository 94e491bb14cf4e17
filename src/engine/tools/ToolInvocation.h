#pragma once

#include "model/ToolCall.h"
#include "tools/ApprovalPolicy.h"
#include "tools/ApprovalRequest.h"
#include "tools/ToolContext.h"
#include "tools/ToolResult.h"

#include <QObject>
#include <QPointer>

namespace wl {

class ApprovalGate;
class ToolRegistry;
class ToolRun;

// One tool call from the model to its result: checks the call, asks for approval when
// the gate says so, runs the tool. The agent loop creates one per call; the UI answers
// approvalRequested() with decide(). finished() comes exactly once, after start() returns.
class ToolInvocation : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, AwaitingApproval, Running, Finished };
    Q_ENUM(State)

    // The registry and the gate must outlive the invocation.
    ToolInvocation(const ToolRegistry &registry, ApprovalGate &gate, const ToolContext &context, const ToolCall &call,
                   QObject *parent = nullptr);
    ~ToolInvocation() override;

    void start();
    void decide(ApprovalDecision decision);  // only while AwaitingApproval
    void cancel();                           // the pending approval or the running tool

    State state() const { return m_state; }
    ToolCall call() const { return m_call; }
    ApprovalRequest request() const { return m_request; }
    ToolResult result() const { return m_result; }

Q_SIGNALS:
    void approvalRequested(const wl::ApprovalRequest &request);
    void stateChanged(wl::ToolInvocation::State state);
    void finished(const wl::ToolResult &result);

private:
    void setState(State state);
    void run();
    void finishQueued(const ToolResult &result);
    void finish(const ToolResult &result);

    const ToolRegistry &m_registry;
    ApprovalGate &m_gate;
    ToolContext m_context;
    ToolCall m_call;
    ApprovalRequest m_request;
    ToolResult m_result;
    QPointer<ToolRun> m_run;
    State m_state = State::Idle;
};

} // namespace wl
