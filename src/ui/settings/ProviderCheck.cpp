#include "ProviderCheck.h"

#include "UiLogging.h"
#include "llm/ApiKeyStore.h"
#include "llm/ChatClient.h"
#include "llm/ModelDiscovery.h"
#include "model/Message.h"

using namespace Qt::StringLiterals;

namespace wl {

ProviderCheck::ProviderCheck(QObject *parent)
    : QObject(parent)
{
}

ProviderCheck::~ProviderCheck()
{
    stopWork();
}

QString ProviderCheck::probePrompt()
{
    return u"Reply with the single word: ready"_s;
}

void ProviderCheck::testConnection(const ProviderProfile &profile, const QString &keyOverride)
{
    start(Kind::Connection, profile, keyOverride);
}

void ProviderCheck::discoverModels(const ProviderProfile &profile, const QString &keyOverride)
{
    start(Kind::Models, profile, keyOverride);
}

void ProviderCheck::start(Kind kind, const ProviderProfile &profile, const QString &keyOverride)
{
    if (m_running)
        cancel();
    m_kind = kind;
    m_profile = profile;
    m_running = true;
    const QString typed = keyOverride.trimmed();
    if (!typed.isEmpty()) {
        run(typed);
        return;
    }
    // A store per check: its answer cannot be confused with another check's (a cancelled check's
    // store is disconnected from us in stopWork()).
    m_keyStore = new ApiKeyStore(this);
    connect(m_keyStore, &ApiKeyStore::keyResolved, this,
            [this](const QString &, const ApiKeyStore::Result &result) {
                if (m_keyStore)
                    m_keyStore->deleteLater();
                if (!m_running)
                    return;
                run(result.key);
            });
    m_keyStore->lookup(profile);
}

void ProviderCheck::run(const QString &key)
{
    m_clock.start();
    if (m_kind == Kind::Models) {
        m_discovery = new ModelDiscovery(this);
        m_discovery->setTransferTimeoutMs(m_timeoutMs);
        connect(m_discovery, &ModelDiscovery::modelsFound, this, [this](const QStringList &ids) {
            stopWork();
            m_running = false;
            Q_EMIT modelsFound(ids);
        });
        connect(m_discovery, &ModelDiscovery::failed, this, &ProviderCheck::fail);
        m_discovery->fetch(m_profile, key);
        return;
    }

    m_client = ChatClient::create(m_profile, key, this);
    RetryPolicy once;
    once.maxAttempts = 1;   // the user asked whether it works now; say so at once
    m_client->setRetryPolicy(once);
    m_client->setTransferTimeoutMs(m_timeoutMs);
    connect(m_client, &ChatClient::finished, this,
            [this](const Message &assistant, const ChatUsage &, const QString &) {
                const qint64 latency = m_clock.elapsed();
                stopWork();
                m_running = false;
                Q_EMIT connectionSucceeded(latency, assistant.content.trimmed());
            });
    connect(m_client, &ChatClient::failed, this, &ProviderCheck::fail);

    ChatRequest request;
    request.model = m_profile.model;
    request.maxOutputTokens = 16;
    request.promptCaching = false;
    request.messages = {Message::user(probePrompt())};
    m_client->send(request);
}

void ProviderCheck::fail(const ChatError &error)
{
    stopWork();
    m_running = false;
    qCDebug(lcUi).noquote() << "provider check failed:" << ChatError::kindName(error.kind) << error.displayText();
    Q_EMIT failed(error);
}

void ProviderCheck::cancel()
{
    if (!m_running)
        return;
    stopWork();
    m_running = false;
    Q_EMIT cancelled();
}

void ProviderCheck::stopWork()
{
    if (m_keyStore) {
        m_keyStore->disconnect(this);
        m_keyStore->deleteLater();
    }
    if (m_client) {
        m_client->disconnect(this);
        m_client->cancel();
        m_client->deleteLater();
    }
    if (m_discovery) {
        m_discovery->disconnect(this);
        m_discovery->cancel();
        m_discovery->deleteLater();
    }
}

} // namespace wl
