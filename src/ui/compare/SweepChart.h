#pragma once

#include "score/PolicySweep.h"

#include <QChartView>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace wl {

// The Compare policies window's scatter: cost (x) against coverage (y), one point per policy that
// ran, the Pareto front drawn as a line through its points, the current policy and the selected
// one marked. Clicking a point reports its row.
class SweepChart : public QChartView
{
    Q_OBJECT
public:
    explicit SweepChart(QWidget *parent = nullptr);

    // `current`: the row of the sliders' policy (-1: none).
    void setRows(const QList<SweepRow> &rows, int current);
    void setSelectedRow(int row); // -1: none
    int selectedRow() const { return m_selected; }

    // Test hooks: the points of each series, in chart values.
    QList<QPointF> frontLine() const;
    QList<QPointF> selectedPoints() const;
    int pointCount() const;
    // The row whose point is nearest `value` (chart values), -1 when there is none.
    int rowNear(const QPointF &value) const;

Q_SIGNALS:
    void rowClicked(int row);

private:
    QPointF pointOf(const SweepRow &row) const;

    QList<SweepRow> m_rows;
    bool m_usd = true;
    int m_selected = -1;
    QScatterSeries *m_points = nullptr;
    QScatterSeries *m_front = nullptr;
    QLineSeries *m_frontLine = nullptr;
    QScatterSeries *m_current = nullptr;
    QScatterSeries *m_selection = nullptr;
    QValueAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
};

} // namespace wl
