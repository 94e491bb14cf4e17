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

private:
    void exportTo(const QString &format);

    TimelineModel *m_model;
    TimelineChart *m_chart;
};

} // namespace wl
