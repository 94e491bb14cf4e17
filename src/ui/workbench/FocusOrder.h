#pragma once

#include <QList>
#include <Qt>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace wl {

// Where Tab and Shift+Tab go in the main window: in reading order, whatever the layout.
//   1. the central area (the conversation, the prompt, Send), in its focus chain's order;
//   2. the docked docks by where they are on screen: top to bottom, then left to right;
//   3. the rest (the status bar).
// Within each part the focus chain's order is kept: each panel puts its own controls in
// visual order with setTabOrder. The tab bar of a group of tabbed docks follows the dock in front
// (its arrow keys bring another to the front). A dock behind another tab of its group is skipped: Qt keeps
// such a dock "visible" and only moves it off the window, so its controls would take focus
// without being seen. Floating docks are windows of their own, with their own Tab order.
namespace FocusOrder {

// The docked docks that are on screen, in reading order.
QList<QDockWidget *> docks(const QMainWindow *window);

// Every widget Tab stops at, in order.
QList<QWidget *> stops(const QMainWindow *window);

// The stop after (forward) or before `from`, wrapping around; from a widget that is not a stop,
// the nearest stop along the focus chain; nullptr when there is none.
QWidget *next(const QMainWindow *window, const QWidget *from, bool forward);

// Gives `target` the focus and scrolls every scroll area around it to show it (as Qt's own Tab
// does in a QScrollArea).
void focus(QWidget *target, Qt::FocusReason reason);

} // namespace FocusOrder

} // namespace wl
