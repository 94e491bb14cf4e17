#include "ChatError.h"

#include "Redaction.h"
#include "RetryPolicy.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QUrl>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

QString ChatError::displayText() const
{
    if (providerMessage.isEmpty() || message.contains(providerMessage))
        return message;
    return QCoreApplication::translate("wl::ChatError", "%1 (%2)").arg(message, providerMessage);
}

QString ChatError::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Network: return u"network"_s;
    case Kind::Timeout: return u"timeout"_s;
    case Kind::Auth: return u"auth"_s;
    case Kind::NotFound: return u"not-found"_s;
    case Kind::RateLimited: return u"rate-limited"_s;
    case Kind::Overloaded: return u"overloaded"_s;
    case Kind::BadRequest: return u"bad-request"_s;
    case Kind::Server: return u"server"_s;
    case Kind::Protocol: return u"protocol"_s;
    case Kind::Cancelled: return u"cancelled"_s;
    }
    return u"unknown"_s;
}



namespace {
struct ProviderError
{
    QString message;
    QString code;   // error.code when a string, else error.type
    QString type;
};

ProviderError parseProviderError(const QByteArray &body)
{
    ProviderError out;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        // Not JSON (a proxy's HTML page, plain text): keep a readable excerpt.
        const QString text = QString::fromUtf8(body.left(400)).simplified();
        const bool printable = std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c.isPrint(); });
        if (printable && !text.startsWith(u'<'))
            out.message = text;
        return out;
    }
    const QJsonObject root = doc.object();
    const QJsonValue error = root.value(u"error");
    if (error.isObject()) {
        const QJsonObject e = error.toObject();
        out.message = e.value(u"message").toString();
        out.type = e.value(u"type").toString();
        out.code = e.value(u"code").isString() ? e.value(u"code").toString() : out.type;
    } else if (error.isString()) {
        out.message = error.toString();
    }
    if (out.message.isEmpty())
        out.message = root.value(u"message").toString(root.value(u"detail").toString());
    if (out.type.isEmpty())
        out.type = root.value(u"type").toString() == u"error" ? QString() : root.value(u"type").toString();
    return out;
}

bool isQuotaError(const ProviderError &e)
{
    return e.code == u"insufficient_quota" || e.type == u"insufficient_quota"
        || e.message.contains(u"spend limit", Qt::CaseInsensitive)
        || e.message.contains(u"credit balance", Qt::CaseInsensitive);
}
} // namespace

