#pragma once

#include <QByteArray>

namespace wl {

// Keeps the head and the tail of a byte stream of any length in bounded memory:
// the first headLimit bytes, and a ring of the last tailLimit bytes.
class OutputCapture
{
public:
    OutputCapture(qsizetype headLimit, qsizetype tailLimit);

    void append(QByteArrayView bytes);

    qint64 totalBytes() const { return m_total; }
    bool isTruncated() const { return m_total > m_headLimit + m_tailLimit; }
    qsizetype retainedBytes() const { return m_head.size() + m_tail.size(); }  // never above the two limits

    // The whole stream when it fit; otherwise the head and the tail, each cut on a
    // UTF-8 boundary, and the number of bytes between them.
    struct Parts
    {
        QByteArray head;
        QByteArray tail;
        qint64 omittedBytes = 0;
    };
    Parts parts() const;

private:
    QByteArray tailInOrder() const;

    qsizetype m_headLimit;
    qsizetype m_tailLimit;
    QByteArray m_head;
    QByteArray m_tail;        // ring buffer once full
    qsizetype m_tailStart = 0; // oldest byte of the ring
    qint64 m_total = 0;
};

} // namespace wl
