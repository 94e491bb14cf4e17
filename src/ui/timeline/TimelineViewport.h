#pragma once

namespace wl {

// The stretch of requests the timeline shows: all of them, or a part the user zoomed into and
// moved along. Requests are x values 0 .. last().
class TimelineViewport
{
public:
    // The fewest requests a zoom shows.
    static constexpr double kMinSpan = 4;

    // A zoomed view keeps its stretch as the session changes (moved back inside if it shrank),
    // and one that showed the newest request keeps showing it as requests are added.
    void setLast(double last);
    double last() const { return m_last; }
    double min() const { return m_min; }
    double max() const { return m_max; }
    double span() const { return m_max - m_min; }
    bool isZoomed() const { return m_min > 0 || m_max < m_last; }

    // factor < 1 zooms in, > 1 out; `anchor` stays where it is on screen.
    void zoom(double factor, double anchor);
    // Moves the stretch by `requests` (negative: towards the first request).
    void pan(double requests);
    void reset();
    // Moves the stretch the least so that request x is inside it.
    void ensureVisible(double x);

private:
    void clampInside();

    double m_last = 1;
    double m_min = 0;
    double m_max = 1;
};

} // namespace wl
