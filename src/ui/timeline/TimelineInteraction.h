#pragma once

#include <QObject>
#include <QPoint>

namespace wl {

class TimelineChart;

// Turns the mouse and the keyboard over a TimelineChart into its zoom, pan, selection and
// tooltips. Watches the chart and its viewport (an event filter), so the chart keeps to drawing.
//   wheel: zoom around the request under the mouse; Shift+wheel or a sideways wheel: pan;
//   a drag that does not start on a line or a marker: pan; resting the mouse: the tooltip;
//   Left, Right, Home, End: move the selected request; Shift+Left, Shift+Right, Page Up,
//   Page Down: pan; + and -: zoom; 0: show every request.
class TimelineInteraction : public QObject
{
    Q_OBJECT
public:
    explicit TimelineInteraction(TimelineChart *chart);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool onKey(QEvent *event);
    bool onViewportEvent(QEvent *event);

    TimelineChart *m_chart;
    // A left press off the data may become a drag that pans: where, and the first visible
    // request then. Clicks still reach the chart; only a drag past a few pixels is taken.
    bool m_pressed = false;
    bool m_panning = false;
    QPoint m_pressPos;
    double m_panStart = 0;
};

} // namespace wl
