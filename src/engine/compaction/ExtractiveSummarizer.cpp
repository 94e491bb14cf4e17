#include "ExtractiveSummarizer.h"

#include "Checkpoint.h"
#include "TextSink.h"
#include "FactScan.h"
#include "model/Message.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QRegularExpression>
#include <QSet>
#include <QVarLengthArray>

#include <array>
#include <deque>
#include <optional>
#include <unordered_map>
#include <vector>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr qsizetype kScanHead = 4096; // characters of a message (or call arguments) we look at
constexpr qsizetype kScanTail = 1024; // plus its end, where exit codes are printed
constexpr qsizetype kIntentChars = 400;
constexpr qsizetype kLaterChars = 160;
constexpr qsizetype kShortUserMessage = 400; // longer later messages are new tasks, not corrections
constexpr int kMaxLater = 3;
constexpr int kMaxDecisions = 4;
constexpr int kMaxTried = 4;
constexpr int kMaxNextLines = 6;
constexpr int kMaxProgressFiles = 12;
constexpr int kMaxProgressCommands = 6;

// ---------------------------------------------------------------------------------------------
// Text helpers: every cut is on a character boundary (no half surrogate pair, no orphaned mark).

qsizetype safeCutPosition(QStringView text, qsizetype max)
{
    if (text.size() <= max)
        return text.size();
    qsizetype at = max;
    while (at > 0 && (text[at].isLowSurrogate() || text[at].isMark()))
        --at;
    return at;
}

QString cut(QStringView text, qsizetype max)
{
    if (text.size() <= max)
        return text.toString();
    return text.first(safeCutPosition(text, max - 1)).trimmed().toString() + u'\u2026';
}

// The first `chars` characters of `text` as one line: whitespace runs collapsed, leading
// heading/list markers dropped.
QString flattened(QStringView text, qsizetype chars)
{
    QString line = text.first(safeCutPosition(text, chars)).toString().simplified();
    qsizetype start = 0;
    while (start < line.size() && (line[start] == u'#' || line[start] == u'>' || line[start].isSpace()))
        ++start;
    if (start > 0)
        line.remove(0, start);
    return line;
}

// True when oneLine(text, max) is `text` itself: most paths and commands are one short line
// already, with nothing to collapse, strip or cut.
bool isOneLineAlready(QStringView text, qsizetype max)
{
    return text.size() <= max && !text.isEmpty() && text.front() != u'#' && text.front() != u'>'
        && std::none_of(text.begin(), text.end(), [](QChar c) { return c.isSpace(); });
}

// One line: whitespace runs collapsed, leading heading/list markers dropped, cut to `max`.
QString oneLine(QStringView text, qsizetype max)
{
    if (isOneLineAlready(text, max))
        return text.toString();
    // Simplify a bounded slice only: cost stays independent of the message size.
    return cut(flattened(text, max * 4), max);
}

// PCRE2 validates the whole subject on every match call (so on every step of a global match)
// unless told not to; we check once, ourselves, and only skip its check for well-formed text.
QRegularExpression::MatchOptions checkedOnce(QStringView text)
{
    const qsizetype size = text.size();
    for (qsizetype i = 0; i < size; ++i) {
        const QChar c = text[i];
        if (!c.isSurrogate())
            continue;
        if (!c.isHighSurrogate() || i + 1 >= size || !text[i + 1].isLowSurrogate())
            return QRegularExpression::NoMatchOption;
        ++i;
    }
    return QRegularExpression::DontCheckSubjectStringMatchOption;
}

QStringView scanHead(const QString &text)
{
    return QStringView(text).first(safeCutPosition(text, kScanHead));
}

// The end of a message that scanHead() did not cover, at most kScanTail characters.
QStringView scanTail(const QString &text)
{
    qsizetype from = std::max(scanHead(text).size(), text.size() - kScanTail);
    while (from < text.size() && (text[from].isLowSurrogate() || text[from].isMark()))
        ++from;
    return QStringView(text).sliced(from);
}

// True when `item` starts like a list item already ("- ", "* ", "\u2022 ", "12. ", "3) ").
bool isListItem(QStringView item)
{
    if (item.size() >= 2 && item[1] == u' ' && (item[0] == u'-' || item[0] == u'*' || item[0] == u'\u2022'))
        return true;
    qsizetype digits = 0;
    while (digits < item.size() && item[digits] >= u'0' && item[digits] <= u'9')
        ++digits;
    return digits > 0 && digits + 1 < item.size() && (item[digits] == u'.' || item[digits] == u')') && item[digits + 1] == u' ';
}

// Adds `items` as "- item" lines, dropping the oldest ones until the block fits `max`.
QString bulletBlock(const QStringList &items, qsizetype max)
{
    if (items.isEmpty())
        return {};
    QList<bool> bare(items.size());
    qsizetype total = -1; // the newlines between lines
    for (qsizetype i = 0; i < items.size(); ++i) {
        bare[i] = !isListItem(items.at(i));
        total += items.at(i).size() + (bare[i] ? 2 : 0) + 1;
    }
    qsizetype first = 0;
    while (total > max && items.size() - first > 1) {
        total -= items.at(first).size() + (bare[first] ? 2 : 0) + 1;
        ++first;
    }
    QString text;
    text.reserve(total);
    for (qsizetype i = first; i < items.size(); ++i) {
        if (i > first)
            text += u'\n';
        if (bare[i])
            text += u"- "_s;
        text += items.at(i);
    }
    if (text.size() <= max)
        return text; // what cut() gives, without its copy
    return cut(text, max);
}

// "a, b, c (+4 more)"
QString listWithMore(const QStringList &items, int max)
{
    if (items.size() <= max)
        return items.join(u", "_s);
    return items.first(max).join(u", "_s) + u" (+%1 more)"_s.arg(items.size() - max);
}

void appendUnique(QStringList *list, const QString &item)
{
    if (!item.isEmpty() && !list->contains(item))
        list->append(item);
}

// ---------------------------------------------------------------------------------------------
// Tool calls

enum class ToolKind { Other, Edit, Shell, Read, Plan };

