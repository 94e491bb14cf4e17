#pragma once

#include <QString>
#include <QList>

class QWidget;

namespace wl {

// The docks of the main window, in the order they appear, with the object
// names that QMainWindow::saveState() keys on (never translate those).
struct DockPanel
{
    const char *objectName;
    QString title;
    QString explanation;
};

QList<DockPanel> dockPanels();

// A placeholder panel with a one-line explanation, for docks not yet filled.
QWidget *makeExplanationPanel(const QString &text, QWidget *parent);

} // namespace wl
