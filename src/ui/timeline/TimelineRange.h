#pragma once

#include "TimelineScale.h"

#include <QList>
#include <QPointF>

#include <array>

namespace wl {

// On the token scale the chart's vertical axis counts thousands of tokens ("128k").
inline constexpr double kTimelineTokensPerUnit = 1000.0;

// One stretch of a line above the top of the chart.
struct TimelineClip
{
    TimelineSeries series = TimelineSeries::History;
    int firstRow = 0;      // the first and last rows of the stretch
    int lastRow = 0;
    int peakRow = 0;       // its highest point
    double peak = 0;       // in axis units
    friend bool operator==(const TimelineClip &, const TimelineClip &) = default;
};

// The vertical axis over the visible part of the timeline: its top, its tick step, and what of
// the lines runs above the top.
struct TimelineRange
{
    double top = 100;
    double tick = 20;
    QList<TimelineClip> clips;     // by series, each series' stretches left to right

    // The highest point of `series` above the top, or nullptr when it stays inside.
    const TimelineClip *peakClip(TimelineSeries series) const;
};

// Fits the vertical axis to the visible points of each line (indexed by TimelineSeries; x = row,
// y in axis units). `floor` must show whatever the lines do (the window, the thresholds). What
// is or would be sent (Sent, What-if) always fits; the other lines (the uncompacted history, the
// provider's count) fit too while they need at most twice that height. Past it they are clipped
// at the top, and the clips say where and how far: the compacted lines keep their detail.
TimelineRange fitTimelineRange(const std::array<QList<QPointF>, 4> &lines, double floor);

// 1, 2 or 5 times a power of ten, at least `raw` (and positive).
double timelineNiceStep(double raw);

} // namespace wl
