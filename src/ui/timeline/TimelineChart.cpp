#include "TimelineChart.h"

#include "TierStyle.h"
#include "TimelineCompositionLayer.h"
#include "TimelineDecimation.h"
#include "TimelineFrame.h"
#include "TimelineInteraction.h"
#include "TimelineLineLayer.h"
#include "TimelineMarkerLayer.h"
#include "TimelineModel.h"
#include "TimelineToolTip.h"
#include "common/CompositionStyle.h"
#include "common/PaletteColors.h"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr std::array<Tier, 4> kTiers{Tier::Warn, Tier::Soft, Tier::Full, Tier::Emergency};
constexpr int kRefreshDelayMs = 16; // one frame: coalesces bursts of model changes
// A threshold change waits longer: its what-if result usually follows within this time, and one
// paint for both halves the paints of a slider step (each paint strokes every line) and leaves the
// other core to the replay. A slow replay still sees its thresholds move after this long.
constexpr int kThresholdRefreshDelayMs = 80;
constexpr std::array<TimelineSeries, 4> kSeries{TimelineSeries::History, TimelineSeries::Sent,
                                                TimelineSeries::Reported, TimelineSeries::WhatIf};
constexpr double kClipMarkerInset = 7;   // pixels below the top, so the whole triangle shows
// Where the band along a clipped stretch (4 px wide) runs, in pixels below the top, per line
// (History..WhatIf): the lines that clip most often nearest the top.
constexpr std::array<double, 4> kClipBandInsets{2, 12, 7, 17};

// Qt Charts lays out the ticks after each of setRange() and setTickInterval(). Going from two requests
// to 20,000, a new range with the old one-request interval makes 20,000 tick items (seconds of work),
// so the call order keeps the tick count of every intermediate state below the larger of old and new.
void setDynamicTicks(QValueAxis *axis, double min, double max, double interval)
{
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    if (interval >= axis->tickInterval()) {
        axis->setTickInterval(interval);
        axis->setRange(min, max);
    } else {
        axis->setRange(min, max);
        axis->setTickInterval(interval);
    }
}

} // namespace

