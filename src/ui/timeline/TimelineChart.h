#pragma once

#include "TimelineRange.h"
#include "TimelineScale.h"
#include "TimelineViewport.h"
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

class TimelineCompositionLayer;
class TimelineLineLayer;
class TimelineMarkerLayer;
class TimelineModel;

// Utilisation per request against the tier thresholds. Observes a TimelineModel
// and refreshes through a coalescing timer with replace(), decimated to about
// two points per pixel column.
//
// Every line is measured against one window (TimelineModel::referenceWindow(), named by the
// vertical axis) or in tokens. The vertical axis fits what is shown; a line it cannot hold is
// clipped at the top, marked there and reported (clipNote()). The view zooms and pans along the
// requests (TimelineInteraction maps the mouse and keys to that and to the selection).
class TimelineChart : public QChartView
{
    Q_OBJECT
public:
    explicit TimelineChart(QWidget *parent = nullptr);
    ~TimelineChart() override;

    void setModel(TimelineModel *model);
    TimelineModel *model() const { return m_model; }

    // Draws the selection line, moving a zoomed view to it; -1 clears.
    void setSelectedRequest(int row);
    int selectedRequest() const { return m_selected; }
    // Selects the request `step` rows along (the first or last visible one when none is
    // selected) and emits requestSelected(): what Left and Right do.
    void moveSelection(int step);

    // Percent of the reference window or tokens, as chosen; effectiveScale() is what is drawn
    // (tokens when there is no window to take a percent of).
    void setScale(TimelineScale scale);
    TimelineScale scale() const { return m_scale; }
    TimelineScale effectiveScale() const;

    // Lines (each series against the thresholds) or composition (what filled each request's
    // window, stacked by category, the thresholds over it; the what-if's while one is shown).
    enum class Mode { Lines, Composition };
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    TimelineCompositionLayer *compositionLayer() const { return m_compositionLayer; }

    // The visible requests. Zooming keeps `anchor` (a request) in place; panning moves by requests.
    // zoomIn() and zoomOut() change the visible span by this factor.
    static constexpr double kZoomStep = 0.8;
    const TimelineViewport &visibleRequests() const { return m_view; }
    bool isZoomed() const { return m_view.isZoomed(); }
    void zoomBy(double factor, double anchor);
    void zoomIn();
    void zoomOut();
    void resetZoom();
    void panBy(double requests);

    // The data lines, in data coordinates (request, value on the vertical axis: percent, or
    // thousands of tokens) as last drawn, after decimation.
    using Line = TimelineSeries;
    QList<QPointF> linePoints(Line line) const;
    TimelineLineLayer *lineLayer() const { return m_lineLayer; }
    QValueAxis *requestAxis() const { return m_axisX; }
    QValueAxis *valueAxis() const { return m_axisY; }
    QLineSeries *thresholdSeries(Tier tier) const;
    // Compaction markers in data coordinates, as last drawn (a marker above the top sits on it).
    QList<QPointF> markerPoints(Tier tier, bool whatIf) const;
    QList<QPointF> sourceCompactionPoints() const;
    // Where each clipped stretch of `line` is marked at the top of the plot: a triangle at its
    // highest point, and a band along it (pairs of points, one pair per stretch).
    QList<QPointF> clipMarkerPoints(Line line) const;
    QList<QPointF> clipBandPoints(Line line) const;
    TimelineMarkerLayer *markerLayer() const { return m_markerLayer; }
    int refreshCount() const { return m_refreshCount; }

    // The vertical axis as last fitted, with the clipped stretches of the visible lines.
    const TimelineRange &valueRange() const { return m_range; }
    // What runs above the top and how far, in a sentence; empty when nothing does.
    QString clipNote() const { return m_clipNote; }
    // Which window the lines are measured against (and, for a what-if at another window, that
    // the recorded lines are rescaled), or that there is none; empty while the window is unknown.
    QString windowNote() const { return m_windowNote; }

    // The text a tooltip shows at a point of the viewport: a marker, else a point of a line;
    // empty over nothing.
    QString toolTipAt(const QPoint &viewportPos) const;
    // The request under a point of the viewport, as an x value; NaN outside the plot.
    double requestAt(const QPoint &viewportPos) const;
    // Whether a point of the viewport is on a line or a marker (which take clicks).
    bool isOverData(const QPoint &viewportPos) const;
    double plotWidth() const;

    // Applies pending model changes now instead of waiting for the timer.
    void refreshNow();
    bool refreshPending() const { return m_refreshTimer.isActive(); }

    bool exportPng(const QString &path, QString *error = nullptr);
    bool exportSvg(const QString &path, QString *error = nullptr);

Q_SIGNALS:
    void requestSelected(int row);
    // The visible requests, the scale or the notes changed.
    void viewChanged();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void scheduleRefresh(int delayMs);
    void refresh();
    void updateAxisTitle();
    void updateSelectionLine();
    void applyStyle();
    void updateLegend();
    void onPointClicked(const QPointF &point);
    void showHoverText(const QString &text);
    QString lineText(int line, const QPointF &point) const;
    QString markerText(int group, const QPointF &point) const;
    int rowForX(double x) const;

    TimelineModel *m_model = nullptr;
    QTimer m_refreshTimer;
    // The data lines are drawn by m_lineLayer; these series hold no points and only give the
    // legend its entries, with the same pens.
    std::array<QLineSeries *, 4> m_legendSeries{};      // History..WhatIf
    TimelineLineLayer *m_lineLayer = nullptr;
    TimelineCompositionLayer *m_compositionLayer = nullptr; // over the lines, under the thresholds
    std::array<int, 4> m_lines{};                       // History..WhatIf, in the layer
    std::array<int, 4> m_clipBands{};                   // History..WhatIf: clipped stretches, at the top
    QLineSeries *m_selection = nullptr;
    std::array<QLineSeries *, 4> m_thresholds{};        // Warn..Emergency
    // Every marker in one item: groups of recorded and what-if markers per tier, and the
    // compactions the imported agent made itself.
    TimelineMarkerLayer *m_markerLayer = nullptr;
    std::array<int, 4> m_markerGroups{};                // recorded, Warn..Emergency
    std::array<int, 4> m_whatIfMarkerGroups{};          // what-if, Warn..Emergency
    int m_sourceMarkerGroup = -1;
    int m_lostMarkerGroup = -1;  // what-if requests that lost a fact they used
    std::array<int, 4> m_clipGroups{};                  // History..WhatIf: clipped stretches
    QValueAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    TimelineScale m_scale = TimelineScale::Percent;
    Mode m_mode = Mode::Lines;
    TimelineViewport m_view;
    TimelineRange m_range;
    QString m_clipNote;
    QString m_windowNote;
    int m_selected = -1;
    int m_refreshCount = 0;
};

} // namespace wl
