#include "FocusOrder.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>
#include <QTabBar>

#include <algorithm>
#include <cstdlib>

namespace wl::FocusOrder {

namespace {

// The dock a widget sits in (directly in the window), if any.
QDockWidget *dockOf(const QMainWindow *window, const QWidget *widget)
{
    for (QWidget *w = widget->parentWidget(); w && w != window; w = w->parentWidget()) {
        if (auto *dock = qobject_cast<QDockWidget *>(w); dock && dock->parentWidget() == window)
            return dock;
    }
    return nullptr;
}

// Docked and in front: a dock behind another tab is moved off the window, not hidden.
bool onScreen(const QMainWindow *window, const QDockWidget *dock)
{
    return dock->isVisibleTo(window) && !dock->isFloating() && dock->geometry().intersects(window->rect());
}

// What Qt itself asks of a widget before Tab gives it focus.
bool takesTabFocus(const QMainWindow *window, const QWidget *widget)
{
    return (widget->focusPolicy() & Qt::TabFocus) == Qt::TabFocus && !widget->focusProxy()
           && widget->window() == window && widget->isVisibleTo(window) && widget->isEnabled();
}

// The tab bar under a group of tabbed docks belongs with the dock in front: the docked dock
// nearest to it among those it lies under or over.
qsizetype tabBarPart(const QWidget *tabBar, const QList<QDockWidget *> &ordered)
{
    const QRect bar = tabBar->geometry();
    qsizetype best = -1;
    int bestGap = 0;
    for (qsizetype i = 0; i < ordered.size(); ++i) {
        const QRect dock = ordered.at(i)->geometry();
        if (dock.right() < bar.left() || dock.left() > bar.right())
            continue;
        const int gap = std::min(std::abs(bar.top() - dock.bottom()), std::abs(dock.top() - bar.bottom()));
        if (best < 0 || gap < bestGap) {
            best = i;
            bestGap = gap;
        }
    }
    return best;
}

} // namespace

QList<QDockWidget *> docks(const QMainWindow *window)
{
    QList<QDockWidget *> result;
    const auto children = window->findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly);
    for (QDockWidget *dock : children) {
        if (onScreen(window, dock))
            result.append(dock);
    }
    std::stable_sort(result.begin(), result.end(), [](const QDockWidget *a, const QDockWidget *b) {
        const QPoint pa = a->geometry().topLeft();
        const QPoint pb = b->geometry().topLeft();
        return pa.y() != pb.y() ? pa.y() < pb.y() : pa.x() < pb.x();
    });
    return result;
}

QList<QWidget *> stops(const QMainWindow *window)
{
    const QList<QDockWidget *> ordered = docks(window);
    const QWidget *central = window->centralWidget();
    const qsizetype rest = ordered.size() + 1;
    // Each stop with its part: 0 the central area, 1.. the docks in reading order, then the rest.
    QList<std::pair<qsizetype, QWidget *>> parts;
    QWidget *w = window->nextInFocusChain();
    for (qsizetype guard = 0; w && w != window && guard < 100000; ++guard, w = w->nextInFocusChain()) {
        if (!takesTabFocus(window, w))
            continue;
        qsizetype part = rest;
        if (QDockWidget *dock = dockOf(window, w)) {
            if (!onScreen(window, dock))
                continue;
            part = 1 + ordered.indexOf(dock);
        } else if (central && central->isAncestorOf(w)) {
            part = 0;
        } else if (qobject_cast<QTabBar *>(w) && w->parentWidget() == window) {
            if (const qsizetype near = tabBarPart(w, ordered); near >= 0)
                part = 1 + near;
        }
        parts.append({part, w});
    }
    std::stable_sort(parts.begin(), parts.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<QWidget *> result;
    result.reserve(parts.size());
    for (const auto &[part, widget] : std::as_const(parts))
        result.append(widget);
    return result;
}

QWidget *next(const QMainWindow *window, const QWidget *from, bool forward)
{
    const QList<QWidget *> all = stops(window);
    const qsizetype index = all.indexOf(from);
    if (index < 0) {
        // From a widget Tab does not stop at (in a dock just sent behind a tab): the next stop
        // along the focus chain.
        if (!from)
            return nullptr;
        for (QWidget *w = forward ? from->nextInFocusChain() : from->previousInFocusChain(); w && w != from;
             w = forward ? w->nextInFocusChain() : w->previousInFocusChain()) {
            if (all.contains(w))
                return w;
        }
        return nullptr;
    }
    const qsizetype count = all.size();
    return all.at((index + (forward ? 1 : count - 1)) % count);
}

void focus(QWidget *target, Qt::FocusReason reason)
{
    target->setFocus(reason);
    for (QWidget *w = target->parentWidget(); w; w = w->parentWidget()) {
        if (auto *area = qobject_cast<QScrollArea *>(w))
            area->ensureWidgetVisible(target);
    }
}

} // namespace wl::FocusOrder
