#include "AgentPage.h"

#include "AppSettings.h"
#include "tools/ApprovalPolicy.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

QComboBox *makeModeCombo(const QString &objectName, QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(objectName);
    combo->addItem(AgentPage::tr("Ask me first"), int(ApprovalMode::Ask));
    combo->addItem(AgentPage::tr("Allow without asking"), int(ApprovalMode::Allow));
    return combo;
}

} // namespace

AgentPage::AgentPage(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(u"agentPage"_s);
    auto *layout = new QVBoxLayout(this);

    auto *approvalBox = new QGroupBox(tr("Approval of tool calls"), this);
    auto *approval = new QFormLayout(approvalBox);
    m_read = makeModeCombo(u"approvalReadCombo"_s, approvalBox);
    m_write = makeModeCombo(u"approvalWriteCombo"_s, approvalBox);
    m_execute = makeModeCombo(u"approvalExecuteCombo"_s, approvalBox);
    approval->addRow(tr("&Reading files:"), m_read);
    approval->addRow(tr("&Writing or editing files:"), m_write);
    approval->addRow(tr("Running &commands:"), m_execute);
    auto *note = new QLabel(tr("A request that asks shows the exact command or diff, with Allow once, "
                               "Allow for this session and Deny."), approvalBox);
    note->setWordWrap(true);
    approval->addRow(note);
    layout->addWidget(approvalBox);

    auto *runBox = new QGroupBox(tr("Runs"), this);
    auto *run = new QFormLayout(runBox);
    m_turnLimit = new QSpinBox(runBox);
    m_turnLimit->setObjectName(u"turnLimitSpin"_s);
    m_turnLimit->setRange(1, AppSettings::kMaxTurnLimit);
    m_turnLimit->setGroupSeparatorShown(true);
    m_turnLimit->setSuffix(tr(" requests"));
    m_turnLimit->setToolTip(tr("LLM requests one prompt may take before the run stops and asks you to go on"));
    run->addRow(tr("&Turn limit:"), m_turnLimit);
    layout->addWidget(runBox);
    layout->addStretch(1);

    setApprovalPolicy(ApprovalPolicy{});
    setTurnLimit(AppSettings::kDefaultTurnLimit);
}

QComboBox *AgentPage::modeCombo(ApprovalKind kind) const
{
    switch (kind) {
    case ApprovalKind::Read: return m_read;
    case ApprovalKind::Write: return m_write;
    case ApprovalKind::Execute: return m_execute;
    }
    return nullptr;
}

ApprovalPolicy AgentPage::approvalPolicy() const
{
    ApprovalPolicy policy;
    for (ApprovalKind kind : {ApprovalKind::Read, ApprovalKind::Write, ApprovalKind::Execute})
        policy.setMode(kind, ApprovalMode(modeCombo(kind)->currentData().toInt()));
    return policy;
}

void AgentPage::setApprovalPolicy(const ApprovalPolicy &policy)
{
    for (ApprovalKind kind : {ApprovalKind::Read, ApprovalKind::Write, ApprovalKind::Execute}) {
        QComboBox *combo = modeCombo(kind);
        combo->setCurrentIndex(combo->findData(int(policy.mode(kind))));
    }
}

int AgentPage::turnLimit() const
{
    return m_turnLimit->value();
}

void AgentPage::setTurnLimit(int limit)
{
    m_turnLimit->setValue(limit);
}

} // namespace wl
