#include "TimelineChart.h"

#include "TierStyle.h"
#include "TimelineDecimation.h"
#include "TimelineLineLayer.h"
#include "TimelineMarkerLayer.h"
#include "TimelineModel.h"
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

// 1, 2 or 5 times a power of ten, at least `raw` and at least 1.
double niceStep(double raw)
{
    if (raw <= 1)
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= raw)
            return m * magnitude;
    return 10 * magnitude;
}

// Qt Charts lays out the ticks after each of setRange() and setTickInterval(). Going from two requests
// to 20,000, a new range with the old one-request interval makes 20,000 tick items (seconds of work),
// so the call order keeps the tick count of every intermediate state below the larger of old and new.
void setDynamicTicks(QValueAxis *axis, double max, double interval)
{
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    if (interval >= axis->tickInterval()) {
        axis->setTickInterval(interval);
        axis->setRange(0, max);
    } else {
        axis->setRange(0, max);
        axis->setTickInterval(interval);
    }
}

} // namespace

TimelineChart::TimelineChart(QWidget *parent)
    : QChartView(parent)
{
    setObjectName(u"TimelineChart"_s);
    setRenderHint(QPainter::Antialiasing);
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
        connect(series, &QXYSeries::hovered, this, &TimelineChart::onPointHovered);
        return series;
    };
    m_legendSeries = {addLine(tr("Full history, uncompacted")), addLine(tr("Sent to model")),
                      addLine(tr("Provider-reported")), addLine(tr("What-if"))};
    // The recorded lines change only with the session; a slider step redraws the what-if line alone.
    m_lineLayer = new TimelineLineLayer(chart, m_axisX, m_axisY);
    using Kind = TimelineLineLayer::Kind;
    m_lines = {m_lineLayer->addLine(Kind::Cached), m_lineLayer->addLine(Kind::Cached),
               m_lineLayer->addLine(Kind::Cached), m_lineLayer->addLine(Kind::Live)};
    connect(m_lineLayer, &TimelineLineLayer::clicked, this, &TimelineChart::onPointClicked);
    connect(m_lineLayer, &TimelineLineLayer::hovered, this, &TimelineChart::onPointHovered);
    for (size_t i = 0; i < kTiers.size(); ++i)
        m_thresholds[i] = addLine(tr("%1 threshold").arg(tierDisplayName(kTiers[i])));

    // Markers paint over the series made so far, in this order: per tier recorded then what-if,
    // then the source agent's compactions. applyStyle() gives the groups their look.
    m_markerLayer = new TimelineMarkerLayer(chart, m_axisX, m_axisY);
    for (size_t i = 0; i < kTiers.size(); ++i) {
        m_markerGroups[i] = m_markerLayer->addGroup({});
        m_whatIfMarkerGroups[i] = m_markerLayer->addGroup({});
    }
    m_sourceMarkerGroup = m_markerLayer->addGroup({});
    connect(m_markerLayer, &TimelineMarkerLayer::clicked, this, &TimelineChart::onPointClicked);
    connect(m_markerLayer, &TimelineMarkerLayer::hovered, this, &TimelineChart::onPointHovered);
    m_selection = addLine(tr("Selected request")); // over the markers
    applyStyle();

    m_refreshTimer.setSingleShot(true);
    connect(&m_refreshTimer, &QTimer::timeout, this, &TimelineChart::refresh);
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
    const QList<TimelineRow> &recorded = m_model ? m_model->recorded() : QList<TimelineRow>();
    const QList<WhatIfRow> &whatIf = m_model ? m_model->whatIf() : QList<WhatIfRow>();

    QList<QPointF> history, sent, reported, whatIfLine, sourceMarkers;
    history.reserve(rows);
    sent.reserve(rows);
    std::array<QList<QPointF>, 4> markers, whatIfMarkers;
    double peak = 100.0; // of what was (or would be) sent; the full history may run off the top
    for (int i = 0; i < rows; ++i) {
        const TimelineRow &r = recorded.at(i);
        const double x = i;
        history.append({x, r.historyRatio * 100.0});
        sent.append({x, r.sentRatio * 100.0});
        if (!std::isnan(r.reportedRatio))
            reported.append({x, r.reportedRatio * 100.0});
        peak = std::max(peak, r.sentRatio * 100.0);
        if (r.tier != Tier::None)
            markers[size_t(int(r.tier) - 1)].append({x, r.sentRatio * 100.0});
        if (!r.sourceCompaction.isEmpty())
            sourceMarkers.append({x, r.historyRatio * 100.0});
        if (i < whatIf.size()) {
            const WhatIfRow &w = whatIf.at(i);
            whatIfLine.append({x, w.ratioAfter * 100.0});
            peak = std::max(peak, w.ratioAfter * 100.0);
            if (w.tier != Tier::None)
                whatIfMarkers[size_t(int(w.tier) - 1)].append({x, w.ratioAfter * 100.0});
        }
    }

    // The lowest and highest point of every two pixel columns of the plot area: the drawn shape
    // is the same, and every point costs Qt Charts stroking and hit-testing geometry per replace.
    const int columns = std::max(16, int(chart()->plotArea().width()) / 2);
    // Only lines whose points changed are redrawn: a what-if update leaves the recorded ones in
    // their cached image. The marker layer compares its point lists the same way, and so do the
    // threshold series here (Qt Charts rebuilds a series' whole geometry on every replace).
    m_lineLayer->setPoints(m_lines[size_t(Line::History)], decimateMinMax(history, columns));
    m_lineLayer->setPoints(m_lines[size_t(Line::Sent)], decimateMinMax(sent, columns));
    m_lineLayer->setPoints(m_lines[size_t(Line::Reported)], decimateMinMax(reported, columns));
    m_lineLayer->setPoints(m_lines[size_t(Line::WhatIf)], decimateMinMax(whatIfLine, columns));
    auto replace = [](QXYSeries *series, const QList<QPointF> &points) {
        if (series->points() != points)
            series->replace(points);
    };
    m_markerLayer->setPoints(m_sourceMarkerGroup, sourceMarkers);
    for (size_t t = 0; t < kTiers.size(); ++t) {
        m_markerLayer->setPoints(m_markerGroups[t], markers[t]);
        m_markerLayer->setPoints(m_whatIfMarkerGroups[t], whatIfMarkers[t]);
    }

    const double maxX = std::max(1, rows - 1);
    const TimelineThresholds th = m_model ? m_model->thresholds() : TimelineThresholds();
    const std::array<double, 4> levels{th.warn, th.soft, th.full, th.emergency};
    for (size_t t = 0; t < kTiers.size(); ++t)
        replace(m_thresholds[t], {QPointF(0, levels[t] * 100.0), QPointF(maxX, levels[t] * 100.0)});

    // Whole-number request ticks at a readable step, percent ticks every 10, 20 or 50.
    setDynamicTicks(m_axisX, maxX, niceStep(maxX / 8.0));
    const double top = std::ceil(std::min(peak * 1.1, 1000.0) / 10.0) * 10.0;
    setDynamicTicks(m_axisY, top, top > 150 ? 50 : top > 60 ? 20 : 10);
    setSelectedRequest(m_selected < rows ? m_selected : -1);
}

