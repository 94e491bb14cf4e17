#include "tools/GlobTool.h"

#include "tools/GlobPattern.h"
#include "tools/RootDirectory.h"
#include "tools/ToolArguments.h"
#include "tools/ToolRun.h"
#include "tools/Workspace.h"
#include "tools/WorkspaceWalk.h"

#include <QFileInfo>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

ToolSpec GlobTool::spec() const
{
    using namespace ToolArguments;
    return ToolSpec{
        u"glob"_s,
        u"Find files by path pattern. `*` and `?` match within one folder, `**` across folders (`**/*.cpp` finds "
         "every .cpp file), `{a,b}` and `[abc]` as in bash. Paths are listed relative to the workspace root; .git "
         "and .waterline are skipped."_s,
        objectSchema(QJsonObject{{u"pattern"_s, stringProperty(u"The pattern, relative to path"_s)},
                                 {u"path"_s, stringProperty(u"Folder to search in (default: the workspace root)"_s)}},
                     {u"pattern"_s})};
}

ToolRun *GlobTool::run(const QJsonObject &arguments, const ToolContext &context, QObject *parent)
{
    const QString pattern = ToolArguments::string(arguments, u"pattern"_s);
    const QString path = ToolArguments::string(arguments, u"path"_s, u"."_s);
    if (pattern.isEmpty())
        return fail(u"invalid arguments for glob: 'pattern' is empty"_s, parent);
    if (pattern.startsWith(u'/'))
        return fail(u"the pattern '%1' must be relative; pass the folder as path instead"_s.arg(pattern), parent);
    const Workspace::Resolved resolved = context.workspace->resolve(path, Workspace::Access::Read);
    if (!resolved.ok)
        return fail(resolved.error, parent);
    if (!QFileInfo(resolved.absolutePath).isDir())
        return fail(u"'%1' is not a folder"_s.arg(path), parent);

    const std::shared_ptr<const RootDirectory> root = context.workspace->directory();
    const QString baseRelative = resolved.relativePath;
    return ToolRun::inThread(
        name(),
        [root, baseRelative, pattern, path](const std::atomic_bool &cancelled) {
            const QRegularExpression regex = GlobPattern::toRegularExpression(pattern);
            QStringList matches;
            qint64 total = 0;
            WorkspaceWalk::Options options;
            options.cancelled = &cancelled;
            const WorkspaceWalk::Outcome outcome = WorkspaceWalk::walk(
                *root, baseRelative,
                [&](const WorkspaceWalk::Entry &entry) {
                    const QString &relative = entry.relativeToBase;
                    if (regex.matchView(relative).hasMatch()) {
                        ++total;
                        if (matches.size() < maxResults)
                            matches << (baseRelative == u"." ? relative : baseRelative + u'/' + relative);
                    }
                    return true;
                },
                options);
            std::sort(matches.begin(), matches.end());
            QJsonObject metadata{{u"matches"_s, total}, {u"visitedEntries"_s, outcome.visitedEntries}};
            QString content;
            if (total == 0) {
                content = u"no files match '%1' in '%2'"_s.arg(pattern, path);
                if (!pattern.contains(u'/') && !pattern.contains(u"**"_s))
                    content += u' ' + u"(a pattern without '/' only looks directly in that folder; use '**/%1' to "
                                       "include subfolders)"_s
                                          .arg(pattern);
            } else {
                content = matches.join(u'\n');
                if (total > matches.size())
                    content += u'\n' + u"[showing %1 of %2 matches; narrow the pattern or the path]"_s
                                           .arg(matches.size())
                                           .arg(total);
            }
            if (outcome.hitEntryLimit)
                content += u'\n' + u"[the search stopped after %1 entries; narrow the path]"_s.arg(outcome.visitedEntries - 1);
            metadata.insert(u"entryLimitHit"_s, outcome.hitEntryLimit);
            return ToolResult::success(content, metadata);
        },
        parent);
}

} // namespace wl
