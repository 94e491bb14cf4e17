#pragma once

#include "TimelinePlotLayer.h"

#include <QBrush>
#include <QList>
#include <QPainterPath>
#include <QPen>
#include <QPixmap>
#include <QPointF>

#include <vector>

namespace wl {

// Every marker of the timeline (compactions per tier, recorded and what-if, and the source
// agent's own compactions) drawn by one graphics item over the chart's plot area.
//
// Qt Charts' QScatterSeries keeps one QGraphicsEllipseItem per point and re-strokes each one
// on every replace(); a slider step moves hundreds of what-if markers. Here a group of markers
// is a list of data points plus one style: painting blits one pre-rendered stamp per point
// (vector shapes when the painter is not a raster one, e.g. the SVG export), and hit testing
// looks for the nearest marker itself. Positions follow the plot area and the axis ranges.
class TimelineMarkerLayer : public TimelinePlotLayer
{
    Q_OBJECT
public:
    enum class Shape { Circle, Triangle };
    struct Style
    {
        Shape shape = Shape::Circle;
        qreal size = 10;        // of the shape, like QScatterSeries::markerSize; the pen strokes its edge
        QPen pen;
        QBrush brush;
        friend bool operator==(const Style &, const Style &) = default;
    };

    using TimelinePlotLayer::TimelinePlotLayer;
    ~TimelineMarkerLayer() override;

    // Groups paint in the order they were added (a later group over an earlier one).
    int addGroup(const Style &style);
    int groupCount() const { return int(m_groups.size()); }
    void setStyle(int group, const Style &style);
    const Style &style(int group) const { return m_groups.at(size_t(group)).style; }

    // In data coordinates. Repaints only when the list differs; returns whether it did.
    bool setPoints(int group, const QList<QPointF> &points);
    const QList<QPointF> &points(int group) const { return m_groups.at(size_t(group)).points; }
    // How many setPoints() calls changed something (tests: unchanged data must not repaint).
    int pointsRevision() const { return m_revision; }

    // The marker nearest to `pos` within its radius plus a few pixels: its group and data point.
    Hit hitAt(const QPointF &pos) const override;

    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

protected:
    void invalidateLayout() override;

private:
    struct Group
    {
        Style style;
        QList<QPointF> points;      // data coordinates
        QList<QPointF> positions;   // layer coordinates, valid while !m_layoutDirty
        QPixmap stamp;              // the style rendered once, at m_stampRatio
    };

    void ensureLayout() const;
    QPixmap renderStamp(const Style &style, qreal ratio) const;
    static void drawShape(QPainter *painter, const Style &style, const QPointF &center);

    mutable std::vector<Group> m_groups;
    mutable bool m_layoutDirty = true;
    mutable QPainterPath m_shape;
    mutable bool m_shapeDirty = true;
    mutable qreal m_stampRatio = 0;
    int m_revision = 0;
};

} // namespace wl
