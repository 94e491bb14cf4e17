#include "LayoutPresets.h"

#include <QDockWidget>
#include <QFontMetrics>
#include <QLayout>
#include <QMainWindow>

#include <algorithm>

namespace wl {

namespace {

// What the Thresholds and Context tables need to show their columns without scrolling sideways.
constexpr int kRightMinimum = 460;
constexpr int kLeftMinimum = 200;
constexpr int kLeftMaximum = 320;
// The conversation is never squeezed below this.
constexpr int kConversationMinimum = 480;

} // namespace

LayoutPresets::LayoutPresets(QMainWindow *window, const Docks &docks)
    : m_window(window)
    , m_docks(docks)
{
}

QString LayoutPresets::name(Preset preset)
{
    switch (preset) {
    case Preset::Default: return tr("Default");
    case Preset::Tune: return tr("Tune");
    case Preset::Converse: return tr("Converse");
    case Preset::Inspect: return tr("Inspect");
    }
    return {};
}

int LayoutPresets::conversationMeasure() const
{
    return QFontMetrics(m_window->font()).averageCharWidth() * 120 + 48;
}

LayoutPresets::Sizes LayoutPresets::sizesFor(Preset preset, const QSize &size) const
{
    const int width = size.width();
    const int height = size.height();
    Sizes s;
    s.left = std::clamp(width * 15 / 100, kLeftMinimum, kLeftMaximum);
    // What is left for the right column and the conversation, and how the two share it.
    const int rest = width - s.left;
    const int roomForRight = std::max(0, rest - kConversationMinimum);
    switch (preset) {
    case Preset::Default:
        // The docks take whatever the conversation's measure leaves over.
        s.right = std::clamp(rest - conversationMeasure(), std::min(kRightMinimum, roomForRight), roomForRight);
        // Room for the chart under its bar, note and legend: below about 260 px its axes are only "…".
        s.bottom = std::clamp(height * 38 / 100, 260, 400);
        break;
    case Preset::Tune:
        s.right = std::clamp(rest * 45 / 100, std::min(kRightMinimum, roomForRight), roomForRight);
        s.bottom = std::clamp(height * 42 / 100, 260, 520);
        break;
    case Preset::Converse:
        s.right = 0;
        s.bottom = std::clamp(height * 18 / 100, 140, 220);
        break;
    case Preset::Inspect:
        s.right = std::clamp(rest * 55 / 100, std::min(kRightMinimum, roomForRight), roomForRight);
        s.bottom = std::clamp(height * 35 / 100, 220, 420);
        break;
    }
    return s;
}

void LayoutPresets::arrange()
{
    const Docks &d = m_docks;
    // Only what is out of place moves: every re-added dock is stacked for a moment, and the
    // window grows to that moment's minimum size.
    const auto place = [this](QDockWidget *dock, Qt::DockWidgetArea area) {
        if (dock->isFloating())
            dock->setFloating(false);
        if (m_window->dockWidgetArea(dock) != area)
            m_window->addDockWidget(area, dock);
        dock->show();
    };
    const auto group = [this](QDockWidget *first, QDockWidget *second) {
        if (second->isFloating())
            second->setFloating(false);
        if (!m_window->tabifiedDockWidgets(first).contains(second))
            m_window->tabifyDockWidget(first, second); // moves it from wherever it is
        second->show();
    };
    place(d.sessions, Qt::LeftDockWidgetArea);
    place(d.thresholds, Qt::RightDockWidgetArea);
    place(d.timeline, Qt::BottomDockWidgetArea);
    group(d.thresholds, d.anchors);
    group(d.anchors, d.offloads);
    group(d.offloads, d.context);
    group(d.timeline, d.compactions);
}

void LayoutPresets::apply(Preset preset)
{
    const Docks &d = m_docks;
    const QSize size = m_window->size();
    arrange();
    // Moving docks may have raised a shown window's minimum size for a moment; keep its size.
    // (A window not shown yet has no minimum to keep to: it is left alone.)
    if (m_window->isVisible() && !(m_window->windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen))) {
        if (QLayout *layout = m_window->layout())
            layout->activate();
        m_window->resize(size);
    }
    const Sizes s = sizesFor(preset, m_window->size());
    switch (preset) {
    case Preset::Default:
    case Preset::Tune:
        d.thresholds->raise();
        d.timeline->raise();
        break;
    case Preset::Converse:
        for (QDockWidget *dock : {d.thresholds, d.anchors, d.offloads, d.context})
            dock->hide();
        d.timeline->raise();
        break;
    case Preset::Inspect:
        d.context->raise();
        d.compactions->raise();
        break;
    }
    m_window->resizeDocks({d.timeline}, {s.bottom}, Qt::Vertical);
    if (s.right > 0)
        m_window->resizeDocks({d.sessions, d.thresholds}, {s.left, s.right}, Qt::Horizontal);
    else
        m_window->resizeDocks({d.sessions}, {s.left}, Qt::Horizontal);
}

} // namespace wl
