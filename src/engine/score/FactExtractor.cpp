#include "FactExtractor.h"

#include "compaction/CallFacts.h"
#include "compaction/Checkpoint.h"
#include "compaction/FactScan.h"
#include "model/Message.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

QString factKindName(Fact::Kind kind)
{
    switch (kind) {
    case Fact::Kind::Instruction:
        return u"instruction"_s;
    case Fact::Kind::Artifact:
        return u"artifact"_s;
    case Fact::Kind::Outcome:
        return u"outcome"_s;
    case Fact::Kind::Identifier:
        break;
    }
    return u"identifier"_s;
}

namespace FactExtractor {

namespace {

constexpr qsizetype kShortMessage = 80;   // a user message this short (one line) is an instruction whole
constexpr qsizetype kMaxPhrase = 200;     // longer sentences, commands and error lines are cut
constexpr int kErrorLinesPerResult = 5;

const QRegularExpression &tokenExpression()
{
    // URL | "quoted" | `code` | path | hash | version or long number | name.
    static const QRegularExpression re(
        uR"re(https?://[^\s"'<>`)\]}]+|"([^"\n]{3,80})"|`([^`\n]{2,80})`|/?(?:[\w.-]+/)+[\w.-]+|)re"
        uR"re(\b[0-9a-f]{7,64}\b|\b\d+(?:\.\d+){1,3}\b|\b\d{4,}\b|\b[A-Za-z_]\w*(?:(?:::|\.|->)[A-Za-z_]\w*)*)re"_s);
    return re;
}

const QRegularExpression &instructionExpression()
{
    static const QRegularExpression re(
        uR"re((?i:\b(?:must(?:n['’]?t)?|never|don['’]?t|do not|always|please|make sure|ensure|should(?:n['’]?t)?|)re"
        uR"re(avoid|need to|have to|remember|required|forbidden|no longer)\b)|)re"
        uR"re(不要|必须|务必|一定|不能|不许|禁止|确保|需要|应该|只能|千万|记得|(?<![申邀聘])请|别(?![人的处]))re"_s);
    return re;
}

const QRegularExpression &sentenceBreak()
{
    static const QRegularExpression re(uR"re((?:[.!?](?=\s|$)|[。！？；;\n])+\s*)re"_s);
    return re;
}

const QRegularExpression &exitStatusExpression()
{
    static const QRegularExpression re(
        uR"re((?i:exit(?:ed with)?[ _](?:code|status)[:= ]*(\d+))|"exit_code"\s*:\s*(\d+))re"_s);
    return re;
}

bool isHexHash(QStringView t)
{
    bool digit = false, letter = false;
    for (QChar c : t) {
        if (c.isDigit())
            digit = true;
        else if (c >= u'a' && c <= u'f')
            letter = true;
        else
            return false;
    }
    return digit && letter;
}

// A name worth remembering: snake_case, camelCase, a qualified or dotted name; not a plain word.
bool isDistinctiveName(QStringView t)
{
    if (t.size() < 4)
        return false;
    if (t.contains(u'_') && t.size() > 1 && t.lastIndexOf(u'_') > 0)
        return true;
    if (t.contains(u"::") || t.contains(u"->"))
        return true;
    if (const qsizetype dot = t.indexOf(u'.'); dot >= 2 && t.size() - dot > 2)
        return true;
    for (qsizetype i = 1; i < t.size(); ++i) {
        if (t[i - 1].isLower() && t[i].isUpper())
            return true;
    }
    return false;
}

bool isPath(QStringView t)
{
    const qsizetype slashes = t.count(u'/');
    if (slashes == 0)
        return false;
    const QStringView last = t.sliced(t.lastIndexOf(u'/') + 1);
    return slashes >= 2 || last.contains(u'.');
}

QStringView trimPunctuation(QStringView t)
{
    while (!t.isEmpty() && (t.back() == u'.' || t.back() == u',' || t.back() == u';' || t.back() == u':' || t.back() == u'-'))
        t.chop(1);
    return t;
}

void collectTokens(QStringView text, QStringList &out, int depth, bool shortForms)
{
    auto it = tokenExpression().globalMatchView(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const QStringView quoted = m.capturedView(1).isEmpty() ? m.capturedView(2) : m.capturedView(1);
        if (!quoted.isEmpty()) {
            // A quoted string counts when it is more than a bare word (JSON keys are bare words).
            const QStringView t = quoted.trimmed();
            const bool bare = std::all_of(t.begin(), t.end(), [](QChar c) { return c.isLetter(); });
            if (t.size() >= 3 && !bare)
                out.append(t.toString());
            if (depth == 0)
                collectTokens(t, out, 1, shortForms);
            continue;
        }
        const QStringView t = trimPunctuation(m.capturedView(0));
        if (t.startsWith(u"http://") || t.startsWith(u"https://")) {
            if (t.size() > 10)
                out.append(t.toString());
        } else if (t.contains(u'/')) {
            if (!isPath(t))
                continue;
            out.append(t.toString());
            // Its shorter forms too ("src/a.go" of "/work/p/src/a.go"): a text naming the long
            // form names them.
            for (qsizetype slash = shortForms ? t.indexOf(u'/', 1) : -1; slash >= 0 && slash + 1 < t.size(); slash = t.indexOf(u'/', slash + 1)) {
                const QStringView rest = t.sliced(slash + 1);
                if (isPath(rest) || isDistinctiveName(rest))
                    out.append(rest.toString());
            }
        } else if (!t.isEmpty() && t.front().isDigit()) {
            if (t.size() >= 4 || t.contains(u'.'))
                out.append(t.toString());
        } else if (t.size() >= 7 && isHexHash(t)) {
            out.append(t.toString());
        } else if (isDistinctiveName(t)) {
            out.append(t.toString());
        }
    }
}

QString oneLine(QStringView text)
{
    QString s = text.toString().simplified();
    if (s.size() > kMaxPhrase)
        s.truncate(kMaxPhrase);
    return s;
}

bool isUserPrompt(const Message &m)
{
    if (m.role != Role::User || m.isToolResult())
        return false;
    const QStringView t = QStringView(m.content).trimmed();
    // Not a compaction summary, nor markup an agent injected (Claude Code's <command-...>, reminders).
    return !t.isEmpty() && !isCheckpointText(m.content) && !t.startsWith(u'<');
}

struct Builder
{
    QList<Fact> facts;
    QHash<QString, qsizetype> byKey;

