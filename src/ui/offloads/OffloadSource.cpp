#include "offloads/OffloadSource.h"

#include "compaction/CallFacts.h"
#include "compaction/TextCut.h"
#include "model/ToolCall.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr qsizetype kLabelWidth = 100;
// Larger arguments are not parsed for the label of an unknown tool: they hold content, not a name.
constexpr qsizetype kMaxParsedArguments = 16 * 1024;
// An unknown tool is named by this many of its short string arguments.
constexpr int kOtherFields = 2;
constexpr qsizetype kFieldWidth = 60;

// The file a plain viewing command shows ("cat lib/a.ex", "head -n 40 x.py"), else empty.
QString viewedFile(const QString &command)
{
    static const QStringList viewers{u"cat"_s, u"head"_s, u"tail"_s, u"nl"_s, u"bat"_s, u"less"_s, u"more"_s};
    if (command.contains(u'|') || command.contains(u';') || command.contains(u'&') || command.contains(u'>'))
        return {};
    const QStringList words = command.simplified().split(u' ', Qt::SkipEmptyParts);
    if (words.size() < 2 || !viewers.contains(words.front()))
        return {};
    QString last = words.back();
    if (last.startsWith(u'-'))
        return {};
    if (last.size() > 1 && (last.front() == u'"' || last.front() == u'\'') && last.back() == last.front())
        last = last.mid(1, last.size() - 2);
    return last;
}

QString otherLabel(const ToolCall &call)
{
    if (call.arguments.size() > kMaxParsedArguments)
        return {};
    const QJsonObject args = QJsonDocument::fromJson(call.arguments.toUtf8()).object();
    QStringList parts;
    for (auto it = args.constBegin(); it != args.constEnd() && parts.size() < kOtherFields; ++it) {
        const QString value = it.value().toString();
        if (!it.value().isString() || value.trimmed().isEmpty())
            continue;
        parts << it.key() + u": "_s + TextCut::oneLine(value, kFieldWidth);
    }
    return parts.join(u", "_s);
}

} // namespace

OffloadSource OffloadSource::of(const ToolCall &call)
{
    OffloadSource source;
    const CallFacts facts = CallFacts::of(call);
    switch (facts.kind) {
    case ToolKind::Read:
    case ToolKind::Edit:
        if (!facts.paths.isEmpty()) {
            source.fileName = facts.paths.front();
            source.label = TextCut::oneLine(facts.paths.join(u", "_s), kLabelWidth);
        }
        break;
    case ToolKind::Shell:
        source.label = facts.commandLine(kLabelWidth);
        source.fileName = viewedFile(facts.command);
        break;
    case ToolKind::Plan:
    case ToolKind::Other:
        source.label = otherLabel(call);
        break;
    }
    return source;
}

} // namespace wl
