#pragma once

#include "llm/ProviderProfile.h"

#include <QUrl>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace wl {

class ProviderCheck;

// What the central area shows while no provider is reachable and no session
// is open: three short steps to connect a local model (Ollama's address
// pre-filled, "Check again" probes GET {base}/models in the background), a
// way to Settings for anything else, the demo session and importing another
// agent's transcript, which need no network. Nothing here is a dead end.
class FirstRunPanel : public QWidget
{
    Q_OBJECT

public:
    enum class State { NotChecked, Checking, Reachable, Unreachable };
    Q_ENUM(State)

    explicit FirstRunPanel(QWidget *parent = nullptr);
    ~FirstRunPanel() override;

    // The profile to probe (its protocol and key); the address field shows
    // its base URL. Defaults to ProviderProfile::defaultProfile().
    void setProfile(const ProviderProfile &profile);
    // The profile with the address as typed in the field.
    ProviderProfile profile() const;
    void setTimeoutMs(int ms);

    // Starts a probe (cancelling a running one); the answer comes as providerReachable().
    void checkAgain();
    State state() const { return m_state; }
    QString statusText() const;
    // The model ids the last successful probe found.
    QStringList models() const { return m_models; }

    QLineEdit *addressEdit() const { return m_address; }
    QPushButton *checkButton() const { return m_check; }
    QPushButton *settingsButton() const { return m_settings; }
    QPushButton *demoButton() const { return m_demo; }
    QPushButton *importButton() const { return m_import; }
    QLabel *statusLabel() const { return m_status; }

Q_SIGNALS:
    void settingsRequested();
    void demoRequested();
    void importRequested();
    void providerReachable(bool reachable);

private:
    void setState(State state, const QString &text);

    ProviderProfile m_profile;
    ProviderCheck *m_probe = nullptr;
    State m_state = State::NotChecked;
    QStringList m_models;
    QLineEdit *m_address = nullptr;
    QPushButton *m_check = nullptr;
    QPushButton *m_settings = nullptr;
    QPushButton *m_demo = nullptr;
    QPushButton *m_import = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_statusIcon = nullptr;
};

} // namespace wl
