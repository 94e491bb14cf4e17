#include "ProxyExchange.h"

#include "LoggingCategories.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSet>
#include <QTcpSocket>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
// What the proxy keeps of a response for its observers; the client always gets all of it.
constexpr qsizetype kRecordedBodyLimit = 32 * 1024 * 1024;

// Headers of one hop, never passed on (RFC 9110 7.6.1), plus the ones the proxy sets itself.
bool isHopByHop(QByteArrayView name)
{
    static const QSet<QByteArray> names{"connection", "keep-alive", "proxy-connection", "proxy-authenticate",
                                        "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade",
                                        "host", "content-length"};
    return names.contains(name.toByteArray().toLower());
}

QByteArray joinPath(const QUrl &upstream, const QByteArray &target)
{
    // The upstream's own base path, then the client's path and query as sent.
    QByteArray base = upstream.path(QUrl::FullyEncoded).toUtf8();
    while (base.endsWith('/'))
        base.chop(1);
    return base + target;
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    default: return "Status";
    }
}
} // namespace

ProxyExchange::ProxyExchange(QTcpSocket *socket, ProxyServer *server, QNetworkAccessManager *network)
    : QObject(server)
    , m_socket(socket)
    , m_server(server)
    , m_network(network)
    , m_idle(new QTimer(this))
{
    m_socket->setParent(this);
    m_idle->setSingleShot(true);
    m_idle->setInterval(server->idleTimeoutMs());
    connect(m_idle, &QTimer::timeout, this, &ProxyExchange::onIdle);
    m_idle->start();
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); // each event goes out at once
    connect(m_socket, &QTcpSocket::readyRead, this, &ProxyExchange::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, [this] {
        if (m_reply) {
            // The client went away mid-answer: stop asking the provider.
            m_reply->abort();
        }
        deleteLater();
    });
}

ProxyExchange::~ProxyExchange()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort(); // a child: deleted with this object
    }
}

void ProxyExchange::onReadyRead()
{
    const HttpRequestReader::State state = m_reader.feed(m_socket->readAll());
    if (state == HttpRequestReader::State::Failed) {
        m_keepAlive = false;
        m_waiting.clear();
        if (!m_reply)
            respondLocally(m_reader.failureStatus(), m_reader.failureReason());
        return;
    }
    HttpRequestReader::State s = state;
    while (s == HttpRequestReader::State::Ready) {
        m_waiting.push_back(m_reader.take());
        s = m_reader.feed({});
    }
    if (!m_reply)
        startNext();
}

void ProxyExchange::onIdle()
{
    if (m_reply)
        return;
    m_keepAlive = false;
    if (m_reader.hasPartialRequest()) {
        respondLocally(408, "the request did not arrive in time");
        return;
    }
    m_socket->disconnectFromHost();
}

void ProxyExchange::startNext()
{
    if (m_waiting.empty() || m_socket->state() != QAbstractSocket::ConnectedState)
        return;
    HttpRequest request = std::move(m_waiting.front());
    m_waiting.pop_front();
    m_idle->stop();
    forward(std::move(request));
}

void ProxyExchange::forward(HttpRequest request)
{
    m_clock.start();
    m_headersSent = false;
    m_chunked = false;
    m_keepAlive = request.keepAlive();
    m_noBody = request.method == "HEAD";
    m_exchange = ProxiedExchange();
    m_exchange.id = m_server->nextId();
    m_exchange.method = request.method;
    m_exchange.userAgent = request.header("user-agent");
    m_exchange.startedAt = QDateTime::currentDateTimeUtc();

    const std::optional<QByteArray> path = m_server->authorise(request.target, request.header(ProxyServer::tokenHeader));
    if (!path) {
        // Nothing of the request goes anywhere, and the answer does not say what a token looks like.
        qCWarning(lcProxy) << "refused a request without the proxy's token";
        m_keepAlive = false;
        respondLocally(401, "this proxy needs its token: use the base URL waterline-cli proxy printed");
        return;
    }
    m_exchange.path = *path;
    m_exchange.requestBody = request.body;
    const QByteArray *upstreamBody = &request.body;
    if (const ProxyServer::RequestRewriter &rewriter = m_server->rewriter()) {
        ProxyServer::Rewrite rewrite = rewriter(request.method, *path, request.body);
        m_exchange.rewriteNote = rewrite.note;
        m_exchange.rewriteDetails = rewrite.details;
        if (rewrite.changed) {
            m_exchange.forwardedBody = std::move(rewrite.body);
            m_exchange.compaction = std::move(rewrite.compaction);
            upstreamBody = &m_exchange.forwardedBody;
        }
    }
    Q_EMIT m_server->exchangeStarted(m_exchange);

    QUrl url = m_server->upstream();
    const QByteArray full = joinPath(url, *path);
    const qsizetype query = full.indexOf('?');
    url.setPath(QString::fromUtf8(query < 0 ? full : full.left(query)), QUrl::TolerantMode);
    url.setQuery(query < 0 ? QString() : QString::fromUtf8(full.mid(query + 1)), QUrl::TolerantMode);
    QNetworkRequest upstream(url);
    bool acceptEncoding = false;
    for (const auto &[name, value] : std::as_const(request.headers)) {
        if (isHopByHop(name) || name.compare(ProxyServer::tokenHeader, Qt::CaseInsensitive) == 0)
            continue;
        acceptEncoding = acceptEncoding || name.compare("accept-encoding", Qt::CaseInsensitive) == 0;
        upstream.setRawHeader(name, value);
    }
    // Qt decompresses only what it asked to be compressed: with the client's own Accept-Encoding
    // (or identity) the body passes as the provider sent it.
    if (!acceptEncoding)
        upstream.setRawHeader("Accept-Encoding", "identity");
    upstream.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    upstream.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    upstream.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    upstream.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    upstream.setTransferTimeout(0);

    m_reply = m_network->sendCustomRequest(upstream, request.method, *upstreamBody);
    m_reply->setParent(this);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &ProxyExchange::onResponseHeaders);
    connect(m_reply, &QNetworkReply::readyRead, this, &ProxyExchange::onResponseBytes);
    connect(m_reply, &QNetworkReply::finished, this, &ProxyExchange::onResponseFinished);
}

