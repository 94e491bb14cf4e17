#pragma once

#include "TimelinePlotLayer.h"

#include <QImage>
#include <QList>
#include <QPen>
#include <QPointF>

#include <vector>

namespace wl {

// The timeline's data lines, drawn by one graphics item over the plot area.
//
// Qt Charts strokes a solid line segment by segment on every paint (the 2 px "sent" line of a
// 2,000-request session went through the stroker about 1,100 times per paint), and rebuilds a
// stroked hit-test shape on every replace(). A slider step changes only the what-if line, so the
// recorded lines are drawn once into an image that each paint blits, and redrawn only when their
// points, pens, the plot area, an axis range or the screen's pixel ratio change. Live lines are
// drawn on every paint, as one polyline each. Cached lines paint under live ones.
class TimelineLineLayer : public TimelinePlotLayer
{
    Q_OBJECT
public:
    enum class Kind { Cached, Live };

    using TimelinePlotLayer::TimelinePlotLayer;
    ~TimelineLineLayer() override;

    int addLine(Kind kind, const QPen &pen = QPen());
    // A line of separate segments: its points pair up (first with second, third with fourth...).
    int addSegments(Kind kind, const QPen &pen = QPen());
    int lineCount() const { return int(m_lines.size()); }
    void setPen(int line, const QPen &pen);
    const QPen &pen(int line) const { return m_lines.at(size_t(line)).pen; }

    // Grid lines at the axes' major ticks, under every line; Qt::NoPen for none. The chart's own
    // grid is one line item per tick, each stroked on every paint; here it joins the cached image.
    void setGridPen(const QPen &pen);
    const QPen &gridPen() const { return m_gridPen; }
    // The grid lines' places along each axis, in data coordinates.
    QList<qreal> gridValues(Qt::Orientation orientation) const;

    // In data coordinates, sorted by x. Repaints only when the list differs; returns whether it did.
    bool setPoints(int line, const QList<QPointF> &points);
    const QList<QPointF> &points(int line) const { return m_lines.at(size_t(line)).points; }

    // How often the cached lines were drawn into their image (tests: a what-if change must not).
    int cacheRenders() const { return m_cacheRenders; }

    // The line passing within a few pixels of `pos` and the data point under it. Live lines are
    // over cached ones and win a tie.
    Hit hitAt(const QPointF &pos) const override;

    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

protected:
    void invalidateLayout() override;

private:
    struct Line
    {
        Kind kind = Kind::Live;
        bool segments = false;
        QPen pen;
        QList<QPointF> points;      // data coordinates
        QList<QPointF> positions;   // layer coordinates, valid while !dirty
        bool dirty = true;
    };

    void ensureLayout() const;
    void renderCache(qreal ratio);
    void drawGrid(QPainter *painter) const;
    static void drawLine(QPainter *painter, const Line &line, bool raster);

    mutable std::vector<Line> m_lines;
    QPen m_gridPen = QPen(Qt::NoPen);
    QImage m_cache;               // the cached lines over the plot area's pixel-aligned rectangle
    QRect m_cacheRect;
    bool m_cacheDirty = true;
    int m_cacheRenders = 0;
};

} // namespace wl
