#pragma once

#include <QString>

// Reading and writing whole text files for write_file and edit_file. Paths are
// relative to the root directory (as Workspace::resolve() returns them) and are
// opened through it, never following a symbolic link.
namespace wl {
class RootDirectory;
}

namespace wl::TextFiles {

inline constexpr qint64 maxEditableBytes = 16 * 1024 * 1024;

struct Loaded
{
    bool ok = false;
    bool exists = false;
    QString text;          // without the byte order mark
    bool byteOrderMark = false;
    qint64 hardLinks = 1;  // above 1: the same file also has another name, maybe outside the workspace
    QString error;

    // The bytes to save for `newText`, keeping the byte order mark the file had.
    QByteArray encode(const QString &newText) const;
};

// A missing file loads as empty text with exists == false (and ok). Binary or
// non-UTF-8 files, folders, special files, links and files over maxEditableBytes fail with a message.
Loaded load(const RootDirectory &root, const QString &relativePath);

struct Saved
{
    QString error;         // empty on success
    bool created = false;  // the file did not exist before
};

// Atomic write (a temporary file renamed over the name, in the same real folder), creating
// missing parent folders. Refuses links, special files and files with several hard links.
Saved save(const RootDirectory &root, const QString &relativePath, const QByteArray &bytes);

} // namespace wl::TextFiles