ToolKind kindOfTool(const QString &name)
{
    static const QHash<QString, ToolKind> kinds{
        {u"write_file"_s, ToolKind::Edit},       {u"edit_file"_s, ToolKind::Edit},
        {u"apply_patch"_s, ToolKind::Edit},      {u"str_replace_editor"_s, ToolKind::Edit},
        {u"str_replace_based_edit_tool"_s, ToolKind::Edit}, {u"write"_s, ToolKind::Edit},
        {u"edit"_s, ToolKind::Edit},             {u"multiedit"_s, ToolKind::Edit},
        {u"create_file"_s, ToolKind::Edit},      {u"replace_in_file"_s, ToolKind::Edit},
        {u"write_to_file"_s, ToolKind::Edit},    {u"notebookedit"_s, ToolKind::Edit},
        {u"apply_diff"_s, ToolKind::Edit},
        {u"bash"_s, ToolKind::Shell},            {u"shell"_s, ToolKind::Shell},
        {u"exec_command"_s, ToolKind::Shell},    {u"execute_bash"_s, ToolKind::Shell},
        {u"run_command"_s, ToolKind::Shell},     {u"run_shell_command"_s, ToolKind::Shell},
        {u"execute_command"_s, ToolKind::Shell}, {u"local_shell"_s, ToolKind::Shell},
        {u"run_terminal_cmd"_s, ToolKind::Shell}, {u"terminal"_s, ToolKind::Shell},
        {u"read_file"_s, ToolKind::Read},        {u"read"_s, ToolKind::Read},
        {u"view_file"_s, ToolKind::Read},        {u"open"_s, ToolKind::Read},
        {u"notebookread"_s, ToolKind::Read},
        {u"update_plan"_s, ToolKind::Plan},      {u"todowrite"_s, ToolKind::Plan},
    };
    return kinds.value(name.toLower(), ToolKind::Other);
}

struct CallInfo
{
    ToolKind kind = ToolKind::Other;
    QString name;
    QStringList paths;
    QString command;
    QStringList pendingSteps; // plan tools
    bool pathsHaveNoSpace = true; // no path holds whitespace (so neither does any part of one)

    // oneLine(command, max) for the widths summaries show it at, worked out once per call.
    static constexpr std::array<qsizetype, 3> kCommandWidths{60, 80, 100};
    std::array<QString, 3> commandLines;

    QString commandLine(qsizetype max) const
    {
        for (size_t i = 0; i < kCommandWidths.size(); ++i) {
            if (kCommandWidths[i] == max)
                return commandLines[i];
        }
        return oneLine(command, max);
    }
};

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

void readPlan(const QJsonObject &args, CallInfo *info)
{
    // update_plan: {"plan": [{"step", "status"}]}; TodoWrite: {"todos": [{"content", "status"}]}
    const QJsonArray steps = args.contains(u"plan"_s) ? args.value(u"plan"_s).toArray() : args.value(u"todos"_s).toArray();
    for (const QJsonValue &v : steps) {
        const QJsonObject step = v.toObject();
        if (step.value(u"status"_s).toString() == u"completed")
            continue;
        const QString text = step.contains(u"step"_s) ? step.value(u"step"_s).toString() : step.value(u"content"_s).toString();
        if (!text.isEmpty())
            info->pendingSteps << oneLine(text, 150);
    }
}

QString unescapeJsonString(QStringView escaped)
{
    if (!escaped.contains(u'\\'))
        return escaped.toString();
    const QJsonArray unescaped = QJsonDocument::fromJson("[\"" + escaped.toUtf8() + "\"]").array();
    return unescaped.at(0).toString();
}

