#pragma once

#include <QWidget>

class QComboBox;
class QSpinBox;

namespace wl {

// Forward only: see AppSettings.h.
class ApprovalPolicy;
enum class ApprovalKind;

// The Agent page: which kinds of tool call ask first, and how many LLM
// requests one prompt may take before the run gives up.
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

private:
    QComboBox *m_read = nullptr;
    QComboBox *m_write = nullptr;
    QComboBox *m_execute = nullptr;
    QSpinBox *m_turnLimit = nullptr;
};

} // namespace wl
