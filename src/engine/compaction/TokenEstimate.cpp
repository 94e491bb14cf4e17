#include "TokenEstimate.h"

#include "CompactionPolicy.h"
#include "model/Message.h"
#include "model/ToolSpec.h"

namespace wl {

TokenEstimate::TokenEstimate(qint64 viewBytes, qint64 toolSchemaBytes, const CompactionPolicy &policy)
    : m_viewBytes(viewBytes)
    , m_schemaBytes(toolSchemaBytes)
    , m_reserved(policy.reservedOutput)
    , m_window(policy.contextWindow)
    , m_countSchemas(policy.countToolSchemas)
{
}

double TokenEstimate::ratio() const
{
    return ratioFor(totalTokens(), m_window);
}

double TokenEstimate::ratioFor(qint64 totalTokens, qint64 contextWindow)
{
    // One correctly rounded division: a ratio that equals a decimal threshold compares equal to it.
    return contextWindow > 0 ? double(totalTokens) / double(contextWindow) : 0.0;
}

qint64 TokenEstimate::utf8Bytes(QStringView text)
{
    const qsizetype len = text.size();
    const char16_t *d = text.utf16();
    // Branch-free pass, 32 units per step with 16-bit sums so the compiler vectorises it: 1, 2 or
    // 3 bytes per UTF-16 unit. Surrogates are rare; when there is one, count exactly below.
    constexpr qsizetype kBlock = 32;
    qint64 n = 0;
    bool surrogates = false;
    qsizetype i = 0;
    for (; i + kBlock <= len; i += kBlock) {
        quint16 extra = 0;
        quint16 halves = 0;
        for (qsizetype k = 0; k < kBlock; ++k) {
            const char16_t c = d[i + k];
            extra += quint16(quint16(c >= 0x80) + quint16(c >= 0x800));
            halves |= quint16((c & 0xF800) == 0xD800);
        }
        n += kBlock + extra;
        surrogates |= halves != 0;
    }
    for (; i < len; ++i) {
        const char16_t c = d[i];
        n += 1 + int(c >= 0x80) + int(c >= 0x800);
        surrogates |= (c & 0xF800) == 0xD800;
    }
    if (!surrogates)
        return n;
    n = 0;
    for (i = 0; i < len; ++i) {
        const char16_t c = d[i];
        if (c < 0x80) {
            n += 1;
        } else if (c < 0x800) {
            n += 2;
        } else if (QChar::isHighSurrogate(c) && i + 1 < len && QChar::isLowSurrogate(d[i + 1])) {
            n += 4;
            ++i;
        } else {
            n += 3; // lone surrogates become U+FFFD, also 3 bytes
        }
    }
    return n;
}

qint64 TokenEstimate::messageBytes(const QList<Message> &messages)
{
    qint64 sum = 0;
    for (const Message &m : messages)
        sum += m.byteCount();
    return sum;
}

qint64 TokenEstimate::toolSchemaBytes(const QList<ToolSpec> &tools)
{
    qint64 sum = 0;
    for (const ToolSpec &t : tools)
        sum += t.byteCount();
    return sum;
}

} // namespace wl
