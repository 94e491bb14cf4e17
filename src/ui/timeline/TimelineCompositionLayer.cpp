#include "TimelineCompositionLayer.h"

#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>

namespace wl {

namespace {
constexpr size_t kUsedTop = size_t(ViewComposition::Part::Reserved); // the top of what a request uses
} // namespace

TimelineCompositionLayer::~TimelineCompositionLayer() = default;

bool TimelineCompositionLayer::setStack(const Stack &stack)
{
    if (stack == m_stack)
        return false;
    m_stack = stack;
    m_imageDirty = true;
    update();
    return true;
}

void TimelineCompositionLayer::setColors(const std::array<QColor, ViewComposition::kPartCount> &colors)
{
    if (colors == m_colors)
        return;
    m_colors = colors;
    m_imageDirty = true;
    update();
}

TimelinePlotLayer::Hit TimelineCompositionLayer::hitAt(const QPointF &pos) const
{
    const QList<QPointF> &used = m_stack[kUsedTop];
    if (!isVisible() || used.isEmpty() || !plotArea().contains(pos))
        return {};
    const QPointF data = mapFromLayer(pos);
    // The request drawn nearest to the mouse (the stack may be decimated).
    const auto after = std::lower_bound(used.cbegin(), used.cend(), data.x(),
                                        [](const QPointF &p, double x) { return p.x() < x; });
    qsizetype at = after - used.cbegin();
    if (at == used.size() || (at > 0 && data.x() - used.at(at - 1).x() < after->x() - data.x()))
        --at;
    double reach = 0.5; // half the distance to the neighbouring requests drawn
    if (at > 0)
        reach = std::max(reach, (used.at(at).x() - used.at(at - 1).x()) / 2);
    if (at + 1 < used.size())
        reach = std::max(reach, (used.at(at + 1).x() - used.at(at).x()) / 2);
    if (std::abs(used.at(at).x() - data.x()) > reach)
        return {};
    double below = 0;
    for (size_t p = 0; p <= kUsedTop; ++p) {
        const double top = m_stack[p].value(at).y();
        if (data.y() >= below && data.y() <= top && top > below)
            return {int(p), QPointF(used.at(at).x(), data.y())};
        below = std::max(below, top);
    }
    return {};
}

void TimelineCompositionLayer::invalidateLayout()
{
    m_imageDirty = true;
    TimelinePlotLayer::invalidateLayout();
}

void TimelineCompositionLayer::renderImage(qreal ratio)
{
    ++m_imageRenders;
    m_imageDirty = false;
    m_imageRect = plotArea().toAlignedRect();
    const QSize pixels = (QSizeF(m_imageRect.size()) * ratio).toSize();
    if (m_image.size() != pixels)
        m_image = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
    m_image.setDevicePixelRatio(ratio);
    m_image.fill(Qt::transparent);
    const QList<QPointF> &base = m_stack.front();
    const qsizetype n = base.size();
    if (n == 0 || pixels.isEmpty())
        return;
    std::array<QRgb, ViewComposition::kPartCount> rgb;
    for (size_t p = 0; p < rgb.size(); ++p)
        rgb[p] = m_colors[p].rgba(); // opaque: no premultiplication to do
    const int width = pixels.width();
    const int height = pixels.height();
    // A value on the vertical axis, as a device pixel row of the image (may lie outside it).
    const double y0 = mapToLayer(QPointF(0, 0)).y();
    const double yPerUnit = mapToLayer(QPointF(0, 1)).y() - y0;
    auto rowOf = [&](double value) { return (y0 + yPerUnit * value - m_imageRect.top()) * ratio; };
    uchar *const bits = m_image.bits();
    const qsizetype bytesPerLine = m_image.bytesPerLine();
    qsizetype segment = 0;
    for (int px = 0; px < width; ++px) {
        const double x = mapFromLayer(QPointF(m_imageRect.left() + (px + 0.5) / ratio, 0)).x();
        if (x < base.constFirst().x() || x > base.constLast().x())
            continue;
        while (segment + 2 < n && base.at(segment + 1).x() < x)
            ++segment;
        const qsizetype next = std::min(segment + 1, n - 1);
        const double span = base.at(next).x() - base.at(segment).x();
        const double t = span > 0 ? (x - base.at(segment).x()) / span : 0.0;
        int bottom = height; // exclusive: the rows below are filled
        for (size_t p = 0; p < m_stack.size(); ++p) {
            const QList<QPointF> &tops = m_stack[p];
            if (tops.size() != n)
                continue;
            const double value = tops.at(segment).y() + t * (tops.at(next).y() - tops.at(segment).y());
            const int top = std::clamp(int(std::lround(rowOf(value))), 0, height);
            for (int row = top; row < bottom; ++row)
                reinterpret_cast<QRgb *>(bits + row * bytesPerLine)[px] = rgb[p];
            bottom = std::min(bottom, top);
        }
    }
}

void TimelineCompositionLayer::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    if (m_stack.front().isEmpty())
        return;
    if (isPlainRaster(painter)) {
        const qreal ratio = painter->device()->devicePixelRatio();
        if (m_imageDirty || m_image.isNull() || m_image.devicePixelRatio() != ratio)
            renderImage(ratio);
        painter->save();
        painter->setClipRect(plotArea(), Qt::IntersectClip);
        painter->drawImage(QPointF(m_imageRect.topLeft()), m_image);
        painter->restore();
        return;
    }
    paintPolygons(painter);
}