TimelineChart::TimelineChart(QWidget *parent)
    : QChartView(parent)
{
    setObjectName(u"TimelineChart"_s);
    setRenderHint(QPainter::Antialiasing);
    setFocusPolicy(Qt::StrongFocus); // Left and Right move the selection, + and - zoom
    auto *chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    setChart(chart);

    m_axisX = new QValueAxis(chart);
    m_axisX->setTitleText(tr("LLM request"));
    m_axisX->setLabelFormat(u"%d"_s);
    m_axisY = new QValueAxis(chart);
    m_axisY->setTitleText(tr("Context used (%)"));
    m_axisY->setLabelFormat(u"%.0f"_s);
    chart->addAxis(m_axisX, Qt::AlignBottom);
    chart->addAxis(m_axisY, Qt::AlignLeft);

    auto addLine = [&](const QString &name) {
        auto *series = new QLineSeries(chart);
        series->setName(name);
        chart->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
        connect(series, &QXYSeries::clicked, this, &TimelineChart::onPointClicked);
        return series;
    };
    for (TimelineSeries s : kSeries)
        m_legendSeries[size_t(s)] = addLine(TimelineToolTip::seriesName(s));
    // The recorded lines change only with the session; a slider step redraws the what-if line alone.
    m_lineLayer = new TimelineLineLayer(chart, m_axisX, m_axisY);
    using Kind = TimelineLineLayer::Kind;
    m_lines = {m_lineLayer->addLine(Kind::Cached), m_lineLayer->addLine(Kind::Cached),
               m_lineLayer->addLine(Kind::Cached), m_lineLayer->addLine(Kind::Live)};
    for (int &band : m_clipBands)
        band = m_lineLayer->addSegments(Kind::Cached);
    connect(m_lineLayer, &TimelineLineLayer::clicked, this, &TimelineChart::onPointClicked);
    connect(m_lineLayer, &TimelineLineLayer::hovered, this, [this](const QPointF &point, bool state) {
        showHoverText(state ? lineText(m_lineLayer->hoveredItem(), point) : QString());
    });
    m_compositionLayer = new TimelineCompositionLayer(chart, m_axisX, m_axisY);
    m_compositionLayer->setVisible(false);
    connect(m_compositionLayer, &TimelineCompositionLayer::clicked, this, &TimelineChart::onPointClicked);
    connect(m_compositionLayer, &TimelineCompositionLayer::hovered, this, [this](const QPointF &point, bool state) {
        showHoverText(state && m_model ? TimelineToolTip::composition(*m_model, rowForX(point.x()), m_compositionLayer->hoveredItem())
                                       : QString());
    });
    for (size_t i = 0; i < kTiers.size(); ++i) {
        m_thresholds[i] = addLine(tr("%1 threshold").arg(tierDisplayName(kTiers[i])));
        connect(m_thresholds[i], &QXYSeries::hovered, this, [this, i](const QPointF &, bool state) {
            showHoverText(state && m_model ? TimelineToolTip::threshold(*m_model, kTiers[i]) : QString());
        });
    }

    // Markers paint over the series made so far, in this order: per tier recorded then what-if,
    // then the source agent's compactions, then where lines leave through the top.
    // applyStyle() gives the groups their look.
    m_markerLayer = new TimelineMarkerLayer(chart, m_axisX, m_axisY);
    for (size_t i = 0; i < kTiers.size(); ++i) {
        m_markerGroups[i] = m_markerLayer->addGroup({});
        m_whatIfMarkerGroups[i] = m_markerLayer->addGroup({});
    }
    m_sourceMarkerGroup = m_markerLayer->addGroup({});
    m_lostMarkerGroup = m_markerLayer->addGroup({});
    for (int &group : m_clipGroups)
        group = m_markerLayer->addGroup({});
    connect(m_markerLayer, &TimelineMarkerLayer::clicked, this, &TimelineChart::onPointClicked);
    connect(m_markerLayer, &TimelineMarkerLayer::hovered, this, [this](const QPointF &point, bool state) {
        showHoverText(state ? markerText(m_markerLayer->hoveredItem(), point) : QString());
    });
    m_selection = addLine(tr("Selected request")); // over the markers
    applyStyle();

    m_refreshTimer.setSingleShot(true);
    connect(&m_refreshTimer, &QTimer::timeout, this, &TimelineChart::refresh);
    new TimelineInteraction(this);
}

TimelineChart::~TimelineChart() = default;

void TimelineChart::setModel(TimelineModel *model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (m_model) {
        const auto soon = [this] { scheduleRefresh(kRefreshDelayMs); };
        connect(m_model, &QAbstractItemModel::modelReset, this, soon);
        connect(m_model, &QAbstractItemModel::dataChanged, this, soon);
        connect(m_model, &QAbstractItemModel::rowsInserted, this, soon);
        connect(m_model, &QAbstractItemModel::rowsRemoved, this, soon);
        connect(m_model, &TimelineModel::thresholdsChanged, this, [this] { scheduleRefresh(kThresholdRefreshDelayMs); });
        // A replay's rows are the end of a slider step: draw them on the next pass of the event
        // loop, not a frame later. Replays arrive one at a time, so there is nothing to coalesce.
        connect(m_model, &TimelineModel::whatIfChanged, this, [this] { scheduleRefresh(0); });
    }
    scheduleRefresh(kRefreshDelayMs);
}

void TimelineChart::setScale(TimelineScale scale)
{
    if (m_scale == scale)
        return;
    m_scale = scale;
    refreshNow();
}

