#pragma once

#include "tools/ApprovalPolicy.h"
#include "tools/ToolResult.h"

#include <QObject>
#include <QSet>

namespace wl {

struct ApprovalRequest;

// The approval decisions of one session, shared by the agent loop and the UI:
// the policy (which kinds ask) plus the tools the user allowed for the rest of the session.
class ApprovalGate : public QObject
{
    Q_OBJECT
public:
    explicit ApprovalGate(const ApprovalPolicy &policy = {}, QObject *parent = nullptr);

    ApprovalPolicy policy() const { return m_policy; }
    void setPolicy(const ApprovalPolicy &policy);

    // Whether a call of this tool must wait for the user.
    bool needsApproval(const QString &toolName, ApprovalKind kind) const;

    // Records the user's answer to `request`; returns whether the call may run.
    bool decide(const ApprovalRequest &request, ApprovalDecision decision);

    bool isAllowedForSession(const QString &toolName) const { return m_sessionAllowed.contains(toolName); }
    QStringList sessionAllowedTools() const;  // sorted
    void resetSession();                      // forget "allow for this session" (a new session)

    // The result a denied call returns to the model.
    static ToolResult deniedResult(const ApprovalRequest &request);

Q_SIGNALS:
    void policyChanged();
    void sessionAllowancesChanged();

private:
    ApprovalPolicy m_policy;
    QSet<QString> m_sessionAllowed;
};

} // namespace wl
