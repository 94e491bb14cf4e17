#pragma once

#include "TimelinePlotLayer.h"
#include "compaction/ViewComposition.h"

#include <QColor>
#include <QImage>
#include <QList>
#include <QPointF>

#include <array>

namespace wl {

// The timeline's composition view: what filled each request's window, as stacked areas (one
// band per ViewComposition part, bottom up) over the plot area. The chart's thresholds and
// markers paint over it. The mouse over a band of the used part (not the free space, where a drag
// still pans) hits that band at the request under it.
//
// On screen the bands are filled column by column of device pixels into an image (a slider step
// changes the what-if's whole stack: filling eight polygons of a thousand vertices each through
// the rasteriser cost more than the rest of the step's paint), made again only when the stack,
// the colours, the plot area or an axis range change. Other devices (SVG) get the polygons.
class TimelineCompositionLayer : public TimelinePlotLayer
{
    Q_OBJECT
public:
    using Stack = std::array<QList<QPointF>, ViewComposition::kPartCount>;

    using TimelinePlotLayer::TimelinePlotLayer;
    ~TimelineCompositionLayer() override;

    // Per part, the top of its band at each request drawn (data coordinates, the same x values for
    // every part, sorted). Repaints only when it differs; returns whether it did.
    bool setStack(const Stack &stack);
    const Stack &stack() const { return m_stack; }
    void setColors(const std::array<QColor, ViewComposition::kPartCount> &colors);

    // Hit::item is the part's index in ViewComposition::kParts; the point is (request, value).
    Hit hitAt(const QPointF &pos) const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    // How often the bands were filled into the image (tests: a threshold change must not).
    int imageRenders() const { return m_imageRenders; }

protected:
    void invalidateLayout() override;

private:
    void renderImage(qreal ratio);
    void paintPolygons(QPainter *painter) const;

    Stack m_stack;
    std::array<QColor, ViewComposition::kPartCount> m_colors;
    QImage m_image;
    QRect m_imageRect;
    bool m_imageDirty = true;
    int m_imageRenders = 0;
};

// At most about 2 * `buckets` requests of `stack`: in each bucket, the one using the most of its
// window (the top of the Reserved band), so peaks survive; first and last always kept.
TimelineCompositionLayer::Stack decimateStack(const TimelineCompositionLayer::Stack &stack, int buckets);

} // namespace wl
