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
// series, hears when the plot area or an axis range moves, and turns the mouse over what it drew
// (hitAt()) into the clicked and hovered signals of a QXYSeries. Data x values are requests.
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

    // What is under `pos` (layer coordinates): one of the layer's items (a marker group, a line)
    // and the data point there, or item -1.
    struct Hit
    {
        int item = -1;
        QPointF point;
    };
    virtual Hit hitAt(const QPointF &pos) const = 0;
    // The item the mouse is over (as last signalled by hovered()), or -1.
    int hoveredItem() const { return m_hovered.item; }

    // The scene finds the item under the mouse with these: both answer with hitAt() rather than
    // intersecting a shape of hundreds of overlapping circles or a stroked sawtooth.
    bool contains(const QPointF &point) const override;
    bool collidesWithPath(const QPainterPath &path, Qt::ItemSelectionMode mode = Qt::IntersectsItemShape) const override;

Q_SIGNALS:
    // Mirror QXYSeries::clicked / hovered, with the data point under the mouse.
    void clicked(const QPointF &point);
    void hovered(const QPointF &point, bool state);

protected:
    // How far beyond a drawn edge (a marker's, a line's) the mouse still hits it, in pixels.
    static constexpr qreal kHitSlop = 3.0;

    const QRectF &plotArea() const { return m_plotArea; }
    QValueAxis *axisX() const { return m_axisX; }
    QValueAxis *axisY() const { return m_axisY; }
    // Positions computed from data points are stale: the plot area, an axis range or its ticks
    // moved, or the data changed. The default schedules a repaint.
    virtual void invalidateLayout();
    // Whether `painter` draws pixels 1:1 on a raster image (the window, a PNG export): cached
    // bitmaps are exact there. Anything else (SVG, printing, a scaled view) needs vector drawing.
    static bool isPlainRaster(const QPainter *painter);

    void hoverEnterEvent(QGraphicsSceneHoverEvent *event) override;
    void hoverMoveEvent(QGraphicsSceneHoverEvent *event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent *event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;

private:
    void onPlotAreaChanged();
    void setHovered(const Hit &hit);

    QChart *m_chart;
    QValueAxis *m_axisX;
    QValueAxis *m_axisY;
    QRectF m_plotArea;
    Hit m_hovered;
    Hit m_pressed;
};

} // namespace wl
