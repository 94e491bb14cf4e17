#pragma once

#include "llm/ProviderProfile.h"

#include <QDialog>
#include <QList>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;

namespace wl {

// Asks where an imported session continues and with which provider. Nothing is filled in from
// the imported file: the workspace starts empty and the provider is the user's default, and the
// text says that the file's folder, provider and system prompt are not used.
class ContinueSessionDialog : public QDialog
{
    Q_OBJECT
public:
    ContinueSessionDialog(const QString &title, const QList<ProviderProfile> &profiles, const QString &defaultProfile,
                          QWidget *parent = nullptr);

    QString workspace() const;
    void setWorkspace(const QString &folder);
    // The chosen profile (the first one when there are none to choose from).
    ProviderProfile profile() const;
    bool setProfileName(const QString &name);

private:
    void browse();
    void updateButtons();

    QList<ProviderProfile> m_profiles;
    QLineEdit *m_workspace;
    QComboBox *m_provider;
    QDialogButtonBox *m_buttons;
};

} // namespace wl