void TimelineChart::setMode(Mode mode)
{
    if (m_mode == mode)
        return;
    m_mode = mode;
    m_compositionLayer->setVisible(mode == Mode::Composition);
    // The lines' legend says nothing about the bands (the panel shows theirs).
    chart()->legend()->setVisible(mode == Mode::Lines);
    refreshNow();
    Q_EMIT viewChanged();
}

TimelineScale TimelineChart::effectiveScale() const
{
    return m_model ? m_model->effectiveScale(m_scale) : m_scale;
}

QLineSeries *TimelineChart::thresholdSeries(Tier tier) const
{
    const auto it = std::find(kTiers.begin(), kTiers.end(), tier);
    return it == kTiers.end() ? nullptr : m_thresholds[size_t(it - kTiers.begin())];
}

QList<QPointF> TimelineChart::linePoints(Line line) const
{
    return m_lineLayer->points(m_lines[size_t(line)]);
}

QList<QPointF> TimelineChart::markerPoints(Tier tier, bool whatIf) const
{
    const auto it = std::find(kTiers.begin(), kTiers.end(), tier);
    if (it == kTiers.end())
        return {};
    const size_t i = size_t(it - kTiers.begin());
    return m_markerLayer->points(whatIf ? m_whatIfMarkerGroups[i] : m_markerGroups[i]);
}

QList<QPointF> TimelineChart::sourceCompactionPoints() const
{
    return m_markerLayer->points(m_sourceMarkerGroup);
}

QList<QPointF> TimelineChart::clipMarkerPoints(Line line) const
{
    return m_markerLayer->points(m_clipGroups[size_t(line)]);
}

QList<QPointF> TimelineChart::clipBandPoints(Line line) const
{
    return m_lineLayer->points(m_clipBands[size_t(line)]);
}

void TimelineChart::scheduleRefresh(int delayMs)
{
    // A refresh already due sooner covers this change too; a later one is brought forward.
    if (!m_refreshTimer.isActive() || m_refreshTimer.remainingTime() > delayMs)
        m_refreshTimer.start(delayMs);
}

void TimelineChart::refreshNow()
{
    m_refreshTimer.stop();
    refresh();
}

