#include "tools/GrepTool.h"

#include "tools/GlobPattern.h"
#include "tools/ReadFileTool.h"
#include "tools/RootDirectory.h"
#include "tools/ToolArguments.h"
#include "tools/ToolRun.h"
#include "tools/Utf8Text.h"
#include "tools/Workspace.h"
#include "tools/WorkspaceWalk.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

struct Search
{
    QRegularExpression regex;
    QRegularExpression fileFilter;
    bool filterOnName = true;   // a glob without '/' matches file names, as in ripgrep
    bool hasFilter = false;
    int maxResults = GrepTool::defaultMaxResults;
    QStringList lines;
    qint64 matches = 0;
    qint64 filesSearched = 0;
    qint64 skippedBinary = 0;
    qint64 skippedLarge = 0;
    QStringList hardLinked;  // searched files that also have another name, maybe outside the workspace
    bool full() const { return matches >= maxResults; }
};

QString shortened(QStringView line)
{
    if (line.size() <= GrepTool::maxLineChars)
        return line.toString();
    return line.first(GrepTool::maxLineChars).toString() + u"…"_s;
}

// Opens the file through the root (no links followed, no special files), so a path swapped
// for a link after it was listed cannot lead the search outside.
void searchFile(Search &search, const RootDirectory &root, const QString &rootRelative, const QString &displayPath,
                const std::atomic_bool &cancelled)
{
    const RootDirectory::Opened opened = root.open(rootRelative, displayPath);
    if (opened.kind != RootDirectory::Kind::File)
        return;
    if (opened.size > GrepTool::maxFileBytes) {
        ++search.skippedLarge;
        return;
    }
    QFile device;
    if (!device.open(opened.fd.get(), QIODevice::ReadOnly, QFileDevice::DontCloseHandle))
        return;
    const QByteArray bytes = device.read(GrepTool::maxFileBytes + 1);
    if (Utf8Text::looksBinary(QByteArrayView(bytes).first(qMin<qsizetype>(bytes.size(), ReadFileTool::binarySniffBytes)),
                              bytes.size() > ReadFileTool::binarySniffBytes)) {
        ++search.skippedBinary;
        return;
    }
    ++search.filesSearched;
    if (opened.hardLinks > 1)
        search.hardLinked << displayPath;
    const QString text = QString::fromUtf8(bytes);
    qsizetype start = 0;
    int lineNumber = 0;
    while (start <= text.size() && !search.full() && !cancelled) {
        qsizetype end = text.indexOf(u'\n', start);
        if (end < 0)
            end = text.size();
        ++lineNumber;
        QStringView line = QStringView(text).mid(start, end - start);
        if (line.endsWith(u'\r'))
            line.chop(1);
        if (search.regex.matchView(line).hasMatch()) {
            ++search.matches;
            search.lines << displayPath + u':' + QString::number(lineNumber) + u": "_s + shortened(line);
        }
        if (end == text.size())
            break;
        start = end + 1;
    }
}

} // namespace

ToolSpec GrepTool::spec() const
{
    using namespace ToolArguments;
    return ToolSpec{
        u"grep"_s,
        u"Search file contents with a regular expression (Perl syntax). Prints matching lines as "
         "`file:line: text`. Searches the files under path (default: the workspace root), or the one file it "
         "names; glob filters the files (a glob without '/' matches file names, e.g. '*.cpp'). Binary files, "
         "files over %1 MB, .git and .waterline are skipped."_s
            .arg(maxFileBytes / (1024 * 1024)),
        objectSchema(
            QJsonObject{{u"pattern"_s, stringProperty(u"The regular expression"_s)},
                        {u"path"_s, stringProperty(u"File or folder to search (default: the workspace root)"_s)},
                        {u"glob"_s, stringProperty(u"Only files matching this pattern, e.g. '*.h' or 'src/**/*.cpp'"_s)},
                        {u"ignore_case"_s, booleanProperty(u"Match without regard to case (default false)"_s)},
                        {u"max_results"_s, integerProperty(u"Stop after this many matching lines (default %1, max %2)"_s
                                                               .arg(defaultMaxResults)
                                                               .arg(maxMaxResults),
                                                           1)}},
            {u"pattern"_s})};
}

