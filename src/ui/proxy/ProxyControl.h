#pragma once

#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>

namespace wl {

class AppSettings;
class ProxyServer;
class ProxyTrafficModel;

// The window's local provider proxy (no widgets): starts and stops one wl::ProxyServer in this
// process, remembers the upstream and port in AppSettings when a start succeeds, and feeds the
// traffic table. The server runs on the GUI thread: its sockets are asynchronous and it does no
// other work.
class ProxyControl : public QObject
{
    Q_OBJECT
public:
    explicit ProxyControl(AppSettings *settings, QObject *parent = nullptr);
    ~ProxyControl() override;

    // Listens on 127.0.0.1:`port` (0: any free port) and forwards to `upstream`. False, with
    // lastError() saying why (a port in use, an upstream that is not an http(s) URL), otherwise.
    bool start(const QUrl &upstream, quint16 port);
    void stop();

    bool isRunning() const;
    QUrl baseUrl() const;        // what to give the agent; empty when stopped
    QUrl upstream() const;       // the running server's, or the remembered one
    quint16 port() const;        // the running server's, or the remembered one (0: any)
    QString lastError() const { return m_lastError; }
    ProxyTrafficModel *traffic() const { return m_traffic; }

Q_SIGNALS:
    // Started, stopped or failed to start.
    void stateChanged();

private:
    // Where everything that watches a running proxy plugs in: called with each new server after it
    // listens and before it forwards anything. The traffic table attaches here, and so does the
    // recorder of sessions from traffic (ProxyRecorder, issue 23 item 4) when it is merged.
    void attachObservers(ProxyServer *server);

    AppSettings *m_settings;
    ProxyTrafficModel *m_traffic;
    std::unique_ptr<ProxyServer> m_server;
    QString m_lastError;
};

} // namespace wl