void TimelineChart::refresh()
{
    ++m_refreshCount;
    const int rows = m_model ? m_model->rowCount() : 0;
    const TimelineScale scale = effectiveScale();
    const double maxX = std::max(1, rows - 1);
    const TimelineViewport before = m_view;
    m_view.setLast(maxX); // a zoomed view keeps its place, or follows new requests
    const bool viewMoved = m_view.isZoomed() != before.isZoomed()
        || (m_view.isZoomed() && (m_view.min() != before.min() || m_view.max() != before.max()));
    const bool composition = m_mode == Mode::Composition;
    const TimelineFrame frame = m_model ? buildTimelineFrame(*m_model, scale, m_view, composition) : TimelineFrame();
    m_range = frame.range;

    // The lowest and highest point of every two pixel columns of the plot area: the drawn shape
    // is the same, and every point costs Qt Charts stroking and hit-testing geometry per replace.
    const int columns = std::max(16, int(chart()->plotArea().width()) / 2);
    // Only lines whose points changed are redrawn: a what-if update leaves the recorded ones in
    // their cached image. The marker layer compares its point lists the same way, and so do the
    // threshold series here (Qt Charts rebuilds a series' whole geometry on every replace).
    for (TimelineSeries s : kSeries)
        m_lineLayer->setPoints(m_lines[size_t(s)], composition ? QList<QPointF>() : decimateMinMax(frame.lines[size_t(s)], columns));
    m_compositionLayer->setStack(composition ? decimateStack(frame.stack, columns) : TimelineCompositionLayer::Stack());
    auto replace = [](QXYSeries *series, const QList<QPointF> &points) {
        if (series->points() != points)
            series->replace(points);
    };
    // A marker of a point above the top sits just under it, where the clip marks are.
    const double plotHeight = chart()->plotArea().height();
    const auto below = [&](double pixels) { return plotHeight > 2 * pixels ? m_range.top * (1.0 - pixels / plotHeight) : m_range.top; };
    const double markY = below(kClipMarkerInset);
    const auto onChart = [top = m_range.top, markY](QList<QPointF> points) {
        for (QPointF &p : points)
            if (p.y() > top)
                p.setY(markY);
        return points;
    };
    m_markerLayer->setPoints(m_sourceMarkerGroup, onChart(frame.sourceMarkers));
    m_markerLayer->setPoints(m_lostMarkerGroup, onChart(frame.lostMarkers));
    for (size_t t = 0; t < kTiers.size(); ++t) {
        m_markerLayer->setPoints(m_markerGroups[t], onChart(frame.markers[t]));
        m_markerLayer->setPoints(m_whatIfMarkerGroups[t], onChart(frame.whatIfMarkers[t]));
    }
    // Each clipped stretch: a band along the top over its requests (one row of bands per line,
    // so that the stretches of two lines do not hide each other), a triangle at its peak.
    std::array<QList<QPointF>, 4> clipMarks, clipBands;
    for (const TimelineClip &clip : std::as_const(m_range.clips)) {
        clipMarks[size_t(clip.series)].append({double(clip.peakRow), markY});
        const double bandY = below(kClipBandInsets[size_t(clip.series)]);
        clipBands[size_t(clip.series)] << QPointF(std::max(0.0, clip.firstRow - 0.5), bandY)
                                       << QPointF(std::min(maxX, clip.lastRow + 0.5), bandY);
    }
    for (size_t s = 0; s < clipMarks.size(); ++s) {
        m_markerLayer->setPoints(m_clipGroups[s], clipMarks[s]);
        m_lineLayer->setPoints(m_clipBands[s], clipBands[s]);
    }

    for (size_t t = 0; t < kTiers.size(); ++t) {
        const double level = frame.thresholds[t];
        replace(m_thresholds[t], std::isnan(level) ? QList<QPointF>() : QList<QPointF>{{0, level}, {maxX, level}});
    }

    // Whole-number request ticks at a readable step; value ticks at the fitted step.
    setDynamicTicks(m_axisX, m_view.min(), m_view.max(), std::max(1.0, timelineNiceStep(m_view.span() / 8.0)));
    // Qt Charts lays the axis out again on every setLabelFormat(), changed or not.
    const QString labelFormat = scale == TimelineScale::Tokens ? u"%gk"_s : u"%.0f"_s;
    if (m_axisY->labelFormat() != labelFormat)
        m_axisY->setLabelFormat(labelFormat);
    setDynamicTicks(m_axisY, 0, m_range.top, m_range.tick);
    if (m_selected >= rows)
        m_selected = -1;
    updateSelectionLine();
    updateAxisTitle();

    const QString clipNote = m_model ? TimelineToolTip::clipNote(*m_model, m_range.clips, m_range.top, scale) : QString();
    if (clipNote != m_clipNote || viewMoved) {
        m_clipNote = clipNote;
        Q_EMIT viewChanged();
    }
}

void TimelineChart::updateAxisTitle()
{
    const QString title = m_model ? TimelineToolTip::axisTitle(*m_model, m_scale) : tr("Context used (%)");
    if (m_axisY->titleText() != title)
        m_axisY->setTitleText(title);
    const QString note = m_model ? TimelineToolTip::windowNote(*m_model, m_scale) : QString();
    if (note != m_windowNote) {
        m_windowNote = note;
        Q_EMIT viewChanged();
    }
}

void TimelineChart::setSelectedRequest(int row)
{
    m_selected = row;
    // Unzoomed, every request is in view (once the next refresh has the new session's length).
    if (m_selected >= 0 && m_view.isZoomed() && (m_selected < m_view.min() || m_selected > m_view.max())) {
        m_view.ensureVisible(m_selected);
        refreshNow();
        Q_EMIT viewChanged();
        return;
    }
    updateSelectionLine();
}