ChatError ChatError::fromHttp(const HttpReply &reply, const QString &model, bool keyPresent)
{
    const ProviderError pe = parseProviderError(reply.body);
    ChatError e;
    e.httpStatus = reply.status;
    e.providerMessage = Redaction::redact(pe.message);
    e.providerCode = pe.code.isEmpty() ? pe.type : pe.code;
    e.retryAfterMs = RetryPolicy::parseRetryAfter(reply.retryAfter, reply.retryAfterMs);
    e.retryable = RetryPolicy::isRetryableStatus(reply.status);

    const int s = reply.status;
    if (s == 401) {
        e.kind = Kind::Auth;
        e.message = keyPresent ? QCoreApplication::translate("wl::ChatError", "The API key was rejected (HTTP 401). Check the key set for this provider.")
                               : QCoreApplication::translate("wl::ChatError", "The provider needs an API key, and none is set (HTTP 401).");
    } else if (s == 403) {
        e.kind = Kind::Auth;
        e.message = QCoreApplication::translate("wl::ChatError", "The API key is not allowed to use this model or endpoint (HTTP 403).");
    } else if (s == 404) {
        e.kind = Kind::NotFound;
        e.message = QCoreApplication::translate("wl::ChatError", "Model not found: %1. Check the model name and the base URL (HTTP 404).").arg(model);
    } else if (s == 408) {
        e.kind = Kind::Timeout;
        e.message = QCoreApplication::translate("wl::ChatError", "The provider timed out waiting for the request (HTTP 408).");
    } else if (s == 429) {
        e.kind = Kind::RateLimited;
        if (isQuotaError(pe)) {
            e.retryable = false;
            e.message = QCoreApplication::translate("wl::ChatError", "The account's quota or credit is used up; waiting will not help (HTTP 429).");
        } else {
            e.message = QCoreApplication::translate("wl::ChatError", "The provider's rate limit was reached (HTTP 429).");
        }
    } else if (s == 529 || pe.type == u"overloaded_error") {
        e.kind = Kind::Overloaded;
        e.message = QCoreApplication::translate("wl::ChatError", "The provider is overloaded right now (HTTP %1).").arg(s);
    } else if (s == 413) {
        e.kind = Kind::BadRequest;
        e.message = QCoreApplication::translate("wl::ChatError", "The request is too large for the provider (HTTP 413).");
    } else if (s >= 400 && s < 500) {
        e.kind = Kind::BadRequest;
        if (pe.code == u"context_length_exceeded" || pe.message.contains(u"context length", Qt::CaseInsensitive)
            || pe.message.contains(u"prompt is too long", Qt::CaseInsensitive))
            e.message = QCoreApplication::translate("wl::ChatError", "The conversation is longer than the model's context window (HTTP %1).").arg(s);
        else
            e.message = QCoreApplication::translate("wl::ChatError", "The provider rejected the request (HTTP %1).").arg(s);
    } else if (s >= 500) {
        e.kind = Kind::Server;
        e.message = QCoreApplication::translate("wl::ChatError", "The provider had an internal error (HTTP %1).").arg(s);
    } else {
        e.kind = Kind::Protocol;
        e.message = QCoreApplication::translate("wl::ChatError", "The provider answered with an unexpected HTTP status %1.").arg(s);
    }

    const QByteArray shouldRetry = reply.shouldRetry.trimmed().toLower();
    if (shouldRetry == "true" && e.kind != Kind::Auth)
        e.retryable = true;
    else if (shouldRetry == "false")
        e.retryable = false;
    return e;
}

ChatError ChatError::fromStreamError(const QString &type, const QString &providerMessage)
{
    ChatError e;
    e.httpStatus = 200;
    e.providerCode = type;
    e.providerMessage = Redaction::redact(providerMessage);
    if (type == u"overloaded_error") {
        e.kind = Kind::Overloaded;
        e.retryable = true;
        e.message = QCoreApplication::translate("wl::ChatError", "The provider is overloaded right now.");
    } else if (type == u"rate_limit_error" || type == u"rate_limit_exceeded") {
        e.kind = Kind::RateLimited;
        e.retryable = true;
        e.message = QCoreApplication::translate("wl::ChatError", "The provider's rate limit was reached.");
    } else if (type == u"insufficient_quota") {
        e.kind = Kind::RateLimited;
        e.message = QCoreApplication::translate("wl::ChatError", "The account's quota or credit is used up; waiting will not help.");
    } else if (type == u"authentication_error" || type == u"permission_error") {
        e.kind = Kind::Auth;
        e.message = QCoreApplication::translate("wl::ChatError", "The API key was rejected.");
    } else if (type == u"invalid_request_error") {
        e.kind = Kind::BadRequest;
        e.message = QCoreApplication::translate("wl::ChatError", "The provider rejected the request.");
    } else {
        e.kind = Kind::Server;
        e.retryable = true;
        e.message = QCoreApplication::translate("wl::ChatError", "The provider reported an error in the middle of its reply.");
    }
    return e;
}

ChatError ChatError::network(const QString &detail)
{
    ChatError e;
    e.kind = Kind::Network;
    e.retryable = true;
    e.message = QCoreApplication::translate("wl::ChatError", "Could not reach the provider, or the connection broke.");
    e.providerMessage = Redaction::redact(detail);
    return e;
}

namespace {

bool isThisMachine(const QString &host)
{
    return host == u"localhost" || host == u"127.0.0.1" || host == u"::1" || host.endsWith(u".localhost");
}

// What to start when nothing listens on a local server's usual port.
QString startHint(int port)
{
    switch (port) {
    case 11434: return QCoreApplication::translate("wl::ChatError", "start Ollama with `ollama serve`");
    case 1234: return QCoreApplication::translate("wl::ChatError", "start the LM Studio server (`lms server start`)");
    case 8000: return QCoreApplication::translate("wl::ChatError", "start the server (vLLM: `vllm serve MODEL`)");
    case 8080: return QCoreApplication::translate("wl::ChatError", "start the server (llama.cpp: `llama-server -m MODEL.gguf`)");
    default: return QCoreApplication::translate("wl::ChatError", "start the model server, or correct the port in the provider's base URL");
    }
}

} // namespace

