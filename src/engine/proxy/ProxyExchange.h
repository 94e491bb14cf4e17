#pragma once

#include "HttpRequestReader.h"
#include "ProxyServer.h"

#include <QElapsedTimer>
#include <QObject>

#include <deque>

class QNetworkAccessManager;
class QNetworkReply;
class QTcpSocket;
class QTimer;

namespace wl {

// One client connection of the proxy: reads its requests one after another (keep-alive), forwards
// each to the upstream and streams the answer back as it arrives.
class ProxyExchange : public QObject
{
    Q_OBJECT
public:
    ProxyExchange(QTcpSocket *socket, ProxyServer *server, QNetworkAccessManager *network);
    ~ProxyExchange() override;

private:
    void onReadyRead();
    void startNext();
    void forward(HttpRequest request);
    void onResponseHeaders();
    void onResponseBytes();
    void onResponseFinished();
    void respondLocally(int status, const QByteArray &message);
    void writeBody(QByteArrayView bytes);
    void finishExchange(const QString &error);
    void onIdle();

    QTcpSocket *m_socket;
    ProxyServer *m_server;
    QNetworkAccessManager *m_network;
    HttpRequestReader m_reader;
    QTimer *m_idle;                    // runs while no request is being answered
    std::deque<HttpRequest> m_waiting; // pipelined requests, answered in order
    QNetworkReply *m_reply = nullptr;
    ProxiedExchange m_exchange;
    QElapsedTimer m_clock;
    bool m_headersSent = false;
    bool m_chunked = false;
    bool m_keepAlive = true;
    bool m_noBody = false;
};

} // namespace wl
