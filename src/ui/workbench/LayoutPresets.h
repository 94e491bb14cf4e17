#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>

class QDockWidget;
class QMainWindow;
class QSize;

namespace wl {

// Named arrangements of the main window's docks, sized to the window they are applied to:
//   Default   sessions on the left; thresholds, anchors, offloads and context tabbed on the
//             right; timeline and compactions tabbed at the bottom. The docks get the room
//             their tables need (about 460 px on the right at 1280x720) and take the extra width
//             of a large window, so the conversation keeps a readable measure.
//   Tune      the thresholds and a tall timeline: moving sliders and watching the what-if line.
//   Converse  the conversation wide, the sessions beside it and a short timeline below.
//   Inspect   the context and offloads wide on the right, the compactions table below.
// Every preset puts each dock back in its area and tab group, shown and docked, so it also
// undoes a dock that was floated, closed or dragged elsewhere ("Reset layout" is Default).
class LayoutPresets
{
    Q_DECLARE_TR_FUNCTIONS(wl::LayoutPresets)
public:
    enum class Preset { Default, Tune, Converse, Inspect };

    struct Docks
    {
        QDockWidget *sessions = nullptr;
        QDockWidget *timeline = nullptr;
        QDockWidget *thresholds = nullptr;
        QDockWidget *anchors = nullptr;
        QDockWidget *offloads = nullptr;
        QDockWidget *context = nullptr;
        QDockWidget *compactions = nullptr;
    };

    LayoutPresets(QMainWindow *window, const Docks &docks);

    void apply(Preset preset);

    // The widest the conversation gets in Default: about 120 characters of the window's
    // font, so lines stay readable; the docks take the rest of a wide window.
    int conversationMeasure() const;

    // What a preset gives the docks in a window of `size`: the left column's width, the right
    // column's (0: hidden) and the bottom row's height.
    struct Sizes
    {
        int left = 0;
        int right = 0;
        int bottom = 0;
    };
    Sizes sizesFor(Preset preset, const QSize &size) const;

    static QString name(Preset preset);
    static QList<Preset> presets() { return {Preset::Tune, Preset::Converse, Preset::Inspect}; }

private:
    void arrange();

    QMainWindow *m_window;
    Docks m_docks;
};

} // namespace wl
