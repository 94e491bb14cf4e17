#include "ChatClient.h"

#include "AnthropicClient.h"
#include "LoggingCategories.h"
#include "OpenAiChatClient.h"
#include "ProviderProfile.h"
#include "ProviderRequest.h"
#include "Redaction.h"
#include "SseParser.h"
#include "StreamAssembler.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr qsizetype kMaxErrorBody = 1024 * 1024;          // error pages are short; keep 1 MB at most
} // namespace

ChatClient::ChatClient(QObject *parent)
    : QObject(parent)
    , m_manager(new QNetworkAccessManager(this))
    , m_retryTimer(new QTimer(this))
    , m_deadlineTimer(new QTimer(this))
    , m_parser(std::make_unique<SseParser>())
{
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, &ChatClient::startAttempt);
    m_deadlineTimer->setSingleShot(true);
    connect(m_deadlineTimer, &QTimer::timeout, this, [this] {
        if (!m_reply)
            return;
        dropReply();
        failOrRetry(ChatError::deadline(m_deadlineMs));
    });
}

ChatClient::~ChatClient()
{
    dropReply();
}

ChatClient *ChatClient::create(const ProviderProfile &profile, const QString &apiKey, QObject *parent)
{
    ChatClient *client = nullptr;
    switch (profile.protocol) {
    case ProviderProfile::Protocol::OpenAiChat:
        client = new OpenAiChatClient(parent);
        break;
    case ProviderProfile::Protocol::Anthropic:
        client = new AnthropicClient(parent);
        break;
    }
    client->setBaseUrl(profile.baseUrl);
    client->setApiKey(apiKey);
    return client;
}

void ChatClient::setApiKey(const QString &key)
{
    m_apiKey = key.trimmed();
    Redaction::registerSecret(m_apiKey);
}

void ChatClient::setNetworkAccessManager(QNetworkAccessManager *manager)
{
    if (!manager || manager == m_manager)
        return;
    if (m_manager && m_manager->parent() == this)
        m_manager->deleteLater();
    m_manager = manager;
}

QUrl ChatClient::joinUrl(const QUrl &base, QStringView path)
{
    QUrl url = base;
    QString basePath = url.path();
    while (basePath.endsWith(u'/'))
        basePath.chop(1);
    url.setPath(basePath + path);
    return url;
}

qsizetype ChatClient::bodySizeHint(const ChatRequest &request)
{
    qsizetype units = request.model.size();
    for (const Message &m : request.messages) {
        units += m.content.size() + m.toolCallId.size() + 96;
        for (const ToolCall &call : m.toolCalls)
            units += call.id.size() + call.name.size() + call.arguments.size() + 96;
    }
    // Room for escapes (a newline every few dozen characters is common) and the fixed fields;
    // tools are small and written by QJsonDocument, 1 KB each is plenty.
    return units + units / 8 + 1024 * (request.tools.size() + 1);
}

void ChatClient::send(const ChatRequest &request)
{
    if (m_busy)
        cancel();
    m_model = request.model;
    m_body = requestBody(request);
    m_attempt = 0;
    m_busy = true;
    // Started from the event loop, so a slot that reacts to finished() by
    // sending again never runs inside this client's own stream parsing.
    m_retryTimer->start(0);
}

void ChatClient::cancel()
{
    if (!m_busy)
        return;
    m_retryTimer->stop();
    m_deadlineTimer->stop();
    dropReply();
    m_busy = false;
    ++m_generation;
    logLine(u"call cancelled by the caller (attempt %1)"_s.arg(m_attempt));
    Q_EMIT cancelled();
}

