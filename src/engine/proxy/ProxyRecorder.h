#pragma once

#include <QObject>
#include <QString>

class QThread;

namespace wl {

class ProxyRecordWriter;
class ProxyServer;
struct ProxiedExchange;

// Records the traffic of ProxyServers into the session database, live: each conversation a client
// runs becomes a read-only session (source format "proxy") holding its messages once, a request
// per LLM call with its view, usage, model, timing, system prompt and tool schemas, and the
// client's own compactions, and in compact mode Waterline's compaction of each request as the
// session's own (see ProxyRecordWriter). Model listings and token counts are not
// conversations and are not recorded.
//
// The writes go to a worker thread with its own SQLite connection: the forwarding never waits for
// the disk. No header is ever stored (ProxiedExchange has none).
class ProxyRecorder : public QObject
{
    Q_OBJECT
public:
    explicit ProxyRecorder(const QString &databasePath, QObject *parent = nullptr);
    ~ProxyRecorder() override; // finishes the writes handed over so far

    void attach(wl::ProxyServer *server);      // records every finished exchange
    // Compact mode's records also go to `<dir>/<session>.jsonl`, the agent's JSONL audit
    // (Paths::auditDir() in the app). Empty (the default): no audit. Set before attach().
    void setAuditDir(const QString &dir) { m_auditDir = dir; }

    // A request of the session with store id `sessionId` was stored; it has `requestCount` now.
    Q_SIGNAL void sessionUpdated(const QString &sessionId, int requestCount);
    Q_SIGNAL void failed(const QString &message);

private:
    void enqueue(const wl::ProxiedExchange &exchange);

    QThread *m_thread;
    ProxyRecordWriter *m_writer = nullptr;  // lives on m_thread
    QString m_databasePath;
    QString m_upstream;
    QString m_auditDir;
};

} // namespace wl