void TimelineChart::updateSelectionLine()
{
    if (m_selected < 0) {
        m_selection->clear();
        return;
    }
    m_selection->replace({QPointF(m_selected, 0), QPointF(m_selected, m_axisY->max())});
}

void TimelineChart::moveSelection(int step)
{
    const int rows = m_model ? m_model->rowCount() : 0;
    if (rows == 0 || step == 0)
        return;
    int row;
    if (m_selected < 0)
        row = step > 0 ? int(std::ceil(m_view.min())) : int(std::floor(m_view.max()));
    else
        row = m_selected + step;
    row = std::clamp(row, 0, rows - 1);
    if (row == m_selected)
        return;
    setSelectedRequest(row);
    Q_EMIT requestSelected(row);
}

void TimelineChart::zoomBy(double factor, double anchor)
{
    const double before = m_view.span();
    m_view.zoom(factor, anchor);
    if (m_view.span() != before || !m_view.isZoomed()) {
        refreshNow();
        Q_EMIT viewChanged();
    }
}

void TimelineChart::zoomIn()
{
    // Around the selected request while it is in view, else around the middle.
    const bool selectedInView = m_selected >= m_view.min() && m_selected <= m_view.max() && m_selected >= 0;
    zoomBy(kZoomStep, selectedInView ? m_selected : (m_view.min() + m_view.max()) / 2);
}

void TimelineChart::zoomOut()
{
    zoomBy(1 / kZoomStep, (m_view.min() + m_view.max()) / 2);
}

void TimelineChart::resetZoom()
{
    if (!m_view.isZoomed())
        return;
    m_view.reset();
    refreshNow();
    Q_EMIT viewChanged();
}

void TimelineChart::panBy(double requests)
{
    const double before = m_view.min();
    m_view.pan(requests);
    if (m_view.min() != before) {
        refreshNow();
        Q_EMIT viewChanged();
    }
}

int TimelineChart::rowForX(double x) const
{
    const int rows = m_model ? m_model->rowCount() : 0;
    if (rows == 0)
        return -1;
    return std::clamp(int(std::lround(x)), 0, rows - 1);
}

double TimelineChart::requestAt(const QPoint &viewportPos) const
{
    const QPointF at = m_lineLayer->mapFromScene(mapToScene(viewportPos));
    if (!chart()->plotArea().contains(at))
        return std::numeric_limits<double>::quiet_NaN();
    return m_lineLayer->mapFromLayer(at).x();
}

bool TimelineChart::isOverData(const QPoint &viewportPos) const
{
    const QPointF at = m_lineLayer->mapFromScene(mapToScene(viewportPos));
    return m_markerLayer->hitAt(at).item >= 0 || m_lineLayer->hitAt(at).item >= 0 || m_compositionLayer->hitAt(at).item >= 0;
}

double TimelineChart::plotWidth() const
{
    return chart()->plotArea().width();
}

void TimelineChart::onPointClicked(const QPointF &point)
{
    const int row = rowForX(point.x());
    if (row < 0)
        return;
    setSelectedRequest(row);
    Q_EMIT requestSelected(row);
}

void TimelineChart::showHoverText(const QString &text)
{
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(QCursor::pos(), text, this);
}

QString TimelineChart::lineText(int line, const QPointF &point) const
{
    const int row = rowForX(point.x());
    if (!m_model || row < 0)
        return {};
    const auto band = std::find(m_clipBands.begin(), m_clipBands.end(), line);
    if (band != m_clipBands.end()) {
        const TimelineSeries series = kSeries[size_t(band - m_clipBands.begin())];
        for (const TimelineClip &clip : m_range.clips)
            if (clip.series == series && row >= clip.firstRow && row <= clip.lastRow)
                return TimelineToolTip::clip(*m_model, clip, m_range.top, effectiveScale());
        return {};
    }
    const auto it = std::find(m_lines.begin(), m_lines.end(), line);
    if (it == m_lines.end())
        return {};
    return TimelineToolTip::point(*m_model, row, kSeries[size_t(it - m_lines.begin())]);
}

