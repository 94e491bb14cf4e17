#pragma once

#include "ProxyServer.h"
#include "WireConversation.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace wl {

class SessionStore;

// The worker behind ProxyRecorder: lives on the recorder's own thread with its own SQLite
// connection, and turns each finished exchange into session rows. Every request carries the whole
// conversation; the writer keeps what it stored of each conversation and appends only what is
// new. A request whose messages no longer begin with what was stored (the client compacted or
// edited its history) is recorded as the source agent's compaction, as imports record theirs.
class ProxyRecordWriter : public QObject
{
    Q_OBJECT
public:
    // `auditDir`: where compact mode's records are appended as JSONL, one file a session (empty: none).
    ProxyRecordWriter(const QString &databasePath, const QString &upstream, const QString &auditDir = {});
    ~ProxyRecordWriter() override;

    void record(const wl::ProxiedExchange &exchange);

Q_SIGNALS:
    void written(qint64 conversation, const QString &sessionId, int requestCount);
    void failed(const QString &message);

private:
    struct Conversation
    {
        qint64 key = 0;
        QString sessionId;
        WireProtocol protocol = WireProtocol::None;
        QString systemPrompt;
        QByteArray toolsDigest;
        QString hint;               // WireRequest::conversationHint of its requests
        QString lastResponseId;     // Responses: what a chained request names
        QList<Message> known;       // the conversation as the last request sent it, plus the reply
        QList<qint64> ids;          // stored ids of `known`
        int requestCount = 0;
        qint64 lastTokens = 0;      // the last request's prompt size, for a compaction's "before"
        QJsonObject details;        // the session source's details (compactions among them)
        qint64 lastCheckpointId = 0; // compact mode: the stored checkpoint its requests' views open with
        bool policyStored = false;  // compact mode: its policy is the session's
    };
    struct Match
    {
        Conversation *conversation = nullptr;
        qsizetype prefix = 0;       // leading stored messages the request holds (all of them when it goes on)
        // The request's messages to store (indices), when they are not simply those after `prefix`
        // (the client regrouped its earlier turns).
        std::optional<QList<qsizetype>> fresh;
        bool compacted = false;     // the request does not continue what was stored
        bool chained = false;       // the request holds only what follows the stored conversation
    };

    bool ensureOpen();
    Match match(const WireRequest &request, const QByteArray &toolsDigest);
    Conversation *start(const WireRequest &request, const QByteArray &toolsDigest, const ProxiedExchange &exchange);
    bool write(Conversation &conversation, const Match &match, const WireRequest &request, const ProxiedExchange &exchange);
    void saveDetails(const Conversation &conversation, const ProxiedExchange &exchange);
    void fail(const QString &message);

    QString m_databasePath;
    QString m_upstream;
    QString m_auditDir;
    std::unique_ptr<SessionStore> m_store;
    std::vector<std::unique_ptr<Conversation>> m_conversations;
    qint64 m_lastKey = 0;
    bool m_openFailed = false;
};

} // namespace wl
