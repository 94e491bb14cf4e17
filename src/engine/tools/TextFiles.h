#pragma once

#include <QString>

// Reading and writing whole text files for write_file and edit_file.
namespace wl::TextFiles {

inline constexpr qint64 maxEditableBytes = 16 * 1024 * 1024;

struct Loaded
{
    bool ok = false;
    bool exists = false;
    QString text;          // without the byte order mark
    bool byteOrderMark = false;
    QString error;

    // The bytes to save for `newText`, keeping the byte order mark the file had.
    QByteArray encode(const QString &newText) const;
};

// A missing file loads as empty text with exists == false (and ok). Binary or
// non-UTF-8 files, folders and files over maxEditableBytes fail with a message.
Loaded load(const QString &absolutePath, const QString &displayPath);

// Atomic write (QSaveFile), creating missing parent folders. Returns an error message, empty on success.
QString save(const QString &absolutePath, const QString &displayPath, const QByteArray &bytes);

} // namespace wl::TextFiles
