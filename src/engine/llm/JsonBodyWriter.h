#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QStringView>

class QJsonValue;

namespace wl {

// Writes a request body as compact JSON straight into UTF-8 bytes: byte for byte what
// QJsonDocument::toJson(QJsonDocument::Compact) gives for the same value, provided the caller
// writes each object's keys in QJsonObject's order (sorted). No QJsonObject is built for the
// messages: a Full compaction's summary prompt is megabytes, and QJsonDocument would copy it
// three times before writing it. Runs of plain ASCII go 16 or 32 UTF-16 units at a time (SSE2, AVX2).
class JsonBodyWriter
{
public:
    // `expectedBytes`: a guess of the final size; the buffer grows when it is short.
    explicit JsonBodyWriter(qsizetype expectedBytes);

    // JSON text written as it is: punctuation, keys, literals ("{\"model\":", "true").
    void raw(QByteArrayView text);
    void raw(char c);
    // A JSON string literal, quotes included, escaped as QJsonDocument escapes it.
    void string(QStringView text);
    void number(qint64 value);
    // Any other value (a double, a tool's schema object), written by QJsonDocument itself.
    void value(const QJsonValue &value);

    QByteArray take();

private:
    void reserve(qsizetype bytes); // at least `bytes` free after the write position
    void unpairedSurrogateString(QStringView text);

    QByteArray m_buffer;
    char *m_at = nullptr;
    char *m_end = nullptr;
};

} // namespace wl
