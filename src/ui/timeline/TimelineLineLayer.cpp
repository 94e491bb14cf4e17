#include "TimelineLineLayer.h"

#include <QPainter>
#include <QPainterPath>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace wl {

namespace {
// More grid lines than this means the axis is in a passing state (a new range with the old interval).
constexpr int kMaxGridLines = 200;

qreal distanceToSegment(const QPointF &p, const QPointF &a, const QPointF &b)
{
    const QPointF ab = b - a;
    const qreal length2 = QPointF::dotProduct(ab, ab);
    const qreal t = length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}
} // namespace

TimelineLineLayer::~TimelineLineLayer() = default;

int TimelineLineLayer::addLine(Kind kind, const QPen &pen)
{
    Line line;
    line.kind = kind;
    line.pen = pen;
    m_lines.push_back(std::move(line));
    if (kind == Kind::Cached)
        m_cacheDirty = true;
    return int(m_lines.size()) - 1;
}

int TimelineLineLayer::addSegments(Kind kind, const QPen &pen)
{
    const int line = addLine(kind, pen);
    m_lines.at(size_t(line)).segments = true;
    return line;
}

void TimelineLineLayer::setPen(int line, const QPen &pen)
{
    Line &l = m_lines.at(size_t(line));
    if (l.pen == pen)
        return;
    l.pen = pen;
    if (l.kind == Kind::Cached)
        m_cacheDirty = true;
    update();
}

void TimelineLineLayer::setGridPen(const QPen &pen)
{
    if (m_gridPen == pen)
        return;
    m_gridPen = pen;
    m_cacheDirty = true;
    update();
}

QList<qreal> TimelineLineLayer::gridValues(Qt::Orientation orientation) const
{
    const QValueAxis *axis = orientation == Qt::Horizontal ? axisX() : axisY();
    const qreal min = axis->min();
    const qreal max = axis->max();
    QList<qreal> values;
    if (!(max > min))
        return values;
    if (axis->tickType() == QValueAxis::TicksDynamic) {
        const qreal interval = axis->tickInterval();
        if (!(interval > 0) || (max - min) / interval > kMaxGridLines)
            return values;
        // The first tick at or after min, on the anchor's grid; a hair of slack for rounding.
        const qreal slack = interval * 1e-9;
        const qreal first = axis->tickAnchor() + std::ceil((min - axis->tickAnchor() - slack) / interval) * interval;
        for (int k = 0; first + k * interval <= max + slack; ++k)
            values.append(first + k * interval);
    } else {
        const int count = std::min(axis->tickCount(), kMaxGridLines);
        for (int k = 0; k < count && count > 1; ++k)
            values.append(min + k * (max - min) / (count - 1));
    }
    return values;
}

void TimelineLineLayer::drawGrid(QPainter *painter) const
{
    if (m_gridPen.style() == Qt::NoPen)
        return;
    QList<QLineF> lines;
    const qreal minX = axisX()->min(), maxX = axisX()->max();
    const qreal minY = axisY()->min(), maxY = axisY()->max();
    // Thin grid lines sit on pixel centres, crisp rather than smeared over two pixels.
    const bool snap = m_gridPen.widthF() <= 1.0 || m_gridPen.isCosmetic();
    const auto place = [snap](qreal v) { return snap ? std::floor(v) + 0.5 : v; };
    for (qreal x : gridValues(Qt::Horizontal)) {
        const qreal at = place(mapToLayer({x, minY}).x());
        lines.append(QLineF(at, mapToLayer({x, minY}).y(), at, mapToLayer({x, maxY}).y()));
    }
    for (qreal y : gridValues(Qt::Vertical)) {
        const qreal at = place(mapToLayer({minX, y}).y());
        lines.append(QLineF(mapToLayer({minX, y}).x(), at, mapToLayer({maxX, y}).x(), at));
    }
    painter->setPen(m_gridPen);
    painter->drawLines(lines.constData(), int(lines.size()));
}

bool TimelineLineLayer::setPoints(int line, const QList<QPointF> &points)
{
    Line &l = m_lines.at(size_t(line));
    if (l.points == points)
        return false;
    l.points = points;
    l.dirty = true;
    if (l.kind == Kind::Cached)
        m_cacheDirty = true;
    update();
    return true;
}

void TimelineLineLayer::invalidateLayout()
{
    for (Line &l : m_lines)
        l.dirty = true;
    m_cacheDirty = true;
    TimelinePlotLayer::invalidateLayout();
}

void TimelineLineLayer::ensureLayout() const
{
    for (Line &l : m_lines) {
        if (!l.dirty)
            continue;
        l.positions.resize(l.points.size());
        for (qsizetype i = 0; i < l.points.size(); ++i)
            l.positions[i] = mapToLayer(l.points.at(i));
        l.dirty = false;
    }
}