void ChatClient::startAttempt()
{
    if (!m_busy)
        return;
    if (hasApiKey() && !ProviderRequest::mayCarryKey(endpoint())) {
        failOrRetry(ChatError::insecureUrl(endpoint()));
        return;
    }
    ++m_attempt;
    m_status = 0;
    m_streaming = false;
    m_replyBytes = 0;
    m_errorBody.clear();
    m_assembler = createAssembler();
    StreamAssembler::Callbacks callbacks;
    callbacks.text = [this](const QString &t) { Q_EMIT textDelta(t); };
    callbacks.thinking = [this](const QString &t) { Q_EMIT thinkingDelta(t); };
    callbacks.toolCallStarted = [this](int i, const QString &id, const QString &name) { Q_EMIT toolCallStarted(i, id, name); };
    callbacks.toolCallArguments = [this](int i, const QString &d) { Q_EMIT toolCallArgumentsDelta(i, d); };
    m_assembler->setCallbacks(std::move(callbacks));
    m_parser->reset();
    const quint64 generation = ++m_generation;
    m_parser->setHandler([this, generation](const SseEvent &event) {
        // A slot may have cancelled (or cancelled and re-sent) while this chunk was being parsed.
        if (m_busy && generation == m_generation && !m_assembler->hasError())
            m_assembler->handleEvent(event);
    });

    QNetworkRequest request = ProviderRequest::make(endpoint());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader(QByteArrayLiteral("Accept"), QByteArrayLiteral("text/event-stream"));
    addHeaders(request);
    request.setTransferTimeout(m_transferTimeoutMs);

    QStringList headerText;
    for (const QByteArray &name : request.rawHeaderList())
        headerText << QString::fromLatin1(name) + u": "_s
                          + (Redaction::isSecretHeader(name) ? QString(Redaction::kMask)
                                                             : QString::fromLatin1(request.rawHeader(name)));
    logLine(u"POST %1 (%2, model %3, attempt %4, %5 bytes) headers: %6"_s.arg(
        endpoint().toString(), protocolName(), m_model, QString::number(m_attempt),
        QString::number(m_body.size()), headerText.join(u"; "_s)));

    Q_EMIT attemptStarted(m_attempt);
    if (!m_busy)
        return; // cancelled from a slot
    m_reply = m_manager->post(request, m_body);
    m_deadlineTimer->start(m_deadlineMs);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &ChatClient::onMetaData);
    // A followed (same-origin) redirect: what counts is the status of the reply it leads to.
    connect(m_reply, &QNetworkReply::redirected, this, [this] {
        m_status = 0;
        m_streaming = false;
        m_replyBytes = 0;
        m_errorBody.clear();
    });
    connect(m_reply, &QNetworkReply::readyRead, this, &ChatClient::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &ChatClient::onReplyFinished);
}

void ChatClient::onMetaData()
{
    if (!m_reply || m_status)
        return;
    m_status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (!m_status)
        return;
    const QByteArray contentType = m_reply->header(QNetworkRequest::ContentTypeHeader).toByteArray().toLower();
    // A 2xx that is not JSON is parsed as an event stream (some servers label SSE text/plain).
    m_streaming = m_status >= 200 && m_status < 300 && !contentType.contains("json");
    logLine(u"HTTP %1 %2"_s.arg(m_status).arg(QString::fromLatin1(contentType)));
}

void ChatClient::onReadyRead()
{
    if (!m_reply)
        return;
    if (!m_status)
        onMetaData();
    const QByteArray data = m_reply->readAll();
    m_replyBytes += data.size();
    const bool success = m_status >= 200 && m_status < 300;
    if (success && m_replyBytes > m_maxReplyBytes) {
        dropReply();
        failOrRetry(ChatError::tooLarge(m_maxReplyBytes));
        return;
    }
    if (m_streaming) {
        m_parser->feed(data);
        if (!m_reply)
            return; // cancelled from a slot
        if (m_parser->hasError()) {
            dropReply();
            failOrRetry(ChatError::protocol(u"a stream event exceeded the size limit"_s));
        } else if (m_assembler->hasError()) {
            dropReply();
            failOrRetry(m_assembler->error());
        }
        return;
    }
    if (success) {
        m_errorBody.append(data);
        return;
    }
    // An error page: the first megabyte says what went wrong; stop reading there.
    m_errorBody.append(data.left(kMaxErrorBody - m_errorBody.size()));
    if (m_errorBody.size() >= kMaxErrorBody && m_reply->isRunning())
        m_reply->abort(); // finishes the reply as the HTTP error it is
}

