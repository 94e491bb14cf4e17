#pragma once

#include "TimelineScale.h"
#include "compaction/Tier.h"

#include <QCoreApplication>
#include <QString>

namespace wl {

struct TimelineClip;
class TimelineModel;

// What the timeline says about whatever is under the mouse: a point of a line, a compaction
// marker, the source agent's compaction, a line clipped at the top, a threshold. Each names the
// request, its tokens (and share of the window the chart measures against), the tier and what
// changed. Also the sentences around the chart: the axis title, the window, what is clipped.
class TimelineToolTip
{
    Q_DECLARE_TR_FUNCTIONS(TimelineToolTip)
public:
    static QString seriesName(TimelineSeries series);

    // A point of a line at `row`: its tokens and share of the window, the other lines there, the
    // compaction before the request and what changed since the request before.
    static QString point(const TimelineModel &model, int row, TimelineSeries series);
    // The composition view at `row`: what filled the request's window, by category, with the part
    // under the mouse first (`part` < 0: none), the tier and whether it is the what-if's.
    static QString composition(const TimelineModel &model, int row, int part);
    // The compaction (recorded, or the what-if's) that ran before the request at `row`.
    static QString compaction(const TimelineModel &model, int row, bool whatIf);
    // The compaction the source agent made itself before the request at `row` (imports).
    static QString sourceCompaction(const TimelineModel &model, int row);
    // A stretch of a line above the chart's top (`top` and the clip's values in axis units on `scale`).
    static QString clip(const TimelineModel &model, const TimelineClip &clip, double top, TimelineScale scale);
    // One line for the chart: every clipped line's highest point and how far above the top it is.
    static QString clipNote(const TimelineModel &model, const QList<TimelineClip> &clips, double top, TimelineScale scale);

    static QString threshold(const TimelineModel &model, Tier tier);
    // The vertical axis' title on `chosen` (short: a docked chart is low) and the sentence saying
    // which window the lines are measured against, or that there is none.
    static QString axisTitle(const TimelineModel &model, TimelineScale chosen);
    static QString windowNote(const TimelineModel &model, TimelineScale chosen);

    // A value in axis units as text: "41.5%" or "53,100 tokens".
    static QString axisAmount(double value, TimelineScale scale);
};

} // namespace wl
