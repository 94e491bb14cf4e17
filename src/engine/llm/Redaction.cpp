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
// Shapes of secrets worth removing from tool output, each with what it is called. Every pattern
// is anchored on a distinctive prefix, so ordinary text (hashes, UUIDs, base64) is left alone.
// With `keepsPrefix`, capture 1 (a header name or an assignment) stays and only the value goes.
struct SecretShape
{
    const char16_t *label;
    QRegularExpression pattern;
    bool keepsPrefix = false;
};

const QList<SecretShape> &secretShapes()
{
    static const QList<SecretShape> shapes = [] {
        const auto re = [](const QString &p, bool caseless = false) {
            QRegularExpression r(p, caseless ? QRegularExpression::CaseInsensitiveOption : QRegularExpression::NoPatternOption);
            r.optimize();
            return r;
        };
        return QList<SecretShape>{
            {u"private key", re(uR"(-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$))"_s)},
            {u"Anthropic key", re(uR"(\bsk-ant-[A-Za-z0-9_\-]{16,})"_s)},
            {u"OpenAI key", re(uR"(\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,})"_s)},
            {u"GitHub token", re(uR"(\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}))"_s)},
            {u"GitLab token", re(uR"(\bglpat-[A-Za-z0-9_\-]{20,})"_s)},
            {u"AWS access key id", re(uR"(\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b)"_s)},
            {u"AWS secret key", re(uR"((aws_secret_access_key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40})"_s, true), true},
            {u"Slack token", re(uR"(\bxox[abposr]-[A-Za-z0-9\-]{10,})"_s)},
            {u"Google API key", re(uR"(\bAIza[0-9A-Za-z_\-]{35})"_s)},
            {u"Authorization header", re(uR"((\b(?:proxy-authorization|authorization|x-api-key|api-key)["']?\s*[:=]\s*["']?)[^"'\s,}][^"'\r\n,}]{5,})"_s, true), true},
        };
    }();
    return shapes;
}

QString marker(const char16_t *label)
{
    return u"[redacted: "_s + QStringView(label) + u']';
}

} // namespace

Scrubbed scrub(QStringView view)
{
    Scrubbed out;
    out.text = view.toString();
    {
        const QMutexLocker lock(&s_mutex);
        for (const QString &secret : std::as_const(s_secrets)) {
            const qsizetype n = out.text.count(secret);
            if (n == 0)
                continue;
            out.text.replace(secret, marker(u"API key"));
            for (qsizetype i = 0; i < n; ++i)
                out.removed << u"API key"_s;
        }
    }
    for (const SecretShape &shape : secretShapes()) {
        auto it = shape.pattern.globalMatch(out.text);
        if (!it.hasNext())
            continue;
        QString rebuilt;
        rebuilt.reserve(out.text.size());
        qsizetype last = 0;
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            rebuilt += QStringView(out.text).mid(last, m.capturedStart() - last);
            // A header or an assignment keeps its name and separator; the value goes.
            if (shape.keepsPrefix)
                rebuilt += m.captured(1);
            rebuilt += marker(shape.label);
            out.removed << QString::fromUtf16(shape.label);
            last = m.capturedEnd();
        }
        rebuilt += QStringView(out.text).mid(last);
        out.text = std::move(rebuilt);
    }
    return out;
}

int scrubbedCount(QStringView text)
{
    return int(text.count(u"[redacted: "));
}

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
