#include "TimelinePlotLayer.h"

#include <QChart>
#include <QGraphicsSceneHoverEvent>
#include <QGraphicsSceneMouseEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QValueAxis>

#include <cmath>

namespace wl {

namespace {
// Qt Charts stacks its series' items at z 4 (siblings of this one, children of the chart) and
// the legend at 5. At the same z, items stack in the order they were made.
constexpr qreal kZValue = 4;
} // namespace

TimelinePlotLayer::TimelinePlotLayer(QChart *chart, QValueAxis *axisX, QValueAxis *axisY)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_axisX(axisX)
    , m_axisY(axisY)
    , m_plotArea(chart->plotArea())
{
    setZValue(kZValue);
    setAcceptHoverEvents(true);
    setAcceptedMouseButtons(Qt::LeftButton);
    connect(chart, &QChart::plotAreaChanged, this, &TimelinePlotLayer::onPlotAreaChanged);
    connect(axisX, &QValueAxis::rangeChanged, this, &TimelinePlotLayer::invalidateLayout);
    connect(axisY, &QValueAxis::rangeChanged, this, &TimelinePlotLayer::invalidateLayout);
    for (QValueAxis *axis : {axisX, axisY}) {
        connect(axis, &QValueAxis::tickIntervalChanged, this, &TimelinePlotLayer::invalidateLayout);
        connect(axis, &QValueAxis::tickAnchorChanged, this, &TimelinePlotLayer::invalidateLayout);
        connect(axis, &QValueAxis::tickCountChanged, this, &TimelinePlotLayer::invalidateLayout);
    }
}

TimelinePlotLayer::~TimelinePlotLayer() = default;

QPointF TimelinePlotLayer::mapToLayer(const QPointF &dataPoint) const
{
    const qreal spanX = m_axisX->max() - m_axisX->min();
    const qreal spanY = m_axisY->max() - m_axisY->min();
    const qreal fx = spanX > 0 ? (dataPoint.x() - m_axisX->min()) / spanX : 0;
    const qreal fy = spanY > 0 ? (dataPoint.y() - m_axisY->min()) / spanY : 0;
    return {m_plotArea.left() + fx * m_plotArea.width(), m_plotArea.bottom() - fy * m_plotArea.height()};
}

QPointF TimelinePlotLayer::mapFromLayer(const QPointF &layerPoint) const
{
    const qreal fx = m_plotArea.width() > 0 ? (layerPoint.x() - m_plotArea.left()) / m_plotArea.width() : 0;
    const qreal fy = m_plotArea.height() > 0 ? (m_plotArea.bottom() - layerPoint.y()) / m_plotArea.height() : 0;
    return {m_axisX->min() + fx * (m_axisX->max() - m_axisX->min()), m_axisY->min() + fy * (m_axisY->max() - m_axisY->min())};
}

void TimelinePlotLayer::onPlotAreaChanged()
{
    prepareGeometryChange();
    m_plotArea = m_chart->plotArea();
    invalidateLayout();
}

void TimelinePlotLayer::invalidateLayout()
{
    update();
}

bool TimelinePlotLayer::isPlainRaster(const QPainter *painter)
{
    const QPaintEngine *engine = painter->paintEngine();
    return engine && engine->type() == QPaintEngine::Raster && painter->worldTransform().type() <= QTransform::TxTranslate;
}

bool TimelinePlotLayer::contains(const QPointF &point) const
{
    return hitAt(point).item >= 0;
}

bool TimelinePlotLayer::collidesWithPath(const QPainterPath &path, Qt::ItemSelectionMode mode) const
{
    // Mouse lookups arrive as a one-pixel rectangle at the cursor.
    const QRectF r = path.controlPointRect();
    if (r.width() <= 1 && r.height() <= 1)
        return hitAt(r.topLeft()).item >= 0;
    return QGraphicsObject::collidesWithPath(path, mode);
}

namespace {
// Two hits name the same thing to hover over when they are on the same item and request.
bool sameTarget(const TimelinePlotLayer::Hit &a, const TimelinePlotLayer::Hit &b)
{
    return a.item == b.item && (a.item < 0 || std::lround(a.point.x()) == std::lround(b.point.x()));
}
} // namespace

void TimelinePlotLayer::setHovered(const Hit &hit)
{
    if (sameTarget(hit, m_hovered))
        return;
    const Hit previous = m_hovered;
    m_hovered = hit;
    if (previous.item >= 0)
        Q_EMIT hovered(previous.point, false);
    if (hit.item >= 0)
        Q_EMIT hovered(hit.point, true);
}

// The base class implementations would repaint the whole layer on every enter and leave.
void TimelinePlotLayer::hoverEnterEvent(QGraphicsSceneHoverEvent *event)
{
    setHovered(hitAt(event->pos()));
}

void TimelinePlotLayer::hoverMoveEvent(QGraphicsSceneHoverEvent *event)
{
    setHovered(hitAt(event->pos()));
}

void TimelinePlotLayer::hoverLeaveEvent(QGraphicsSceneHoverEvent *)
{
    setHovered(Hit());
}

void TimelinePlotLayer::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    m_pressed = hitAt(event->pos());
    if (m_pressed.item < 0) {
        event->ignore(); // let the items underneath have it
        return;
    }
    event->accept();
}

void TimelinePlotLayer::mouseReleaseEvent(QGraphicsSceneMouseEvent *event)
{
    // A click is a press and a release on the same thing, as for a QXYSeries.
    const Hit pressed = m_pressed;
    m_pressed = Hit();
    if (pressed.item >= 0 && sameTarget(hitAt(event->pos()), pressed))
        Q_EMIT clicked(pressed.point);
}

} // namespace wl
