#include "SweepChart.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace wl {

SweepChart::SweepChart(QWidget *parent)
    : QChartView(parent)
{
    setObjectName(u"SweepChart"_s);
    setRenderHint(QPainter::Antialiasing);
    auto *chart = new QChart;
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    setChart(chart);

    m_points = new QScatterSeries(chart);
    m_points->setName(tr("Policies"));
    m_points->setMarkerSize(9);
    m_frontLine = new QLineSeries(chart);
    m_frontLine->setName(tr("Pareto front"));
    QPen line(QColor(0xd9, 0x6c, 0x00));
    line.setWidthF(2);
    m_frontLine->setPen(line);
    m_front = new QScatterSeries(chart);
    m_front->setMarkerSize(11);
    m_front->setColor(QColor(0xd9, 0x6c, 0x00));
    m_front->setBorderColor(QColor(0xd9, 0x6c, 0x00));
    m_current = new QScatterSeries(chart);
    m_current->setName(tr("Current policy"));
    m_current->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_current->setMarkerSize(13);
    m_current->setColor(QColor(0x2e, 0x9d, 0x4a));
    m_selection = new QScatterSeries(chart);
    m_selection->setName(tr("Selected"));
    m_selection->setMarkerSize(20);
    m_selection->setColor(Qt::transparent);
    m_selection->setBorderColor(QColor(0xc0, 0x1c, 0x28));
    QPen ring(QColor(0xc0, 0x1c, 0x28));
    ring.setWidthF(2.5);
    m_selection->setPen(ring);
    for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(m_points), static_cast<QAbstractSeries *>(m_frontLine),
                               static_cast<QAbstractSeries *>(m_front), static_cast<QAbstractSeries *>(m_current),
                               static_cast<QAbstractSeries *>(m_selection)})
        chart->addSeries(s);
    // The front's points are named by its line.
    chart->legend()->markers(m_front).constFirst()->setVisible(false);

    m_x = new QValueAxis(chart);
    m_y = new QValueAxis(chart);
    m_y->setTitleText(tr("Coverage (%)"));
    m_y->setLabelFormat(u"%.1f"_s);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    for (QAbstractSeries *s : chart->series()) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    for (QScatterSeries *s : {m_points, m_front, m_current})
        connect(s, &QScatterSeries::clicked, this, [this](const QPointF &p) {
            const int row = rowNear(p);
            if (row >= 0)
                Q_EMIT rowClicked(row);
        });
}

QPointF SweepChart::pointOf(const SweepRow &row) const
{
    return QPointF(m_usd ? row.usd : double(row.cost.prompt() + row.cost.output) / 1e6, row.coverage.coverage() * 100);
}

void SweepChart::setRows(const QList<SweepRow> &rows, int current)
{
    m_rows = rows;
    m_usd = std::all_of(rows.cbegin(), rows.cend(), [](const SweepRow &r) { return r.priced || !r.problem.isEmpty(); });
    m_x->setTitleText(m_usd ? tr("Cost (US$)") : tr("Billed tokens (millions)"));
    m_x->setLabelFormat(m_usd ? u"%.2f"_s : u"%.1f"_s);
    QList<QPointF> all;
    QList<QPointF> front;
    QList<QPointF> here;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const SweepRow &r = rows[i];
        if (!r.problem.isEmpty())
            continue;
        const QPointF p = pointOf(r);
        all << p;
        if (r.pareto)
            front << p;
        if (i == current)
            here << p;
    }
    std::sort(front.begin(), front.end(), [](const QPointF &a, const QPointF &b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
    m_points->replace(all);
    m_front->replace(front);
    m_frontLine->replace(front);
    m_current->replace(here);
    // Axes a little beyond the points.
    double x0 = std::numeric_limits<double>::max(), x1 = std::numeric_limits<double>::lowest();
    double y0 = 100, y1 = 0;
    for (const QPointF &p : std::as_const(all)) {
        x0 = std::min(x0, p.x());
        x1 = std::max(x1, p.x());
        y0 = std::min(y0, p.y());
        y1 = std::max(y1, p.y());
    }
    if (all.isEmpty()) {
        x0 = 0;
        x1 = 1;
        y0 = 0;
        y1 = 100;
    }
    const double dx = std::max((x1 - x0) * 0.08, std::max(std::abs(x1) * 0.02, 1e-3));
    const double dy = std::max((y1 - y0) * 0.08, 0.5);
    m_x->setRange(std::max(0.0, x0 - dx), x1 + dx);
    m_y->setRange(std::max(0.0, y0 - dy), std::min(100.0 + dy, y1 + dy));
    m_x->applyNiceNumbers();
    setSelectedRow(-1);
}

void SweepChart::setSelectedRow(int row)
{
    m_selected = row >= 0 && row < m_rows.size() && m_rows[row].problem.isEmpty() ? row : -1;
    if (m_selected >= 0)
        m_selection->replace(QList<QPointF>{pointOf(m_rows[m_selected])});
    else
        m_selection->clear();
}

int SweepChart::rowNear(const QPointF &value) const
{
    // Nearest on screen: distances in plot pixels, not in values of two different scales.
    const QPointF target = chart()->mapToPosition(value, m_points);
    int best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (!m_rows[i].problem.isEmpty())
            continue;
        const QPointF d = chart()->mapToPosition(pointOf(m_rows[i]), m_points) - target;
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (distance < bestDistance) {
            bestDistance = distance;
            best = int(i);
        }
    }
    return best;
}

QList<QPointF> SweepChart::frontLine() const
{
    return m_frontLine->points();
}

QList<QPointF> SweepChart::selectedPoints() const
{
    return m_selection->points();
}

int SweepChart::pointCount() const
{
    return int(m_points->count());
}

} // namespace wl
