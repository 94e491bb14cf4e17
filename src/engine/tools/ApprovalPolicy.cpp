#include "tools/ApprovalPolicy.h"

#include <QCoreApplication>

#include <array>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr std::array allKinds{ApprovalKind::Read, ApprovalKind::Write, ApprovalKind::Execute};
}

QString approvalKindName(ApprovalKind kind)
{
    switch (kind) {
    case ApprovalKind::Read:
        return u"read"_s;
    case ApprovalKind::Write:
        return u"write"_s;
    case ApprovalKind::Execute:
        return u"execute"_s;
    }
    return {};
}

QString approvalModeName(ApprovalMode mode)
{
    return mode == ApprovalMode::Allow ? u"allow"_s : u"ask"_s;
}

QString approvalDecisionName(ApprovalDecision decision)
{
    switch (decision) {
    case ApprovalDecision::AllowOnce:
        return u"allow_once"_s;
    case ApprovalDecision::AllowForSession:
        return u"allow_session"_s;
    case ApprovalDecision::Deny:
        return u"deny"_s;
    }
    return {};
}

ApprovalPolicy::ApprovalPolicy() = default;

ApprovalMode ApprovalPolicy::mode(ApprovalKind kind) const
{
    switch (kind) {
    case ApprovalKind::Read:
        return m_read;
    case ApprovalKind::Write:
        return m_write;
    case ApprovalKind::Execute:
        return m_execute;
    }
    return ApprovalMode::Ask;
}

void ApprovalPolicy::setMode(ApprovalKind kind, ApprovalMode mode)
{
    switch (kind) {
    case ApprovalKind::Read:
        m_read = mode;
        break;
    case ApprovalKind::Write:
        m_write = mode;
        break;
    case ApprovalKind::Execute:
        m_execute = mode;
        break;
    }
}

ApprovalPolicy ApprovalPolicy::allowAll()
{
    ApprovalPolicy policy;
    for (ApprovalKind kind : allKinds)
        policy.setMode(kind, ApprovalMode::Allow);
    return policy;
}

QJsonObject ApprovalPolicy::toJson() const
{
    QJsonObject json;
    for (ApprovalKind kind : allKinds)
        json.insert(approvalKindName(kind), approvalModeName(mode(kind)));
    if (!m_sandbox.isDefault())
        json.insert(u"sandbox"_s, m_sandbox.toJson());
    return json;
}

ApprovalPolicy ApprovalPolicy::fromJson(const QJsonObject &json, QString *error)
{
    ApprovalPolicy policy;
    QStringList problems;
    for (ApprovalKind kind : allKinds) {
        const QString key = approvalKindName(kind);
        if (!json.contains(key))
            continue;
        const QString value = json.value(key).toString();
        if (value == approvalModeName(ApprovalMode::Allow))
            policy.setMode(kind, ApprovalMode::Allow);
        else if (value == approvalModeName(ApprovalMode::Ask))
            policy.setMode(kind, ApprovalMode::Ask);
        else
            problems << QCoreApplication::translate("wl::ApprovalPolicy", "'%1' must be \"ask\" or \"allow\"").arg(key);
    }
    if (json.contains(u"sandbox"_s)) {
        QString why;
        if (json.value(u"sandbox"_s).isObject())
            policy.m_sandbox = SandboxPolicy::fromJson(json.value(u"sandbox"_s).toObject(), &why);
        else
            why = QCoreApplication::translate("wl::ApprovalPolicy", "'sandbox' must be an object");
        if (!why.isEmpty())
            problems << why;
    }
    if (error)
        *error = problems.join(u"; "_s);
    return policy;
}

} // namespace wl
