#pragma once

#include "TimelinePlotLayer.h"
#include "compaction/ViewComposition.h"

#include <QColor>
#include <QList>
#include <QPointF>

#include <array>

namespace wl {

// The timeline's composition view: what filled each request's window, as stacked areas (one
// band per ViewComposition part, bottom up) over the plot area. The chart's thresholds and
// markers paint over it. The mouse over a band of the used part (not the free space, where a drag
// still pans) hits that band at the request under it.
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

private:
    Stack m_stack;
    std::array<QColor, ViewComposition::kPartCount> m_colors;
};

// At most about 2 * `buckets` requests of `stack`: in each bucket, the one using the most of its
// window (the top of the Reserved band), so peaks survive; first and last always kept.
TimelineCompositionLayer::Stack decimateStack(const TimelineCompositionLayer::Stack &stack, int buckets);

} // namespace wl
