#include "TimelinePlotLayer.h"

#include <QChart>
#include <QPaintEngine>
#include <QPainter>
#include <QValueAxis>

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

} // namespace wl
