#include "TimelineInteraction.h"

#include "TimelineChart.h"
#include "TimelineModel.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace wl {

namespace {
constexpr double kPanStep = 0.2;   // of the visible span, per Shift+arrow or sideways notch
constexpr int kDragStart = 3;      // pixels a press moves before it is a drag
} // namespace

TimelineInteraction::TimelineInteraction(TimelineChart *chart)
    : QObject(chart)
    , m_chart(chart)
{
    chart->installEventFilter(this);
    chart->viewport()->installEventFilter(this);
}

bool TimelineInteraction::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_chart && event->type() == QEvent::KeyPress)
        return onKey(event);
    if (watched == m_chart->viewport())
        return onViewportEvent(event);
    return false;
}

bool TimelineInteraction::onKey(QEvent *event)
{
    auto *key = static_cast<QKeyEvent *>(event);
    const bool shift = key->modifiers() & Qt::ShiftModifier;
    const double span = m_chart->visibleRequests().span();
    const int rows = m_chart->model() ? m_chart->model()->rowCount() : 0;
    switch (key->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right: {
        const int direction = key->key() == Qt::Key_Left ? -1 : 1;
        if (shift)
            m_chart->panBy(direction * kPanStep * span);
        else
            m_chart->moveSelection(direction);
        break;
    }
    case Qt::Key_Home: m_chart->moveSelection(-rows); break;
    case Qt::Key_End: m_chart->moveSelection(rows); break;
    case Qt::Key_PageUp: m_chart->panBy(-span); break;
    case Qt::Key_PageDown: m_chart->panBy(span); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: m_chart->zoomIn(); break;
    case Qt::Key_Minus: m_chart->zoomOut(); break;
    case Qt::Key_0: m_chart->resetZoom(); break;
    default: return false;
    }
    key->accept();
    return true;
}

bool TimelineInteraction::onViewportEvent(QEvent *event)
{
    switch (event->type()) {
    case QEvent::ToolTip: {
        // The scene would answer with its items' own tooltips, and with none it hides the one
        // hovering showed: answer here instead, with the same text.
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = m_chart->toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, m_chart);
        return true;
    }
    case QEvent::Wheel: {
        auto *wheel = static_cast<QWheelEvent *>(event);
        const double at = m_chart->requestAt(wheel->position().toPoint());
        if (std::isnan(at))
            return false;
        const QPoint delta = wheel->angleDelta();
        const bool sideways = delta.x() != 0 || (wheel->modifiers() & Qt::ShiftModifier);
        const double notches = double(delta.x() != 0 ? delta.x() : delta.y()) / 120.0;
        if (sideways)
            m_chart->panBy(-notches * kPanStep * m_chart->visibleRequests().span());
        else
            m_chart->zoomBy(std::pow(TimelineChart::kZoomStep, notches), at);
        wheel->accept();
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto *mouse = static_cast<QMouseEvent *>(event);
        const QPoint pos = mouse->position().toPoint();
        m_pressed = mouse->button() == Qt::LeftButton && !std::isnan(m_chart->requestAt(pos)) && !m_chart->isOverData(pos);
        m_panning = false;
        m_pressPos = pos;
        m_panStart = m_chart->visibleRequests().min();
        return false; // a click still selects what it is on
    }
    case QEvent::MouseMove: {
        auto *mouse = static_cast<QMouseEvent *>(event);
        if (!m_pressed || !(mouse->buttons() & Qt::LeftButton))
            return false;
        const double dx = mouse->position().x() - m_pressPos.x();
        if (!m_panning && std::abs(dx) < kDragStart)
            return false;
        m_panning = true;
        if (m_chart->isZoomed())
            m_chart->viewport()->setCursor(Qt::ClosedHandCursor);
        const double width = m_chart->plotWidth();
        if (width > 0)
            m_chart->panBy(m_panStart - dx * m_chart->visibleRequests().span() / width - m_chart->visibleRequests().min());
        return true;
    }
    case QEvent::MouseButtonRelease:
        // Passed on either way: what took the press sees it end (a release away from the press
        // is no click).
        if (m_panning)
            m_chart->viewport()->unsetCursor();
        m_pressed = false;
        m_panning = false;
        return false;
    default:
        return false;
    }
}

} // namespace wl
