#include "tools/RootDirectory.h"

#include "LoggingCategories.h"

#include <QFile>
#include <QRandomGenerator>
#include <QStringList>

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// The components of a relative path from Workspace::resolve(); nullopt-like empty + error for "..".
QStringList componentsOf(const QString &relativePath, QString *error, const QString &displayPath)
{
    QStringList components;
    for (const QString &part : relativePath.split(u'/', Qt::SkipEmptyParts)) {
        if (part == u".")
            continue;
        if (part == u"..") {
            *error = u"path '%1' contains '..' after it was checked; refusing it"_s.arg(displayPath);
            return {};
        }
        components << part;
    }
    return components;
}

QString changedMessage(const QString &displayPath)
{
    return u"'%1' changed while it was being opened: a part of it is now a symbolic link or not a folder, "
           "which could lead outside the workspace; refusing it"_s.arg(displayPath);
}

QString kindOfSpecial(mode_t mode)
{
    if (S_ISFIFO(mode))
        return u"a FIFO (named pipe)"_s;
    if (S_ISSOCK(mode))
        return u"a socket"_s;
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return u"a device"_s;
    return u"not a regular file"_s;
}

int openAt(int folderFd, const QByteArray &name, int flags, mode_t mode = 0)
{
    int fd;
    do {
        fd = ::openat(folderFd, name.constData(), flags | O_CLOEXEC | O_NOFOLLOW, mode);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

bool writeAll(int fd, const QByteArray &bytes)
{
    const char *data = bytes.constData();
    qsizetype left = bytes.size();
    while (left > 0) {
        const ssize_t written = ::write(fd, data, size_t(left));
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += written;
        left -= written;
    }
    return true;
}

} // namespace

RootDirectory::RootDirectory(const QString &canonicalPath)
    : m_path(canonicalPath)
{
    if (canonicalPath.isEmpty())
        return;
    m_fd.reset(::open(QFile::encodeName(canonicalPath).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!m_fd.isValid())
        qCWarning(lcTools) << "cannot open the workspace folder" << canonicalPath << qt_error_string(errno);
}

UniqueFd RootDirectory::openParent(const QStringList &components, bool create, const QString &displayPath,
                                   QString *error, bool *missing) const
{
    *missing = false;
    // A fresh open file description, never a dup: folder listings keep their own position.
    UniqueFd current(openAt(m_fd.get(), QByteArrayLiteral("."), O_RDONLY | O_DIRECTORY));
    if (!current.isValid()) {
        *error = u"cannot open the workspace folder: %1"_s.arg(qt_error_string(errno));
        return {};
    }
    for (qsizetype i = 0; i + 1 < components.size(); ++i) {
        const QByteArray name = QFile::encodeName(components[i]);
        int next = openAt(current.get(), name, O_RDONLY | O_DIRECTORY);
        if (next < 0 && errno == ENOENT && create) {
            if (::mkdirat(current.get(), name.constData(), 0777) != 0 && errno != EEXIST) {
                *error = u"cannot create the folder for '%1': %2"_s.arg(displayPath, qt_error_string(errno));
                return {};
            }
            next = openAt(current.get(), name, O_RDONLY | O_DIRECTORY);
        }
        if (next < 0) {
            if (errno == ENOENT) {
                *missing = true;
                return {};
            }
            if (errno == ELOOP || errno == ENOTDIR)
                *error = changedMessage(displayPath);
            else
                *error = u"cannot open '%1': %2"_s.arg(displayPath, qt_error_string(errno));
            return {};
        }
        current.reset(next);
    }
    return current;
}

RootDirectory::Opened RootDirectory::open(const QString &relativePath, const QString &displayPath) const
{
    Opened opened;
    if (!isOpen()) {
        opened.error = u"the workspace folder is not open"_s;
        return opened;
    }
    const QStringList components = componentsOf(relativePath, &opened.error, displayPath);
    if (!opened.error.isEmpty())
        return opened;
    if (components.isEmpty()) {
        opened.fd.reset(openAt(m_fd.get(), QByteArrayLiteral("."), O_RDONLY | O_DIRECTORY));
        if (!opened.fd.isValid()) {
            opened.error = u"cannot open the workspace folder: %1"_s.arg(qt_error_string(errno));
            return opened;
        }
        opened.kind = Kind::Folder;
        return opened;
    }
    bool missing = false;
    const UniqueFd parent = openParent(components, false, displayPath, &opened.error, &missing);
    if (!parent.isValid())
        return opened;
    return openEntry(parent.get(), components.constLast(), displayPath);
}

RootDirectory::Opened RootDirectory::openEntry(int folderFd, const QString &name, const QString &displayPath)
{
    Opened opened;
    const QByteArray encoded = QFile::encodeName(name);
    struct stat before;
    if (::fstatat(folderFd, encoded.constData(), &before, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno != ENOENT)
            opened.error = u"cannot open '%1': %2"_s.arg(displayPath, qt_error_string(errno));
        return opened;
    }
    if (S_ISLNK(before.st_mode)) {
        opened.error = changedMessage(displayPath);
        return opened;
    }
    if (!S_ISREG(before.st_mode) && !S_ISDIR(before.st_mode)) {
        // Never opened: opening a FIFO or a device can block or have effects of its own.
        opened.error = u"'%1' is %2, not a regular file; refusing to open it"_s.arg(displayPath, kindOfSpecial(before.st_mode));
        return opened;
    }
    const bool folder = S_ISDIR(before.st_mode);
    UniqueFd fd(openAt(folderFd, encoded, O_RDONLY | O_NONBLOCK | O_NOCTTY | (folder ? O_DIRECTORY : 0)));
    if (!fd.isValid()) {
        if (errno == ENOENT)
            return opened;
        opened.error = errno == ELOOP || errno == ENOTDIR ? changedMessage(displayPath)
                                                          : u"cannot open '%1': %2"_s.arg(displayPath, qt_error_string(errno));
        return opened;
    }
    struct stat after;
    if (::fstat(fd.get(), &after) != 0) {
        opened.error = u"cannot open '%1': %2"_s.arg(displayPath, qt_error_string(errno));
        return opened;
    }
    // Swapped between the look and the open: whatever it is now, it is not what was checked.
    if (after.st_dev != before.st_dev || after.st_ino != before.st_ino || (after.st_mode & S_IFMT) != (before.st_mode & S_IFMT)) {
        opened.error = changedMessage(displayPath);
        return opened;
    }
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags >= 0)
        ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
    opened.kind = folder ? Kind::Folder : Kind::File;
    opened.size = folder ? 0 : qint64(after.st_size);
    opened.hardLinks = folder ? 1 : qint64(after.st_nlink);
    opened.fd = std::move(fd);
    return opened;
}

RootDirectory::Written RootDirectory::write(const QString &relativePath, const QString &displayPath,
                                            const QByteArray &bytes) const
{
    Written written;
    if (!isOpen()) {
        written.error = u"the workspace folder is not open"_s;
        return written;
    }
    const QStringList components = componentsOf(relativePath, &written.error, displayPath);
    if (!written.error.isEmpty())
        return written;
    if (components.isEmpty()) {
        written.error = u"'%1' is a folder, not a file"_s.arg(displayPath);
        return written;
    }
    bool missing = false;
    const UniqueFd parent = openParent(components, true, displayPath, &written.error, &missing);
    if (!parent.isValid()) {
        if (written.error.isEmpty())
            written.error = u"cannot create the folder for '%1'"_s.arg(displayPath);
        return written;
    }
    const QByteArray name = QFile::encodeName(components.constLast());

    mode_t mode = 0666;  // a new file: as any program would create it, less the umask
    struct stat existing;
    if (::fstatat(parent.get(), name.constData(), &existing, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISLNK(existing.st_mode)) {
            written.error = u"'%1' is a symbolic link; write_file does not write through links"_s.arg(displayPath);
            return written;
        }
        if (S_ISDIR(existing.st_mode)) {
            written.error = u"'%1' is a folder, not a file"_s.arg(displayPath);
            return written;
        }
        if (!S_ISREG(existing.st_mode)) {
            written.error = u"'%1' is %2, not a regular file; refusing to write it"_s.arg(displayPath, kindOfSpecial(existing.st_mode));
            return written;
        }
        if (existing.st_nlink > 1) {
            written.error = u"'%1' has %2 hard links: the same file has another name, possibly outside the workspace; "
                             "refusing to change it"_s.arg(displayPath).arg(qint64(existing.st_nlink));
            return written;
        }
        mode = existing.st_mode & 07777;
    } else if (errno == ENOENT) {
        written.created = true;
    } else {
        written.error = u"cannot write '%1': %2"_s.arg(displayPath, qt_error_string(errno));
        return written;
    }

    // The temporary file lives in the same real folder, so the rename cannot leave it.
    const QByteArray temporary = ".wl-" + QByteArray::number(QRandomGenerator::global()->generate64(), 16) + ".tmp";
    UniqueFd fd(openAt(parent.get(), temporary, O_WRONLY | O_CREAT | O_EXCL, written.created ? 0666 : 0600));
    if (!fd.isValid()) {
        written.error = u"cannot write '%1': %2"_s.arg(displayPath, qt_error_string(errno));
        return written;
    }
    const auto abandon = [&](int code) {
        written.error = u"cannot write '%1': %2"_s.arg(displayPath, qt_error_string(code));
        ::unlinkat(parent.get(), temporary.constData(), 0);
        return written;
    };
    if (!writeAll(fd.get(), bytes))
        return abandon(errno);
    if (!written.created && ::fchmod(fd.get(), mode) != 0)
        return abandon(errno);
    if (::fdatasync(fd.get()) != 0)
        return abandon(errno);
    fd.reset();
    if (::renameat(parent.get(), temporary.constData(), parent.get(), name.constData()) != 0)
        return abandon(errno);
    return written;
}

} // namespace wl
