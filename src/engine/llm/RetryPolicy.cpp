#include "RetryPolicy.h"

#include "ChatError.h"

#include <QLocale>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

bool RetryPolicy::isRetryableStatus(int httpStatus)
{
    switch (httpStatus) {
    case 408: case 429: case 500: case 502: case 503: case 504: case 529:
        return true;
    default:
        return false;
    }
}

bool RetryPolicy::shouldRetry(const ChatError &error, int attemptsMade) const
{
    if (!error.retryable || attemptsMade >= maxAttempts)
        return false;
    if (error.retryAfterMs > maxRetryAfterMs)
        return false;
    return true;
}

int RetryPolicy::delayMs(const ChatError &error, int attemptsMade) const
{
    if (error.retryAfterMs >= 0)
        return error.retryAfterMs;
    const int exponent = std::clamp(attemptsMade - 1, 0, 30);
    const double full = std::min<double>(maxDelayMs, double(baseDelayMs) * std::pow(2.0, exponent));
    const double j = std::clamp(jitter, 0.0, 1.0);
    const double cut = full * j * m_random.generateDouble();
    return int(std::lround(full - cut));
}

int RetryPolicy::parseRetryAfter(QByteArrayView retryAfter, QByteArrayView retryAfterMs, const QDateTime &now)
{
    bool ok = false;
    const double ms = QByteArray(retryAfterMs.trimmed()).toDouble(&ok);
    if (ok && ms > 0 && ms < 1e9)
        return int(std::lround(ms));

    const QByteArray value = retryAfter.trimmed().toByteArray();
    if (value.isEmpty())
        return -1;
    const double seconds = value.toDouble(&ok);
    if (ok)
        return seconds >= 0 && seconds < 1e6 ? int(std::lround(seconds * 1000)) : -1;

    // HTTP date, IMF-fixdate: "Wed, 21 Oct 2015 07:28:00 GMT".
    QDateTime when = QDateTime::fromString(QString::fromLatin1(value), Qt::RFC2822Date);
    if (!when.isValid()) {
        when = QLocale::c().toDateTime(QString::fromLatin1(value), u"ddd, dd MMM yyyy HH:mm:ss 'GMT'"_s);
        when.setTimeZone(QTimeZone::UTC);
    }
    if (!when.isValid())
        return -1;
    const qint64 delta = now.msecsTo(when);
    return int(std::clamp<qint64>(delta, 0, 1'000'000'000));
}

} // namespace wl
