#pragma once

#include "TimelineRange.h"
#include "TimelineScale.h"
#include "compaction/ViewComposition.h"

#include <QList>
#include <QPointF>

#include <array>
#include <limits>

namespace wl {

class TimelineModel;
class TimelineViewport;

// What the chart draws of a model for the requests in view, on one scale, in data coordinates
// (request, percent or thousands of tokens): the lines at full resolution, the markers, the
// threshold levels and the vertical axis fitted to what is in view.
struct TimelineFrame
{
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

    std::array<QList<QPointF>, 4> lines;           // by TimelineSeries: the visible rows and those at the edges
    std::array<QList<QPointF>, 4> markers;         // the recorded compactions, Warn..Emergency, on the sent line
    std::array<QList<QPointF>, 4> whatIfMarkers;   // the what-if's, on its line
    QList<QPointF> sourceMarkers;                  // the source agent's own, on the full history
    QList<QPointF> lostMarkers;                    // what-if requests whose view had lost a fact they used
    std::array<double, 4> thresholds{kNone, kNone, kNone, kNone}; // Warn..Emergency; NaN where there is no window
    // Composition view only: per part, the top of its band in the stack at each row shown (the
    // band lies between the previous part's top and this one).
    std::array<QList<QPointF>, ViewComposition::kPartCount> stack;
    TimelineRange range;
};

// `scale` as the model can draw it (TimelineModel::effectiveScale()). `composition`: the stacked
// composition of each request is drawn instead of the lines, and the axis fits the stack.
TimelineFrame buildTimelineFrame(const TimelineModel &model, TimelineScale scale, const TimelineViewport &view,
                                 bool composition = false);

} // namespace wl
