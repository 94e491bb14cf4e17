#include "JsonBodyWriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include <algorithm>
#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace wl {

namespace {

// Room kept past a string's remaining units: its closing quote and one escape (at most 6 bytes).
constexpr qsizetype kSlack = 16;

char hexDigit(uint value)
{
    return char(value < 10 ? '0' + value : 'a' + value - 10);
}

// A value alone is not a document: QJsonDocument writes it inside an array, whose brackets go.
QByteArray qjsonText(const QJsonValue &value)
{
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

#if defined(__SSE2__)
// Bit i set when unit i of the 16 is written as itself: 0x20..0x7f but for '"' and '\\'.
// Units from 0x8000 compare as negative and so fail the lower bound.
inline uint plainMask(__m128i a, __m128i b)
{
    const __m128i below = _mm_set1_epi16(0x1f);
    const __m128i above = _mm_set1_epi16(0x80);
    const __m128i quote = _mm_set1_epi16(u'"');
    const __m128i backslash = _mm_set1_epi16(u'\\');
    auto plain = [&](__m128i v) {
        const __m128i inRange = _mm_and_si128(_mm_cmpgt_epi16(v, below), _mm_cmplt_epi16(v, above));
        const __m128i special = _mm_or_si128(_mm_cmpeq_epi16(v, quote), _mm_cmpeq_epi16(v, backslash));
        return _mm_andnot_si128(special, inRange);
    };
    return uint(_mm_movemask_epi8(_mm_packs_epi16(plain(a), plain(b))));
}
#endif

} // namespace

JsonBodyWriter::JsonBodyWriter(qsizetype expectedBytes)
    : m_buffer(std::max<qsizetype>(expectedBytes, 64), Qt::Uninitialized)
    , m_at(m_buffer.data())
    , m_end(m_at + m_buffer.size())
{
}

void JsonBodyWriter::reserve(qsizetype bytes)
{
    if (m_end - m_at >= bytes)
        return;
    const qsizetype used = m_at - m_buffer.constData();
    m_buffer.resize(std::max(m_buffer.size() * 2, used + bytes)); // keeps what is written
    m_at = m_buffer.data() + used;
    m_end = m_buffer.data() + m_buffer.size();
}

void JsonBodyWriter::raw(QByteArrayView text)
{
    reserve(text.size());
    m_at = std::copy_n(text.data(), text.size(), m_at);
}

void JsonBodyWriter::raw(char c)
{
    reserve(1);
    *m_at++ = c;
}

void JsonBodyWriter::number(qint64 value)
{
    raw(QByteArray::number(value));
}

void JsonBodyWriter::value(const QJsonValue &value)
{
    raw(qjsonText(value));
}

void JsonBodyWriter::unpairedSurrogateString(QStringView text)
{
    // QJsonDocument's own escape for a unit that is not UTF-16: rare enough to hand it over.
    raw(qjsonText(QJsonValue(text.toString())));
}

void JsonBodyWriter::string(QStringView text)
{
    // Invariant: at least (units left) + kSlack - 6 bytes free. The 16-unit path writes at most one
    // byte per unit (its 16-byte store needs 16 free, and 16 units are left); an escape is
    // preceded by a check that restores the full slack.
    reserve(text.size() + kSlack);
    const qsizetype start = m_at - m_buffer.constData();
    const char16_t *p = text.utf16();
    const char16_t *const end = p + text.size();
    *m_at++ = '"';
    while (true) {
#if defined(__SSE2__)
        while (end - p >= 16) {
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 8));
            _mm_storeu_si128(reinterpret_cast<__m128i *>(m_at), _mm_packus_epi16(a, b));
            const uint plain = plainMask(a, b);
            if (plain == 0xffff) {
                p += 16;
                m_at += 16;
                continue;
            }
            const int run = std::countr_one(plain); // the units before the first one to escape
            p += run;
            m_at += run;
            break;
        }
#endif
        if (p == end)
            break;
        if (m_end - m_at < (end - p) + kSlack)
            reserve((end - p) + kSlack);
        const char16_t c = *p++;
        if (c < 0x80) {
            if (c >= 0x20 && c != u'"' && c != u'\\') {
                *m_at++ = char(c);
                continue;
            }
            *m_at++ = '\\';
            switch (c) {
            case u'"': *m_at++ = '"'; break;
            case u'\\': *m_at++ = '\\'; break;
            case u'\b': *m_at++ = 'b'; break;
            case u'\f': *m_at++ = 'f'; break;
            case u'\n': *m_at++ = 'n'; break;
            case u'\r': *m_at++ = 'r'; break;
            case u'\t': *m_at++ = 't'; break;
            default:
                *m_at++ = 'u';
                *m_at++ = '0';
                *m_at++ = '0';
                *m_at++ = hexDigit(c >> 4);
                *m_at++ = hexDigit(c & 0xf);
                break;
            }
        } else if (c < 0x800) {
            *m_at++ = char(0xc0 | (c >> 6));
            *m_at++ = char(0x80 | (c & 0x3f));
        } else if (QChar::isSurrogate(c)) {
            if (!QChar::isHighSurrogate(c) || p == end || !QChar::isLowSurrogate(*p)) {
                m_at = m_buffer.data() + start;
                unpairedSurrogateString(text);
                return;
            }
            const char32_t u = QChar::surrogateToUcs4(c, *p++);
            *m_at++ = char(0xf0 | (u >> 18));
            *m_at++ = char(0x80 | ((u >> 12) & 0x3f));
            *m_at++ = char(0x80 | ((u >> 6) & 0x3f));
            *m_at++ = char(0x80 | (u & 0x3f));
        } else {
            *m_at++ = char(0xe0 | (c >> 12));
            *m_at++ = char(0x80 | ((c >> 6) & 0x3f));
            *m_at++ = char(0x80 | (c & 0x3f));
        }
    }
    *m_at++ = '"';
}

QByteArray JsonBodyWriter::take()
{
    m_buffer.truncate(m_at - m_buffer.constData());
    m_at = m_end = nullptr;
    return std::move(m_buffer);
}

} // namespace wl
