#include "JsonBodyWriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include <algorithm>
#include <bit>

#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h>
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

// Plain units are written as themselves: 0x20..0x7f but for '"' and '\\'. A block copier narrows the
// plain units at the front of `units` units into `out` in whole blocks and returns how many there
// were; it may write up to one block past that count, and stops before the last partial block.
using PlainCopier = qsizetype (*)(const char16_t *p, qsizetype units, char *out);

#if !defined(__SSE2__)
qsizetype copyNoBlocks(const char16_t *, qsizetype, char *)
{
    return 0;
}
#else
// Units from 0x8000 compare as negative and so fail the lower bound.
qsizetype copyPlainSse2(const char16_t *p, qsizetype units, char *out)
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
    qsizetype done = 0;
    while (units - done >= 16) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + done));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + done + 8));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out + done), _mm_packus_epi16(a, b));
        const uint mask = uint(_mm_movemask_epi8(_mm_packs_epi16(plain(a), plain(b))));
        if (mask != 0xffff)
            return done + std::countr_one(mask);
        done += 16;
    }
    return done;
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WL_JSON_AVX2 1
// The same 32 units at a time, on CPUs that have AVX2 (chosen at run time: the build targets
// plain x86-64). The 256-bit packs work per 128-bit lane, so both results are put back in order.
__attribute__((target("avx2"))) inline __m256i plainLanes(__m256i v)
{
    const __m256i inRange = _mm256_and_si256(_mm256_cmpgt_epi16(v, _mm256_set1_epi16(0x1f)),
                                             _mm256_cmpgt_epi16(_mm256_set1_epi16(0x80), v));
    const __m256i special = _mm256_or_si256(_mm256_cmpeq_epi16(v, _mm256_set1_epi16(u'"')),
                                            _mm256_cmpeq_epi16(v, _mm256_set1_epi16(u'\\')));
    return _mm256_andnot_si256(special, inRange);
}

__attribute__((target("avx2"))) qsizetype copyPlainAvx2(const char16_t *p, qsizetype units, char *out)
{
    qsizetype done = 0;
    while (units - done >= 32) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + done));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + done + 16));
        const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xd8);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + done), bytes);
        const __m256i flags = _mm256_permute4x64_epi64(_mm256_packs_epi16(plainLanes(a), plainLanes(b)), 0xd8);
        const quint32 mask = quint32(_mm256_movemask_epi8(flags));
        if (mask != 0xffffffffu)
            return done + std::countr_one(mask);
        done += 32;
    }
    return done + copyPlainSse2(p + done, units - done, out + done);
}
#endif

PlainCopier chooseCopier()
{
#if defined(WL_JSON_AVX2)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        return copyPlainAvx2;
#endif
#if defined(__SSE2__)
    return copyPlainSse2;
#else
    return copyNoBlocks;
#endif
}

constexpr qsizetype kBlock = 16; // the smallest block a copier takes

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
    // Invariant: at least (units left) + kSlack - 6 bytes free. A block copier writes at most one
    // byte per unit it takes (its block store needs a block free, and a block of units is left);
    // an escape is preceded by a check that restores the full slack.
    reserve(text.size() + kSlack);
    const qsizetype start = m_at - m_buffer.constData();
    const char16_t *p = text.utf16();
    const char16_t *const end = p + text.size();
    static const PlainCopier copyPlain = chooseCopier(); // on first use: no static-initialisation order
    *m_at++ = '"';
    while (p != end) {
        if (end - p >= kBlock) {
            const qsizetype run = copyPlain(p, end - p, m_at);
            p += run;
            m_at += run;
            if (p == end)
                break;
        }
        // One unit: a plain one in the last partial block, or one to escape or encode.
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
