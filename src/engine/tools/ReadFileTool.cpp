#include "tools/ReadFileTool.h"

#include "tools/RootDirectory.h"
#include "tools/ToolArguments.h"
#include "tools/ToolRun.h"
#include "tools/Utf8Text.h"
#include "tools/Workspace.h"

#include <QFile>
#include <QPointer>

using namespace Qt::StringLiterals;

namespace wl {

ToolSpec ReadFileTool::spec() const
{
    using namespace ToolArguments;
    return ToolSpec{
        u"read_file"_s,
        u"Read a text file in the workspace, one page at a time. Pages are byte ranges: offset (default 0) "
         "and limit (default %1, at most %2 bytes). A partial page ends with a line giving the next offset "
         "and the total size. Also reads offloaded tool results (.waterline/tool_results/...)."_s
            .arg(defaultLimit)
            .arg(maxLimit),
        objectSchema(QJsonObject{{u"path"_s, stringProperty(u"File path, relative to the workspace root"_s)},
                                 {u"offset"_s, integerProperty(u"Byte offset to start at (default 0)"_s, 0)},
                                 {u"limit"_s, integerProperty(u"Bytes to read (default %1, max %2)"_s
                                                                  .arg(defaultLimit)
                                                                  .arg(maxLimit),
                                                              1)}},
                     {u"path"_s})};
}

ToolRun *ReadFileTool::run(const QJsonObject &arguments, const ToolContext &context, QObject *parent)
{
    const QString path = ToolArguments::string(arguments, u"path"_s);
    const Workspace::Resolved resolved = context.workspace->resolve(path, Workspace::Access::Read);
    if (!resolved.ok)
        return fail(resolved.error, parent);
    const qint64 offset = ToolArguments::integer(arguments, u"offset"_s, 0);
    const qint64 limit = ToolArguments::integer(arguments, u"limit"_s, defaultLimit);
    const std::shared_ptr<const RootDirectory> root = context.workspace->directory();
    const QString relative = resolved.relativePath;
    ToolRun *run = ToolRun::inThread(
        name(),
        [root, relative, path, offset, limit](const std::atomic_bool &) {
            return readPage(*root, relative, path, offset, limit);
        },
        parent);
    if (Workspace::isOffloadPath(relative)) {
        QPointer<Workspace> workspace = context.workspace;
        QObject::connect(run, &ToolRun::finished, context.workspace, [workspace, relative](const ToolResult &result) {
            if (workspace && !result.isError)
                workspace->noteRead(relative);
        });
    }
    return run;
}

ToolResult ReadFileTool::readPage(const RootDirectory &root, const QString &relativePath, const QString &displayPath,
                                  qint64 offset, qint64 limit)
{
    const RootDirectory::Opened opened = root.open(relativePath, displayPath);
    if (!opened.ok())
        return ToolResult::error(opened.error);
    if (opened.kind == RootDirectory::Kind::Missing)
        return ToolResult::error(u"file not found: '%1'"_s.arg(displayPath));
    if (opened.kind == RootDirectory::Kind::Folder)
        return ToolResult::error(u"'%1' is a folder, not a file; use glob to list its files"_s.arg(displayPath));
    QFile file;
    if (!file.open(opened.fd.get(), QIODevice::ReadOnly, QFileDevice::DontCloseHandle))
        return ToolResult::error(u"cannot read '%1': %2"_s.arg(displayPath, file.errorString()));

    const qint64 total = file.size();
    QJsonObject metadata{{u"path"_s, displayPath}, {u"totalBytes"_s, total}};
    // Another name for the same file may be outside the workspace: say so, so nobody mistakes it for a workspace file.
    const QString hardLinkNote = opened.hardLinks > 1
        ? u"[note: '%1' has %2 hard links; the same file also has another name, possibly outside the workspace]"_s
              .arg(displayPath)
              .arg(opened.hardLinks)
        : QString();
    if (opened.hardLinks > 1)
        metadata.insert(u"hardLinks"_s, opened.hardLinks);
    const QByteArray sniff = file.read(qMin(total, binarySniffBytes));
    if (Utf8Text::looksBinary(sniff, total > sniff.size())) {
        metadata.insert(u"binary"_s, true);
        return ToolResult::error(
            u"'%1' is a binary file (%2 bytes); read_file shows text files only"_s.arg(displayPath).arg(total), metadata);
    }
    if (total == 0)
        return ToolResult::success(u"[the file '%1' is empty]"_s.arg(displayPath), metadata);
    if (offset >= total)
        return ToolResult::error(
            u"offset %1 is past the end of '%2' (%3 bytes)"_s.arg(offset).arg(displayPath).arg(total), metadata);

    const bool clamped = limit > maxLimit;
    limit = qBound<qint64>(1, limit, maxLimit);
    // Read a few bytes on either side, so the page can be moved to whole sequences.
    const qint64 readStart = qMax<qint64>(0, offset - 3);
    if (!file.seek(readStart))
        return ToolResult::error(u"cannot read '%1': %2"_s.arg(displayPath, file.errorString()), metadata);
    const QByteArray buffer = file.read(offset - readStart + limit + 4);
    const qsizetype wanted = qsizetype(offset - readStart);
    const qsizetype begin = Utf8Text::boundaryAtOrBefore(buffer, wanted);
    qsizetype end = Utf8Text::boundaryAtOrBefore(buffer, qMin<qsizetype>(buffer.size(), wanted + qsizetype(limit)));
    if (end <= begin)  // a limit smaller than one character still returns that character
        end = Utf8Text::boundaryAtOrAfter(buffer, begin + 1);
    const qint64 pageStart = readStart + begin;
    const qint64 pageEnd = readStart + end;

    QString content = QString::fromUtf8(buffer.mid(begin, end - begin));
    metadata.insert(u"offset"_s, pageStart);
    metadata.insert(u"bytes"_s, pageEnd - pageStart);
    if (clamped)
        metadata.insert(u"limitClampedTo"_s, maxLimit);
    if (pageEnd < total) {
        metadata.insert(u"nextOffset"_s, pageEnd);
        if (!content.endsWith(u'\n'))
            content += u'\n';
        content += u"[showing bytes %1-%2 of %3 total; next offset: %2]"_s.arg(pageStart).arg(pageEnd).arg(total);
    }
    if (!hardLinkNote.isEmpty()) {
        if (!content.endsWith(u'\n'))
            content += u'\n';
        content += hardLinkNote;
    }
    return ToolResult::success(content, metadata);
}

} // namespace wl
