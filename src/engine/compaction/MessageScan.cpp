#include "MessageScan.h"

#include "Checkpoint.h"
#include "FactScan.h"
#include "TextCut.h"
#include "model/Message.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl::MessageScan {

using TextCut::appendUnique;
using TextCut::oneLine;

QStringView head(const QString &text)
{
    return QStringView(text).first(TextCut::safeCutPosition(text, kScanHead));
}

QStringView tail(const QString &text)
{
    qsizetype from = std::max(head(text).size(), text.size() - kScanTail);
    while (from < text.size() && (text[from].isLowSurrogate() || text[from].isMark()))
        ++from;
    return QStringView(text).sliced(from);
}

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

ResultFacts resultOf(const Message &m, ToolKind kind)
{
    QStringView line;
    if (kind == ToolKind::Shell) {
        line = failureLine(head(m.content));
        if (line.isEmpty())
            line = failureLine(tail(m.content));
    } else if (kind == ToolKind::Edit) {
        const QStringView start = head(m.content).trimmed();
        const qsizetype firstBreak = start.indexOf(u'\n');
        line = failureLine(firstBreak < 0 ? start : start.first(firstBreak));
    }
    ResultFacts out;
    out.failed = m.isError || !line.isEmpty();
    if (out.failed) {
        if (line.isEmpty())
            line = head(m.content).trimmed();
        out.errorLine = oneLine(line.first(std::min<qsizetype>(line.size(), 400)), 140);
    }
    return out;
}

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

QStringList constraintsIn(QStringView text)
{
    QStringList out;
    const QRegularExpression &constraint = FactScan::constraintExpression();
    for (const QRegularExpressionMatch &m : constraint.globalMatchView(text, 0, QRegularExpression::NormalMatch, checkedOnce(text))) {
        const QString sentence = sentenceAround(text, m.capturedStart(), m.capturedLength());
        if (sentence.size() < 8 || sentence.endsWith(u'?') || sentence.endsWith(u'\uFF1F'))
            continue; // "Do you always use tabs?" asks; it does not instruct
        appendUnique(&out, sentence);
        if (out.size() >= 2)
            break;
    }
    return out;
}

QStringList intentionsIn(QStringView text)
{
    QStringList out;
    const QRegularExpression &intention = FactScan::intentionExpression();
    for (const QRegularExpressionMatch &m : intention.globalMatchView(text, 0, QRegularExpression::NormalMatch, checkedOnce(text))) {
        const QString sentence = sentenceAround(text, m.capturedStart(), m.capturedLength());
        if (sentence.size() < 10 || sentence.endsWith(u'?') || sentence.endsWith(u'\uFF1F'))
            continue;
        appendUnique(&out, sentence);
    }
    while (out.size() > 2)
        out.removeFirst(); // the last ones say what comes next
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
            if (lines.size() >= kMaxPlanLines)
                break;
        }
    }
    return lines;
}

QStringList planLinesOf(const QString &content)
{
    QStringList lines = planLinesIn(head(content));
    QStringView end = tail(content);
    if (const qsizetype firstBreak = end.indexOf(u'\n'); firstBreak >= 0)
        end = end.sliced(firstBreak + 1); // the first tail line is cut, skip it
    else
        end = {};
    for (const QString &line : planLinesIn(end))
        appendUnique(&lines, line);
    return lines;
}

bool isUserRequest(const Message &m)
{
    return m.role == Role::User && !m.isToolResult() && !isCheckpointText(m.content);
}

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

} // namespace wl::MessageScan