ChatError ChatError::connectFailed(const QUrl &url, int networkError, const QString &detail)
{
    ChatError e = network(detail);
    const QString host = url.host();
    const int port = url.port(url.scheme() == u"https" ? 443 : 80);
    const QString where = host.contains(u':') ? u"[%1]:%2"_s.arg(host).arg(port) : u"%1:%2"_s.arg(host).arg(port);
    switch (QNetworkReply::NetworkError(networkError)) {
    case QNetworkReply::ConnectionRefusedError:
        e.message = isThisMachine(host)
            ? QCoreApplication::translate("wl::ChatError", "Nothing is listening at %1: %2.").arg(where, startHint(port))
            : QCoreApplication::translate("wl::ChatError", "Nothing is listening at %1: check that the server runs and the base URL's port.").arg(where);
        break;
    case QNetworkReply::HostNotFoundError:
        e.message = QCoreApplication::translate("wl::ChatError", "The host %1 was not found: check the base URL's host name and the network connection.").arg(host);
        break;
    case QNetworkReply::SslHandshakeFailedError:
        e.message = QCoreApplication::translate("wl::ChatError", "The secure connection to %1 failed: check the certificate, or whether the server speaks http:// rather than https://.").arg(where);
        break;
    default:
        break; // a connection that broke midway: network()'s words
    }
    return e;
}

ChatError ChatError::timeout(int timeoutMs)
{
    ChatError e;
    e.kind = Kind::Timeout;
    e.retryable = true;
    e.message = QCoreApplication::translate("wl::ChatError", "The provider sent nothing for %1 s; the request timed out.").arg(double(timeoutMs) / 1000.0);
    return e;
}

ChatError ChatError::protocol(const QString &detail)
{
    ChatError e;
    e.kind = Kind::Protocol;
    e.message = QCoreApplication::translate("wl::ChatError", "The provider's reply could not be understood.");
    e.providerMessage = Redaction::redact(detail);
    return e;
}

ChatError ChatError::deadline(int deadlineMs)
{
    ChatError e;
    e.kind = Kind::Timeout;
    e.message = QCoreApplication::translate("wl::ChatError", "The reply did not finish within %1 s, although the provider kept the connection alive; the request was stopped.")
                    .arg(double(deadlineMs) / 1000.0);
    return e;
}

ChatError ChatError::tooLarge(qint64 capBytes)
{
    ChatError e;
    e.kind = Kind::Protocol;
    e.message = QCoreApplication::translate("wl::ChatError", "The provider's reply grew past %1 MB without ending; the request was stopped.")
                    .arg(double(capBytes) / (1024.0 * 1024.0), 0, 'f', 1);
    return e;
}

ChatError ChatError::insecureUrl(const QUrl &url)
{
    ChatError e;
    e.kind = Kind::BadRequest;
    e.message = QCoreApplication::translate("wl::ChatError", "Refused to send the API key in clear text to %1: use https://, or http:// only for a server on this machine (127.0.0.1, localhost).")
                    .arg(url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemovePath | QUrl::RemoveQuery));
    return e;
}

ChatError ChatError::crossOriginRedirect(const QUrl &target)
{
    ChatError e;
    e.kind = Kind::BadRequest;
    e.message = QCoreApplication::translate("wl::ChatError", "The provider redirected the request to another server (%1); Waterline follows redirects only within the same server, so the key is not sent there. Check the base URL.")
                    .arg(target.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery));
    return e;
}

ChatError ChatError::cancelled()
{
    ChatError e;
    e.kind = Kind::Cancelled;
    e.message = QCoreApplication::translate("wl::ChatError", "The request was cancelled.");
    return e;
}

} // namespace wl
