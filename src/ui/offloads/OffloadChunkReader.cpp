#include "offloads/OffloadChunkReader.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace wl {

OffloadChunkReader::~OffloadChunkReader() = default;

bool OffloadChunkReader::open(const QString &path)
{
    close();
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly)) {
        m_error = QCoreApplication::translate("OffloadChunkReader", "Cannot open %1: %2")
                      .arg(path, m_file.errorString());
        return false;
    }
    m_size = m_file.size();
    return true;
}

void OffloadChunkReader::close()
{
    m_file.close();
    m_error.clear();
    m_carry.clear();
    m_size = 0;
    m_consumed = 0;
    m_diskBytes = 0;
}

QByteArray OffloadChunkReader::peek(qint64 maxBytes)
{
    const qint64 remaining = m_size - m_consumed;
    const qint64 wanted = std::min(maxBytes, remaining);
    if (m_file.isOpen() && m_carry.size() < wanted) {
        const QByteArray more = m_file.read(wanted - m_carry.size());
        m_diskBytes += more.size();
        m_carry += more;
    }
    return m_carry.left(wanted);
}

QString OffloadChunkReader::readChunk(qint64 maxBytes, qint64 *rawBytes)
{
    if (rawBytes)
        *rawBytes = 0;
    if (!m_file.isOpen() || atEnd())
        return {};
    maxBytes = std::max<qint64>(maxBytes, 4); // room for one UTF-8 character at least
    QByteArray data = peek(maxBytes);
    const bool atEof = m_consumed + data.size() >= m_size;
    if (data.isEmpty()) { // the file shrank under us: stop here rather than spin
        m_size = m_consumed;
        return {};
    }
    qsizetype cut = cutPoint(data, atEof);
    if (cut <= 0)
        cut = data.size(); // not valid UTF-8 at all: hand it out, the decoder marks it
    data.truncate(cut);
    m_carry.remove(0, cut);
    m_consumed += cut;
    if (rawBytes)
        *rawBytes = cut;
    QString text = QString::fromUtf8(data);
    if (text.contains(u'\r'))
        text.replace(u"\r\n"_s, u"\n"_s);
    return text;
}

qsizetype OffloadChunkReader::cutPoint(QByteArrayView data, bool atEof)
{
    if (atEof || data.isEmpty())
        return data.size();
    const qsizetype newline = data.lastIndexOf('\n');
    if (newline >= 0)
        return newline + 1;
    // No line end: back off over continuation bytes (10xxxxxx) to the start of the last character,
    // and keep that character only when all its bytes are there.
    qsizetype start = data.size() - 1;
    int continuation = 0;
    while (start > 0 && continuation < 3 && (uchar(data.at(start)) & 0xC0) == 0x80) {
        --start;
        ++continuation;
    }
    const uchar lead = uchar(data.at(start));
    int length = 1;
    if ((lead & 0xE0) == 0xC0)
        length = 2;
    else if ((lead & 0xF0) == 0xE0)
        length = 3;
    else if ((lead & 0xF8) == 0xF0)
        length = 4;
    else if ((lead & 0xC0) == 0x80)
        return data.size(); // a run of stray continuation bytes: not UTF-8, cut anywhere
    return start + length <= data.size() ? start + length : start;
}

bool OffloadChunkReader::looksBinary(QByteArrayView head)
{
    if (head.isEmpty())
        return false;
    qsizetype control = 0;
    for (char ch : head) {
        const uchar c = uchar(ch);
        if (c == 0)
            return true;
        // Tab, line feed, form feed, carriage return and escape (terminal colours) are text.
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r' && c != 0x1b)
            ++control;
    }
    return control * 10 > head.size(); // more than a tenth control characters
}

} // namespace wl
