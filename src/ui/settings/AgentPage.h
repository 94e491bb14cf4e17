#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace wl {

// Forward only: see AppSettings.h.
class ApprovalPolicy;
enum class ApprovalKind;

// The Agent page: which kinds of tool call ask first, how commands run (network,
// unsandboxed opt-in, extra environment variables; kept in the approval policy's
// SandboxPolicy), and how many LLM requests one prompt may take before the run gives up.
class AgentPage : public QWidget
{
    Q_OBJECT

public:
    explicit AgentPage(QWidget *parent = nullptr);

    ApprovalPolicy approvalPolicy() const;
    void setApprovalPolicy(const ApprovalPolicy &policy);
    int turnLimit() const;
    void setTurnLimit(int limit);

    QComboBox *modeCombo(ApprovalKind kind) const;
    QSpinBox *turnLimitSpin() const { return m_turnLimit; }
    QCheckBox *networkCheck() const { return m_network; }
    QCheckBox *unsandboxedCheck() const { return m_unsandboxed; }
    QLineEdit *environmentEdit() const { return m_environment; }

private:
    QComboBox *m_read = nullptr;
    QComboBox *m_write = nullptr;
    QComboBox *m_execute = nullptr;
    QSpinBox *m_turnLimit = nullptr;
    QCheckBox *m_network = nullptr;
    QCheckBox *m_unsandboxed = nullptr;
    QLineEdit *m_environment = nullptr;
};

} // namespace wl
