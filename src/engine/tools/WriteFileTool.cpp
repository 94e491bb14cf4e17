#include "tools/WriteFileTool.h"

#include "tools/RootDirectory.h"
#include "tools/TextFiles.h"
#include "tools/ToolArguments.h"
#include "tools/ToolRun.h"
#include "tools/UnifiedDiff.h"
#include "tools/Workspace.h"

using namespace Qt::StringLiterals;

namespace wl {

ToolSpec WriteFileTool::spec() const
{
    using namespace ToolArguments;
    return ToolSpec{u"write_file"_s,
                    u"Write a whole file in the workspace, replacing it if it exists. Missing folders are created. "
                     "Prefer edit_file for changing part of an existing file."_s,
                    objectSchema(QJsonObject{{u"path"_s, stringProperty(u"File path, relative to the workspace root"_s)},
                                             {u"content"_s, stringProperty(u"The complete new content of the file"_s)}},
                                 {u"path"_s, u"content"_s})};
}

ToolRun *WriteFileTool::run(const QJsonObject &arguments, const ToolContext &context, QObject *parent)
{
    const QString path = ToolArguments::string(arguments, u"path"_s);
    const Workspace::Resolved resolved = context.workspace->resolve(path, Workspace::Access::Write);
    if (!resolved.ok)
        return fail(resolved.error, parent);
    const std::shared_ptr<const RootDirectory> root = context.workspace->directory();
    const QString relative = resolved.relativePath;
    const QByteArray bytes = ToolArguments::string(arguments, u"content"_s).toUtf8();
    return ToolRun::inThread(
        name(),
        [root, relative, bytes](const std::atomic_bool &) {
            const TextFiles::Saved saved = TextFiles::save(*root, relative, bytes);
            if (!saved.error.isEmpty())
                return ToolResult::error(saved.error);
            const QJsonObject metadata{{u"path"_s, relative}, {u"bytes"_s, qint64(bytes.size())}, {u"created"_s, saved.created}};
            const QString message = saved.created ? u"wrote %1 bytes to the new file '%2'"_s
                                                  : u"wrote %1 bytes to '%2' (replaced the previous content)"_s;
            return ToolResult::success(message.arg(bytes.size()).arg(relative), metadata);
        },
        parent);
}

void WriteFileTool::describe(const QJsonObject &arguments, const ToolContext &context, ApprovalRequest &request) const
{
    const QString path = ToolArguments::string(arguments, u"path"_s);
    const QString content = ToolArguments::string(arguments, u"content"_s);
    const Workspace::Resolved resolved = context.workspace->resolve(path, Workspace::Access::Write);
    request.summary = tr("write_file %1").arg(path);
    if (!resolved.ok) {
        request.problem = resolved.error;
        return;
    }
    request.path = resolved.relativePath;
    const TextFiles::Loaded old = TextFiles::load(*context.workspace->directory(), resolved.relativePath);
    if (!old.ok && old.exists) {
        // Still writable (e.g. a binary file being replaced): show the new text against nothing.
        request.problem = old.error;
    }
    if (old.hardLinks > 1)
        request.problem = tr("'%1' has %2 hard links: the same file has another name, possibly outside the workspace; "
                             "the write will be refused")
                              .arg(request.path)
                              .arg(old.hardLinks);
    const QString oldLabel = old.exists ? u"a/"_s + request.path : u"/dev/null"_s;
    request.diff = UnifiedDiff::diff(old.ok ? old.text : QString(), content, oldLabel, u"b/"_s + request.path);
}

} // namespace wl
