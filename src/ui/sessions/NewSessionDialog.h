#pragma once

#include "compaction/CompactionPolicy.h"
#include "llm/ProviderProfile.h"

#include <QDialog>
#include <QList>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace wl {

// File > New Session: the folder the agent works in, a title, the provider profile it talks to
// and the compaction policy it starts with. The chosen policy is sized to the chosen model's
// window unless it names a window of its own (ProviderProfile::sizedPolicy).
class NewSessionDialog : public QDialog
{
    Q_OBJECT
public:
    struct PolicyChoice
    {
        QString label;
        CompactionPolicy policy;
    };

    // `profiles` empty: the built-in default profile. `policies` empty: the spec's defaults.
    NewSessionDialog(const QList<ProviderProfile> &profiles, const QString &defaultProfile,
                     const QList<PolicyChoice> &policies, QWidget *parent = nullptr);

    QString workspace() const;
    void setWorkspace(const QString &folder);
    QString title() const;
    void setTitle(const QString &title);
    ProviderProfile profile() const;
    bool setProfileName(const QString &name);
    // The chosen policy, sized to the chosen profile's model.
    CompactionPolicy policy() const;
    void setPolicyIndex(int index);

    QComboBox *providerCombo() const { return m_provider; }
    QComboBox *policyCombo() const { return m_policy; }
    QLabel *policySummary() const { return m_summary; }
    QDialogButtonBox *buttons() const { return m_buttons; }

private:
    void browse();
    void updateState();

    QList<ProviderProfile> m_profiles;
    QList<PolicyChoice> m_policies;
    bool m_titleEdited = false;
    QLineEdit *m_workspace;
    QLineEdit *m_title;
    QComboBox *m_provider;
    QComboBox *m_policy;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
};

} // namespace wl
