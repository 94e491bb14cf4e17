#include "ProxyServer.h"

#include "LoggingCategories.h"
#include "ProxyExchange.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
QByteArray freshToken()
{
    // 128 bits from the system's generator, hex: unguessable, and plain in a URL path.
    quint32 words[4];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char *>(words), sizeof words).toHex();
}

bool sameToken(QByteArrayView a, QByteArrayView b)
{
    // Every byte is compared whatever the first difference, so timing does not tell how much matched.
    if (a.size() != b.size() || a.isEmpty())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}
} // namespace

ProxyServer::ProxyServer(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
    , m_network(new QNetworkAccessManager(this))
{
    qRegisterMetaType<wl::ProxiedExchange>();
    // Redirects, cookies and caches are the client's business: the proxy passes them through.
    m_network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_network->setCookieJar(nullptr);
    connect(m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = m_server->nextPendingConnection())
            new ProxyExchange(socket, this, m_network);
    });
}

ProxyServer::~ProxyServer()
{
    // The exchanges go first: an upstream request still under way is aborted in its exchange's
    // destructor, which needs the network manager it came from (a child made before them).
    qDeleteAll(findChildren<ProxyExchange *>(Qt::FindDirectChildrenOnly));
}

bool ProxyServer::listen(const Options &options, QString *error)
{
    const auto failWith = [error](const QString &text) {
        if (error)
            *error = text;
        return false;
    };
    if (!options.address.isLoopback())
        return failWith(QCoreApplication::translate("ProxyServer", "the proxy listens on a loopback address only (127.0.0.1 or ::1), not %1")
                            .arg(options.address.toString()));
    const QString scheme = options.upstream.scheme();
    if (!options.upstream.isValid() || (scheme != u"http" && scheme != u"https") || options.upstream.host().isEmpty())
        return failWith(QCoreApplication::translate("ProxyServer", "the upstream must be an http or https URL, such as https://api.anthropic.com"));
    if (!options.upstream.userInfo().isEmpty())
        return failWith(QCoreApplication::translate("ProxyServer", "the upstream URL must not hold a user name or password"));
    if (!m_server->listen(options.address, options.port))
        return failWith(QCoreApplication::translate("ProxyServer", "cannot listen on %1 port %2: %3")
                            .arg(options.address.toString()).arg(options.port).arg(m_server->errorString()));
    m_upstream = options.upstream;
    m_idleTimeoutMs = options.idleTimeoutMs;
    m_token = options.token.isEmpty() ? freshToken() : options.token;
    qCInfo(lcProxy).noquote() << "listening on" << m_server->serverAddress().toString() << m_server->serverPort()
                              << "for" << m_upstream.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);
    return true;
}

void ProxyServer::close()
{
    m_server->close();
}

bool ProxyServer::isListening() const
{
    return m_server->isListening();
}

quint16 ProxyServer::port() const
{
    return m_server->serverPort();
}

QUrl ProxyServer::baseUrl() const
{
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(m_server->serverAddress().toString());
    url.setPort(port());
    url.setPath(u"/t/"_s + QString::fromLatin1(m_token));
    return url;
}

int ProxyServer::openConnections() const
{
    return int(findChildren<ProxyExchange *>(Qt::FindDirectChildrenOnly).size());
}

std::optional<QByteArray> ProxyServer::authorise(const QByteArray &target, const QByteArray &headerToken) const
{
    if (target.startsWith("/t/")) {
        qsizetype end = target.size();
        for (const char stop : {'/', '?'})
            if (const qsizetype at = target.indexOf(stop, 3); at >= 0 && at < end)
                end = at;
        if (!sameToken(QByteArrayView(target).sliced(3, end - 3), m_token))
            return std::nullopt;
        QByteArray rest = target.mid(end);
        if (rest.isEmpty() || rest.startsWith('?'))
            rest.prepend('/');
        return rest;
    }
    if (!headerToken.isEmpty() && sameToken(headerToken, m_token))
        return target;
    return std::nullopt;
}

} // namespace wl
