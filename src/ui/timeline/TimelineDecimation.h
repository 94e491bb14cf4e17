#pragma once

#include <QList>
#include <QPointF>

namespace wl {

// Reduces a series sorted by x to at most 2 * buckets points, keeping each
// bucket's minimum and maximum (in x order) so peaks survive; first and last
// points are always kept. Inputs that already fit are returned unchanged.
QList<QPointF> decimateMinMax(const QList<QPointF> &points, int buckets);

} // namespace wl