QString TimelineChart::markerText(int group, const QPointF &point) const
{
    const int row = rowForX(point.x());
    if (!m_model || row < 0)
        return {};
    if (group == m_sourceMarkerGroup)
        return TimelineToolTip::sourceCompaction(*m_model, row);
    if (group == m_lostMarkerGroup)
        return TimelineToolTip::point(*m_model, row, TimelineSeries::WhatIf);
    if (std::find(m_markerGroups.begin(), m_markerGroups.end(), group) != m_markerGroups.end())
        return TimelineToolTip::compaction(*m_model, row, false);
    if (std::find(m_whatIfMarkerGroups.begin(), m_whatIfMarkerGroups.end(), group) != m_whatIfMarkerGroups.end())
        return TimelineToolTip::compaction(*m_model, row, true);
    const auto clipGroup = std::find(m_clipGroups.begin(), m_clipGroups.end(), group);
    if (clipGroup != m_clipGroups.end()) {
        const TimelineSeries series = kSeries[size_t(clipGroup - m_clipGroups.begin())];
        for (const TimelineClip &clip : m_range.clips)
            if (clip.series == series && clip.peakRow == row)
                return TimelineToolTip::clip(*m_model, clip, m_range.top, effectiveScale());
    }
    return {};
}

QString TimelineChart::toolTipAt(const QPoint &viewportPos) const
{
    const QPointF at = m_markerLayer->mapFromScene(mapToScene(viewportPos));
    const TimelinePlotLayer::Hit marker = m_markerLayer->hitAt(at);
    if (marker.item >= 0)
        return markerText(marker.item, marker.point);
    const TimelinePlotLayer::Hit line = m_lineLayer->hitAt(m_lineLayer->mapFromScene(mapToScene(viewportPos)));
    if (line.item >= 0)
        return lineText(line.item, line.point);
    const TimelinePlotLayer::Hit band = m_compositionLayer->hitAt(at);
    if (band.item >= 0 && m_model)
        return TimelineToolTip::composition(*m_model, rowForX(band.point.x()), band.item);
    return {};
}

