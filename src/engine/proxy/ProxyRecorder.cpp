#include "ProxyRecorder.h"

#include "ProxyRecordWriter.h"
#include "ProxyServer.h"
#include "WireConversation.h"

#include <QThread>

namespace wl {

ProxyRecorder::ProxyRecorder(const QString &databasePath, QObject *parent)
    : QObject(parent)
    , m_thread(new QThread(this))
    , m_databasePath(databasePath)
{
    m_thread->setObjectName(QStringLiteral("waterline-proxy-recorder"));
}

ProxyRecorder::~ProxyRecorder()
{
    // The exchanges handed over are written first (a call queued behind them returns when they
    // are); then the writer and its SQLite connection go with the thread.
    if (m_writer && m_thread->isRunning())
        QMetaObject::invokeMethod(m_writer, [] {}, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void ProxyRecorder::attach(ProxyServer *server)
{
    if (!m_writer) {
        // The first server names the upstream the sessions came from.
        m_writer = new ProxyRecordWriter(m_databasePath, server->upstream().toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery),
                                         m_auditDir);
        m_writer->moveToThread(m_thread);
        connect(m_thread, &QThread::finished, m_writer, &QObject::deleteLater);
        connect(m_writer, &ProxyRecordWriter::written, this, [this](qint64, const QString &sessionId, int requests) {
            Q_EMIT sessionUpdated(sessionId, requests);
        });
        connect(m_writer, &ProxyRecordWriter::failed, this, &ProxyRecorder::failed);
        m_thread->start();
    }
    connect(server, &ProxyServer::exchangeFinished, this, &ProxyRecorder::enqueue);
}

void ProxyRecorder::enqueue(const ProxiedExchange &exchange)
{
    // Cheap filtering here; parsing and SQLite on the writer's thread.
    if (WireConversation::protocolFor(exchange.method, exchange.path) == WireProtocol::None)
        return;
    ProxyRecordWriter *writer = m_writer;
    QMetaObject::invokeMethod(writer, [writer, exchange] { writer->record(exchange); }, Qt::QueuedConnection);
}

} // namespace wl
