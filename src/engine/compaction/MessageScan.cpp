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

namespace {
// The sentences around the matches of `expression` in `text`, each once and in order, that `keep`
// accepts; at most `enough` of them (0: all).
template<typename Keep>
QStringList sentencesMatching(QStringView text, const QRegularExpression &expression, Keep keep, qsizetype enough = 0)
{
    QStringList out;
    for (const QRegularExpressionMatch &m : expression.globalMatchView(text, 0, QRegularExpression::NormalMatch, checkedOnce(text))) {
        const QString sentence = sentenceAround(text, m.capturedStart(), m.capturedLength());
        if (!keep(sentence))
            continue;
        appendUnique(&out, sentence);
        if (enough > 0 && out.size() >= enough)
            break;
    }
    return out;
}

bool isQuestion(const QString &sentence)
{
    return sentence.endsWith(u'?') || sentence.endsWith(u'\uFF1F');
}
} // namespace

QStringList decisionsIn(QStringView text)
{
    if (!FactScan::mayHoldChoice(text))
        return {};
    // "Instead of:" introduces a list and says nothing by itself; a message rarely states more
    // than two real choices.
    return sentencesMatching(text, FactScan::choiceExpression(),
                             [](const QString &s) { return s.size() >= 12 && !s.endsWith(u':'); }, 2);
}

QStringList constraintsIn(QStringView text)
{
    // "Do you always use tabs?" asks; it does not instruct.
    return sentencesMatching(text, FactScan::constraintExpression(),
                             [](const QString &s) { return s.size() >= 8 && !isQuestion(s); }, 2);
}

QStringList intentionsIn(QStringView text)
{
    QStringList out = sentencesMatching(text, FactScan::intentionExpression(),
                                        [](const QString &s) { return s.size() >= 10 && !isQuestion(s); });
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
