#include "BoundedLineReader.h"

#include <QCoreApplication>
#include <QIODevice>

#include <cstring>

namespace wl {

BoundedLineReader::BoundedLineReader(QIODevice *device, qint64 maxLineBytes)
    : m_device(device)
    , m_limit(maxLineBytes)
    , m_consumed(device->isSequential() ? 0 : device->pos())
{
    Q_ASSERT(maxLineBytes > 0);
}

BoundedLineReader::Status BoundedLineReader::next(QByteArray *line)
{
    if (m_status != Status::Line)
        return m_status;
    // Own buffering: QIODevice::readLine(maxSize) allocates maxSize per call, and readLine()
    // without a limit would hold an endless line whole.
    if (line->capacity() > 4 * readBytes)
        *line = QByteArray();
    else
        line->clear();
    ++m_lineNumber;
    bool any = false;
    for (;;) {
        if (m_chunkPos == m_chunkSize) {
            if (m_chunk.isEmpty())
                m_chunk = QByteArray(readBytes, Qt::Uninitialized);
            const qint64 n = m_device->read(m_chunk.data(), readBytes);
            if (n < 0) {
                *line = QByteArray();
                return m_status = Status::ReadError;
            }
            m_chunkPos = 0;
            m_chunkSize = n;
            if (n == 0) {
                // End of input: a last line without a newline is still a line.
                if (any)
                    return Status::Line;
                --m_lineNumber;
                m_chunk = QByteArray();
                return m_status = Status::End;
            }
        }
        const char *data = m_chunk.constData();
        const void *found = std::memchr(data + m_chunkPos, '\n', size_t(m_chunkSize - m_chunkPos));
        const qint64 to = found ? static_cast<const char *>(found) - data : m_chunkSize;
        const qint64 length = to - m_chunkPos;
        any = true;
        if (line->size() + length > m_limit) {
            *line = QByteArray();
            return m_status = Status::TooLong;
        }
        line->append(data + m_chunkPos, length);
        m_consumed += length;
        m_chunkPos = to;
        if (found) {
            ++m_chunkPos;
            ++m_consumed;
            return Status::Line;
        }
    }
}

QString BoundedLineReader::errorString() const
{
    switch (m_status) {
    case Status::TooLong:
        return QCoreApplication::translate("BoundedLineReader", "line is longer than %1 MB; this is not a line of the format")
            .arg(m_limit / (1024 * 1024));
    case Status::ReadError:
        return QCoreApplication::translate("BoundedLineReader", "read error: %1").arg(m_device->errorString());
    case Status::Line:
    case Status::End:
        break;
    }
    return {};
}

} // namespace wl
