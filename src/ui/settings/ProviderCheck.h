#pragma once

#include "llm/ChatError.h"
#include "llm/ProviderProfile.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QStringList>

namespace wl {

class ApiKeyStore;
class ChatClient;
class ModelDiscovery;

// One check against a provider, run in the background: "Test connection"
// (a tiny real chat request through the profile's ChatClient, timed) or
// "Discover models" (GET {base}/models). The key is resolved the way a
// session would (keychain, then environment) unless the caller passes one
// typed by the user. One check at a time per object; a new start cancels
// the running one. Exactly one of the result signals follows each start.
class ProviderCheck : public QObject
{
    Q_OBJECT

public:
    enum class Kind { Connection, Models };
    Q_ENUM(Kind)

    explicit ProviderCheck(QObject *parent = nullptr);
    ~ProviderCheck() override;

    // No bytes for this long fails the check (Kind::Timeout). Default 30 s.
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }

    void testConnection(const ProviderProfile &profile, const QString &keyOverride = {});
    void discoverModels(const ProviderProfile &profile, const QString &keyOverride = {});
    void cancel();

    bool isRunning() const { return m_running; }
    Kind kind() const { return m_kind; }

    // The prompt "Test connection" sends: short, and asking for a short answer.
    static QString probePrompt();

Q_SIGNALS:
    void connectionSucceeded(qint64 latencyMs, const QString &replyText);
    void modelsFound(const QStringList &ids);
    void failed(const wl::ChatError &error);
    void cancelled();

private:
    void start(Kind kind, const ProviderProfile &profile, const QString &keyOverride);
    void run(const QString &key);
    void stopWork();
    void fail(const ChatError &error);

    ProviderProfile m_profile;
    Kind m_kind = Kind::Connection;
    int m_timeoutMs = 30000;
    bool m_running = false;
    QElapsedTimer m_clock;
    QPointer<ApiKeyStore> m_keyStore;
    QPointer<ChatClient> m_client;
    QPointer<ModelDiscovery> m_discovery;
};

} // namespace wl
