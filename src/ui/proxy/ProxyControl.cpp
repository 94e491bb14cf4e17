#include "proxy/ProxyControl.h"

#include "Paths.h"
#include "proxy/ProxyCompactor.h"
#include "proxy/ProxyRecorder.h"
#include "proxy/ProxyServer.h"
#include "proxy/ProxyTrafficModel.h"
#include "settings/AppSettings.h"
#include "UiLogging.h"

using namespace Qt::StringLiterals;

namespace wl {

ProxyControl::ProxyControl(AppSettings *settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_traffic(new ProxyTrafficModel(this))
    , m_compacting(settings && settings->proxyCompact())
    , m_offloadRoot(Paths::proxyOffloadRoot())
{
}

ProxyControl::~ProxyControl() = default;

bool ProxyControl::start(const QUrl &upstream, quint16 port)
{
    stop();
    auto server = std::make_unique<ProxyServer>();
    ProxyServer::Options options;
    options.port = port;
    options.upstream = upstream;
    QString error;
    if (!server->listen(options, &error)) {
        m_lastError = error;
        qCInfo(lcUi) << "the proxy did not start:" << error;
        Q_EMIT stateChanged();
        return false;
    }
    m_lastError.clear();
    m_server = std::move(server);
    attachObservers(m_server.get());
    if (m_settings) {
        m_settings->setProxyUpstream(upstream);
        m_settings->setProxyPort(port);
    }
    Q_EMIT stateChanged();
    return true;
}

void ProxyControl::attachObservers(ProxyServer *server)
{
    connect(server, &ProxyServer::exchangeFinished, m_traffic, &ProxyTrafficModel::addExchange);
    attachRecorder();
    installRewriter();
}

void ProxyControl::installRewriter()
{
    if (!m_server)
        return;
    if (!m_compacting) {
        m_server->setRequestRewriter({});
        return;
    }
    if (!m_compactor)
        m_compactor = std::make_shared<ProxyCompactor>(m_compactPolicy, m_offloadRoot);
    m_server->setRequestRewriter(ProxyCompactor::rewriter(m_compactor));
}

void ProxyControl::setCompacting(bool on)
{
    if (on == m_compacting)
        return;
    m_compacting = on;
    if (m_settings)
        m_settings->setProxyCompact(on);
    qCInfo(lcUi) << "the proxy's compact mode is" << (on ? "on" : "off");
    installRewriter();
    Q_EMIT stateChanged();
}

void ProxyControl::setCompactPolicy(const CompactionPolicy &policy)
{
    m_compactPolicy = policy;
    if (m_compactor)
        m_compactor->setPolicy(policy);
    if (m_compacting)
        Q_EMIT stateChanged(); // the panel says the window
}

void ProxyControl::setOffloadRoot(const QString &path)
{
    if (path == m_offloadRoot)
        return;
    m_offloadRoot = path;
    m_compactor.reset(); // its conversations named files under the old folder
    installRewriter();
}

void ProxyControl::attachRecorder()
{
    m_recorder.reset(); // finishes the writes into the database used so far
    if (!m_server || m_databasePath.isEmpty())
        return;
    m_recorder = std::make_unique<ProxyRecorder>(m_databasePath);
    m_recorder->setAuditDir(Paths::auditDir());
    connect(m_recorder.get(), &ProxyRecorder::sessionUpdated, this, &ProxyControl::sessionRecorded);
    connect(m_recorder.get(), &ProxyRecorder::failed, this, [this](const QString &error) {
        qCWarning(lcUi).noquote() << "the proxy could not record a request:" << error;
        Q_EMIT recordFailed(error);
    });
    m_recorder->attach(m_server.get());
}

void ProxyControl::setDatabasePath(const QString &path)
{
    if (path == m_databasePath)
        return;
    m_databasePath = path;
    if (m_server)
        attachRecorder();
}

void ProxyControl::stop()
{
    if (!m_server)
        return;
    m_server->close();
    m_server.reset();
    m_recorder.reset();
    Q_EMIT stateChanged();
}

bool ProxyControl::isRunning() const
{
    return m_server && m_server->isListening();
}

QUrl ProxyControl::baseUrl() const
{
    return isRunning() ? m_server->baseUrl() : QUrl();
}

QUrl ProxyControl::upstream() const
{
    if (m_server)
        return m_server->upstream();
    return m_settings ? m_settings->proxyUpstream() : QUrl(u"https://api.anthropic.com"_s);
}

quint16 ProxyControl::port() const
{
    if (m_server)
        return m_server->port();
    return m_settings ? m_settings->proxyPort() : quint16(0);
}

} // namespace wl
