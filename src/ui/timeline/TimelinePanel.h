#pragma once

#include <QWidget>

namespace wl {

class TimelineChart;
class TimelineModel;

// The Timeline dock's widget: the chart and its export actions.
class TimelinePanel : public QWidget
{
    Q_OBJECT
public:
    explicit TimelinePanel(TimelineModel *model, QWidget *parent = nullptr);

    TimelineChart *chart() const { return m_chart; }

    bool exportCsv(const QString &path, QString *error = nullptr) const;

    // Draws the selection at request `index` (-1: none) without emitting requestChosen.
    void selectRequest(int index);

Q_SIGNALS:
    // The user picked a request on the chart (a point of a line, or any marker at it).
    void requestChosen(int index);
    // The user clicked the marker of a recorded compaction (after requestChosen for its request).
    void compactionChosen(const QString &recordId);

private:
    void onMarkerClicked(const QPointF &point);

    void exportTo(const QString &format);

    TimelineModel *m_model;
    TimelineChart *m_chart;
};

} // namespace wl
