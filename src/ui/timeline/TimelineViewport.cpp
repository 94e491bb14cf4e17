#include "TimelineViewport.h"

#include <algorithm>

namespace wl {

void TimelineViewport::setLast(double last)
{
    last = std::max(last, 1.0);
    const bool zoomed = isZoomed();
    const bool followsEnd = m_max >= m_last;
    const double width = span();
    m_last = last;
    if (!zoomed || width >= m_last) {
        reset();
        return;
    }
    if (followsEnd) {
        m_max = m_last;
        m_min = m_max - width;
    }
    clampInside();
}

void TimelineViewport::zoom(double factor, double anchor)
{
    if (!(factor > 0))
        return;
    const double width = span();
    const double next = std::clamp(width * factor, std::min(kMinSpan, m_last), m_last);
    if (next >= m_last) {
        reset();
        return;
    }
    anchor = std::clamp(anchor, m_min, m_max);
    const double share = width > 0 ? (anchor - m_min) / width : 0.5;
    m_min = anchor - share * next;
    m_max = m_min + next;
    clampInside();
}

void TimelineViewport::pan(double requests)
{
    m_min += requests;
    m_max += requests;
    clampInside();
}

void TimelineViewport::reset()
{
    m_min = 0;
    m_max = m_last;
}

void TimelineViewport::ensureVisible(double x)
{
    if (x < m_min)
        pan(x - m_min);
    else if (x > m_max)
        pan(x - m_max);
}

void TimelineViewport::clampInside()
{
    const double width = std::min(span(), m_last);
    if (m_min < 0) {
        m_min = 0;
        m_max = width;
    }
    if (m_max > m_last) {
        m_max = m_last;
        m_min = m_last - width;
    }
}

} // namespace wl
