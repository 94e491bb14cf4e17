#include "tools/WorkspaceWalk.h"

#include "tools/RootDirectory.h"

#include <QFile>
#include <QFileInfo>
#include <QList>

#include <algorithm>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

using namespace Qt::StringLiterals;

namespace wl::WorkspaceWalk {

namespace {

QString joined(const QString &folder, const QString &name)
{
    return folder.isEmpty() || folder == u"." ? name : folder + u'/' + name;
}

// The names in an open folder, sorted; takes the descriptor.
QStringList listNames(UniqueFd folder)
{
    QStringList names;
    DIR *dir = ::fdopendir(folder.get());
    if (!dir)
        return names;
    folder.release();  // owned by dir now
    while (const dirent *entry = ::readdir(dir)) {
        const QByteArray name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        names << QFile::decodeName(name);
    }
    ::closedir(dir);
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

bool isSkippedFolderName(const QString &name)
{
    return name == u".git" || name == u".waterline";
}

Outcome walk(const RootDirectory &root, const QString &baseRelative, const Visitor &visit, const Options &options)
{
    Outcome outcome;
    const QString rootPrefix = root.path().endsWith(u'/') ? root.path() : root.path() + u'/';
    struct Pending
    {
        QString rootRelative;
        QString relative;  // to the base
    };
    QList<Pending> stack{{baseRelative, QString()}};
    while (!stack.isEmpty()) {
        const Pending folder = stack.takeLast();
        RootDirectory::Opened opened = root.open(folder.rootRelative, folder.rootRelative);
        if (opened.kind != RootDirectory::Kind::Folder)
            continue;  // gone, or swapped for a link since it was listed: not entered
        // A second descriptor for the same folder: fstatat next to the listing.
        const UniqueFd folderFd(::fcntl(opened.fd.get(), F_DUPFD_CLOEXEC, 0));
        const QStringList names = listNames(std::move(opened.fd));
        QList<Pending> subfolders;
        for (const QString &name : names) {
            if (options.cancelled && options.cancelled->load()) {
                outcome.stopped = true;
                return outcome;
            }
            if (++outcome.visitedEntries > options.maxEntries) {
                outcome.hitEntryLimit = true;
                outcome.stopped = true;
                return outcome;
            }
            const QString relative = joined(folder.relative, name);
            const QString rootRelative = joined(folder.rootRelative, name);
            struct stat info;
            if (!folderFd.isValid() || ::fstatat(folderFd.get(), QFile::encodeName(name).constData(), &info, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
            if (S_ISLNK(info.st_mode)) {
                // Never leave the workspace through a link, never loop through a folder link. The target
                // is opened by its own path from the root, so a later swap cannot redirect it either.
                const QString target = QFileInfo(rootPrefix + rootRelative).canonicalFilePath();
                if (target.isEmpty() || !target.startsWith(rootPrefix) || !QFileInfo(target).isFile())
                    continue;
                if (!visit(Entry{relative, target.mid(rootPrefix.size()), name})) {
                    outcome.stopped = true;
                    return outcome;
                }
                continue;
            }
            if (S_ISDIR(info.st_mode)) {
                if (!isSkippedFolderName(name))
                    subfolders.append({rootRelative, relative});
                continue;
            }
            if (!S_ISREG(info.st_mode))
                continue;  // FIFOs, sockets, devices
            if (!visit(Entry{relative, rootRelative, name})) {
                outcome.stopped = true;
                return outcome;
            }
        }
        // Reverse, so the stack pops them in name order.
        for (auto it = subfolders.rbegin(); it != subfolders.rend(); ++it)
            stack.append(*it);
    }
    return outcome;
}

} // namespace wl::WorkspaceWalk
