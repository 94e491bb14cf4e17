#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QHostAddress>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

class QNetworkAccessManager;
class QTcpServer;

namespace wl {

struct ProxyCompaction;

// One request the proxy forwarded and what came back, as its observers see it: no credential
// header is in it (the client's Authorization, x-api-key and the like go to the provider and
// nowhere else).
struct ProxiedExchange
{
    quint64 id = 0;
    QByteArray method;
    QByteArray path;               // without the proxy's token, query included
    QByteArray userAgent;
    QByteArray requestBody;
    QDateTime startedAt;
    int status = 0;                // the provider's, or the proxy's own (502) when it was unreachable
    QByteArray contentType;
    QByteArray responseBody;       // as the client received it (capped; see `responseTruncated`)
    bool responseTruncated = false;
    qint64 firstByteMs = -1;       // from the whole request read to the first response byte sent
    qint64 totalMs = -1;
    QString error;                 // the upstream failed or the client went away
    // Compact mode: what went upstream instead of requestBody (empty when the request was sent as
    // the client wrote it), and what the rewriter said (why it left a request unchanged, or what
    // it did).
    QByteArray forwardedBody;
    QString rewriteNote;
    QJsonObject rewriteDetails;    // the rewriter's own account (compact mode: tier, tokens, messages)
    std::shared_ptr<const ProxyCompaction> compaction; // compact mode: what it made of the request, when it rewrote it
};

// A loopback HTTP server that forwards every request to one upstream provider and passes the
// answer back as it arrives, byte for byte (streams included), so an agent pointed at it cannot
// tell the difference. Only requests that carry the per-run token (as the first path segments
// "/t/<token>" of the base URL, or in an "x-waterline-proxy-token" header) are forwarded: other
// local users cannot spend the user's key through it.
class ProxyServer : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QHostAddress address = QHostAddress(QHostAddress::LocalHost);
        quint16 port = 0;          // 0: any free port
        QUrl upstream;             // http(s)://host[:port][/base path]
        QByteArray token;          // empty: a fresh random one
        // A connection without a request under way is closed after this long (a request begun and
        // not finished in time gets 408 first).
        int idleTimeoutMs = 120000;
    };

    explicit ProxyServer(QObject *parent = nullptr);
    ~ProxyServer() override;

    // Refuses an address that is not loopback and an upstream that is not an http(s) URL.
    bool listen(const Options &options, QString *error = nullptr);
    void close();
    bool isListening() const;

    quint16 port() const;
    QByteArray token() const { return m_token; }
    QUrl upstream() const { return m_upstream; }
    // What to give the agent as its base URL: http://127.0.0.1:PORT/t/TOKEN
    QUrl baseUrl() const;
    int openConnections() const;

    static constexpr QByteArrayView tokenHeader = "x-waterline-proxy-token";

    // Compact mode: a rewriter sees every authorised request (method, path without the token,
    // body) before it is forwarded, on the proxy's thread, and may give another body to send.
    // Without one (the default) every request passes byte for byte.
    struct Rewrite
    {
        bool changed = false;
        QByteArray body;           // sent upstream when `changed`
        QString note;              // recorded with the exchange
        QJsonObject details;       // likewise, for programs
        // Compact mode: the compaction behind `body`, handed to the exchange's observers (the
        // recorder stores it). Immutable, so sharing it with the recorder's thread is safe.
        std::shared_ptr<const ProxyCompaction> compaction;
    };
    using RequestRewriter = std::function<Rewrite(const QByteArray &method, const QByteArray &path, const QByteArray &body)>;
    void setRequestRewriter(RequestRewriter rewriter) { m_rewriter = std::move(rewriter); }

Q_SIGNALS:
    void exchangeStarted(const wl::ProxiedExchange &exchange);
    void exchangeFinished(const wl::ProxiedExchange &exchange);

private:
    friend class ProxyExchange;
    // The path without the token, or nothing when the request does not carry the token.
    std::optional<QByteArray> authorise(const QByteArray &target, const QByteArray &headerToken) const;
    quint64 nextId() { return ++m_lastId; }
    int idleTimeoutMs() const { return m_idleTimeoutMs; }
    const RequestRewriter &rewriter() const { return m_rewriter; }

    QTcpServer *m_server;
    QNetworkAccessManager *m_network;
    QUrl m_upstream;
    QByteArray m_token;
    quint64 m_lastId = 0;
    int m_idleTimeoutMs = 120000;
    RequestRewriter m_rewriter;
};

} // namespace wl

Q_DECLARE_METATYPE(wl::ProxiedExchange)
