#include "tools/WorkspaceWalk.h"

#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace wl::WorkspaceWalk {

bool isSkippedFolderName(const QString &name)
{
    return name == u".git" || name == u".waterline";
}

Outcome walk(const QString &workspaceRoot, const QString &baseDirectory, const Visitor &visit, const Options &options)
{
    Outcome outcome;
    const QString rootPrefix = workspaceRoot.endsWith(u'/') ? workspaceRoot : workspaceRoot + u'/';
    struct Pending
    {
        QString absolute;
        QString relative;
    };
    QList<Pending> stack{{baseDirectory, QString()}};
    while (!stack.isEmpty()) {
        const Pending folder = stack.takeLast();
        const QFileInfoList entries = QDir(folder.absolute)
                                          .entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                                                         QDir::Name);
        QList<Pending> subfolders;
        for (const QFileInfo &entry : entries) {
            if (options.cancelled && options.cancelled->load()) {
                outcome.stopped = true;
                return outcome;
            }
            if (++outcome.visitedEntries > options.maxEntries) {
                outcome.hitEntryLimit = true;
                outcome.stopped = true;
                return outcome;
            }
            const QString relative = folder.relative.isEmpty() ? entry.fileName() : folder.relative + u'/' + entry.fileName();
            if (entry.isSymLink()) {
                // Never leave the workspace through a link, never loop through a folder link.
                const QString target = entry.canonicalFilePath();
                if (target.isEmpty() || !target.startsWith(rootPrefix) || !QFileInfo(target).isFile())
                    continue;
                if (!visit(entry, relative)) {
                    outcome.stopped = true;
                    return outcome;
                }
                continue;
            }
            if (entry.isDir()) {
                if (!isSkippedFolderName(entry.fileName()))
                    subfolders.append({entry.absoluteFilePath(), relative});
                continue;
            }
            if (!entry.isFile())
                continue;
            if (!visit(entry, relative)) {
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
