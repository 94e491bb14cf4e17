#pragma once

#include <QFileInfoList>
#include <QString>

namespace wl {

// A conversation stored as one JSON file per event (recent OpenHands: `<conversation>/events/`,
// files such as `0.json`, `1.json` or `event-00001-<id>.json`).
class EventFolder
{
public:
    // `path/events` when that folder exists, else `path` itself.
    static QString eventsDir(const QString &path);
    // The event files of `path` (see eventsDir): regular files named *.json (links to them too;
    // devices and pipes never), ordered by the first number in the name, then by name.
    static QFileInfoList files(const QString &path);
};

} // namespace wl
