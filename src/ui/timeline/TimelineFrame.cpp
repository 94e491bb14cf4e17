#include "TimelineFrame.h"

#include "TimelineModel.h"
#include "TimelineViewport.h"

#include <algorithm>
#include <cmath>

namespace wl {

namespace {
constexpr std::array<TimelineSeries, 4> kSeries{TimelineSeries::History, TimelineSeries::Sent,
                                                TimelineSeries::Reported, TimelineSeries::WhatIf};
} // namespace

TimelineFrame buildTimelineFrame(const TimelineModel &model, TimelineScale scale, const TimelineViewport &view,
                                 bool composition)
{
    TimelineFrame frame;
    const double unit = scale == TimelineScale::Tokens ? kTimelineTokensPerUnit : 1.0;
    const int rows = model.rowCount();
    // The visible rows and the ones just beyond each edge, so that the lines run on to the edges.
    const int first = std::max(0, int(std::floor(view.min())));
    const int last = std::min(rows - 1, int(std::ceil(view.max())));
    for (QList<QPointF> &line : frame.lines)
        line.reserve(std::max(0, last - first + 1));
    const QList<TimelineRow> &recorded = model.recorded();
    const QList<WhatIfRow> &whatIf = model.whatIf();
    for (int i = first; i <= last; ++i) {
        const double x = i;
        std::array<double, 4> y{};
        for (TimelineSeries s : kSeries) {
            y[size_t(s)] = model.value(s, i, scale) / unit;
            if (!std::isnan(y[size_t(s)]))
                frame.lines[size_t(s)].append({x, y[size_t(s)]});
        }
        const TimelineRow &r = recorded.at(i);
        if (r.tier != Tier::None)
            frame.markers[size_t(int(r.tier) - 1)].append({x, y[size_t(TimelineSeries::Sent)]});
        if (!r.sourceCompaction.isEmpty())
            frame.sourceMarkers.append({x, y[size_t(TimelineSeries::History)]});
        if (i < whatIf.size() && whatIf.at(i).tier != Tier::None)
            frame.whatIfMarkers[size_t(int(whatIf.at(i).tier) - 1)].append({x, y[size_t(TimelineSeries::WhatIf)]});
        if (i < whatIf.size() && whatIf.at(i).lostFacts > 0)
            frame.lostMarkers.append({x, y[size_t(TimelineSeries::WhatIf)]});
        if (composition) {
            for (size_t p = 0; p < ViewComposition::kParts.size(); ++p) {
                const double top = model.compositionTop(i, ViewComposition::kParts[p], scale) / unit;
                if (!std::isnan(top))
                    frame.stack[p].append({x, top});
            }
        }
    }

    // The vertical axis holds the whole window, the thresholds and what is sent.
    const TimelineThresholds &th = model.thresholds();
    const std::array<double, 4> levels{th.warn, th.soft, th.full, th.emergency};
    double floor = model.thresholdValue(1.0, scale) / unit;
    for (size_t t = 0; t < levels.size(); ++t) {
        frame.thresholds[t] = model.thresholdValue(levels[t], scale) / unit;
        if (!std::isnan(frame.thresholds[t]))
            floor = std::isnan(floor) ? frame.thresholds[t] : std::max(floor, frame.thresholds[t]);
    }
    if (std::isnan(floor))
        floor = 0;
    if (composition) {
        // The stack is what is drawn: its top always fits (as the sent line does).
        std::array<QList<QPointF>, 4> shown;
        QList<QPointF> &tops = shown[size_t(TimelineSeries::Sent)];
        for (const QPointF &p : std::as_const(frame.stack.back()))
            if (!view.isZoomed() || (p.x() >= view.min() && p.x() <= view.max()))
                tops.append(p);
        frame.range = fitTimelineRange(shown, floor);
        return frame;
    }
    if (view.isZoomed()) {
        // Only what is inside the view decides the axis and what is clipped.
        std::array<QList<QPointF>, 4> visible;
        for (size_t s = 0; s < frame.lines.size(); ++s)
            for (const QPointF &p : std::as_const(frame.lines[s]))
                if (p.x() >= view.min() && p.x() <= view.max())
                    visible[s].append(p);
        frame.range = fitTimelineRange(visible, floor);
    } else {
        frame.range = fitTimelineRange(frame.lines, floor);
    }
    return frame;
}

} // namespace wl
