#include "TimelineDecimation.h"

#include <algorithm>

namespace wl {

QList<QPointF> decimateMinMax(const QList<QPointF> &points, int buckets)
{
    const qsizetype n = points.size();
    if (buckets < 1 || n <= 2 * qsizetype(buckets))
        return points;

    QList<QPointF> out;
    out.reserve(2 * buckets + 2);
    out.append(points.constFirst());
    const double x0 = points.constFirst().x();
    const double span = points.constLast().x() - x0;
    qsizetype i = 1;
    const qsizetype last = n - 1;
    for (int b = 0; b < buckets && i < last; ++b) {
        const double end = span > 0 ? x0 + span * double(b + 1) / buckets : points.at(last).x();
        qsizetype lo = -1, hi = -1;
        for (; i < last && (points.at(i).x() <= end || b == buckets - 1); ++i) {
            if (lo < 0 || points.at(i).y() < points.at(lo).y())
                lo = i;
            if (hi < 0 || points.at(i).y() > points.at(hi).y())
                hi = i;
        }
        if (lo < 0)
            continue;
        if (lo == hi) {
            out.append(points.at(lo));
        } else {
            out.append(points.at(std::min(lo, hi)));
            out.append(points.at(std::max(lo, hi)));
        }
    }
    out.append(points.constLast());
    return out;
}

} // namespace wl
