#include "tools/OutputCapture.h"

#include "tools/Utf8Text.h"

#include <algorithm>

namespace wl {

OutputCapture::OutputCapture(qsizetype headLimit, qsizetype tailLimit)
    : m_headLimit(headLimit)
    , m_tailLimit(tailLimit)
{
    m_head.reserve(headLimit);
}

void OutputCapture::append(QByteArrayView bytes)
{
    m_total += bytes.size();
    if (m_head.size() < m_headLimit) {
        const qsizetype take = std::min(bytes.size(), m_headLimit - m_head.size());
        m_head.append(bytes.first(take));
        bytes = bytes.sliced(take);
    }
    if (bytes.isEmpty() || m_tailLimit <= 0)
        return;
    if (bytes.size() >= m_tailLimit) {
        m_tail = bytes.last(m_tailLimit).toByteArray();
        m_tailStart = 0;
        return;
    }
    if (m_tail.size() < m_tailLimit) {
        // Still filling: append what fits, then wrap the rest.
        const qsizetype take = std::min(bytes.size(), m_tailLimit - m_tail.size());
        m_tail.append(bytes.first(take));
        bytes = bytes.sliced(take);
        if (bytes.isEmpty())
            return;
    }
    // Full ring: overwrite the oldest bytes.
    for (qsizetype written = 0; written < bytes.size();) {
        const qsizetype chunk = std::min(bytes.size() - written, m_tailLimit - m_tailStart);
        std::copy_n(bytes.data() + written, chunk, m_tail.data() + m_tailStart);
        written += chunk;
        m_tailStart = (m_tailStart + chunk) % m_tailLimit;
    }
}

QByteArray OutputCapture::tailInOrder() const
{
    if (m_tailStart == 0)
        return m_tail;
    QByteArray ordered = m_tail.mid(m_tailStart);
    ordered.append(m_tail.left(m_tailStart));
    return ordered;
}

OutputCapture::Parts OutputCapture::parts() const
{
    Parts parts;
    const QByteArray tail = tailInOrder();
    if (!isTruncated()) {
        parts.head = m_head;
        parts.head.append(tail);
        return parts;
    }
    // Cut the head back and the tail forward to whole UTF-8 sequences.
    const qsizetype headCut = Utf8Text::completePrefixLength(m_head);
    const qsizetype tailCut = Utf8Text::leadingContinuationBytes(tail);
    parts.head = m_head.left(headCut);
    parts.tail = tail.mid(tailCut);
    parts.omittedBytes = m_total - parts.head.size() - parts.tail.size();
    return parts;
}

} // namespace wl
