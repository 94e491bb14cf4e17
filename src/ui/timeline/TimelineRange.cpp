#include "TimelineRange.h"

#include <algorithm>
#include <cmath>

namespace wl {

namespace {
constexpr double kHeadroom = 1.1;      // above the highest point of what is sent
constexpr double kOtherHeadroom = 1.05;
constexpr double kMostStretch = 2.0;   // how much taller the others may make the chart
constexpr int kTicks = 6;              // about this many tick steps up the axis

double highest(const QList<QPointF> &points, double start)
{
    double top = start;
    for (const QPointF &p : points)
        if (!std::isnan(p.y()))
            top = std::max(top, p.y());
    return top;
}
} // namespace

double timelineNiceStep(double raw)
{
    if (!(raw > 0))
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= raw * (1 - 1e-12))
            return m * magnitude;
    return 10 * magnitude;
}

const TimelineClip *TimelineRange::peakClip(TimelineSeries series) const
{
    const TimelineClip *best = nullptr;
    for (const TimelineClip &c : clips)
        if (c.series == series && (!best || c.peak > best->peak))
            best = &c;
    return best;
}

TimelineRange fitTimelineRange(const std::array<QList<QPointF>, 4> &lines, double floor)
{
    const auto line = [&lines](TimelineSeries s) -> const QList<QPointF> & { return lines[size_t(s)]; };
    double core = highest(line(TimelineSeries::Sent), std::max(floor, 0.0));
    core = highest(line(TimelineSeries::WhatIf), core);
    const double coreTop = core > 0 ? core * kHeadroom : 1.0;
    const double others = highest(line(TimelineSeries::Reported), highest(line(TimelineSeries::History), 0.0));
    const double wanted = std::max(coreTop, others * kOtherHeadroom);
    const double raw = std::min(wanted, kMostStretch * coreTop);

    TimelineRange range;
    range.tick = timelineNiceStep(raw / kTicks);
    // The top at a half step: 110 % over ticks of 20, not 120 %.
    const double half = range.tick / 2;
    range.top = std::ceil(raw / half - 1e-9) * half;

    for (size_t s = 0; s < lines.size(); ++s) {
        const QList<QPointF> &points = lines[s];
        TimelineClip clip;
        bool open = false;
        for (const QPointF &p : points) {
            const bool above = p.y() > range.top; // NaN is not above
            if (above && !open) {
                clip = TimelineClip{TimelineSeries(s), int(p.x()), int(p.x()), int(p.x()), p.y()};
                open = true;
            } else if (above) {
                clip.lastRow = int(p.x());
                if (p.y() > clip.peak) {
                    clip.peak = p.y();
                    clip.peakRow = int(p.x());
                }
            } else if (open) {
                range.clips.append(clip);
                open = false;
            }
        }
        if (open)
            range.clips.append(clip);
    }
    return range;
}

} // namespace wl
