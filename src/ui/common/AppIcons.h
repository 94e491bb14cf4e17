#pragma once

#include <QIcon>
#include <QList>

// The icons of the main actions and docks: the user's icon theme where it has the name, else a small
// bundled set of SVGs (resources/icons/actions, in the ":/icons/actions" resource).
namespace wl::AppIcons {

enum class Icon {
    NewSession,
    Import,
    Export,
    Settings,
    Run,
    Stop,
    Demo,
    SessionsDock,
    TimelineDock,
    ThresholdsDock,
    AnchorsDock,
    OffloadsDock,
    ContextDock,
    CompactionsDock,
    ProxyDock,
};

QList<Icon> all();

// The freedesktop or Breeze name looked up in the icon theme ("document-new"); empty for bundled-only icons.
QString themeName(Icon icon);
// The bundled SVG (":/icons/actions/<name>.svg").
QString bundledPath(Icon icon);
// The bundled drawing alone, drawn by Qt SVG at any size (no image or icon-engine plugin needed).
QIcon bundledIcon(Icon icon);

// QIcon::fromTheme(themeName, bundledIcon()).
QIcon icon(Icon icon);
// The icon of a dock by its object name ("OffloadsDock"); a null icon for a name it does not know.
QIcon dockIcon(const QString &dockObjectName);

} // namespace wl::AppIcons