CallInfo describeCall(const ToolCall &call)
{
    CallInfo info;
    info.name = call.name;
    info.kind = kindOfTool(call.name);
    if (info.kind == ToolKind::Other)
        return info; // shown by name only
    if (info.kind == ToolKind::Plan) {
        if (call.arguments.size() <= 4 * kScanHead)
            readPlan(QJsonDocument::fromJson(call.arguments.toUtf8()).object(), &info);
        return info;
    }

    // Pick the string fields out of the first 4 KB instead of parsing the JSON: the arguments of a
    // write can be a whole file. Escaped keys inside values (\"path\") do not match.
    const QStringView head = scanHead(call.arguments);
    FactScan::forEachField(head, [&](const FactScan::Field &field) {
        const QStringView key = field.key;
        const bool isCommand = key == u"command" || key == u"cmd";
        if (!field.isString) {
            // An argv array: ["bash", "-lc", "make test"].
            if (isCommand && info.kind == ToolKind::Shell && info.command.isEmpty() && call.arguments.size() <= kScanHead) {
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
        for (const QRegularExpressionMatch &m : patchFile.globalMatchView(head, 0, QRegularExpression::NormalMatch, checkedOnce(head)))
            appendUnique(&info.paths, (m.hasCaptured(1) ? m.capturedView(1) : m.capturedView(2)).trimmed().toString());
    }
    if (info.kind == ToolKind::Shell && info.command.isEmpty() && !call.argumentsValid)
        info.command = head.toString(); // some agents send the bare command line
    info.pathsHaveNoSpace = std::none_of(info.paths.cbegin(), info.paths.cend(), [](const QString &path) {
        return std::any_of(path.cbegin(), path.cend(), [](QChar c) { return c.isSpace(); });
    });
    if (!info.command.isEmpty()) {
        // oneLine() of a command every width sees whole (4 x 60 characters) is the same line cut
        // to each width: flatten it once.
        static_assert(std::is_sorted(CallInfo::kCommandWidths.begin(), CallInfo::kCommandWidths.end()));
        const bool short_ = info.command.size() <= 4 * CallInfo::kCommandWidths.front();
        const QString line = short_ ? flattened(info.command, info.command.size()) : QString();
        for (size_t i = 0; i < CallInfo::kCommandWidths.size(); ++i)
            info.commandLines[i] = short_ ? cut(line, CallInfo::kCommandWidths[i]) : oneLine(info.command, CallInfo::kCommandWidths[i]);
    }
    return info;
}

// ---------------------------------------------------------------------------------------------
// Failures

// A line that says something went wrong, or an empty view.
QStringView failureLine(QStringView text)
{
    const FactScan::Span m = FactScan::firstFailure(text);
    if (m.start < 0)
        return {};
    qsizetype begin = m.start;
    qsizetype end = m.end;
    while (begin > 0 && text[begin - 1] != u'\n')
        --begin;
    while (end < text.size() && text[end] != u'\n')
        ++end;
    return text.sliced(begin, end - begin).trimmed();
}

// ---------------------------------------------------------------------------------------------
// Sentences of choice and plans

QString sentenceAround(QStringView text, qsizetype at, qsizetype matchLength)
{
    auto isEnd = [&](qsizetype i) {
        const QChar c = text[i];
        if (c == u'\n' || c == u'\u3002' || c == u'\uFF01' || c == u'\uFF1F')
            return true;
        return (c == u'.' || c == u'!' || c == u'?') && (i + 1 >= text.size() || text[i + 1].isSpace());
    };
    qsizetype begin = at;
    const qsizetype minBegin = std::max<qsizetype>(0, at - 240);
    while (begin > minBegin && !isEnd(begin - 1))
        --begin;
    qsizetype end = at + matchLength;
    const qsizetype maxEnd = std::min(text.size(), at + matchLength + 240);
    while (end < maxEnd && !isEnd(end))
        ++end;
    if (end < text.size())
        ++end; // keep the full stop
    return oneLine(text.sliced(begin, end - begin), 200);
}

QStringList decisionsIn(QStringView text)
{
    QStringList out;
    if (!FactScan::mayHoldChoice(text))
        return out;
    const QRegularExpression &choice = FactScan::choiceExpression();
    for (const QRegularExpressionMatch &m : choice.globalMatchView(text, 0, QRegularExpression::NormalMatch, checkedOnce(text))) {
        const QString sentence = sentenceAround(text, m.capturedStart(), m.capturedLength());
        if (sentence.size() < 12 || sentence.endsWith(u':'))
            continue; // "Instead of:" introduces a list; it says nothing by itself
        appendUnique(&out, sentence);
        if (out.size() >= 2) // a message rarely states more than two real choices
            break;
    }
    return out;
}

QStringList planLinesIn(QStringView text)
{
    const QRegularExpression &todo = FactScan::todoExpression();
    const QRegularExpression &planHeader = FactScan::planHeaderExpression();
    QStringList lines;
    bool underHeader = false;
    for (QStringView raw : text.tokenize(u'\n')) {
        const QStringView line = raw.trimmed();
        if (line.isEmpty()) {
            underHeader = false;
            continue;
        }
        const bool bullet = line.startsWith(u"- ") || line.startsWith(u"* ") || line.startsWith(u"\u2022 ");
        if (FactScan::mayBePlanHeader(line) && planHeader.matchView(line).hasMatch()) {
            underHeader = true;
            continue;
        }
        if ((underHeader && bullet) || (FactScan::mayBeTodo(line) && todo.matchView(line).hasMatch())) {
            QString item = oneLine(line, 150);
            if (bullet && !item.startsWith(u"- "_s))
                item = u"- "_s + item.sliced(item.indexOf(u' ') + 1);
            appendUnique(&lines, item);
            if (lines.size() >= kMaxNextLines)
                break;
        }
    }
    return lines;
}

// ---------------------------------------------------------------------------------------------

bool isUserRequest(const Message &m)
{
    return m.role == Role::User && !m.isToolResult() && !isCheckpointText(m.content);
}

// User-role text that agents inject (reminders, notifications, interruptions, another tool's
// compaction summary): not something the user asked for.
bool isInjectedNoise(QStringView text)
{
    static constexpr QStringView prefixes[] = {
        u"<system-reminder>", u"<command-", u"<local-command", u"<task-notification>", u"<user-prompt-submit-hook>",
        u"[Request interrupted by user", u"Caveat: The messages below were generated by the user",
        u"This session is being continued from a previous conversation",
    };
    const QStringView t = text.trimmed();
    return t.isEmpty() || std::any_of(std::begin(prefixes), std::end(prefixes), [t](QStringView p) { return t.startsWith(p); });
}

// What a tool result says about its call, for a call of a given kind.
struct ResultFacts
{
    bool failed = false;
    QString errorLine;
};

ResultFacts resultFacts(const Message &m, ToolKind kind)
{
    // Only shell output is searched for failure words: a file's or a web page's text mentions
    // "Error:" or "exit code 2" without anything having failed. Edit results echo the edited
    // code, so only their first line counts ("Error: old text not found").
    QStringView line;
    if (kind == ToolKind::Shell) {
        line = failureLine(scanHead(m.content));
        if (line.isEmpty())
            line = failureLine(scanTail(m.content));
    } else if (kind == ToolKind::Edit) {
        const QStringView head = scanHead(m.content).trimmed();
        const qsizetype firstBreak = head.indexOf(u'\n');
        line = failureLine(firstBreak < 0 ? head : head.first(firstBreak));
    }
    ResultFacts out;
    out.failed = m.isError || !line.isEmpty();
    if (out.failed) {
        if (line.isEmpty())
            line = scanHead(m.content).trimmed();
        out.errorLine = oneLine(line.first(std::min<qsizetype>(line.size(), 400)), 140);
    }
    return out;
}

// Plan lines of a message: its start, then its end (plans tend to close a message).
QStringList planLinesOf(const QString &content)
{
    QStringList lines = planLinesIn(scanHead(content));
    QStringView tail = scanTail(content);
    if (const qsizetype firstBreak = tail.indexOf(u'\n'); firstBreak >= 0)
        tail = tail.sliced(firstBreak + 1); // the first tail line is cut, skip it
    else
        tail = {};
    for (const QString &line : planLinesIn(tail))
        appendUnique(&lines, line);
    return lines;
}

// Two strings that share their data: the same text, checked without reading it.
bool sameData(const QString &a, const QString &b)
{
    return a.size() == b.size() && a.constData() == b.constData();
}

} // namespace

// The facts of one message, each computed the first time it is asked for.
struct MessageFacts
{
    // The message they were taken from (its text is kept, so its data cannot be reused for another).
    QString content;
    QStringList arguments;
    QStringList names;
    QList<bool> argumentsValid;
    Role role = Role::User;
    bool isError = false;

    std::optional<QList<CallInfo>> calls;
    std::array<std::optional<ResultFacts>, 3> results; // by ToolKind::Shell, Edit, anything else
    std::optional<QStringList> decisions;
    std::optional<QStringList> plans;
    std::optional<QString> firstSentence;
    QHash<qsizetype, QString> headLines; // by length

    explicit MessageFacts(const Message &m)
        : content(m.content)
        , role(m.role)
        , isError(m.isError)
    {
        for (const ToolCall &call : m.toolCalls) {
            arguments << call.arguments;
            names << call.name;
            argumentsValid << call.argumentsValid;
        }
    }

    bool isFactsOf(const Message &m) const
    {
        if (role != m.role || isError != m.isError || !sameData(content, m.content) || arguments.size() != m.toolCalls.size())
            return false;
        for (qsizetype k = 0; k < arguments.size(); ++k) {
            const ToolCall &call = m.toolCalls.at(k);
            if (!sameData(arguments.at(k), call.arguments) || names.at(k) != call.name || argumentsValid.at(k) != call.argumentsValid)
                return false;
        }
        return true;
    }

    // The same text read character by character: for small variants only (see ExtractiveFacts::Private).
    bool isEqualTo(const Message &m) const
    {
        if (role != m.role || isError != m.isError || content != m.content || arguments.size() != m.toolCalls.size())
            return false;
        for (qsizetype k = 0; k < arguments.size(); ++k) {
            const ToolCall &call = m.toolCalls.at(k);
            if (arguments.at(k) != call.arguments || names.at(k) != call.name || argumentsValid.at(k) != call.argumentsValid)
                return false;
        }
        return true;
    }

    // Other versions of the message seen under the same id: the offload placeholders views show
    // in its place (made afresh by every what-if replay, so recognised by value, not by data).
    // Held by pointer so that an entry never moves once handed out.
    std::vector<std::unique_ptr<MessageFacts>> variants;
};

// A variant is compared by value, so only short ones are kept: placeholders hold at most 20
// preview lines of 500 UTF-8 bytes. Comparing costs less than summarising again.
constexpr qsizetype kMaxVariantChars = 16384;
constexpr size_t kMaxVariants = 4;

struct ExtractiveFacts::Private
{
    mutable QMutex mutex;
    // The first message seen with an id keeps it. A node-based map: entries never move, so a summary
    // holding the lock may keep pointers to them while it adds others.
    std::unordered_map<qint64, MessageFacts> byId;

    // Under `mutex`: the facts of `m`, created when its id is new; null when another message holds the id.
    MessageFacts *slot(const Message &m)
    {
        if (m.id <= 0)
            return nullptr;
        auto it = byId.find(m.id);
        if (it == byId.end())
            it = byId.try_emplace(m.id, m).first;
        MessageFacts &first = it->second;
        if (first.isFactsOf(m))
            return &first;
        if (m.content.size() > kMaxVariantChars || !m.toolCalls.isEmpty())
            return nullptr;
        // The first version seen may itself be a placeholder, made again by every replay.
        if (first.isEqualTo(m)) {
            first.content = m.content; // the next lookup of this copy compares no text
            return &first;
        }
        for (const std::unique_ptr<MessageFacts> &variant : first.variants) {
            if (variant->isFactsOf(m))
                return variant.get();
            if (variant->isEqualTo(m)) {
                variant->content = m.content;
                return variant.get();
            }
        }
        if (first.variants.size() >= kMaxVariants)
            return nullptr;
        return first.variants.emplace_back(std::make_unique<MessageFacts>(m)).get();
    }
};

ExtractiveFacts::ExtractiveFacts()
    : m_d(std::make_unique<Private>())
{
}

ExtractiveFacts::~ExtractiveFacts() = default;

qsizetype ExtractiveFacts::size() const
{
    QMutexLocker lock(&m_d->mutex);
    return qsizetype(m_d->byId.size());
}

qsizetype ExtractiveFacts::versionCount() const
{
    QMutexLocker lock(&m_d->mutex);
    qsizetype n = 0;
    for (const auto &[id, f] : m_d->byId)
        n += 1 + qsizetype(f.variants.size());
    return n;
}

namespace {

// The facts of the messages one summary reads, from the shared cache when there is one (locked for
// the whole summary: one lock instead of one per fact, and entries stay put while it is held) or
// from a cache of its own. Each fact is computed the first time it is asked for; references stay
// valid until the lookup is destroyed.
class FactsLookup
{
public:
    FactsLookup(const QList<const Message *> &messages, ExtractiveFacts::Private *shared)
        : m_messages(messages)
        , m_cache(shared ? shared : &m_own)
        , m_lock(shared ? &shared->mutex : nullptr)
        , m_of(size_t(messages.size()), nullptr)
    {
    }

    const QList<CallInfo> &calls(int i)
    {
        MessageFacts &f = of(i);
        if (!f.calls) {
            const Message &m = *m_messages.at(i);
            QList<CallInfo> out;
            out.reserve(m.toolCalls.size());
            for (const ToolCall &call : m.toolCalls)
                out << describeCall(call);
            f.calls = std::move(out);
        }
        return *f.calls;
    }

    const ResultFacts &result(int i, ToolKind kind)
    {
        const size_t k = kind == ToolKind::Shell ? 0 : kind == ToolKind::Edit ? 1 : 2;
        std::optional<ResultFacts> &slot = of(i).results[k];
        if (!slot)
            slot = resultFacts(*m_messages.at(i), kind);
        return *slot;
    }

    const QStringList &decisions(int i)
    {
        std::optional<QStringList> &slot = of(i).decisions;
        if (!slot)
            slot = decisionsIn(scanHead(m_messages.at(i)->content));
        return *slot;
    }

    const QStringList &plans(int i)
    {
        std::optional<QStringList> &slot = of(i).plans;
        if (!slot)
            slot = planLinesOf(m_messages.at(i)->content);
        return *slot;
    }

    // sentenceAround() of the trimmed start of the message.
    const QString &firstSentence(int i)
    {
        std::optional<QString> &slot = of(i).firstSentence;
        if (!slot)
            slot = sentenceAround(scanHead(m_messages.at(i)->content).trimmed(), 0, 0);
        return *slot;
    }

    // oneLine() of the start of the message.
    QString headLine(int i, qsizetype max)
    {
        QHash<qsizetype, QString> &lines = of(i).headLines;
        auto found = lines.find(max);
        if (found == lines.end())
            found = lines.insert(max, oneLine(scanHead(m_messages.at(i)->content), max));
        return *found;
    }

private:
    MessageFacts &of(int i)
    {
        MessageFacts *&f = m_of[size_t(i)];
        if (!f) {
            const Message &m = *m_messages.at(i);
            f = m_cache->slot(m);
            if (!f)
                f = &m_uncached.emplace_back(m); // another message holds its id: facts for this summary only
        }
        return *f;
    }

    const QList<const Message *> &m_messages;
    ExtractiveFacts::Private m_own;
    ExtractiveFacts::Private *m_cache;
    QMutexLocker<QMutex> m_lock;
    std::vector<MessageFacts *> m_of; // by message index, filled on first use
    std::deque<MessageFacts> m_uncached;
};

struct Action
{
    int callIndex = 0;   // message holding the call
    int resultIndex = -1;
    const CallInfo *call = nullptr; // in the facts, which outlive the extraction
    QStringView callId;             // the call's id, in the message
    bool failed = false;
    QStringView errorLine;          // in the facts, as the call

    QString describe(const QString &root) const
    {
        auto shown = [&root](const QString &path) { return !root.isEmpty() && path.startsWith(root) ? path.sliced(root.size()) : path; };
        switch (call->kind) {
        case ToolKind::Shell:
            if (!call->command.isEmpty())
                return u"ran \""_s + call->commandLine(80) + u'"';
            break;
        case ToolKind::Edit:
            if (!call->paths.isEmpty())
            {
                QStringList paths;
                for (const QString &path : call->paths)
                    paths << shown(path);
                return u"edited "_s + listWithMore(paths, 3);
            }
            break;
        case ToolKind::Read:
            if (!call->paths.isEmpty())
                return u"read "_s + shown(call->paths.first());
            break;
        case ToolKind::Plan:
        case ToolKind::Other:
            break;
        }
        return u"called "_s + oneLine(call->name, 60);
    }
};

// a1 + a2 == b1 + b2, without building either.
bool concatEquals(QStringView a1, QStringView a2, QStringView b1, QStringView b2)
{
    if (a1.size() + a2.size() != b1.size() + b2.size())
        return false;
    if (a1.size() > b1.size()) {
        std::swap(a1, b1);
        std::swap(a2, b2);
    }
    const qsizetype n = a1.size();
    const qsizetype m = b1.size() - n;
    return a1 == b1.first(n) && a2.first(m) == b1.sliced(n) && a2.sliced(m) == b2;
}

// A list item of a turn line, shown as `text` + `suffix`, kept once (appendUnique on what is shown).
struct Shown
{
    QStringView text;
    QStringView suffix;
};

using ShownList = QVarLengthArray<Shown, 8>;

void appendUniqueShown(ShownList *list, QStringView text, QStringView suffix = {})
{
    if (text.isEmpty() && suffix.isEmpty())
        return;
    for (const Shown &s : std::as_const(*list)) {
        if (concatEquals(s.text, s.suffix, text, suffix))
            return;
    }
    list->append({text, suffix});
}

void appendNumber(QString &out, qint64 n)
{
    text::TextAppender appender(out);
    text::putNumber(appender, n);
}

// listWithMore() written into `out`, each item shown after `prefix`. The pieces are short and many:
// the string is grown once and they are copied in, instead of one append (and size check) each.
void appendListWithMore(QString &out, const ShownList &items, int max, QStringView prefix = {})
{
    const qsizetype shown = std::min<qsizetype>(items.size(), max);
    // " (+N more)"
    std::array<char16_t, 32> moreText;
    QStringView more;
    if (items.size() > max) {
        std::array<char16_t, 20> digits;
        auto digit = digits.end();
        for (quint64 n = quint64(items.size() - max); n != 0 || digit == digits.end(); n /= 10)
            *--digit = char16_t(u'0' + n % 10);
        constexpr QStringView open = u" (+", close = u" more)";
        auto end = std::copy(open.utf16(), open.utf16() + open.size(), moreText.begin());
        end = std::copy(digit, digits.end(), end);
        end = std::copy(close.utf16(), close.utf16() + close.size(), end);
        more = QStringView(moreText.data(), end - moreText.begin());
    }
    qsizetype total = more.size();
    for (qsizetype k = 0; k < shown; ++k)
        total += (k > 0 ? 2 : 0) + prefix.size() + items[k].text.size() + items[k].suffix.size();
    const qsizetype at = out.size();
    out.resize(at + total);
    QChar *to = out.data() + at;
    auto put = [&to](QStringView piece) { to = std::copy(piece.begin(), piece.end(), to); };
    for (qsizetype k = 0; k < shown; ++k) {
        if (k > 0)
            put(u", ");
        put(prefix);
        put(items[k].text);
        put(items[k].suffix);
    }
    put(more);
    Q_ASSERT(to == out.constData() + out.size());
}

// oneLine(), as a view of `text` itself when nothing changes, else of a string kept in `keep`.
QStringView oneLineView(QStringView text, qsizetype max, std::deque<QString> *keep)
{
    if (isOneLineAlready(text, max))
        return text;
    return keep->emplace_back(oneLine(text, max));
}

// oneLineView() of (a part of) a path of `call`: the whitespace check, the longest part of
// isOneLineAlready(), was made once for the call's paths.
QStringView pathLineView(const CallInfo &call, QStringView path, qsizetype max, std::deque<QString> *keep)
{
    if (call.pathsHaveNoSpace && path.size() <= max && !path.isEmpty() && path.front() != u'#' && path.front() != u'>')
        return path; // isOneLineAlready(path, max)
    return oneLineView(path, max, keep);
}

// cut() of a string that is usually short enough already: no copy then.
void cutInPlace(QString &text, qsizetype max)
{
    if (text.size() > max)
        text = cut(text, max);
}

const QString kFailedSuffix = u" (failed)"_s;

class Extraction
{
public:
    Extraction(const QList<const Message *> &messages, ExtractiveFacts::Private *facts, const Anchors *previous)
        : m_messages(messages)
        , m_facts(messages, facts)
    {
        if (previous) {
            m_previous.anchors = *previous;
            m_hasPrevious = true;
        }
    }

    ParsedSummary run()
    {
        collect();
        findRoot();
        ParsedSummary out;
        out.structured = true;
        out.anchors.setValue(AnchorKind::UserIntent, intent());
        out.anchors.setValue(AnchorKind::ExecutionProgress, progress());
        out.anchors.setValue(AnchorKind::KeyDecision, decisions());
        out.anchors.setValue(AnchorKind::TriedSolution, tried());
        out.anchors.setValue(AnchorKind::NextStep, nextSteps());
        if (m_hasPrevious) {
            // What the new messages cannot say, the previous checkpoint still knows.
            for (AnchorKind kind : kAllAnchorKinds) {
                if (kind != AnchorKind::UserIntent && isUnknownAnchorValue(out.anchors.value(kind)))
                    out.anchors.setValue(kind, cut(m_previous.anchors.value(kind), ExtractiveSummarizer::kMaxAnchorChars));
            }
        }
        for (AnchorKind kind : kAllAnchorKinds) {
            QString value = out.anchors.value(kind).trimmed();
            if (value.isEmpty())
                value = u"N/A"_s;
            else
                cutInPlace(value, ExtractiveSummarizer::kMaxAnchorChars);
            out.anchors.setValue(kind, value);
        }
        out.summary = summary();
        return out;
    }

private:
    void appendLabel(QString &out, int index) const
    {
        const qint64 id = m_messages.at(index)->id;
        appendNumber(out, id != 0 ? id : qint64(index) + 1);
    }

    void appendRange(QString &out, int first, int last) const
    {
        out += first == last ? u"Message "_s : u"Messages "_s;
        appendLabel(out, first);
        if (first != last) {
            out += u'-';
            appendLabel(out, last);
        }
    }

    // The newest action calling `callId`, or -1. Results usually follow their call closely: the
    // recent actions are searched first, older ones through an index built when first needed.
    qsizetype actionForCall(QStringView callId)
    {
        if (callId.isEmpty())
            return -1;
        constexpr qsizetype kRecent = 16;
        const qsizetype count = qsizetype(m_actions.size());
        const qsizetype stop = std::max<qsizetype>(0, count - kRecent);
        for (qsizetype a = count - 1; a >= stop; --a) {
            if (m_actions.at(size_t(a)).callId == callId)
                return a;
        }
        for (; m_indexedActions < stop; ++m_indexedActions) {
            const QStringView id = m_actions.at(size_t(m_indexedActions)).callId;
            if (!id.isEmpty())
                m_olderActions.insert(id, m_indexedActions); // a later call with the same id wins
        }
        return m_olderActions.value(callId, -1);
    }

    void collect()
    {
        m_isRequest.assign(size_t(m_messages.size()), false);
        m_firstActionOf.assign(size_t(m_messages.size()), -1);
        m_actions.reserve(m_messages.size() / 2 + 1);
        m_userRequests.reserve(m_messages.size());
        m_assistants.reserve(m_messages.size());
        for (int i = 0; i < m_messages.size(); ++i) {
            const Message &m = *m_messages.at(i);
            if (m.role == Role::User && !m.isToolResult() && isCheckpointText(m.content)) {
                m_previous = parseCheckpointText(m.content);
                m_hasPrevious = true;
                continue;
            }
            if (isUserRequest(m) && !isInjectedNoise(scanHead(m.content))) {
                m_userRequests << i;
                m_isRequest[size_t(i)] = true;
                continue;
            }
            if (m.role == Role::Assistant) {
                m_assistants << i;
                if (!m.hasToolCalls())
                    continue;
                m_firstActionOf[size_t(i)] = qsizetype(m_actions.size());
                const QList<CallInfo> &calls = m_facts.calls(i);
                for (qsizetype k = 0; k < m.toolCalls.size(); ++k) {
                    Action &action = m_actions.emplace_back();
                    action.callIndex = i;
                    action.call = &calls.at(k);
                    action.callId = m.toolCalls.at(k).id;
                }
                continue;
            }
            if (m.isToolResult()) {
                const qsizetype found = actionForCall(m.toolCallId);
                if (found < 0)
                    continue; // its call was compacted away earlier
                Action &action = m_actions[size_t(found)];
                if (action.resultIndex >= 0)
                    continue; // duplicate result
                action.resultIndex = i;
                const ResultFacts &result = m_facts.result(i, action.call->kind);
                action.failed = result.failed;
                action.errorLine = result.errorLine;
            }
        }
    }

    // The folder every edited file lies in, when all their paths are absolute and share one at least
    // two levels deep: lists then show paths under it relative to it, and the summary names it once.
    void findRoot()
    {
        QString common;
        bool first = true;
        for (const Action &action : m_actions) {
            if (action.call->kind != ToolKind::Edit)
                continue;
            for (const QString &path : action.call->paths) {
                if (!path.startsWith(u'/'))
                    return;
                if (first) {
                    common = path.left(path.lastIndexOf(u'/') + 1);
                    first = false;
                    continue;
                }
                qsizetype n = 0;
                const qsizetype limit = std::min(common.size(), path.size());
                while (n < limit && common[n] == path[n])
                    ++n;
                common = common.left(common.left(n).lastIndexOf(u'/') + 1);
            }
        }
        if (common.count(u'/') >= 3)
            m_root = common;
    }

    // The path relative to the common root (a view: callers copy only what they keep).
    QStringView shown(const QString &path) const
    {
        return !m_root.isEmpty() && path.startsWith(m_root) ? QStringView(path).sliced(m_root.size()) : QStringView(path);
    }

    QString intent()
    {
        QStringList later;
        int firstLater = 0;
        QString first;
        if (m_hasPrevious && !isUnknownAnchorValue(m_previous.anchors.value(AnchorKind::UserIntent))) {
            first = cut(m_previous.anchors.value(AnchorKind::UserIntent), kIntentChars);
        } else if (!m_userRequests.isEmpty()) {
            first = m_facts.headLine(m_userRequests.first(), kIntentChars);
            firstLater = 1;
        }
        // The latest kMaxLater distinct head lines (each at its first appearance), oldest first.
        QVarLengthArray<QString, 16> heads;
        for (int k = firstLater; k < m_userRequests.size(); ++k) {
            const int index = m_userRequests.at(k);
            if (m_messages.at(index)->content.size() <= kShortUserMessage || firstLater == 0)
                heads.append(m_facts.headLine(index, kLaterChars));
        }
        QVarLengthArray<qsizetype, kMaxLater> kept;
        for (qsizetype k = heads.size() - 1; k >= 0 && kept.size() < kMaxLater; --k) {
            if (std::find(heads.cbegin(), heads.cbegin() + k, heads[k]) == heads.cbegin() + k)
                kept.insert(kept.cbegin(), k);
        }
        for (qsizetype k : kept)
            later << u"Later: "_s + heads[k];
        if (first.isEmpty() && later.isEmpty())
            return {};
        QStringList parts;
        if (!first.isEmpty())
            parts << first;
        parts << later;
        return parts.join(u'\n');
    }

    QString progress() const
    {
        std::deque<QString> keep;
        ShownList files;
        // Each command once, at its latest successful run, in the order of those runs: found newest first.
        QVarLengthArray<QStringView, 16> commands;
        for (auto action = m_actions.crbegin(); action != m_actions.crend(); ++action) {
            if (!action->failed && action->call->kind == ToolKind::Shell && action->resultIndex >= 0 && !action->call->command.isEmpty()) {
                const QStringView command = action->call->commandLines[2];
                if (std::find(commands.cbegin(), commands.cend(), command) == commands.cend())
                    commands.append(command);
            }
        }
        for (const Action &action : m_actions) {
            if (!action.failed && action.call->kind == ToolKind::Edit) {
                for (const QString &path : action.call->paths)
                    appendUniqueShown(&files, pathLineView(*action.call, shown(path), 160, &keep));
            }
        }
        QStringList lines;
        if (!files.isEmpty()) {
            QString line;
            line.reserve(512);
            line += u"- Files written or edited"_s;
            if (!m_root.isEmpty())
                line += u" (in "_s + oneLine(m_root, 120) + u')';
            line += u": "_s;
            appendListWithMore(line, files, kMaxProgressFiles);
            lines << line;
        }
        if (!commands.isEmpty()) {
            const qsizetype recent = std::min<qsizetype>(commands.size(), kMaxProgressCommands);
            QString line;
            line.reserve(512);
            line += u"- Commands that succeeded: "_s;
            for (qsizetype k = recent - 1; k >= 0; --k) {
                line += u'"';
                line += commands[k];
                line += u'"';
                if (k > 0)
                    line += u", "_s;
            }
            if (commands.size() > recent) {
                line += u" (and "_s;
                appendNumber(line, commands.size() - recent);
                line += u" earlier)"_s;
            }
            lines << line;
        }
        return bulletBlock(lines, ExtractiveSummarizer::kMaxAnchorChars);
    }

    QString decisions()
    {
        QStringList found; // the most recent statements of choice, oldest first
        for (qsizetype k = m_assistants.size() - 1; k >= 0 && found.size() < kMaxDecisions; --k) {
            const QStringList &sentences = m_facts.decisions(m_assistants.at(k));
            for (qsizetype j = sentences.size() - 1; j >= 0 && found.size() < kMaxDecisions; --j) {
                if (!found.contains(sentences.at(j)))
                    found.prepend(sentences.at(j));
            }
        }
        return bulletBlock(found, ExtractiveSummarizer::kMaxAnchorChars);
    }

    // What the agent did after a failure: the next assistant message's first sentence or call.
    QString followUp(int afterIndex)
    {
        for (int i = afterIndex + 1; i < m_messages.size(); ++i) {
            const Message &m = *m_messages.at(i);
            if (isUserRequest(m))
                return u"the user wrote: "_s + m_facts.headLine(i, 80);
            if (m.role != Role::Assistant)
                continue;
            if (!scanHead(m.content).trimmed().isEmpty())
                return m_facts.firstSentence(i);
            const QList<const Action *> actions = actionsOf(i);
            if (!actions.isEmpty())
                return actions.first()->describe(m_root);
        }
        return {};
    }

    QString tried()
    {
        QStringList items; // the most recent failures, oldest first
        for (qsizetype a = qsizetype(m_actions.size()) - 1; a >= 0 && items.size() < kMaxTried; --a) {
            const Action &action = m_actions.at(size_t(a));
            if (!action.failed)
                continue;
            QString item = action.describe(m_root) + u" failed"_s;
            if (!action.errorLine.isEmpty())
                item += u": "_s + action.errorLine;
            const QString next = followUp(action.resultIndex);
            if (!next.isEmpty())
                item += u" \u2192 next: "_s + next;
            cutInPlace(item, 280);
            items.prepend(std::move(item));
        }
        return bulletBlock(items, ExtractiveSummarizer::kMaxAnchorChars);
    }

    QString nextSteps()
    {
        const int lastRequest = m_userRequests.isEmpty() ? -1 : m_userRequests.last();
        for (qsizetype k = m_assistants.size() - 1; k >= 0; --k) {
            const int index = m_assistants.at(k);
            if (index < lastRequest)
                break; // a plan made before the user's latest word is stale
            // Plans tend to close a message: look at its end as well as its start.
            QStringList lines = m_facts.plans(index);
            for (const Action *action : actionsOf(index)) {
                if (action->call->kind == ToolKind::Plan) {
                    for (const QString &step : action->call->pendingSteps)
                        appendUnique(&lines, u"- "_s + step);
                }
            }
            if (!lines.isEmpty())
                return bulletBlock(lines.first(std::min<qsizetype>(lines.size(), kMaxNextLines)), ExtractiveSummarizer::kMaxAnchorChars);
        }
        return {};
    }

    // One line per user turn: "Messages 12-40: user asked "..."; edited a, b; ran "make" (failed)".
    QString turnLine(int first, int last, qsizetype actionBegin, qsizetype actionEnd)
    {
        std::deque<QString> keep;
        ShownList edited, reads, ran, other;
        for (qsizetype a = actionBegin; a < actionEnd; ++a) {
            const Action &action = m_actions.at(size_t(a));
            const CallInfo &call = *action.call;
            const QStringView failed = action.failed ? QStringView(kFailedSuffix) : QStringView();
            switch (call.kind) {
            case ToolKind::Edit:
                for (const QString &path : call.paths)
                    appendUniqueShown(&edited, pathLineView(call, shown(path), 100, &keep), failed);
                if (call.paths.isEmpty())
                    appendUniqueShown(&other, call.name);
                break;
            case ToolKind::Read:
                for (const QString &path : call.paths)
                    appendUniqueShown(&reads, pathLineView(call, shown(path), 100, &keep));
                break;
            case ToolKind::Shell:
                if (!call.command.isEmpty()) {
                    // Shown quoted: the closing quote goes before the suffix.
                    appendUniqueShown(&ran, call.commandLines[0], action.failed ? u"\" (failed)" : u"\"");
                    break;
                }
                appendUniqueShown(&other, call.name);
                break;
            case ToolKind::Plan:
            case ToolKind::Other:
                appendUniqueShown(&other, oneLineView(call.name, 40, &keep), failed);
                break;
            }
        }

        QString line;
        line.reserve(400);
        appendRange(line, first, last);
        line += u": "_s;
        const qsizetype start = line.size();
        auto separate = [&line, start] {
            if (line.size() > start)
                line += u"; "_s;
        };
        if (m_isRequest.at(size_t(first))) {
            line += u"user asked \""_s;
            line += m_facts.headLine(first, 80);
            line += u'"';
        }
        auto part = [&](QStringView verb, const ShownList &items, int max, QStringView prefix = {}) {
            if (items.isEmpty())
                return;
            separate();
            line += verb;
            appendListWithMore(line, items, max, prefix);
        };
        part(u"edited ", edited, 5);
        part(u"ran ", ran, 4, u"\""); // each closing quote is in the item's suffix
        part(u"read ", reads, 4);
        part(u"called ", other, 4);
        if (line.size() == start) {
            for (int i = first; i <= last; ++i) {
                if (m_messages.at(i)->role == Role::Assistant && !scanHead(m_messages.at(i)->content).trimmed().isEmpty()) {
                    line += u"assistant: "_s;
                    line += m_facts.firstSentence(i);
                    break;
                }
            }
        }
        if (line.size() == start)
            line += u"no actions"_s;
        cutInPlace(line, 400);
        return line;
    }

    QString summary()
    {
        QStringList head;
        if (m_hasPrevious && !m_previous.summary.isEmpty())
            head << u"Earlier: "_s + oneLine(m_previous.summary, 600);
        if (!m_root.isEmpty())
            head << u"File paths are relative to "_s + oneLine(m_root, 200);

        // Turns start at each user request; tool activity belongs to the turn its call is in.
        QList<std::pair<int, int>> turns;
        int start = -1;
        for (int i = 0; i < m_messages.size(); ++i) {
            const Message &m = *m_messages.at(i);
            if (m.role == Role::System || (m.role == Role::User && isCheckpointText(m.content)))
                continue;
            if (start < 0) {
                start = i;
            } else if (m_isRequest.at(size_t(i))) {
                turns << std::pair{start, i - 1};
                start = i;
            }
        }
        if (start >= 0) {
            int last = int(m_messages.size()) - 1;
            turns << std::pair{start, last};
        }

        QStringList lines;
        lines.reserve(turns.size());
        size_t actionAt = 0;
        for (const auto &[first, last] : std::as_const(turns)) {
            while (actionAt < m_actions.size() && m_actions.at(actionAt).callIndex < first)
                ++actionAt;
            size_t actionEnd = actionAt;
            while (actionEnd < m_actions.size() && m_actions.at(actionEnd).callIndex <= last)
                ++actionEnd;
            lines << turnLine(first, last, qsizetype(actionAt), qsizetype(actionEnd));
            actionAt = actionEnd;
        }

        // Keep the first turn and as many recent ones as fit; say what was left out.
        const qsizetype budget = ExtractiveSummarizer::kMaxSummaryChars;
        auto total = [](const QStringList &list) {
            qsizetype n = 0;
            for (const QString &s : list)
                n += s.size() + 1;
            return n;
        };
        if (total(head) + total(lines) > budget && lines.size() > 2) {
            QStringList tail;
            qsizetype used = total(head) + lines.first().size() + 1 + 80;
            for (qsizetype k = lines.size() - 1; k >= 1; --k) {
                if (used + lines.at(k).size() + 1 > budget)
                    break;
                used += lines.at(k).size() + 1;
                tail.prepend(lines.at(k));
            }
            const qsizetype omitted = lines.size() - 1 - tail.size();
            if (omitted > 0) {
                QStringList kept{lines.first()};
                kept << u"(%1 more turns left out)"_s.arg(omitted);
                kept << tail;
                lines = kept;
            }
        }
        head << lines;
        QString text = head.join(u'\n');
        cutInPlace(text, budget);
        return text;
    }

    // The actions called by message `index` (contiguous in m_actions).
    QList<const Action *> actionsOf(int index) const
    {
        QList<const Action *> out;
        for (qsizetype a = m_firstActionOf.at(size_t(index)); a >= 0 && a < qsizetype(m_actions.size()) && m_actions.at(size_t(a)).callIndex == index; ++a)
            out << &m_actions.at(size_t(a));
        return out;
    }

    const QList<const Message *> &m_messages;
    FactsLookup m_facts;
    std::vector<bool> m_isRequest;        // by message index
    std::vector<qsizetype> m_firstActionOf; // by message index, -1 for none
    QList<int> m_userRequests;
    QList<int> m_assistants;
    std::vector<Action> m_actions; // in call order
    qsizetype m_indexedActions = 0; // actions before this one are in m_olderActions
    QHash<QStringView, qsizetype> m_olderActions;
    QString m_root;          // common folder of the touched files, empty for none
    ParsedSummary m_previous;
    bool m_hasPrevious = false;
};

} // namespace

namespace {
QList<const Message *> pointersTo(const QList<Message> &messages)
{
    QList<const Message *> out;
    out.reserve(messages.size());
    for (const Message &m : messages)
        out.append(&m);
    return out;
}
} // namespace

ParsedSummary ExtractiveSummarizer::summarize(const QList<Message> &messages)
{
    return summarize(pointersTo(messages), nullptr);
}

ParsedSummary ExtractiveSummarizer::summarize(const QList<Message> &messages, const ExtractiveFacts *facts)
{
    return summarize(pointersTo(messages), facts);
}

ParsedSummary ExtractiveSummarizer::summarize(const QList<const Message *> &messages, const ExtractiveFacts *facts,
                                             const Anchors *previous)
{
    return Extraction(messages, facts ? facts->d() : nullptr, previous).run();
}

QString ExtractiveSummarizer::toText(const ParsedSummary &summary)
{
    return formatAnchors(summary.anchors) + u"\n## Summary\n"_s + summary.summary.trimmed() + u'\n';
}

} // namespace wl
