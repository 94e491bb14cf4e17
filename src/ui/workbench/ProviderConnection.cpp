#include "ProviderConnection.h"

#include "llm/ApiKeyStore.h"
#include "llm/ChatClient.h"
#include "settings/ProviderCheck.h"

#include <QTimer>
#include <QUrl>

namespace wl {

ProviderConnection::ProviderConnection(QObject *parent)
    : QObject(parent)
    , m_profile(ProviderProfile::defaultProfile())
    , m_defaultProfile(m_profile)
    , m_keys(new ApiKeyStore(this))
    , m_probe(new ProviderCheck(this))
    , m_recheck(new QTimer(this))
{
    m_recheck->setSingleShot(true);
    m_recheck->setInterval(15000);
    connect(m_recheck, &QTimer::timeout, this, &ProviderConnection::checkConnection);
    if (qEnvironmentVariableIntValue("WATERLINE_NO_KEYCHAIN") == 1)
        m_keys->setKeychainEnabled(false);

    connect(m_keys, &ApiKeyStore::keyResolved, this, [this](const QString &keyRef, const ApiKeyStore::Result &result) {
        // Answers for profiles no longer in use are dropped; one key may serve both clients.
        bool changed = false;
        if (keyRef == m_profile.keyRef && !m_keyResolved) {
            m_key = result.key;
            m_keyResolved = true;
            changed = true;
        }
        if (m_summaryProfile && keyRef == m_summaryProfile->keyRef && !m_summaryKeyResolved) {
            m_summaryKey = result.key;
            m_summaryKeyResolved = true;
            changed = true;
        }
        if (changed)
            rebuildClients();
    });
    connect(m_probe, &ProviderCheck::modelsFound, this, [this](const QStringList &) {
        m_idleConnection = Connection::Reachable;
        if (!m_busy)
            setConnection(Connection::Reachable);
    });
    connect(m_probe, &ProviderCheck::failed, this, [this](const ChatError &error) {
        m_idleConnection = Connection::Unreachable;
        if (!m_busy)
            setConnection(Connection::Unreachable, error.displayText());
    });
}

ProviderConnection::~ProviderConnection() = default;

void ProviderConnection::setProfiles(const QList<ProviderProfile> &profiles, const ProviderProfile &defaultProfile)
{
    m_profiles = profiles;
    m_defaultProfile = defaultProfile;
}

ProviderProfile ProviderConnection::profileForSession(const QString &providerName, QString *note) const
{
    note->clear();
    if (providerName.isEmpty())
        return m_defaultProfile;
    for (const ProviderProfile &p : m_profiles)
        if (p.name == providerName)
            return p;
    *note = tr("This session ran on the provider profile \u201c%1\u201d, which no longer exists; it uses the default profile \u201c%2\u201d.")
                .arg(providerName, m_defaultProfile.name);
    return m_defaultProfile;
}

void ProviderConnection::useProfile(const ProviderProfile &profile)
{
    if (m_busy) {
        if (m_pendingProfile == profile || (!m_pendingProfile && profile == m_profile))
            return;
        m_pendingProfile = profile;
        Q_EMIT notice(tr("The new provider is used when the agent has finished."));
        return;
    }
    const bool same = profile == m_profile && m_keyResolved;
    m_profile = profile;
    m_pendingProfile.reset();
    if (same) {
        checkConnection();
        return;
    }
    m_keyResolved = false;
    m_key.clear();
    m_keys->lookup(profile); // answers from the event loop: rebuildClients()
    checkConnection();
    Q_EMIT profileChanged();
}

void ProviderConnection::setSummarizerProfile(const std::optional<ProviderProfile> &profile)
{
    if (m_busy) {
        m_pendingSummary = profile;
        return;
    }
    m_pendingSummary.reset();
    if (profile == m_summaryProfile && (!profile || m_summaryKeyResolved))
        return;
    m_summaryProfile = profile;
    m_summaryKeyResolved = false;
    m_summaryKey.clear();
    if (profile)
        m_keys->lookup(*profile); // answers from the event loop: rebuildClients()
    else
        rebuildClients();
}

bool ProviderConnection::clientsReady() const
{
    return m_client && m_keyResolved && (!m_summaryProfile || m_summaryKeyResolved);
}

void ProviderConnection::rebuildClients()
{
    if (!m_keyResolved || (m_summaryProfile && !m_summaryKeyResolved))
        return; // the other key is still being looked up: its answer comes back here
    // Whoever holds a run on the old clients drops it first (clientsChanged is too late for that).
    const QList<ChatClient *> old{m_client, m_summaryClient, m_draftClient, m_draftSummaryClient};
    m_client = ChatClient::create(m_profile, m_key, this);
    m_draftClient = ChatClient::create(m_profile, m_key, this);
    m_summaryClient = nullptr;
    m_draftSummaryClient = nullptr;
    // A summariser profile that is the main one adds no step to the chain.
    if (m_summaryProfile && !(*m_summaryProfile == m_profile)) {
        m_summaryClient = ChatClient::create(*m_summaryProfile, m_summaryKey, this);
        m_draftSummaryClient = ChatClient::create(*m_summaryProfile, m_summaryKey, this);
    }
    Q_EMIT clientsChanged();
    qDeleteAll(old);
}

void ProviderConnection::setRunBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    if (!busy) {
        showIdle();
        applyPending();
    }
}

