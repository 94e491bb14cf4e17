#include "tools/ApprovalGate.h"

#include "LoggingCategories.h"
#include "tools/ApprovalRequest.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

ApprovalGate::ApprovalGate(const ApprovalPolicy &policy, QObject *parent)
    : QObject(parent)
    , m_policy(policy)
{
}

void ApprovalGate::setPolicy(const ApprovalPolicy &policy)
{
    if (policy == m_policy)
        return;
    m_policy = policy;
    Q_EMIT policyChanged();
}

bool ApprovalGate::needsApproval(const QString &toolName, ApprovalKind kind) const
{
    return m_policy.mode(kind) == ApprovalMode::Ask && !m_sessionAllowed.contains(toolName);
}

bool ApprovalGate::decide(const ApprovalRequest &request, ApprovalDecision decision)
{
    qCDebug(lcTools) << "approval for" << request.toolName << request.callId << approvalDecisionName(decision);
    switch (decision) {
    case ApprovalDecision::AllowOnce:
        return true;
    case ApprovalDecision::AllowForSession:
        if (!m_sessionAllowed.contains(request.toolName)) {
            m_sessionAllowed.insert(request.toolName);
            Q_EMIT sessionAllowancesChanged();
        }
        return true;
    case ApprovalDecision::Deny:
        return false;
    }
    return false;
}

QStringList ApprovalGate::sessionAllowedTools() const
{
    QStringList names(m_sessionAllowed.begin(), m_sessionAllowed.end());
    std::sort(names.begin(), names.end());
    return names;
}

void ApprovalGate::resetSession()
{
    if (m_sessionAllowed.isEmpty())
        return;
    m_sessionAllowed.clear();
    Q_EMIT sessionAllowancesChanged();
}

ToolResult ApprovalGate::deniedResult(const ApprovalRequest &request)
{
    ToolResult result = ToolResult::error(u"the user denied this %1 call"_s.arg(request.toolName));
    result.exitCode = -1;
    result.metadata.insert(u"denied"_s, true);
    return result;
}

} // namespace wl