TimelinePlotLayer::Hit TimelineLineLayer::hitAt(const QPointF &pos) const
{
    Hit hit;
    if (!plotArea().contains(pos))
        return hit;
    ensureLayout();
    qreal best = std::numeric_limits<qreal>::max();
    // Live lines paint over cached ones: look at them first, and keep the first on a tie.
    for (Kind kind : {Kind::Live, Kind::Cached}) {
        for (int li = int(m_lines.size()) - 1; li >= 0; --li) {
            const Line &l = m_lines[size_t(li)];
            if (l.kind != kind || l.positions.isEmpty() || l.pen.style() == Qt::NoPen)
                continue;
            const qreal reach = l.pen.widthF() / 2 + kHitSlop;
            const QList<QPointF> &p = l.positions;
            if (l.segments) {
                for (qsizetype i = 0; i + 1 < p.size(); i += 2) {
                    const qreal d = distanceToSegment(pos, p[i], p[i + 1]);
                    if (d <= reach && d < best) {
                        best = d;
                        hit.item = li;
                    }
                }
                continue;
            }
            // Positions run left to right: start at the last one left of the reach.
            auto first = std::lower_bound(p.cbegin(), p.cend(), pos.x() - reach,
                                          [](const QPointF &a, qreal x) { return a.x() < x; });
            qsizetype i = std::max<qsizetype>(0, qsizetype(first - p.cbegin()) - 1);
            if (p.size() == 1) {
                const qreal d = std::hypot(p[0].x() - pos.x(), p[0].y() - pos.y());
                if (d <= reach && d < best) {
                    best = d;
                    hit.item = li;
                }
                continue;
            }
            for (; i + 1 < p.size() && p[i].x() <= pos.x() + reach; ++i) {
                const qreal d = distanceToSegment(pos, p[i], p[i + 1]);
                if (d <= reach && d < best) {
                    best = d;
                    hit.item = li;
                }
            }
        }
    }
    if (hit.item >= 0)
        hit.point = mapFromLayer(pos);
    return hit;
}

QPainterPath TimelineLineLayer::shape() const
{
    // Only for callers that intersect shapes with areas (rubber bands); the mouse goes through
    // contains() and collidesWithPath().
    QPainterPath path;
    path.addRect(plotArea());
    return path;
}

void TimelineLineLayer::drawLine(QPainter *painter, const Line &line, bool raster)
{
    if (line.positions.isEmpty() || line.pen.style() == Qt::NoPen)
        return;
    painter->setPen(line.pen);
    painter->setBrush(Qt::NoBrush);
    const QList<QPointF> &p = line.positions;
    if (line.segments) {
        painter->drawLines(p.constData(), int(p.size() / 2));
        return;
    }
    // A raster painter strokes a pen wider than a pixel into a polygon and fills it. As one path,
    // a 2,000-request sawtooth makes a polygon of thousands of crossing edges: about 800M
    // instructions to fill. Stroked one segment at a time (as Qt Charts does) it is about 29M.
    // Thin pens, dashes included, take the cosmetic fast path either way, as one polyline.
    if (raster && line.pen.widthF() > 1.0 && line.pen.style() == Qt::SolidLine && p.size() > 1) {
        QList<QLineF> segments;
        segments.reserve(p.size() - 1);
        for (qsizetype i = 0; i + 1 < p.size(); ++i)
            segments.append(QLineF(p[i], p[i + 1]));
        painter->drawLines(segments.constData(), int(segments.size()));
        return;
    }
    painter->drawPolyline(p.constData(), int(p.size()));
}

void TimelineLineLayer::renderCache(qreal ratio)
{
    m_cacheRect = plotArea().toAlignedRect();
    const QSize pixels = (QSizeF(m_cacheRect.size()) * ratio).toSize();
    if (m_cache.size() != pixels)
        m_cache = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
    m_cache.setDevicePixelRatio(ratio);
    m_cache.fill(Qt::transparent);
    QPainter painter(&m_cache);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.translate(-m_cacheRect.topLeft());
    painter.setClipRect(plotArea());
    drawGrid(&painter);
    for (const Line &l : std::as_const(m_lines))
        if (l.kind == Kind::Cached)
            drawLine(&painter, l, true);
    m_cacheDirty = false;
    ++m_cacheRenders;
}

void TimelineLineLayer::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    ensureLayout();
    painter->save();
    painter->setClipRect(plotArea(), Qt::IntersectClip);
    painter->setRenderHint(QPainter::Antialiasing);
    const bool cached = isPlainRaster(painter);
    if (cached) {
        const qreal ratio = painter->device()->devicePixelRatio();
        if (m_cacheDirty || m_cache.isNull() || m_cache.devicePixelRatio() != ratio)
            renderCache(ratio);
        painter->drawImage(QPointF(m_cacheRect.topLeft()), m_cache);
    } else {
        drawGrid(painter);
    }
    for (const Line &l : std::as_const(m_lines))
        if (!cached || l.kind == Kind::Live)
            drawLine(painter, l, cached);
    painter->restore();
}

} // namespace wl
