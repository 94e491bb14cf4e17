#pragma once

#include <QString>

#include <atomic>
#include <functional>

class QFileInfo;

// The file walk glob and grep share: depth first in name order, skipping `.git` and
// `.waterline` folders, never following a symbolic link to a folder, and passing a
// symbolic link to a file only when its target is inside the workspace.
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

// `visit(file, pathRelativeToBase)` returns false to stop the walk.
using Visitor = std::function<bool(const QFileInfo &file, const QString &relativeToBase)>;

Outcome walk(const QString &workspaceRoot, const QString &baseDirectory, const Visitor &visit, const Options &options = {});

bool isSkippedFolderName(const QString &name);  // ".git", ".waterline"

} // namespace wl::WorkspaceWalk