void TimelineChart::setSelectedRequest(int row)
{
    m_selected = row;
    if (row < 0) {
        m_selection->clear();
        return;
    }
    m_selection->replace({QPointF(row, 0), QPointF(row, m_axisY->max())});
}

int TimelineChart::rowForX(double x) const
{
    const int rows = m_model ? m_model->rowCount() : 0;
    if (rows == 0)
        return -1;
    return std::clamp(int(std::lround(x)), 0, rows - 1);
}

void TimelineChart::onPointClicked(const QPointF &point)
{
    const int row = rowForX(point.x());
    if (row < 0)
        return;
    setSelectedRequest(row);
    Q_EMIT requestSelected(row);
}

void TimelineChart::onPointHovered(const QPointF &point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    const int row = rowForX(point.x());
    if (row < 0 || !m_model)
        return;
    const TimelineRow &r = m_model->recorded().at(row);
    QString text = tr("Request %1: history %2%, sent %3%")
                       .arg(r.requestIndex)
                       .arg(r.historyRatio * 100.0, 0, 'f', 1)
                       .arg(r.sentRatio * 100.0, 0, 'f', 1);
    if (!r.recordSummary.isEmpty())
        text += u'\n' + r.recordSummary;
    if (!r.sourceCompaction.isEmpty())
        text += u'\n' + r.sourceCompaction;
    QToolTip::showText(QCursor::pos(), text, this);
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
    // Markers as Qt Charts' scatter series drew them: the shape's size, a 2 px border.
    using MarkerShape = TimelineMarkerLayer::Shape;
    m_markerLayer->setStyle(m_sourceMarkerGroup,
        {MarkerShape::Triangle, 13, QPen(QColor(0xd5, 0x3f, 0x8c), 2.0),
         QBrush(dark ? QColor(0xe2, 0xe8, 0xf0) : QColor(0x1a, 0x20, 0x2c))});
    for (size_t t = 0; t < kTiers.size(); ++t) {
        const QColor c = tierColor(kTiers[t]);
        m_thresholds[t]->setPen(pen(c, 1.2, Qt::DashLine));
        m_markerLayer->setStyle(m_markerGroups[t], {MarkerShape::Circle, 10, QPen(c.darker(130), 2.0), QBrush(c)});
        m_markerLayer->setStyle(m_whatIfMarkerGroups[t], {MarkerShape::Circle, 9, pen(c, 2.0), QBrush(Qt::NoBrush)});
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
