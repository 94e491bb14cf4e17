#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace wl {

// Reads an offloaded file a chunk at a time, each chunk cut after its last complete line
// (or, for a line longer than a chunk, on a UTF-8 character boundary), so a 100 MB result
// costs one chunk of disk and memory until more is asked for. Bytes read past a cut are
// kept for the next chunk, never read twice.
class OffloadChunkReader
{
public:
    OffloadChunkReader() = default;
    ~OffloadChunkReader();

    bool open(const QString &path);
    void close();
    bool isOpen() const { return m_file.isOpen(); }
    QString errorString() const { return m_error; }

    qint64 size() const { return m_size; }          // file size when opened
    qint64 consumed() const { return m_consumed; }   // bytes handed out in chunks so far
    qint64 bytesReadFromDisk() const { return m_diskBytes; }
    bool atEnd() const { return m_consumed >= m_size; }

    // The next chunk of about `maxBytes` (at least one full UTF-8 character when any is left),
    // "\r\n" turned into "\n". `rawBytes` gets how many file bytes it stands for.
    QString readChunk(qint64 maxBytes, qint64 *rawBytes = nullptr);

    // Up to `maxBytes` from the start of the file without consuming anything (for sniffing).
    QByteArray peek(qint64 maxBytes);

    // Where to cut `data` so the first part ends after a complete line, or, when it holds no newline,
    // after a complete UTF-8 character. Returns data.size() when `atEof`.
    static qsizetype cutPoint(QByteArrayView data, bool atEof);

    // NUL bytes or mostly control characters in the first bytes: not something to show as text.
    static bool looksBinary(QByteArrayView head);

private:
    QFile m_file;
    QString m_error;
    QByteArray m_carry;  // read from disk, not yet handed out
    qint64 m_size = 0;
    qint64 m_consumed = 0;
    qint64 m_diskBytes = 0;
};

} // namespace wl
