#pragma once

#include <QByteArrayView>
#include <QDateTime>
#include <QRandomGenerator>

namespace wl {

struct ChatError;

// When and how long to wait before trying an LLM call again.
//
// Retried: network errors, timeouts, HTTP 408, 429, 500, 502, 503, 504 and
// 529, the provider's overloaded error event, and whatever the server marks
// with `x-should-retry: true`. Never retried: other 4xx, quota exhaustion
// (`insufficient_quota` is a 429 too), `x-should-retry: false`, protocol
// errors, cancellation, and a Retry-After longer than maxRetryAfterMs (the
// user is better told "try again in 10 minutes" than kept waiting).
//
// A call is retried only while nothing of the reply has reached the caller:
// once a text delta or tool call was emitted, a retry would repeat it, so
// a later failure is reported as it is (ChatClient enforces this).
//
// The delay is exponential (base * 2^(attempt-1), capped at maxDelayMs) with
// "equal jitter" (a random part of up to `jitter` of it is taken off), or
// exactly what Retry-After asked for when the server said so.
struct RetryPolicy
{
    int maxAttempts = 4;          // total, the first included
    int baseDelayMs = 1000;
    int maxDelayMs = 30000;
    double jitter = 0.25;         // 0..1
    int maxRetryAfterMs = 60000;

    static bool isRetryableStatus(int httpStatus);

    // `attemptsMade` counts the attempts so far (1 after the first failure).
    bool shouldRetry(const ChatError &error, int attemptsMade) const;
    int delayMs(const ChatError &error, int attemptsMade) const;

    // Retry-After as milliseconds: `retry-after-ms` when positive, else
    // Retry-After as delta-seconds or as an HTTP date (relative to `now`).
    // -1 when absent or unparsable.
    static int parseRetryAfter(QByteArrayView retryAfter, QByteArrayView retryAfterMs = {},
                               const QDateTime &now = QDateTime::currentDateTimeUtc());

    // Makes the jitter reproducible (tests).
    void setSeed(quint32 seed) { m_random.seed(seed); }

private:
    mutable QRandomGenerator m_random{QRandomGenerator::securelySeeded()};
};

} // namespace wl
