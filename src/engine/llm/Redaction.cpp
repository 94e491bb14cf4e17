#include "Redaction.h"

#include <QMutex>
#include <QRegularExpression>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace wl::Redaction {

namespace {
QMutex s_mutex;
QStringList s_secrets; // guarded by s_mutex

const QRegularExpression &headerPattern()
{
    // "Authorization: Bearer abc", "x-api-key=abc", "\"api-key\": \"abc\""
    static const QRegularExpression re(
        uR"((\b(?:authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key)\b["']?\s*[:=]\s*["']?)([^"'\r\n,}]*))"_s,
        QRegularExpression::CaseInsensitiveOption);
    return re;
}

const QRegularExpression &tokenPattern()
{
    // Bearer tokens and key-shaped strings (OpenAI sk-..., sk-proj-..., Anthropic sk-ant-...).
    static const QRegularExpression re(
        uR"((\bBearer\s+)[A-Za-z0-9._~+/=\-]+|\bsk-[A-Za-z0-9_\-]{12,})"_s,
        QRegularExpression::CaseInsensitiveOption);
    return re;
}
} // namespace

bool isSecretHeader(QByteArrayView name)
{
    return name.compare("authorization", Qt::CaseInsensitive) == 0
        || name.compare("proxy-authorization", Qt::CaseInsensitive) == 0
        || name.compare("x-api-key", Qt::CaseInsensitive) == 0
        || name.compare("api-key", Qt::CaseInsensitive) == 0
        || name.compare("x-goog-api-key", Qt::CaseInsensitive) == 0;
}

QString redact(QStringView view)
{
    QString text = view.toString();
    {
        const QMutexLocker lock(&s_mutex);
        for (const QString &secret : std::as_const(s_secrets))
            text.replace(secret, kMask);
    }
    text.replace(headerPattern(), u"\\1"_s + kMask);
    // Replace token matches by hand: a Bearer match keeps its "Bearer " prefix.
    QString out;
    qsizetype last = 0;
    auto it = tokenPattern().globalMatch(text);
    if (!it.hasNext())
        return text;
    out.reserve(text.size());
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(last, m.capturedStart() - last);
        out += m.captured(1);
        out += kMask;
        last = m.capturedEnd();
    }
    out += QStringView(text).mid(last);
    return out;
}

QByteArray redact(QByteArrayView text)
{
    return redact(QString::fromUtf8(text)).toUtf8();
}

QList<QPair<QByteArray, QByteArray>> redactHeaders(const QList<QPair<QByteArray, QByteArray>> &headers)
{
    QList<QPair<QByteArray, QByteArray>> out;
    out.reserve(headers.size());
    for (const auto &[name, value] : headers)
        out.append({name, isSecretHeader(name) ? QByteArray(kMask.data(), kMask.size()) : redact(value)});
    return out;
}

void registerSecret(const QString &secret)
{
    const QString trimmed = secret.trimmed();
    if (trimmed.size() < 8)
        return;
    const QMutexLocker lock(&s_mutex);
    if (!s_secrets.contains(trimmed))
        s_secrets.append(trimmed);
}

} // namespace wl::Redaction
