#include "CallFacts.h"

#include "FactScan.h"
#include "MessageScan.h"
#include "TextCut.h"
#include "model/ToolCall.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

QString jsonText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isArray()) {
        // ["bash", "-lc", "make test"] -> "make test"
        const QJsonArray parts = value.toArray();
        if (parts.size() >= 3 && (parts.at(1).toString() == u"-lc" || parts.at(1).toString() == u"-c"))
            return parts.at(2).toString();
        QStringList words;
        for (const QJsonValue &part : parts)
            words << part.toString();
        return words.join(u' ');
    }
    return {};
}

void readPlan(const QJsonObject &args, CallFacts *facts)
{
    // update_plan: {"plan": [{"step", "status"}]}; TodoWrite: {"todos": [{"content", "status"}]}
    const QJsonArray steps = args.contains(u"plan"_s) ? args.value(u"plan"_s).toArray() : args.value(u"todos"_s).toArray();
    for (const QJsonValue &v : steps) {
        const QJsonObject step = v.toObject();
        if (step.value(u"status"_s).toString() == u"completed")
            continue;
        const QString text = step.contains(u"step"_s) ? step.value(u"step"_s).toString() : step.value(u"content"_s).toString();
        if (!text.isEmpty())
            facts->pendingSteps << TextCut::oneLine(text, 150);
    }
}

QString unescapeJsonString(QStringView escaped)
{
    if (!escaped.contains(u'\\'))
        return escaped.toString();
    const QJsonArray unescaped = QJsonDocument::fromJson("[\"" + escaped.toUtf8() + "\"]").array();
    return unescaped.at(0).toString();
}

} // namespace

QString CallFacts::commandLine(qsizetype max) const
{
    for (size_t i = 0; i < kCommandWidths.size(); ++i) {
        if (kCommandWidths[i] == max)
            return commandLines[i];
    }
    return TextCut::oneLine(command, max);
}

CallFacts CallFacts::of(const ToolCall &call)
{
    CallFacts info;
    info.name = call.name;
    info.kind = toolKindOf(call.name);
    if (info.kind == ToolKind::Other)
        return info; // shown by name only
    if (info.kind == ToolKind::Plan) {
        if (call.arguments.size() <= 4 * MessageScan::kScanHead)
            readPlan(QJsonDocument::fromJson(call.arguments.toUtf8()).object(), &info);
        return info;
    }

    // Pick the string fields out of the first 4 KB instead of parsing the JSON: the arguments of a
    // write can be a whole file. Escaped keys inside values (\"path\") do not match.
    const QStringView head = MessageScan::head(call.arguments);
    FactScan::forEachField(head, [&](const FactScan::Field &field) {
        const QStringView key = field.key;
        const bool isCommand = key == u"command" || key == u"cmd";
        if (!field.isString) {
            // An argv array: ["bash", "-lc", "make test"].
            if (isCommand && info.kind == ToolKind::Shell && info.command.isEmpty() && call.arguments.size() <= MessageScan::kScanHead) {
                const QJsonObject args = QJsonDocument::fromJson(call.arguments.toUtf8()).object();
                info.command = jsonText(args.value(key.toString()));
            }
            return;
        }
        const QString value = unescapeJsonString(field.value);
        if (isCommand) {
            // str_replace_editor's "command" is its sub-command; "view" only reads.
            if (info.kind == ToolKind::Edit) {
                if (value == u"view")
                    info.kind = ToolKind::Read;
            } else if (info.command.isEmpty()) {
                info.command = value;
            }
        } else if (info.paths.isEmpty() && !value.isEmpty()) {
            info.paths << value;
        }
    });

    if (info.kind == ToolKind::Edit && info.paths.isEmpty() && FactScan::mayNamePatchedFile(head)) {
        // A patch (JSON-escaped or raw): "*** Update File: x", "+++ b/x".
        const QRegularExpression &patchFile = FactScan::patchFileExpression();
        for (const QRegularExpressionMatch &m :
             patchFile.globalMatchView(head, 0, QRegularExpression::NormalMatch, MessageScan::checkedOnce(head)))
            TextCut::appendUnique(&info.paths, (m.hasCaptured(1) ? m.capturedView(1) : m.capturedView(2)).trimmed().toString());
    }
    if (info.kind == ToolKind::Shell && info.command.isEmpty() && !call.argumentsValid)
        info.command = head.toString(); // some agents send the bare command line
    info.pathsHaveNoSpace = std::none_of(info.paths.cbegin(), info.paths.cend(), [](const QString &path) {
        return std::any_of(path.cbegin(), path.cend(), [](QChar c) { return c.isSpace(); });
    });
    if (!info.command.isEmpty()) {
        // oneLine() of a command every width sees whole (4 x 60 characters) is the same line cut
        // to each width: flatten it once.
        static_assert(std::is_sorted(kCommandWidths.begin(), kCommandWidths.end()));
        const bool short_ = info.command.size() <= 4 * kCommandWidths.front();
        const QString line = short_ ? TextCut::flattened(info.command, info.command.size()) : QString();
        for (size_t i = 0; i < kCommandWidths.size(); ++i)
            info.commandLines[i] = short_ ? TextCut::cut(line, kCommandWidths[i]) : TextCut::oneLine(info.command, kCommandWidths[i]);
    }
    return info;
}

} // namespace wl