    Fact *add(Fact::Kind kind, const QString &key, const QString &text, qsizetype message)
    {
        if (key.isEmpty())
            return nullptr;
        if (const auto it = byKey.constFind(key); it != byKey.cend())
            return nullptr;
        byKey.insert(key, facts.size());
        Fact f;
        f.kind = kind;
        f.key = key;
        f.text = text;
        f.message = message;
        f.occurrences = {message};
        facts.append(std::move(f));
        return &facts.last();
    }
};

QString operationOf(const CallFacts &call)
{
    if (call.kind == ToolKind::Read)
        return u"read"_s;
    const QString name = call.name.toLower();
    if (name.contains(u"write"_s) || name.contains(u"create"_s))
        return u"write"_s;
    return u"edit"_s;
}

QString exitStatus(const Message &result, bool *failed)
{
    const QRegularExpressionMatch m = exitStatusExpression().match(result.content);
    if (m.hasMatch()) {
        const QString code = m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
        *failed = code != u"0"_s || result.isError;
        return u"exited %1"_s.arg(code);
    }
    *failed = result.isError || FactScan::firstFailure(result.content).start >= 0;
    return *failed ? u"failed"_s : u"succeeded"_s;
}

} // namespace

QStringList tokens(QStringView text, bool withShortForms)
{
    QStringList out;
    collectTokens(text, out, 0, withShortForms);
    return out;
}

QStringList instructions(const QString &text)
{
    QStringList out;
    const QString trimmed = text.trimmed();
    if (trimmed.size() <= kShortMessage && !trimmed.contains(u'\n')) {
        QStringView whole = trimmed;
        while (!whole.isEmpty() && QStringView(u".!?。！？").contains(whole.back()))
            whole.chop(1);
        if (whole.size() >= 2)
            out.append(oneLine(whole));
        return out;
    }
    const QStringList sentences = trimmed.split(sentenceBreak(), Qt::SkipEmptyParts);
    for (const QString &s : sentences) {
        const QString line = oneLine(s);
        if (line.size() >= 4 && instructionExpression().match(line).hasMatch() && !out.contains(line))
            out.append(line);
    }
    return out;
}

QString searchableText(const Message &message)
{
    if (message.toolCalls.isEmpty())
        return message.content;
    QString text = message.content;
    for (const ToolCall &call : message.toolCalls) {
        text += u'\n';
        text += call.name;
        text += u' ';
        text += call.arguments;
    }
    return text;
}

QList<Fact> extract(const QList<Message> &history)
{
    Builder b;
    QHash<QString, qsizetype> resultOf; // call id -> index of its result
    for (qsizetype i = 0; i < history.size(); ++i) {
        if (history[i].isToolResult() && !resultOf.contains(history[i].toolCallId))
            resultOf.insert(history[i].toolCallId, i);
    }

    // Every token, with the messages it appears in.
    QHash<QString, QList<qsizetype>> occurrences;
    QList<QString> order; // tokens in order of first appearance, so facts come out deterministically
    for (qsizetype i = 0; i < history.size(); ++i) {
        if (history[i].role == Role::System)
            continue;
        const QString text = searchableText(history[i]);
        // Facts come from the tokens as written; a shorter form of a path only adds where it is held.
        for (const QString &t : tokens(text)) {
            if (!occurrences.contains(t))
                order.append(t);
            occurrences[t];
        }
        for (const QString &t : tokens(text, true)) {
            QList<qsizetype> &list = occurrences[t];
            if (list.isEmpty() || list.constLast() != i)
                list.append(i);
        }
    }

    for (qsizetype i = 0; i < history.size(); ++i) {
        const Message &m = history[i];
        if (isUserPrompt(m)) {
            for (const QString &sentence : instructions(m.content)) {
                if (Fact *f = b.add(Fact::Kind::Instruction, sentence, sentence, i))
                    f->terms = tokens(sentence);
            }
        }
        for (const ToolCall &call : m.toolCalls) {
            const CallFacts cf = CallFacts::of(call);
            if ((cf.kind == ToolKind::Read || cf.kind == ToolKind::Edit) && !cf.paths.isEmpty()) {
                for (const QString &path : cf.paths) {
                    if (Fact *f = b.add(Fact::Kind::Artifact, path, operationOf(cf) + u' ' + path, i)) {
                        // Also held by every message that names the path.
                        QList<qsizetype> occ = occurrences.value(path);
                        occ.append(i);
                        std::sort(occ.begin(), occ.end());
                        occ.erase(std::unique(occ.begin(), occ.end()), occ.end());
                        f->occurrences = occ;
                        f->message = occ.constFirst();
                    }
                }
            }
            const auto result = resultOf.constFind(call.id);
            if (cf.kind != ToolKind::Shell || cf.command.isEmpty() || result == resultOf.cend())
                continue;
            const Message &r = history[*result];
            bool failed = false;
            const QString status = exitStatus(r, &failed);
            const QString command = oneLine(cf.command);
            b.add(Fact::Kind::Outcome, command, u"`%1` %2"_s.arg(command, status), *result);
            if (!failed)
                continue;
            int lines = 0;
            for (const QStringView line : QStringView(r.content).split(u'\n')) {
                const QStringView t = line.trimmed();
                // The exit status alone is the command's outcome already.
                if (t.size() < 8 || FactScan::firstFailure(t).start < 0 || exitStatusExpression().matchView(t).capturedLength() * 2 > t.size())
                    continue;
                const QString text = oneLine(t);
                b.add(Fact::Kind::Outcome, text, text, *result);
                if (++lines >= kErrorLinesPerResult)
                    break;
            }
        }
    }

    for (const QString &t : std::as_const(order)) {
        const QList<qsizetype> &occ = occurrences[t];
        if (occ.size() < 2 || b.byKey.contains(t))
            continue;
        const Message &first = history[occ.constFirst()];
        if (!first.isToolResult() && !isUserPrompt(first))
            continue;
        if (Fact *f = b.add(Fact::Kind::Identifier, t, t, occ.constFirst()))
            f->occurrences = occ;
    }

    std::stable_sort(b.facts.begin(), b.facts.end(), [](const Fact &a, const Fact &c) { return a.message < c.message; });
    return b.facts;
}

} // namespace FactExtractor

} // namespace wl
