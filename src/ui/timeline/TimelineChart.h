#pragma once

#include "compaction/Tier.h"

#include <QChartView>
#include <QTimer>

#include <QList>
#include <QPointF>

#include <array>

class QLineSeries;
class QValueAxis;
class QXYSeries;

namespace wl {

class TimelineLineLayer;
class TimelineMarkerLayer;
class TimelineModel;

// Utilisation per request against the tier thresholds. Observes a TimelineModel
// and refreshes through a coalescing timer with replace(), decimated to about
// two points per pixel column.
class TimelineChart : public QChartView
{
    Q_OBJECT
public:
    explicit TimelineChart(QWidget *parent = nullptr);
    ~TimelineChart() override;

    void setModel(TimelineModel *model);
    TimelineModel *model() const { return m_model; }

    void setSelectedRequest(int row);   // draws the selection line; -1 clears
    int selectedRequest() const { return m_selected; }

    // The data lines, in data coordinates (request, percent) as last drawn, after decimation.
    enum class Line { History, Sent, Reported, WhatIf };
    QList<QPointF> linePoints(Line line) const;
    TimelineLineLayer *lineLayer() const { return m_lineLayer; }
    QValueAxis *requestAxis() const { return m_axisX; }
    QLineSeries *thresholdSeries(Tier tier) const;
    // Compaction markers in data coordinates (request, percent), as last drawn.
    QList<QPointF> markerPoints(Tier tier, bool whatIf) const;
    QList<QPointF> sourceCompactionPoints() const;
    TimelineMarkerLayer *markerLayer() const { return m_markerLayer; }
    int refreshCount() const { return m_refreshCount; }

    // Applies pending model changes now instead of waiting for the timer.
    void refreshNow();
    bool refreshPending() const { return m_refreshTimer.isActive(); }

    bool exportPng(const QString &path, QString *error = nullptr);
    bool exportSvg(const QString &path, QString *error = nullptr);

Q_SIGNALS:
    void requestSelected(int row);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void scheduleRefresh(int delayMs);
    void refresh();
    void applyStyle();
    void updateLegend();
    void onPointClicked(const QPointF &point);
    void onPointHovered(const QPointF &point, bool state);
    int rowForX(double x) const;

    TimelineModel *m_model = nullptr;
    QTimer m_refreshTimer;
    // The data lines are drawn by m_lineLayer; these series hold no points and only give the
    // legend its entries, with the same pens.
    std::array<QLineSeries *, 4> m_legendSeries{};      // History..WhatIf
    TimelineLineLayer *m_lineLayer = nullptr;
    std::array<int, 4> m_lines{};                       // History..WhatIf, in the layer
    QLineSeries *m_selection = nullptr;
    std::array<QLineSeries *, 4> m_thresholds{};        // Warn..Emergency
    // Every marker in one item: groups of recorded and what-if markers per tier, and the
    // compactions the imported agent made itself.
    TimelineMarkerLayer *m_markerLayer = nullptr;
    std::array<int, 4> m_markerGroups{};                // recorded, Warn..Emergency
    std::array<int, 4> m_whatIfMarkerGroups{};          // what-if, Warn..Emergency
    int m_sourceMarkerGroup = -1;
    QValueAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    int m_selected = -1;
    int m_refreshCount = 0;
};

} // namespace wl
