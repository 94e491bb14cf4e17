#pragma once

#include <QString>

// Reading and writing whole text files for write_file and edit_file.
namespace wl::TextFiles {

inline constexpr qint64 maxEditableBytes = 16 * 1024 * 1024;

struct Loaded
{
    bool ok = false;
    bool exists = false;
    QString text;
    QString error;
};

// A missing file loads as empty text with exists == false (and ok). Binary or
// non-UTF-8 files, folders and files over maxEditableBytes fail with a message.
Loaded load(const QString &absolutePath, const QString &displayPath);

// Atomic write (QSaveFile), creating missing parent folders. Returns an error message, empty on success.
QString save(const QString &absolutePath, const QString &displayPath, const QByteArray &bytes);

} // namespace wl::TextFiles
