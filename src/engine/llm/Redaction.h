#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace wl::Redaction {

// The one helper every log line and request dump in the LLM layer goes
// through. It masks the values of Authorization, x-api-key and
// api-key headers (in "Name: value" and JSON "name": "value" forms), Bearer
// tokens, strings shaped like provider keys (sk-..., sk-ant-...), and any
// secret registered below, wherever it appears.
QString redact(QStringView text);
QByteArray redact(QByteArrayView text);

// True for headers whose value is a credential.
bool isSecretHeader(QByteArrayView name);

// Header list with credential values replaced by "[redacted]".
QList<QPair<QByteArray, QByteArray>> redactHeaders(const QList<QPair<QByteArray, QByteArray>> &headers);

// Remembers a secret (an API key just loaded) so redact() masks it even in
// text no pattern would catch. Keys shorter than 8 characters are not
// registered (they would mask ordinary words). Thread-safe.
void registerSecret(const QString &secret);

inline constexpr QLatin1StringView kMask{"[redacted]"};

// Tool output on its way into the history: every registered key and every well-known secret
// shape (provider keys, GitHub and GitLab tokens, AWS keys, Slack and Google keys, private-key
// blocks, Authorization headers) replaced by "[redacted: <what>]", so the model, the store, the
// offload files and exports never see it, and a reader sees that something was there.
struct Scrubbed
{
    QString text;
    QStringList removed; // what was replaced, one entry per replacement ("GitHub token", ...)
};
Scrubbed scrub(QStringView text);
// "[redacted: " markers in `text`: how many secrets a stored result had removed.
int scrubbedCount(QStringView text);

} // namespace wl::Redaction
