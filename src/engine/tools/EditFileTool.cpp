#include "tools/EditFileTool.h"

#include "tools/RootDirectory.h"
#include "tools/TextFiles.h"
#include "tools/ToolArguments.h"
#include "tools/ToolRun.h"
#include "tools/UnifiedDiff.h"
#include "tools/Workspace.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

QString toLf(QString text)
{
    return text.replace(u"\r\n"_s, u"\n"_s);
}

QString withEol(const QString &lfText, bool crlf)
{
    if (!crlf)
        return lfText;
    QString copy = lfText;
    return copy.replace(u'\n', u"\r\n"_s);
}

// The file's line ending: CRLF when most of its line breaks are CRLF.
bool prefersCrlf(const QString &text)
{
    const qsizetype crlf = text.count(u"\r\n"_s);
    const qsizetype lf = text.count(u'\n');
    return crlf > 0 && crlf * 2 >= lf;
}

// old_text as a pattern in which runs of spaces and tabs match any such run,
// indentation and trailing whitespace may differ and any line break matches \r?\n.
QRegularExpression tolerantPattern(const QString &oldText)
{
    const QStringList lines = toLf(oldText).split(u'\n');
    static const QRegularExpression blanks(u"[ \\t]+"_s);
    QStringList parts;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i];
        if (i > 0 && i + 1 == lines.size() && line.isEmpty()) {
            parts << QString();  // old_text ends with a line break: do not eat the next line's indentation
            continue;
        }
        const QString trimmed = line.trimmed();
        QString part;
        if (i > 0 || line.startsWith(u' ') || line.startsWith(u'\t'))
            part += u"[ \\t]*"_s;
        const QStringList words = trimmed.split(blanks, Qt::SkipEmptyParts);
        QStringList escaped;
        for (const QString &word : words)
            escaped << QRegularExpression::escape(word);
        part += escaped.join(u"[ \\t]+"_s);
        if (i + 1 < lines.size() || line.endsWith(u' ') || line.endsWith(u'\t'))
            part += u"[ \\t]*"_s;
        parts << part;
    }
    QString pattern = parts.join(u"\\r?\\n"_s);
    // A match that ends a line takes the line's trailing whitespace with it.
    if (!lines.last().isEmpty())
        pattern += u"(?:[ \\t]+(?=\\r?\\n|\\z))?"_s;
    // Leading indentation in old_text means it starts at a line start.
    if (!lines.isEmpty() && (lines.first().startsWith(u' ') || lines.first().startsWith(u'\t')))
        pattern.prepend(u"(?:^|(?<=\\n))"_s);
    return QRegularExpression(pattern);
}

} // namespace

ToolSpec EditFileTool::spec() const
{
    using namespace ToolArguments;
    return ToolSpec{
        u"edit_file"_s,
        u"Replace one passage of a text file in the workspace. old_text must occur exactly once; include enough "
         "surrounding lines to make it unique. Differences in spaces, tabs, indentation and line endings are "
         "tolerated when there is no exact match. The file keeps its line endings."_s,
        objectSchema(QJsonObject{{u"path"_s, stringProperty(u"File path, relative to the workspace root"_s)},
                                 {u"old_text"_s, stringProperty(u"The passage to replace, as it appears in the file"_s)},
                                 {u"new_text"_s, stringProperty(u"The text to put in its place"_s)}},
                     {u"path"_s, u"old_text"_s, u"new_text"_s})};
}

