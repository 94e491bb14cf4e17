#pragma once

#include <QWidget>

class QLabel;
class QToolButton;

namespace wl {

class AppSettings;
class TimelineChart;
class TimelineModel;

// The Timeline dock's widget: the chart, what it draws (lines or composition) and its scale
// (percent of the window or tokens), both remembered in the AppSettings, its zoom, what it says
// about clipped lines and windows, the composition's legend, and its export actions.
class TimelinePanel : public QWidget
{
    Q_OBJECT
public:
    explicit TimelinePanel(TimelineModel *model, QWidget *parent = nullptr);

    TimelineChart *chart() const { return m_chart; }

    bool exportCsv(const QString &path, QString *error = nullptr) const;

    // The legend of the composition view (its parts, in their colours), shown in that view only.
    QLabel *compositionLegend() const { return m_legend; }
    QToolButton *linesButton() const { return m_linesButton; }
    QToolButton *compositionButton() const { return m_compositionButton; }

    // Reads the remembered view and scale from `settings` and stores the user's later choices there.
    void setSettings(AppSettings *settings);

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
    void updateStatus();
    void updateLegend();

    TimelineModel *m_model;
    TimelineChart *m_chart;
    AppSettings *m_settings = nullptr;
    QToolButton *m_linesButton;
    QToolButton *m_compositionButton;
    QToolButton *m_percentButton;
    QToolButton *m_tokensButton;
    QToolButton *m_resetZoomButton;
    QLabel *m_windowLabel;   // which window the lines are measured against
    QLabel *m_zoomLabel;
    QLabel *m_note;          // what is clipped at the top, and by how much
    QLabel *m_legend;        // the composition's parts and colours
};

} // namespace wl
