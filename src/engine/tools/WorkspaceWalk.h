#pragma once

#include <QString>

#include <atomic>
#include <functional>

namespace wl {
class RootDirectory;
}

// The file walk glob and grep share: depth first in name order, skipping `.git` and
// `.waterline` folders, never following a symbolic link to a folder, and passing a
// symbolic link to a file only when its target is inside the workspace. Folders are
// listed through descriptors opened from the root without following links, so a folder
// swapped for a link during the walk is skipped, never entered.
namespace wl::WorkspaceWalk {

struct Options
{
    qint64 maxEntries = 200000;                  // entries looked at before giving up
    const std::atomic_bool *cancelled = nullptr;
};

struct Outcome
{
    qint64 visitedEntries = 0;
    bool hitEntryLimit = false;
    bool stopped = false;  // visit returned false, or cancelled
};

struct Entry
{
    QString relativeToBase;  // the name as found, relative to the folder walked
    QString rootRelative;    // the file to open through the RootDirectory (a link's target for a link)
    QString fileName;        // the last component of relativeToBase
};

// `visit(entry)` returns false to stop the walk. `baseRelative` is relative to the root ("." for the root).
using Visitor = std::function<bool(const Entry &entry)>;

Outcome walk(const RootDirectory &root, const QString &baseRelative, const Visitor &visit, const Options &options = {});

bool isSkippedFolderName(const QString &name);  // ".git", ".waterline"

} // namespace wl::WorkspaceWalk