ToolRun *GrepTool::run(const QJsonObject &arguments, const ToolContext &context, QObject *parent)
{
    const QString pattern = ToolArguments::string(arguments, u"pattern"_s);
    const QString path = ToolArguments::string(arguments, u"path"_s, u"."_s);
    const QString glob = ToolArguments::string(arguments, u"glob"_s);
    const bool ignoreCase = ToolArguments::boolean(arguments, u"ignore_case"_s, false);

    auto search = std::make_shared<Search>();
    search->maxResults = int(std::clamp<qint64>(ToolArguments::integer(arguments, u"max_results"_s, defaultMaxResults), 1,
                                            maxMaxResults));
    search->regex = QRegularExpression(pattern, ignoreCase ? QRegularExpression::CaseInsensitiveOption
                                                           : QRegularExpression::NoPatternOption);
    if (!search->regex.isValid())
        return fail(u"invalid regular expression '%1': %2 (at offset %3)"_s
                        .arg(pattern, search->regex.errorString())
                        .arg(search->regex.patternErrorOffset()),
                    parent);
    search->regex.optimize();
    if (!glob.isEmpty()) {
        search->hasFilter = true;
        search->filterOnName = !glob.contains(u'/');
        search->fileFilter = GlobPattern::toRegularExpression(glob);
    }
    const Workspace::Resolved resolved = context.workspace->resolve(path, Workspace::Access::Read);
    if (!resolved.ok)
        return fail(resolved.error, parent);
    if (!QFileInfo::exists(resolved.absolutePath))
        return fail(u"'%1' does not exist"_s.arg(path), parent);

    const std::shared_ptr<const RootDirectory> root = context.workspace->directory();
    const QString baseRelative = resolved.relativePath;
    return ToolRun::inThread(
        name(),
        [search, root, baseRelative, pattern, path](const std::atomic_bool &cancelled) {
            bool hitEntryLimit = false;
            const RootDirectory::Opened start = root->open(baseRelative, path);
            if (!start.ok())
                return ToolResult::error(start.error);
            if (start.kind == RootDirectory::Kind::File) {
                searchFile(*search, *root, baseRelative, baseRelative, cancelled);
            } else if (start.kind == RootDirectory::Kind::Folder) {
                WorkspaceWalk::Options options;
                options.cancelled = &cancelled;
                const WorkspaceWalk::Outcome outcome = WorkspaceWalk::walk(
                    *root, baseRelative,
                    [&](const WorkspaceWalk::Entry &entry) {
                        if (search->hasFilter
                            && !search->fileFilter
                                    .matchView(search->filterOnName ? entry.fileName : entry.relativeToBase)
                                    .hasMatch())
                            return true;
                        searchFile(*search, *root, entry.rootRelative,
                                   baseRelative == u"." ? entry.relativeToBase : baseRelative + u'/' + entry.relativeToBase,
                                   cancelled);
                        return !search->full();
                    },
                    options);
                hitEntryLimit = outcome.hitEntryLimit;
            }
            QJsonObject metadata{{u"matches"_s, search->matches},
                                 {u"filesSearched"_s, search->filesSearched},
                                 {u"skippedBinary"_s, search->skippedBinary},
                                 {u"skippedLarge"_s, search->skippedLarge}};
            QString content;
            if (search->matches == 0)
                content = u"no matches for '%1' in '%2' (%3 files searched)"_s.arg(pattern, path).arg(search->filesSearched);
            else
                content = search->lines.join(u'\n');
            if (search->full())
                content += u'\n' + u"[reached max_results (%1 lines); there may be more matches: narrow the pattern or the path, or raise max_results]"_s
                                       .arg(search->maxResults);
            if (search->skippedLarge > 0)
                content += u'\n' + u"[%1 files over %2 MB were not searched]"_s
                                       .arg(search->skippedLarge)
                                       .arg(GrepTool::maxFileBytes / (1024 * 1024));
            if (hitEntryLimit)
                content += u'\n' + u"[the search stopped early: too many files; narrow the path]"_s;
            if (!search->hardLinked.isEmpty()) {
                metadata.insert(u"hardLinked"_s, QJsonArray::fromStringList(search->hardLinked));
                content += u'\n' + u"[note: %1 searched file(s) have several hard links (the same file also has another "
                                   "name, possibly outside the workspace): %2]"_s
                                       .arg(search->hardLinked.size())
                                       .arg(search->hardLinked.mid(0, 10).join(u", "_s));
            }
            metadata.insert(u"capped"_s, search->full());
            return ToolResult::success(content, metadata);
        },
        parent);
}

} // namespace wl
