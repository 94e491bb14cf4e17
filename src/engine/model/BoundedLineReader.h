#pragma once

#include <QByteArray>
#include <QString>

class QIODevice;

namespace wl {

// Reads '\n'-separated lines from an untrusted device with a cap on the length of one line, so
// a file is never held whole: memory is one read buffer plus the longest line allowed. A line
// longer than the cap ends the read at once (the rest of it is not read), and so does a read
// error. Used by every JSON Lines reader: the transcript importers (ImportContext::readLines)
// and the Waterline session export (SessionExport::read).
//
//   BoundedLineReader in(&file, BoundedLineReader::defaultMaxLineBytes);
//   QByteArray line;
//   while (in.next(&line) == BoundedLineReader::Status::Line)
//       handle(line, in.lineNumber());
//   if (in.status() != BoundedLineReader::Status::End) return fail(in.lineNumber(), in.errorString());
class BoundedLineReader
{
public:
    // The longest JSONL line (one record) any reader accepts by default.
    static constexpr qint64 defaultMaxLineBytes = 256ll * 1024 * 1024;

    enum class Status { Line, End, TooLong, ReadError };

    BoundedLineReader(QIODevice *device, qint64 maxLineBytes);

    // The next line without its '\n' (a final line without one counts too); `line` is reused,
    // and its buffer released after a long line.
    Status next(QByteArray *line);
    Status status() const { return m_status; }
    // 1-based number of the line last returned (or the one that was too long).
    qint64 lineNumber() const { return m_lineNumber; }
    // Bytes taken from the device so far, the separators of returned lines included.
    qint64 consumed() const { return m_consumed; }
    qint64 maxLineBytes() const { return m_limit; }
    // Translated, for TooLong and ReadError; without a location (callers add file and line).
    QString errorString() const;

private:
    static constexpr qint64 readBytes = 1 << 20;

    QIODevice *m_device;
    qint64 m_limit;
    QByteArray m_chunk;
    qint64 m_chunkSize = 0;
    qint64 m_chunkPos = 0;
    qint64 m_lineNumber = 0;
    qint64 m_consumed = 0;
    Status m_status = Status::Line;
};

} // namespace wl