void ChatClient::onReplyFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    if (!m_status)
        onMetaData();
    if (reply->bytesAvailable() > 0) {
        onReadyRead();
        if (!m_reply)
            return;
    }
    const QNetworkReply::NetworkError networkError = reply->error();
    const QString errorString = reply->errorString();
    if (networkError == QNetworkReply::InsecureRedirectError) {
        const QUrl target = reply->url().resolved(QUrl::fromEncoded(reply->rawHeader(QByteArrayLiteral("location"))));
        dropReply();
        failOrRetry(ChatError::crossOriginRedirect(target));
        return;
    }
    ChatError::HttpReply http;
    http.status = m_status;
    http.body = m_errorBody;
    http.retryAfter = reply->rawHeader(QByteArrayLiteral("retry-after"));
    http.retryAfterMs = reply->rawHeader(QByteArrayLiteral("retry-after-ms"));
    http.shouldRetry = reply->rawHeader(QByteArrayLiteral("x-should-retry"));
    dropReply();

    if (m_status >= 300 || (m_status > 0 && m_status < 200)) {
        const ChatError e = ChatError::fromHttp(http, m_model, hasApiKey());
        logLine(u"HTTP error %1: %2"_s.arg(m_status).arg(QString::fromUtf8(m_errorBody.left(2000))));
        failOrRetry(e);
        return;
    }
    if (networkError != QNetworkReply::NoError) {
        // Our own abort (cancel) disconnects first and never gets here, so a
        // cancelled operation can only be the transfer timeout.
        if (networkError == QNetworkReply::OperationCanceledError || networkError == QNetworkReply::TimeoutError)
            failOrRetry(ChatError::timeout(m_transferTimeoutMs));
        else
            failOrRetry(ChatError::connectFailed(endpoint(), int(networkError), errorString));
        return;
    }
    if (m_streaming) {
        m_parser->finish();
        if (m_parser->hasError())
            failOrRetry(ChatError::protocol(u"a stream event exceeded the size limit"_s));
        else if (!m_assembler->endOfStream())
            failOrRetry(m_assembler->error());
        else
            finishCall();
        return;
    }
    // A whole JSON body with a 2xx status: the server did not stream.
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(m_errorBody, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        failOrRetry(ChatError::protocol(u"the reply is neither an event stream nor a JSON object: "_s
                                        + QString::fromUtf8(m_errorBody.left(200))));
        return;
    }
    m_assembler->handleWholeResponse(doc.object());
    if (!m_assembler->endOfStream())
        failOrRetry(m_assembler->error());
    else
        finishCall();
}

void ChatClient::failOrRetry(const ChatError &error)
{
    if (!m_busy)
        return;
    m_deadlineTimer->stop();
    const bool delivered = m_assembler && m_assembler->deliveredContent();
    if (m_policy.shouldRetry(error, m_attempt)) {
        // Part of the reply reached the caller: it is dropped, and the next attempt sends it whole.
        if (delivered) {
            logLine(u"attempt %1 broke after part of the reply was delivered; that part is discarded"_s.arg(m_attempt));
            Q_EMIT replyDiscarded();
            if (!m_busy)
                return; // cancelled from a slot
        }
        const int delay = m_policy.delayMs(error, m_attempt);
        logLine(u"attempt %1 failed (%2: %3 %4); retrying in %5 ms"_s.arg(
            QString::number(m_attempt), ChatError::kindName(error.kind), error.message, error.providerMessage,
            QString::number(delay)));
        Q_EMIT retrying(m_attempt + 1, delay, error);
        if (m_busy)
            m_retryTimer->start(delay);
        return;
    }
    m_busy = false;
    qCWarning(lcLlm).noquote() << Redaction::redact(u"call failed after %1 attempt(s)%2: %3 %4"_s.arg(
        QString::number(m_attempt), delivered ? u" (part of the reply was delivered)"_s : QString(),
        ChatError::kindName(error.kind) + u": "_s + error.message, error.providerMessage));
    Q_EMIT failed(error);
}

void ChatClient::finishCall()
{
    m_busy = false;
    m_deadlineTimer->stop();
    const Message message = m_assembler->message();
    const ChatUsage usage = m_assembler->usage();
    const QString reason = m_assembler->finishReason();
    logLine(u"finished after %1 attempt(s): %2 chars, %3 tool call(s), finish %4, usage in %5 out %6"_s.arg(
        QString::number(m_attempt), QString::number(message.content.size()), QString::number(message.toolCalls.size()),
        reason, QString::number(usage.input), QString::number(usage.output)));
    Q_EMIT finished(message, usage, reason);
}

void ChatClient::dropReply()
{
    if (!m_reply)
        return;
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->disconnect(this);
    if (reply->isRunning())
        reply->abort();
    reply->deleteLater();
}

void ChatClient::logLine(const QString &line) const
{
    qCDebug(lcLlm).noquote() << Redaction::redact(line);
}

} // namespace wl
