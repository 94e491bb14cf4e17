#pragma once

// Sinks for text that is either written or only measured: the same writing code run with a
// ByteCounter gives exactly the UTF-8 size of what it writes with a TextWriter or a TextAppender.
// Pieces are split only next to ASCII characters, so no surrogate pair is ever counted in halves.

#include "model/Utf8.h"

#include <QString>

#include <algorithm>
#include <iterator>

namespace wl::text {

// Writes into a string sized once (an upper bound given up front).
class TextWriter
{
public:
    explicit TextWriter(qsizetype capacity)
        : m_text(capacity, Qt::Uninitialized)
        , m_out(m_text.data())
    {
    }

    void put(QStringView piece)
    {
        std::copy_n(piece.data(), piece.size(), m_out);
        m_out += piece.size();
    }
    void put(char16_t ascii) { *m_out++ = QChar(ascii); }
    void putAscii(QStringView piece) { put(piece); }

    QString take()
    {
        m_text.truncate(m_out - m_text.constData());
        return std::move(m_text);
    }

private:
    QString m_text;
    QChar *m_out;
};

// Appends to a string that grows as needed.
class TextAppender
{
public:
    explicit TextAppender(QString &text)
        : m_text(text)
    {
    }
    void put(QStringView piece) { m_text += piece; }
    void put(char16_t ascii) { m_text += QChar(ascii); }
    void putAscii(QStringView piece) { put(piece); }

private:
    QString &m_text;
};

// Counts the UTF-8 bytes of what would be written.
class ByteCounter
{
public:
    void put(QStringView piece)
    {
        // Most pieces are short ASCII (headings, numbers, paths): a loop costs less than a call.
        if (piece.size() <= 64) {
            bool ascii = true;
            for (QChar c : piece)
                ascii &= c.unicode() < 0x80;
            if (ascii) {
                m_bytes += piece.size();
                return;
            }
        }
        m_bytes += utf8ByteCount(piece);
    }
    void put(char16_t ascii) { m_bytes += ascii < 0x80 ? 1 : utf8ByteCount(QStringView(&ascii, 1)); }
    // A piece known to be ASCII (fixed text, digits): one byte per character, nothing to look at.
    void putAscii(QStringView piece)
    {
        Q_ASSERT(std::all_of(piece.begin(), piece.end(), [](QChar c) { return c.unicode() < 0x80; }));
        m_bytes += piece.size();
    }
    void add(qint64 bytes) { m_bytes += bytes; }
    qint64 bytes() const { return m_bytes; }

private:
    qint64 m_bytes = 0;
};

// The decimal digits of n.
template<typename Sink>
void putNumber(Sink &out, qint64 n)
{
    char16_t digits[20];
    qsizetype at = std::size(digits);
    const bool negative = n < 0;
    quint64 u = negative ? 0 - quint64(n) : quint64(n);
    do {
        digits[--at] = char16_t(u'0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (negative)
        out.put(u'-');
    out.putAscii(QStringView(digits + at, std::size(digits) - at));
}

} // namespace wl::text
