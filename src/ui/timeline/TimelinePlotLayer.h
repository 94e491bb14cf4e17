#pragma once

#include <QGraphicsObject>
#include <QRectF>

QT_BEGIN_NAMESPACE
class QChart;
class QValueAxis;
QT_END_NAMESPACE

namespace wl {

// A graphics item over a chart's plot area that draws data itself instead of through Qt Charts'
// series items. It maps data points through the two (linear) axes exactly as Qt Charts places its
// series, and hears when the plot area or an axis range moves.
class TimelinePlotLayer : public QGraphicsObject
{
    Q_OBJECT
public:
    // Becomes a child item of `chart`, at the series' z value: it paints over the series added
    // before it and under those added after it.
    TimelinePlotLayer(QChart *chart, QValueAxis *axisX, QValueAxis *axisY);
    ~TimelinePlotLayer() override;

    // Data point -> this item's (= the chart's) coordinates, and back.
    QPointF mapToLayer(const QPointF &dataPoint) const;
    QPointF mapFromLayer(const QPointF &layerPoint) const;

    QRectF boundingRect() const override { return m_plotArea; }

protected:
    const QRectF &plotArea() const { return m_plotArea; }
    QValueAxis *axisX() const { return m_axisX; }
    QValueAxis *axisY() const { return m_axisY; }
    // Positions computed from data points are stale: the plot area, an axis range or its ticks
    // moved, or the data changed. The default schedules a repaint.
    virtual void invalidateLayout();
    // Whether `painter` draws pixels 1:1 on a raster image (the window, a PNG export): cached
    // bitmaps are exact there. Anything else (SVG, printing, a scaled view) needs vector drawing.
    static bool isPlainRaster(const QPainter *painter);

private:
    void onPlotAreaChanged();

    QChart *m_chart;
    QValueAxis *m_axisX;
    QValueAxis *m_axisY;
    QRectF m_plotArea;
};

} // namespace wl