void TimelineChart::applyStyle()
{
    const bool dark = isDarkPalette(palette());
    chart()->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    // setTheme() resets series colours: set ours afterwards.
    chart()->setBackgroundBrush(palette().color(QPalette::Base));
    const QColor text = palette().color(QPalette::Text);
    for (QValueAxis *axis : {m_axisX, m_axisY}) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
    }
    // The line layer draws the theme's grid into its cached image: Qt Charts' grid items cost
    // about 5.7M instructions per paint, and a slider step paints the chart once more.
    m_axisX->setGridLineVisible(false);
    m_axisY->setGridLineVisible(false);
    QPen grid = m_axisY->gridLinePen();
    grid.setCosmetic(true);
    grid.setWidthF(1.0);
    if (dark) // the dark chart theme's grid is nearly white: a faint line on the plot instead
        grid.setColor(mixColors(palette().color(QPalette::Base), text, 0.16));
    m_lineLayer->setGridPen(grid);
    chart()->legend()->setLabelColor(text);

    auto pen = [](const QColor &c, qreal w, Qt::PenStyle style = Qt::SolidLine) {
        QPen p(c, w, style);
        p.setCosmetic(true);
        return p;
    };
    // The dotted and dashed lines are 1 px: only up to 1 px does Qt rasterise styled lines on its
    // fast path. At 2 px the dashed what-if line, redrawn on every slider step, took about 1G
    // instructions per paint over a 2,000-request sawtooth.
    const std::array<QPen, 4> linePens{pen(dark ? QColor(0xa0, 0xae, 0xc0) : QColor(0x4a, 0x55, 0x68), 1.0, Qt::DotLine),
                                       pen(dark ? QColor(0x63, 0xb3, 0xed) : QColor(0x2b, 0x6c, 0xb0), 2.0),
                                       pen(QColor(0x38, 0xa1, 0x69), 1.5),
                                       pen(QColor(0xd5, 0x3f, 0x8c), 1.0, Qt::DashLine)};
    for (size_t i = 0; i < linePens.size(); ++i) {
        m_legendSeries[i]->setPen(linePens[i]);
        m_lineLayer->setPen(m_lines[i], linePens[i]);
    }
    m_selection->setPen(pen(text, 1.0));
    std::array<QColor, ViewComposition::kPartCount> bands;
    for (size_t p = 0; p < bands.size(); ++p)
        bands[p] = compositionColor(ViewComposition::kParts[p], palette());
    m_compositionLayer->setColors(bands);
    // Markers as Qt Charts' scatter series drew them: the shape's size, a 2 px border.
    using MarkerShape = TimelineMarkerLayer::Shape;
    m_markerLayer->setStyle(m_sourceMarkerGroup,
        {MarkerShape::Triangle, 13, QPen(QColor(0xd5, 0x3f, 0x8c), 2.0),
         QBrush(dark ? QColor(0xe2, 0xe8, 0xf0) : QColor(0x1a, 0x20, 0x2c))});
    // A request of the what-if whose view had lost a fact it used: a small red triangle on its line.
    const QColor lost = dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc5, 0x1f, 0x1f);
    m_markerLayer->setStyle(m_lostMarkerGroup, {MarkerShape::Triangle, 8, QPen(lost, 1.5), QBrush(lost)});
    for (size_t t = 0; t < kTiers.size(); ++t) {
        const QColor c = tierColor(kTiers[t]);
        m_thresholds[t]->setPen(pen(c, 1.2, Qt::DashLine));
        m_markerLayer->setStyle(m_markerGroups[t], {MarkerShape::Circle, 10, QPen(c.darker(130), 2.0), QBrush(c)});
        m_markerLayer->setStyle(m_whatIfMarkerGroups[t], {MarkerShape::Circle, 9, pen(c, 2.0), QBrush(Qt::NoBrush)});
    }
    // Where a line runs above the top: a band along the top in the line's colour, a small
    // triangle at its highest point.
    for (size_t i = 0; i < linePens.size(); ++i) {
        QPen band = pen(linePens[i].color(), 4.0);
        band.setCapStyle(Qt::FlatCap);
        m_lineLayer->setPen(m_clipBands[i], band);
        m_markerLayer->setStyle(m_clipGroups[i], {MarkerShape::Triangle, 9, QPen(palette().color(QPalette::Base), 1.0),
                                                  QBrush(linePens[i].color())});
    }
    updateLegend();
}

void TimelineChart::updateLegend()
{
    // Markers and the selection line explain themselves; keep the legend to the lines.
    // (Fixed once: QtCharts misplaces a legend marker made visible after layout.)
    for (QAbstractSeries *series : chart()->series()) {
        const bool inLegend = std::find(m_legendSeries.begin(), m_legendSeries.end(), series) != m_legendSeries.end()
            || std::find(m_thresholds.begin(), m_thresholds.end(), series) != m_thresholds.end();
        for (QLegendMarker *marker : chart()->legend()->markers(series))
            marker->setVisible(inLegend);
    }
}

void TimelineChart::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    scheduleRefresh(kRefreshDelayMs); // the decimation depends on the plot width
}

void TimelineChart::changeEvent(QEvent *event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyStyle();
}

bool TimelineChart::exportPng(const QString &path, QString *error)
{
    const QPixmap pixmap = grab();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool TimelineChart::exportSvg(const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    QSvgGenerator generator;
    generator.setOutputDevice(&file);
    generator.setSize(size());
    generator.setViewBox(rect());
    generator.setTitle(tr("Waterline timeline"));
    {
        QPainter painter(&generator);
        render(&painter);
    }
    if (!file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace wl