void ProxyExchange::onResponseHeaders()
{
    if (m_headersSent || !m_reply)
        return;
    const QVariant statusAttribute = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!statusAttribute.isValid())
        return; // not an HTTP answer (yet)
    const int status = statusAttribute.toInt();
    m_exchange.status = status;
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ';
    const QByteArray reason = m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
    head += reason.isEmpty() ? reasonPhrase(status) : reason;
    head += "\r\n";
    bool hasLength = false;
    QByteArray length;
    for (const auto &[name, value] : m_reply->rawHeaderPairs()) {
        if (name.compare("content-length", Qt::CaseInsensitive) == 0) {
            hasLength = true;
            length = value;
        }
        if (name.compare("content-type", Qt::CaseInsensitive) == 0)
            m_exchange.contentType = value;
        if (isHopByHop(name))
            continue;
        head += name + ": " + value + "\r\n";
    }
    m_noBody = m_noBody || status == 204 || status == 304 || (status >= 100 && status < 200);
    if (m_noBody) {
        if (hasLength)
            head += "Content-Length: " + length + "\r\n";
    } else if (hasLength) {
        head += "Content-Length: " + length + "\r\n";
    } else {
        // A stream: its events go out as they come, one chunk each.
        m_chunked = true;
        head += "Transfer-Encoding: chunked\r\n";
    }
    if (!m_keepAlive)
        head += "Connection: close\r\n";
    head += "\r\n";
    m_socket->write(head);
    m_headersSent = true;
}

void ProxyExchange::onResponseBytes()
{
    if (!m_reply)
        return;
    onResponseHeaders();
    const QByteArray bytes = m_reply->readAll();
    if (bytes.isEmpty() || !m_headersSent)
        return;
    if (m_exchange.firstByteMs < 0)
        m_exchange.firstByteMs = m_clock.elapsed();
    writeBody(bytes);
    if (m_exchange.responseBody.size() + bytes.size() <= kRecordedBodyLimit)
        m_exchange.responseBody.append(bytes);
    else
        m_exchange.responseTruncated = true;
}

void ProxyExchange::writeBody(QByteArrayView bytes)
{
    if (m_noBody)
        return;
    if (m_chunked) {
        m_socket->write(QByteArray::number(bytes.size(), 16) + "\r\n");
        m_socket->write(bytes.data(), bytes.size());
        m_socket->write("\r\n");
    } else {
        m_socket->write(bytes.data(), bytes.size());
    }
}

void ProxyExchange::onResponseFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    onResponseBytes();
    const bool httpAnswer = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid();
    QString error;
    if (!httpAnswer) {
        error = reply->errorString();
        m_reply = nullptr;
        reply->deleteLater();
        if (!m_headersSent) {
            qCWarning(lcProxy).noquote() << "the upstream did not answer:" << error;
            respondLocally(502, "the upstream provider could not be reached: " + error.toUtf8());
            return;
        }
    } else {
        m_reply = nullptr;
        reply->deleteLater();
        if (reply->error() == QNetworkReply::RemoteHostClosedError || reply->error() == QNetworkReply::OperationCanceledError
            || reply->error() == QNetworkReply::TimeoutError) {
            // Cut off mid-body: the client must see the cut, not a clean end.
            error = reply->errorString();
            m_keepAlive = false;
            m_socket->disconnectFromHost();
            finishExchange(error);
            return;
        }
    }
    if (m_chunked && !m_noBody)
        m_socket->write("0\r\n\r\n");
    finishExchange(error);
}

void ProxyExchange::respondLocally(int status, const QByteArray &message)
{
    const QByteArray body = QJsonDocument(QJsonObject{{u"error"_s, QJsonObject{{u"type"_s, u"waterline_proxy"_s},
                                                                             {u"message"_s, QString::fromUtf8(message)}}}})
                                .toJson(QJsonDocument::Compact);
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n"
        + "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    if (!m_keepAlive)
        head += "Connection: close\r\n";
    m_socket->write(head + "\r\n" + body);
    m_exchange.status = status;
    m_exchange.contentType = "application/json";
    m_exchange.responseBody = body;
    finishExchange(QString::fromUtf8(message));
}

void ProxyExchange::finishExchange(const QString &error)
{
    m_exchange.error = error;
    m_exchange.totalMs = m_clock.isValid() ? m_clock.elapsed() : -1;
    if (m_exchange.id != 0 && !m_exchange.path.isEmpty())
        Q_EMIT m_server->exchangeFinished(m_exchange);
    m_exchange = ProxiedExchange();
    if (!m_keepAlive) {
        m_socket->disconnectFromHost();
        return;
    }
    m_idle->start();
    startNext();
}

} // namespace wl
