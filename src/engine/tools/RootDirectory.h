#pragma once

#include "tools/UniqueFd.h"

#include <QByteArray>
#include <QString>

namespace wl {

// The workspace folder held open by descriptor. Files below it are opened from that
// descriptor one path component at a time with O_NOFOLLOW, so a symbolic link swapped
// into a path after Workspace::resolve() checked it makes the open fail instead of
// leading out of the workspace. Paths given here are the relative paths resolve()
// returns (no "..", no links); anything else is refused. Thread-safe (const only).
class RootDirectory
{
public:
    explicit RootDirectory(const QString &canonicalPath);

    bool isOpen() const { return m_fd.isValid(); }
    QString path() const { return m_path; }

    enum class Kind {
        Missing,  // no such entry (or a folder on the way is missing)
        File,     // a regular file, opened for reading
        Folder,   // a folder, opened for listing
    };
    struct Opened
    {
        Kind kind = Kind::Missing;
        UniqueFd fd;          // valid for File and Folder
        qint64 size = 0;
        qint64 hardLinks = 1; // st_nlink of a file: above 1, the same file has another name, maybe outside
        QString error;        // set when the path was refused; kind is then Missing and fd invalid
        bool ok() const { return error.isEmpty(); }
    };

    // Opens `relativePath` ("." for the root) without following any link and without blocking:
    // symbolic links, FIFOs, sockets and devices are refused. `displayPath` names it in messages.
    Opened open(const QString &relativePath, const QString &displayPath) const;

    // Opens a file or folder that is an entry of the already open folder `folderFd` (the same rules).
    static Opened openEntry(int folderFd, const QString &name, const QString &displayPath);

    struct Written
    {
        QString error;        // empty on success
        bool created = false; // there was no file before
    };
    // Replaces (or creates) the file atomically: a temporary file in the same real folder,
    // renamed over the name. Missing folders are created. Refuses to write when the name is
    // a symbolic link, a folder, a special file or a file with more than one hard link.
    Written write(const QString &relativePath, const QString &displayPath, const QByteArray &bytes) const;

private:
    // The folder holding the last component, walking (and with `create`, making) each folder on the way.
    UniqueFd openParent(const QStringList &components, bool create, const QString &displayPath, QString *error,
                        bool *missing) const;

    QString m_path;
    UniqueFd m_fd;
};

} // namespace wl
