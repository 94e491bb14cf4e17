#pragma once

#include "tools/SandboxPolicy.h"

#include <QJsonObject>
#include <QString>

namespace wl {

// How much a tool can change: reads run at once; writes and commands ask by default.
enum class ApprovalKind { Read, Write, Execute };

// Per kind, a session setting.
enum class ApprovalMode { Ask, Allow };

// The user's answer to one approval request.
enum class ApprovalDecision { AllowOnce, AllowForSession, Deny };

QString approvalKindName(ApprovalKind kind);   // "read", "write", "execute"
QString approvalModeName(ApprovalMode mode);   // "ask", "allow"
QString approvalDecisionName(ApprovalDecision decision); // "allow_once", "allow_session", "deny"

// Which kinds of tool call need the user's approval, and how the commands it allows run (the
// session's sandbox settings). JSON: {"read":"allow","write":"ask","execute":"ask"}, plus
// "sandbox": SandboxPolicy::toJson() when that differs from the defaults.
class ApprovalPolicy
{
public:
    ApprovalPolicy();  // read: allow, write: ask, execute: ask

    ApprovalMode mode(ApprovalKind kind) const;
    void setMode(ApprovalKind kind, ApprovalMode mode);

    SandboxPolicy sandbox() const { return m_sandbox; }
    void setSandbox(const SandboxPolicy &sandbox) { m_sandbox = sandbox; }

    // Everything allowed (waterline-cli --auto-approve). The sandbox stays.
    static ApprovalPolicy allowAll();

    QJsonObject toJson() const;
    // Keys absent from `json` keep their defaults; unknown values are an error (and the default stays).
    static ApprovalPolicy fromJson(const QJsonObject &json, QString *error = nullptr);

    friend bool operator==(const ApprovalPolicy &, const ApprovalPolicy &) = default;

private:
    ApprovalMode m_read = ApprovalMode::Allow;
    ApprovalMode m_write = ApprovalMode::Ask;
    ApprovalMode m_execute = ApprovalMode::Ask;
    SandboxPolicy m_sandbox;
};

} // namespace wl