EditFileTool::Edit EditFileTool::apply(const QString &original, const QString &oldText, const QString &newText,
                                       const QString &displayPath)
{
    Edit edit;
    if (oldText.isEmpty()) {
        edit.error = u"old_text is empty; to write a whole file use write_file"_s;
        return edit;
    }
    if (oldText == newText) {
        edit.error = u"old_text and new_text are the same; nothing would change"_s;
        return edit;
    }
    const bool crlf = prefersCrlf(original);
    const QString replacement = withEol(toLf(newText), crlf);

    // Exact: as given, then with the file's line endings.
    QStringList candidates{oldText};
    const QString adapted = withEol(toLf(oldText), crlf);
    if (adapted != oldText)
        candidates << adapted;
    for (const QString &candidate : std::as_const(candidates)) {
        const qsizetype count = original.count(candidate);
        if (count > 1) {
            edit.matches = int(count);
            edit.error = u"old_text occurs %1 times in '%2'; include more surrounding lines so it matches exactly once"_s
                             .arg(count)
                             .arg(displayPath);
            return edit;
        }
        if (count == 1) {
            const qsizetype at = original.indexOf(candidate);
            edit.ok = true;
            edit.match = Match::Exact;
            edit.matches = 1;
            edit.text = original.left(at) + replacement + original.mid(at + candidate.size());
            return edit;
        }
    }

    const QRegularExpression pattern = tolerantPattern(oldText);
    if (!pattern.isValid()) {
        edit.error = u"old_text was not found in '%1'"_s.arg(displayPath);
        return edit;
    }
    QRegularExpressionMatch first;
    int count = 0;
    QRegularExpressionMatchIterator it = pattern.globalMatch(original);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        if (match.capturedLength() == 0)
            continue;
        if (count == 0)
            first = match;
        ++count;
    }
    edit.matches = count;
    if (count == 0) {
        edit.error = u"old_text was not found in '%1' (also tried ignoring differences in whitespace and line "
                      "endings); read the file again and copy the passage exactly"_s
                         .arg(displayPath);
        return edit;
    }
    if (count > 1) {
        edit.error = u"old_text matches %1 places in '%2' when whitespace is ignored; include more surrounding lines "
                      "so it matches exactly once"_s
                         .arg(count)
                         .arg(displayPath);
        return edit;
    }
    edit.ok = true;
    edit.match = Match::WhitespaceTolerant;
    edit.text = original.left(first.capturedStart()) + replacement + original.mid(first.capturedEnd());
    return edit;
}

ToolRun *EditFileTool::run(const QJsonObject &arguments, const ToolContext &context, QObject *parent)
{
    const QString path = ToolArguments::string(arguments, u"path"_s);
    const Workspace::Resolved resolved = context.workspace->resolve(path, Workspace::Access::Write);
    if (!resolved.ok)
        return fail(resolved.error, parent);
    const std::shared_ptr<const RootDirectory> root = context.workspace->directory();
    const QString relative = resolved.relativePath;
    const QString oldText = ToolArguments::string(arguments, u"old_text"_s);
    const QString newText = ToolArguments::string(arguments, u"new_text"_s);
    return ToolRun::inThread(
        name(),
        [root, relative, oldText, newText](const std::atomic_bool &) {
            const TextFiles::Loaded loaded = TextFiles::load(*root, relative);
            if (!loaded.exists)
                return ToolResult::error(u"file not found: '%1'; use write_file to create it"_s.arg(relative));
            if (!loaded.ok)
                return ToolResult::error(loaded.error);
            const Edit edit = apply(loaded.text, oldText, newText, relative);
            QJsonObject metadata{{u"path"_s, relative}, {u"matches"_s, edit.matches}};
            if (!edit.ok)
                return ToolResult::error(edit.error, metadata);
            const TextFiles::Saved saved = TextFiles::save(*root, relative, loaded.encode(edit.text));
            if (!saved.error.isEmpty())
                return ToolResult::error(saved.error, metadata);
            const bool tolerant = edit.match == Match::WhitespaceTolerant;
            metadata.insert(u"match"_s, tolerant ? u"whitespace"_s : u"exact"_s);
            return ToolResult::success(tolerant ? u"edited '%1' (matched ignoring whitespace differences)"_s.arg(relative)
                                                : u"edited '%1'"_s.arg(relative),
                                       metadata);
        },
        parent);
}

void EditFileTool::describe(const QJsonObject &arguments, const ToolContext &context, ApprovalRequest &request) const
{
    const QString path = ToolArguments::string(arguments, u"path"_s);
    request.summary = tr("edit_file %1").arg(path);
    const Workspace::Resolved resolved = context.workspace->resolve(path, Workspace::Access::Write);
    if (!resolved.ok) {
        request.problem = resolved.error;
        return;
    }
    request.path = resolved.relativePath;
    const TextFiles::Loaded loaded = TextFiles::load(*context.workspace->directory(), resolved.relativePath);
    if (!loaded.exists) {
        request.problem = tr("file not found: '%1'; use write_file to create it").arg(resolved.relativePath);
        return;
    }
    if (!loaded.ok) {
        request.problem = loaded.error;
        return;
    }
    if (loaded.hardLinks > 1) {
        request.problem = tr("'%1' has %2 hard links: the same file has another name, possibly outside the workspace; "
                             "the edit will be refused")
                              .arg(resolved.relativePath)
                              .arg(loaded.hardLinks);
        return;
    }
    const Edit edit = apply(loaded.text, ToolArguments::string(arguments, u"old_text"_s),
                            ToolArguments::string(arguments, u"new_text"_s), resolved.relativePath);
    if (!edit.ok) {
        request.problem = edit.error;
        return;
    }
    request.diff = UnifiedDiff::diff(loaded.text, edit.text, u"a/"_s + request.path, u"b/"_s + request.path);
}

} // namespace wl