void TimelineCompositionLayer::paintPolygons(QPainter *painter) const
{
    const QList<QPointF> &base = m_stack.front();
    painter->save();
    painter->setClipRect(plotArea());
    // Bands meet edge to edge: antialiased fills would leave a seam of background between them.
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setPen(Qt::NoPen);
    const qsizetype n = base.size();
    QList<QPointF> lower(n);
    for (qsizetype i = 0; i < n; ++i)
        lower[i] = mapToLayer(QPointF(base.at(i).x(), 0));
    QPolygonF band;
    band.reserve(2 * n);
    for (size_t p = 0; p < m_stack.size(); ++p) {
        const QList<QPointF> &tops = m_stack[p];
        if (tops.size() != n)
            continue;
        QList<QPointF> upper(n);
        bool any = false;
        for (qsizetype i = 0; i < n; ++i) {
            upper[i] = mapToLayer(tops.at(i));
            any = any || upper[i].y() < lower[i].y() - 0.01;
        }
        if (any) {
            band.clear();
            band += upper;
            for (qsizetype i = n - 1; i >= 0; --i)
                band.append(lower.at(i));
            painter->setBrush(m_colors[p]);
            painter->drawPolygon(band);
        }
        lower = std::move(upper);
    }
    painter->restore();
}

TimelineCompositionLayer::Stack decimateStack(const TimelineCompositionLayer::Stack &stack, int buckets)
{
    const QList<QPointF> &used = stack[kUsedTop];
    const qsizetype n = used.size();
    if (buckets < 1 || n <= 2 * qsizetype(buckets))
        return stack;
    QList<qsizetype> keep;
    keep.reserve(buckets + 2);
    keep.append(0);
    const double x0 = used.constFirst().x();
    const double span = used.constLast().x() - x0;
    qsizetype i = 1;
    for (int b = 0; b < buckets && i < n - 1; ++b) {
        const double end = x0 + span * double(b + 1) / buckets;
        qsizetype best = -1;
        for (; i < n - 1 && (used.at(i).x() <= end || b == buckets - 1); ++i)
            if (best < 0 || used.at(i).y() > used.at(best).y())
                best = i;
        if (best >= 0)
            keep.append(best);
    }
    keep.append(n - 1);
    TimelineCompositionLayer::Stack out;
    for (size_t p = 0; p < stack.size(); ++p) {
        if (stack[p].size() != n)
            continue;
        out[p].reserve(keep.size());
        for (qsizetype k : std::as_const(keep))
            out[p].append(stack[p].at(k));
    }
    return out;
}

} // namespace wl
