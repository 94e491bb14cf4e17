#pragma once

#include <QByteArray>
#include <QString>

class QUrl;

namespace wl {

// A failed LLM call, typed so the agent loop and the UI can react: retry,
// ask for a key, or show the provider's own words.
struct ChatError
{
    enum class Kind {
        Network,      // connection refused or dropped, DNS, TLS
        Timeout,      // the transfer timeout fired (no bytes for too long)
        Auth,         // 401/403: key missing, wrong or without permission
        NotFound,     // 404: usually an unknown model or a wrong base URL
        RateLimited,  // 429 (and quota exhaustion, which does not retry)
        Overloaded,   // 529 or the provider's overloaded_error
        BadRequest,   // 400, 413, 422: the request itself is wrong (e.g. context too long)
        Server,       // other 5xx
        Protocol,     // the reply is not what the protocol promises (malformed stream, early end)
        Cancelled,    // cancel() was called
    };

    Kind kind = Kind::Network;
    int httpStatus = 0;          // 0 when no HTTP status was received
    QString message;             // one sentence for the user, translated
    QString providerMessage;     // the provider's own error text, verbatim (secrets redacted)
    QString providerCode;        // the provider's error type/code, e.g. "insufficient_quota"
    bool retryable = false;      // whether RetryPolicy would try again
    int retryAfterMs = -1;       // from Retry-After / retry-after-ms, -1 when absent

    // message, plus the provider's text when it adds something.
    QString displayText() const;

    static QString kindName(Kind kind);

    // Builders. `model` names the model in "model not found" messages.
    // fromHttp reads the provider's error JSON (OpenAI {"error":{message,type,code}},
    // Anthropic {"type":"error","error":{type,message}}, Ollama {"error":"..."},
    // vLLM {"message":...}) and the retry headers.
    struct HttpReply
    {
        int status = 0;
        QByteArray body;
        QByteArray retryAfter;     // Retry-After
        QByteArray retryAfterMs;   // retry-after-ms (OpenAI, Azure)
        QByteArray shouldRetry;    // x-should-retry (Anthropic): "true"/"false"
    };
    static ChatError fromHttp(const HttpReply &reply, const QString &model, bool keyPresent);
    // An error object sent inside a 200 stream (Anthropic `error` event,
    // OpenAI-compatible servers' {"error": ...} chunk).
    static ChatError fromStreamError(const QString &type, const QString &providerMessage);
    static ChatError network(const QString &detail);
    // The connection to `url` failed (`networkError` is a QNetworkReply::NetworkError): says what
    // happened and what to try, e.g. "Nothing is listening at 127.0.0.1:11434: start Ollama with
    // `ollama serve`." Retryable like network().
    static ChatError connectFailed(const QUrl &url, int networkError, const QString &detail);
    static ChatError timeout(int timeoutMs);
    static ChatError protocol(const QString &detail);
    // The reply did not end within the deadline of the whole call (`deadlineMs`), although bytes
    // kept coming (keep-alive comments, a slow drip). Not retried: the next try would do the same.
    static ChatError deadline(int deadlineMs);
    // The reply grew past `capBytes` (endless events). Not retried.
    static ChatError tooLarge(qint64 capBytes);
    // A key would cross the network in clear text (http:// to a host that is not this machine).
    static ChatError insecureUrl(const QUrl &url);
    // The server redirected the request to another origin, which is not followed. Not retried.
    static ChatError crossOriginRedirect(const QUrl &target);
    static ChatError cancelled();
};

} // namespace wl
