#include "TimelineMarkerLayer.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

namespace wl {

namespace {

qreal penExtent(const QPen &pen)
{
    if (pen.style() == Qt::NoPen)
        return 0;
    return std::max<qreal>(pen.widthF(), 1.0);
}

// Half the width of the square that holds a marker with its pen and antialiasing.
qreal stampHalfExtent(const TimelineMarkerLayer::Style &style)
{
    return std::ceil(style.size / 2 + penExtent(style.pen) + 1);
}
} // namespace

TimelineMarkerLayer::~TimelineMarkerLayer() = default;

int TimelineMarkerLayer::addGroup(const Style &style)
{
    Group group;
    group.style = style;
    m_groups.push_back(std::move(group));
    return int(m_groups.size()) - 1;
}

void TimelineMarkerLayer::setStyle(int group, const Style &style)
{
    Group &g = m_groups.at(size_t(group));
    if (g.style == style)
        return;
    g.style = style;
    g.stamp = QPixmap();
    m_shapeDirty = true; // the hit radius follows the size
    update();
}

bool TimelineMarkerLayer::setPoints(int group, const QList<QPointF> &points)
{
    Group &g = m_groups.at(size_t(group));
    if (g.points == points)
        return false;
    g.points = points;
    ++m_revision;
    invalidateLayout();
    return true;
}

void TimelineMarkerLayer::invalidateLayout()
{
    m_layoutDirty = true;
    m_shapeDirty = true;
    TimelinePlotLayer::invalidateLayout();
}

void TimelineMarkerLayer::ensureLayout() const
{
    if (!m_layoutDirty)
        return;
    for (Group &g : m_groups) {
        g.positions.resize(g.points.size());
        for (qsizetype i = 0; i < g.points.size(); ++i)
            g.positions[i] = mapToLayer(g.points.at(i));
    }
    m_layoutDirty = false;
}

TimelinePlotLayer::Hit TimelineMarkerLayer::hitAt(const QPointF &pos) const
{
    Hit hit;
    if (!plotArea().contains(pos))
        return hit; // markers are clipped to the plot area, and so is clicking them
    ensureLayout();
    qreal best = std::numeric_limits<qreal>::max();
    // Later groups paint on top: on a tie they win.
    for (int gi = int(m_groups.size()) - 1; gi >= 0; --gi) {
        const Group &g = m_groups[size_t(gi)];
        const qreal reach = g.style.size / 2 + kHitSlop;
        for (qsizetype i = 0; i < g.positions.size(); ++i) {
            const QPointF d = g.positions.at(i) - pos;
            if (std::abs(d.x()) > reach || std::abs(d.y()) > reach)
                continue;
            const qreal dist = std::hypot(d.x(), d.y());
            if (dist <= reach && dist < best) {
                best = dist;
                hit.item = gi;
                hit.point = g.points.at(i);
            }
        }
    }
    return hit;
}

QPainterPath TimelineMarkerLayer::shape() const
{
    if (m_shapeDirty) {
        ensureLayout();
        m_shape = QPainterPath();
        m_shape.setFillRule(Qt::WindingFill); // overlapping markers must not cancel out
        for (const Group &g : m_groups) {
            const qreal reach = g.style.size / 2 + kHitSlop;
            for (const QPointF &p : g.positions)
                if (plotArea().contains(p))
                    m_shape.addEllipse(p, reach, reach);
        }
        m_shapeDirty = false;
    }
    return m_shape;
}

void TimelineMarkerLayer::drawShape(QPainter *painter, const Style &style, const QPointF &center)
{
    const qreal h = style.size / 2;
    switch (style.shape) {
    case Shape::Circle:
        painter->drawEllipse(center, h, h);
        break;
    case Shape::Triangle: {
        const QPointF corners[3] = {{center.x() - h, center.y() + h}, {center.x() + h, center.y() + h}, {center.x(), center.y() - h}};
        painter->drawPolygon(corners, 3);
        break;
    }
    }
}

QPixmap TimelineMarkerLayer::renderStamp(const Style &style, qreal ratio) const
{
    const qreal half = stampHalfExtent(style);
    const int side = int(std::ceil(2 * half * ratio));
    QPixmap stamp(side, side);
    stamp.setDevicePixelRatio(ratio);
    stamp.fill(Qt::transparent);
    QPainter painter(&stamp);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(style.pen);
    painter.setBrush(style.brush);
    drawShape(&painter, style, QPointF(half, half));
    return stamp;
}

void TimelineMarkerLayer::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    ensureLayout();
    painter->save();
    painter->setClipRect(plotArea(), Qt::IntersectClip);
    // A raster target at scale 1 gets one stamp per marker; anything else (SVG export,
    // printing, a scaled view) gets the shapes themselves.
    if (isPlainRaster(painter)) {
        const qreal ratio = painter->device()->devicePixelRatio();
        if (ratio != m_stampRatio) {
            for (Group &g : m_groups)
                g.stamp = QPixmap();
            m_stampRatio = ratio;
        }
        for (Group &g : m_groups) {
            if (g.positions.isEmpty())
                continue;
            if (g.stamp.isNull())
                g.stamp = renderStamp(g.style, ratio);
            const qreal half = stampHalfExtent(g.style);
            const QRectF visible = plotArea().adjusted(-half, -half, half, half);
            for (const QPointF &p : std::as_const(g.positions)) {
                if (!visible.contains(p))
                    continue;
                // Whole logical pixels: the stamp keeps its own antialiasing instead of being resampled.
                painter->drawPixmap(QPointF(std::round(p.x() - half), std::round(p.y() - half)), g.stamp);
            }
        }
    } else {
        painter->setRenderHint(QPainter::Antialiasing);
        for (const Group &g : std::as_const(m_groups)) {
            painter->setPen(g.style.pen);
            painter->setBrush(g.style.brush);
            const qreal half = stampHalfExtent(g.style);
            const QRectF visible = plotArea().adjusted(-half, -half, half, half);
            for (const QPointF &p : g.positions)
                if (visible.contains(p))
                    drawShape(painter, g.style, p);
        }
    }
    painter->restore();
}

} // namespace wl
