#pragma once

#include "ChatError.h"
#include "ChatRequest.h"
#include "ChatUsage.h"
#include "RetryPolicy.h"

#include <QObject>
#include <QPointer>
#include <QUrl>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
class QTimer;

namespace wl {

class SseParser;
class StreamAssembler;
struct ProviderProfile;

// One LLM conversation endpoint. send() starts a streamed call and returns
// at once; the reply arrives as signals on the thread the client lives in.
// One call at a time: send() while busy cancels the running call first.
//
// Signal order for one call: any number of retrying(); then deltas
// (textDelta, thinkingDelta, toolCallStarted, toolCallArgumentsDelta, in
// stream order); then exactly one of finished(), failed() or cancelled().
//
// Retries follow retryPolicy(). When a stream breaks after part of the reply
// reached the caller, replyDiscarded() comes first: the caller drops what it
// was shown, and the next attempt streams the whole reply again. The transfer
// timeout (no bytes for transferTimeoutMs) fails with Kind::Timeout; the
// deadline (the whole call, keep-alives included) and the size cap end a
// reply that never finishes; cancel() is the only way to get cancelled().
// Requests follow ProviderRequest's rules: same-origin redirects only, and a
// key over plain http only to this machine.
class ChatClient : public QObject
{
    Q_OBJECT

public:
    explicit ChatClient(QObject *parent = nullptr);
    ~ChatClient() override;

    // Creates the client for the profile's protocol. The key is held in memory only.
    static ChatClient *create(const ProviderProfile &profile, const QString &apiKey, QObject *parent = nullptr);

    virtual QString protocolName() const = 0;

    void setBaseUrl(const QUrl &url) { m_baseUrl = url; }
    QUrl baseUrl() const { return m_baseUrl; }
    void setApiKey(const QString &key);
    bool hasApiKey() const { return !m_apiKey.isEmpty(); }
    void setRetryPolicy(const RetryPolicy &policy) { m_policy = policy; }
    const RetryPolicy &retryPolicy() const { return m_policy; }
    void setTransferTimeoutMs(int ms) { m_transferTimeoutMs = ms; }
    int transferTimeoutMs() const { return m_transferTimeoutMs; }
    // Each attempt must end within this time, however the server keeps the connection busy.
    void setDeadlineMs(int ms) { m_deadlineMs = ms; }
    int deadlineMs() const { return m_deadlineMs; }
    // A reply (stream or body) larger than this fails.
    void setMaxReplyBytes(qint64 bytes) { m_maxReplyBytes = bytes; }
    qint64 maxReplyBytes() const { return m_maxReplyBytes; }
    // Shares a manager (not owned); by default the client makes its own.
    void setNetworkAccessManager(QNetworkAccessManager *manager);

    // The JSON body send() would post: for tests and the request log.
    virtual QByteArray requestBody(const ChatRequest &request) const = 0;
    // The endpoint send() posts to.
    virtual QUrl endpoint() const = 0;

    void send(const ChatRequest &request);
    void cancel();
    bool isBusy() const { return m_busy; }
    int attempt() const { return m_attempt; }   // 1 for the first try of the current call

Q_SIGNALS:
    void attemptStarted(int attempt);
    void textDelta(const QString &text);
    void thinkingDelta(const QString &text);
    void toolCallStarted(int index, const QString &id, const QString &name);
    void toolCallArgumentsDelta(int index, const QString &argumentsDelta);
    void finished(const wl::Message &assistant, const wl::ChatUsage &usage, const QString &finishReason);
    void failed(const wl::ChatError &error);
    // `attempt` is the number of the attempt that will start after `delayMs`.
    void retrying(int attempt, int delayMs, const wl::ChatError &error);
    // The deltas emitted so far belong to a reply that broke; drop them (a retry follows).
    void replyDiscarded();
    void cancelled();

protected:
    // Headers besides Content-Type: the protocol's auth and version headers.
    virtual void addHeaders(QNetworkRequest &request) const = 0;
    virtual std::unique_ptr<StreamAssembler> createAssembler() const = 0;
    QString apiKey() const { return m_apiKey; }
    // Joins base URL and a path ("/chat/completions") without doubling slashes.
    static QUrl joinUrl(const QUrl &base, QStringView path);
    // A close upper guess of a request body's UTF-8 size when the text is mostly ASCII, so the
    // body is written into one buffer (it still grows for text that is not).
    static qsizetype bodySizeHint(const ChatRequest &request);

private:
    void startAttempt();
    void onMetaData();
    void onReadyRead();
    void onReplyFinished();
    void failOrRetry(const ChatError &error);
    void finishCall();
    void dropReply();
    void logLine(const QString &line) const;

    QNetworkAccessManager *m_manager = nullptr;
    QPointer<QNetworkReply> m_reply;
    QTimer *m_retryTimer = nullptr;
    QTimer *m_deadlineTimer = nullptr;
    std::unique_ptr<SseParser> m_parser;
    std::unique_ptr<StreamAssembler> m_assembler;
    QUrl m_baseUrl;
    QString m_apiKey;
    QString m_model;
    QByteArray m_body;
    QByteArray m_errorBody;   // non-2xx or non-stream body, capped
    RetryPolicy m_policy;
    int m_transferTimeoutMs = 120000;
    int m_deadlineMs = 30 * 60 * 1000;
    qint64 m_maxReplyBytes = 64 * 1024 * 1024;
    qint64 m_replyBytes = 0;
    quint64 m_generation = 0; // bumped per attempt and on cancel: stale parser callbacks are ignored
    int m_attempt = 0;
    int m_status = 0;
    bool m_busy = false;
    bool m_streaming = false; // 2xx with an event stream (else the body is collected)
};

} // namespace wl
