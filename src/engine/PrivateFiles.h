#pragma once

#include <QString>

// Files and folders only the user may read: the session database, audit logs, exports,
// offloaded results. Modes are set exactly (0600 files, 0700 folders), whatever the umask.
namespace wl::PrivateFiles {

inline constexpr unsigned fileMode = 0600;
inline constexpr unsigned folderMode = 0700;

// Creates `path` and any missing parents, each created level 0700; existing levels are left alone.
bool ensureFolder(const QString &path, QString *error);

// Creates `path` as an empty 0600 file if it does not exist; an existing regular file is made 0600.
// Never follows a symbolic link at `path`.
bool ensureFile(const QString &path, QString *error);

// Sets an existing regular file to 0600 (missing: nothing to do). Never follows a symbolic link.
bool restrictFile(const QString &path);

// Removes the folder `relativePath` below `base` (e.g. ".waterline/tool_results/<session>") and
// everything in it, without following a symbolic link anywhere: each level is opened from the one
// above with O_NOFOLLOW. A link as the last component is removed itself; a link on the way
// there is an error and nothing is removed. A missing folder is success.
bool removeTree(const QString &base, const QString &relativePath, QString *error);

} // namespace wl::PrivateFiles