void ProviderConnection::setRunActivity(Connection activity)
{
    if (activity == Connection::Streaming || activity == Connection::Retrying)
        setConnection(activity);
    else
        showIdle();
}

void ProviderConnection::showIdle()
{
    // What the probe last said; a run that went through without a probe answer means reachable.
    setConnection(m_idleConnection == Connection::Unknown ? Connection::Reachable : m_idleConnection, m_connectionError);
}

void ProviderConnection::noteRequestSucceeded()
{
    m_idleConnection = Connection::Reachable;
    m_connectionError.clear();
}

void ProviderConnection::applyPending()
{
    if (m_busy)
        return;
    if (m_pendingSummary) {
        const std::optional<ProviderProfile> p = *m_pendingSummary;
        m_pendingSummary.reset();
        setSummarizerProfile(p);
    }
    if (m_pendingProfile) {
        const ProviderProfile p = *m_pendingProfile;
        m_pendingProfile.reset();
        useProfile(p);
    }
}

void ProviderConnection::setProbeTimeoutMs(int ms)
{
    if (ms > 0)
        m_probe->setTimeoutMs(ms);
}

void ProviderConnection::checkConnection()
{
    const QUrl base = m_profile.baseUrl;
    if (!base.isValid() || base.host().isEmpty()) {
        m_idleConnection = Connection::Unreachable;
        setConnection(Connection::Unreachable, tr("the provider has no valid address"));
        return;
    }
    if (!m_busy)
        setConnection(Connection::Checking);
    m_probe->discoverModels(m_profile);
}

void ProviderConnection::setConnection(Connection connection, const QString &error)
{
    if (connection == Connection::Unreachable)
        m_connectionError = error;
    else if (connection == Connection::Reachable)
        m_connectionError.clear();
    if (connection == Connection::Unreachable)
        m_recheck->start(); // a server started later is noticed without a click
    else
        m_recheck->stop();
    if (m_connection == connection)
        return;
    m_connection = connection;
    Q_EMIT connectionChanged(connection);
}

QString ProviderConnection::connectionLabel(Connection connection)
{
    switch (connection) {
    case Connection::Unknown: return tr("not checked");
    case Connection::Checking: return tr("checking\u2026");
    case Connection::Reachable: return tr("reachable");
    case Connection::Unreachable: return tr("unreachable");
    case Connection::Streaming: return tr("streaming");
    case Connection::Retrying: return tr("retrying");
    }
    return {};
}

} // namespace wl
