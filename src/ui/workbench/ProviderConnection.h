#pragma once

#include "llm/ProviderProfile.h"

#include <QObject>
#include <QString>

#include <optional>

class QTimer;

namespace wl {

class ApiKeyStore;
class ChatClient;
class ProviderCheck;

// The provider side of the live agent, without widgets: which profile the agent runs on (the
// session's own while it exists, else the default), the summariser's profile, their keys (looked
// up in the background, held in memory only), the chat clients built from them, and whether the
// provider is reachable (GET {base}/models, probed again every 15 s while it is not).
//
// While a run is busy (setRunBusy) a new profile waits and is applied when the run ends.
class ProviderConnection : public QObject
{
    Q_OBJECT
public:
    enum class Connection { Unknown, Checking, Reachable, Unreachable, Streaming, Retrying };
    Q_ENUM(Connection)

    explicit ProviderConnection(QObject *parent = nullptr);
    ~ProviderConnection() override;

    // The profiles the settings hold and the default one; the session's named profile is chosen
    // among them (chooseForSession).
    void setProfiles(const QList<ProviderProfile> &profiles, const ProviderProfile &defaultProfile);
    ProviderProfile profile() const { return m_profile; }
    ProviderProfile defaultProfile() const { return m_defaultProfile; }
    // The profile a session naming `providerName` runs on; `note` says why it is not that one.
    ProviderProfile profileForSession(const QString &providerName, QString *note) const;
    // Runs on `profile` from now (or when the run ends): looks its key up and probes it.
    void useProfile(const ProviderProfile &profile);

    // The profile that writes compaction summaries; nullopt: the main model writes them.
    void setSummarizerProfile(const std::optional<ProviderProfile> &profile);
    std::optional<ProviderProfile> summarizerProfile() const { return m_summaryProfile; }

    // Both keys are known and the clients built for them.
    bool clientsReady() const;
    ChatClient *client() const { return m_client; }
    // Null when the main model writes summaries (no profile of its own, or the same one).
    ChatClient *summaryClient() const { return m_summaryClient; }
    // Second clients of the same profiles, for the review's summary drafted in the background
    // while the agent keeps sending on client() (AgentConfig::draftClient); a ChatClient makes one
    // call at a time. The draft summary client is null when summaryClient() is.
    ChatClient *draftClient() const { return m_draftClient; }
    ChatClient *draftSummaryClient() const { return m_draftSummaryClient; }

    // The run's state, for what the connection shows and when a waiting profile applies.
    void setRunBusy(bool busy);
    void setRunActivity(Connection activity);    // Streaming or Retrying while busy; else Unknown
    // A request went through: the provider is reachable.
    void noteRequestSucceeded();

    void checkConnection();
    void setProbeTimeoutMs(int ms);
    Connection connection() const { return m_connection; }
    QString connectionError() const { return m_connectionError; }
    static QString connectionLabel(Connection connection);

Q_SIGNALS:
    // New clients were built (a profile or key changed): a run bound to the old ones must go.
    void clientsChanged();
    void connectionChanged(wl::ProviderConnection::Connection connection);
    void profileChanged();
    void notice(const QString &text);

private:
    void rebuildClients();
    void applyPending();
    void setConnection(Connection connection, const QString &error = {});
    void showIdle();

    ProviderProfile m_profile;
    ProviderProfile m_defaultProfile;
    QList<ProviderProfile> m_profiles;
    std::optional<ProviderProfile> m_summaryProfile;
    std::optional<ProviderProfile> m_pendingProfile;
    std::optional<std::optional<ProviderProfile>> m_pendingSummary;
    QString m_key;         // memory only
    QString m_summaryKey;  // memory only
    bool m_keyResolved = false;
    bool m_summaryKeyResolved = false;
    ChatClient *m_client = nullptr;
    ChatClient *m_summaryClient = nullptr;
    ChatClient *m_draftClient = nullptr;
    ChatClient *m_draftSummaryClient = nullptr;
    ApiKeyStore *m_keys;
    ProviderCheck *m_probe;
    QTimer *m_recheck;
    bool m_busy = false;

    Connection m_connection = Connection::Unknown;
    Connection m_idleConnection = Connection::Unknown; // what the probe last said
    QString m_connectionError;
};

} // namespace wl
