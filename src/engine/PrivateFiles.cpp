#include "PrivateFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace wl::PrivateFiles {

namespace {

// Removes everything inside the open folder `folder`; takes ownership of the descriptor.
bool emptyFolder(int folder, const QString &shownPath, QString *error)
{
    DIR *dir = ::fdopendir(folder);
    if (!dir) {
        ::close(folder);
        *error = QCoreApplication::translate("wl::PrivateFiles", "cannot list the folder %1: %2").arg(shownPath, qt_error_string(errno));
        return false;
    }
    QList<QByteArray> names;
    while (const dirent *entry = ::readdir(dir)) {
        const QByteArray name(entry->d_name);
        if (name != "." && name != "..")
            names << name;
    }
    bool ok = true;
    for (const QByteArray &name : std::as_const(names)) {
        struct stat info;
        if (::fstatat(::dirfd(dir), name.constData(), &info, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        const QString shown = shownPath + u'/' + QFile::decodeName(name);
        if (S_ISDIR(info.st_mode)) {
            const int child = ::openat(::dirfd(dir), name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0 || !emptyFolder(child, shown, error)) {
                if (child < 0)
                    *error = QCoreApplication::translate("wl::PrivateFiles", "cannot remove the folder %1: %2").arg(shown, qt_error_string(errno));
                ok = false;
                continue;
            }
            if (::unlinkat(::dirfd(dir), name.constData(), AT_REMOVEDIR) != 0) {
                *error = QCoreApplication::translate("wl::PrivateFiles", "cannot remove the folder %1: %2").arg(shown, qt_error_string(errno));
                ok = false;
            }
        } else if (::unlinkat(::dirfd(dir), name.constData(), 0) != 0) {
            *error = QCoreApplication::translate("wl::PrivateFiles", "cannot remove %1: %2").arg(shown, qt_error_string(errno));
            ok = false;
        }
    }
    ::closedir(dir);
    return ok;
}

} // namespace

bool ensureFolder(const QString &path, QString *error)
{
    QStringList missing;
    QString level = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    while (!QFileInfo(level).isDir()) {
        if (QFileInfo::exists(level) || QFileInfo(level).isSymLink()) {
            *error = QCoreApplication::translate("wl::PrivateFiles", "cannot create the folder %1: a file with that name is in the way").arg(level);
            return false;
        }
        missing.prepend(level);
        const QString parent = QFileInfo(level).path();
        if (parent == level)
            break;
        level = parent;
    }
    for (const QString &folder : std::as_const(missing)) {
        const QByteArray encoded = QFile::encodeName(folder);
        if (::mkdir(encoded.constData(), folderMode) != 0 && errno != EEXIST) {
            *error = QCoreApplication::translate("wl::PrivateFiles", "cannot create the folder %1: %2").arg(folder, qt_error_string(errno));
            return false;
        }
        ::chmod(encoded.constData(), folderMode);  // mkdir is subject to the umask
    }
    return true;
}

bool ensureFile(const QString &path, QString *error)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
                          fileMode);
    if (fd < 0) {
        *error = QCoreApplication::translate("wl::PrivateFiles", "cannot create %1: %2").arg(path, qt_error_string(errno));
        return false;
    }
    struct stat info;
    const bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
    const bool ok = regular && ::fchmod(fd, fileMode) == 0;
    ::close(fd);
    if (!ok)
        *error = regular ? QCoreApplication::translate("wl::PrivateFiles", "cannot restrict the permissions of %1").arg(path) : QCoreApplication::translate("wl::PrivateFiles", "%1 is not a file").arg(path);
    return ok;
}

bool restrictFile(const QString &path)
{
    // An O_PATH descriptor: closing any other descriptor of the file would drop every POSIX lock
    // this process holds on it, and SQLite's locks on a database, its -wal and -shm are such locks.
    // Without them another process closing its last connection deletes the WAL this one still
    // writes to, and those writes stay invisible until this process closes the database.
    const int fd = ::open(QFile::encodeName(path).constData(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT;
    struct stat info;
    bool ok = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
    if (ok && (info.st_mode & 07777) != fileMode)
        ok = ::chmod(QByteArray("/proc/self/fd/" + QByteArray::number(fd)).constData(), fileMode) == 0;
    ::close(fd);
    return ok;
}

bool removeTree(const QString &base, const QString &relativePath, QString *error)
{
    const QStringList components = relativePath.split(u'/', Qt::SkipEmptyParts);
    if (components.isEmpty() || components.contains(u".."_s) || components.contains(u"."_s)) {
        *error = QCoreApplication::translate("wl::PrivateFiles", "refusing to remove %1 below %2").arg(relativePath, base);
        return false;
    }
    int folder = ::open(QFile::encodeName(base).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0)
        return errno == ENOENT;  // no workspace, nothing in it to remove
    QString shown = base;
    for (qsizetype i = 0; i + 1 < components.size(); ++i) {
        shown += u'/' + components[i];
        const int next = ::openat(folder, QFile::encodeName(components[i]).constData(),
                                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        const int code = errno;
        ::close(folder);
        if (next < 0) {
            if (code == ENOENT)
                return true;
            *error = code == ELOOP || code == ENOTDIR
                ? QCoreApplication::translate("wl::PrivateFiles", "not removed: %1 is a symbolic link or not a folder").arg(shown)
                : QCoreApplication::translate("wl::PrivateFiles", "cannot open %1: %2").arg(shown, qt_error_string(code));
            return false;
        }
        folder = next;
    }
    const QByteArray last = QFile::encodeName(components.constLast());
    shown += u'/' + components.constLast();
    struct stat info;
    bool ok = true;
    if (::fstatat(folder, last.constData(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
        ok = errno == ENOENT;
        if (!ok)
            *error = QCoreApplication::translate("wl::PrivateFiles", "cannot remove the folder %1: %2").arg(shown, qt_error_string(errno));
    } else if (!S_ISDIR(info.st_mode)) {
        // A link (or a file) in the folder's place: remove the name, never what it points to.
        ok = ::unlinkat(folder, last.constData(), 0) == 0;
        if (!ok)
            *error = QCoreApplication::translate("wl::PrivateFiles", "cannot remove the link %1: %2").arg(shown, qt_error_string(errno));
    } else {
        const int target = ::openat(folder, last.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        ok = target >= 0 && emptyFolder(target, shown, error);
        if (target < 0)
            *error = QCoreApplication::translate("wl::PrivateFiles", "cannot remove the folder %1: %2").arg(shown, qt_error_string(errno));
        if (ok && ::unlinkat(folder, last.constData(), AT_REMOVEDIR) != 0) {
            *error = QCoreApplication::translate("wl::PrivateFiles", "cannot remove the folder %1: %2").arg(shown, qt_error_string(errno));
            ok = false;
        }
    }
    ::close(folder);
    return ok;
}

} // namespace wl::PrivateFiles
