#include "AgentPage.h"

#include "settings/AppSettings.h"
#include "tools/ApprovalPolicy.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
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

    auto *commandsBox = new QGroupBox(tr("Commands"), this);
    auto *commands = new QFormLayout(commandsBox);
    auto *sandboxNote = new QLabel(tr("Commands run in a bubblewrap sandbox: only the workspace can be written, "
                                      "SSH keys, credentials and Waterline's own data are out of sight, and "
                                      "nothing a command starts outlives it."), commandsBox);
    sandboxNote->setWordWrap(true);
    commands->addRow(sandboxNote);
    m_network = new QCheckBox(tr("Commands may use the &network"), commandsBox);
    m_network->setObjectName(u"sandboxNetworkCheck"_s);
    m_network->setToolTip(tr("Off: commands get no network at all (no package downloads, no git fetch)"));
    commands->addRow(m_network);
    m_unsandboxed = new QCheckBox(tr("Run commands without a sandbox where &bubblewrap is unavailable"), commandsBox);
    m_unsandboxed->setObjectName(u"allowUnsandboxedCheck"_s);
    m_unsandboxed->setToolTip(tr("Without bubblewrap, commands can read your files and keys and leave processes "
                                 "running; the conversation says when this happens"));
    commands->addRow(m_unsandboxed);
    m_environment = new QLineEdit(commandsBox);
    m_environment->setObjectName(u"extraEnvironmentEdit"_s);
    m_environment->setPlaceholderText(tr("e.g. JAVA_OPTS NODE_OPTIONS"));
    m_environment->setToolTip(tr("Variable names, separated by spaces, passed to commands beside PATH, HOME, the "
                                 "locale and the like. Everything else (tokens, keys) stays out."));
    m_environment->setValidator(new QRegularExpressionValidator(
        QRegularExpression(u"[\\s,]*([A-Za-z_][A-Za-z0-9_]*[\\s,]*)*"_s), m_environment));
    commands->addRow(tr("Pass these &environment variables:"), m_environment);
    layout->addWidget(commandsBox);

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
    SandboxPolicy sandbox;
    sandbox.network = m_network->isChecked();
    sandbox.allowUnsandboxed = m_unsandboxed->isChecked();
    const QStringList names = m_environment->text().split(QRegularExpression(u"[\\s,]+"_s), Qt::SkipEmptyParts);
    for (const QString &name : names) {
        if (SandboxPolicy::isVariableName(name) && !sandbox.extraEnvironment.contains(name))
            sandbox.extraEnvironment << name;
    }
    policy.setSandbox(sandbox);
    return policy;
}

void AgentPage::setApprovalPolicy(const ApprovalPolicy &policy)
{
    for (ApprovalKind kind : {ApprovalKind::Read, ApprovalKind::Write, ApprovalKind::Execute}) {
        QComboBox *combo = modeCombo(kind);
        combo->setCurrentIndex(combo->findData(int(policy.mode(kind))));
    }
    const SandboxPolicy sandbox = policy.sandbox();
    m_network->setChecked(sandbox.network);
    m_unsandboxed->setChecked(sandbox.allowUnsandboxed);
    m_environment->setText(sandbox.extraEnvironment.join(u' '));
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
