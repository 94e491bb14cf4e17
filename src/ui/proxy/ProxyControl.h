#pragma once

#include "compaction/CompactionPolicy.h"

#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>

namespace wl {

class AppSettings;
class ProxyCompactor;
class ProxyRecorder;
class ProxyServer;
class ProxyTrafficModel;

// The window's local provider proxy (no widgets): starts and stops one wl::ProxyServer in this
// process, remembers the upstream and port in AppSettings when a start succeeds, feeds the
// traffic table and records the sessions from its traffic into the open database (a
// ProxyRecorder, whose writes run on a thread of their own). The server runs on the GUI thread: its sockets are asynchronous and it does no
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
    // Where the sessions from the traffic are recorded: the window's open database (empty: not
    // recorded). A running proxy records into the new one from its next request.
    void setDatabasePath(const QString &path);
    QString databasePath() const { return m_databasePath; }

    // Compact mode (issue #23 item 6): the requests forwarded from now on are compacted under the
    // compact policy (the Thresholds dock's sliders: setCompactPolicy) before they go upstream, and
    // the recorded sessions hold Waterline's compactions. Off by default; remembered in AppSettings.
    // The policy may change while the proxy runs; what was made for a conversation stays.
    void setCompacting(bool on);
    bool isCompacting() const { return m_compacting; }
    void setCompactPolicy(const CompactionPolicy &policy);
    CompactionPolicy compactPolicy() const { return m_compactPolicy; }
    // Where compacted requests' offloaded results are written (Paths::proxyOffloadRoot()).
    void setOffloadRoot(const QString &path);

    bool isRunning() const;
    QUrl baseUrl() const;        // what to give the agent; empty when stopped
    QUrl upstream() const;       // the running server's, or the remembered one
    quint16 port() const;        // the running server's, or the remembered one (0: any)
    QString lastError() const { return m_lastError; }
    ProxyTrafficModel *traffic() const { return m_traffic; }

Q_SIGNALS:
    // Started, stopped or failed to start; compact mode turned on or off.
    void stateChanged();
    // A request of the session `sessionId` (of the database named by databasePath()) was stored.
    void sessionRecorded(const QString &sessionId, int requestCount);
    // The recorder could not store what passed (the forwarding goes on).
    void recordFailed(const QString &error);

private:
    // Where everything that watches a running proxy plugs in: called with each new server after it
    // listens and before it forwards anything: the traffic table and the recorder.
    void attachObservers(ProxyServer *server);
    void attachRecorder();
    // The running server compacts (compact mode) or forwards as sent.
    void installRewriter();

    AppSettings *m_settings;
    ProxyTrafficModel *m_traffic;
    std::unique_ptr<ProxyServer> m_server;
    std::unique_ptr<ProxyRecorder> m_recorder; // declared after the server: destroyed first, finishing its writes
    QString m_databasePath;
    QString m_lastError;
    bool m_compacting = false;
    CompactionPolicy m_compactPolicy;
    QString m_offloadRoot;
    std::shared_ptr<ProxyCompactor> m_compactor; // made when compact mode is first on; kept across restarts
};

} // namespace wl
