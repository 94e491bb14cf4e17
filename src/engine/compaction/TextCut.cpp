#include "TextCut.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl::TextCut {

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

void cutInPlace(QString &text, qsizetype max)
{
    if (text.size() > max)
        text = cut(text, max);
}

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

bool isOneLineAlready(QStringView text, qsizetype max)
{
    return text.size() <= max && !text.isEmpty() && text.front() != u'#' && text.front() != u'>'
        && std::none_of(text.begin(), text.end(), [](QChar c) { return c.isSpace(); });
}

QString oneLine(QStringView text, qsizetype max)
{
    if (isOneLineAlready(text, max))
        return text.toString();
    // Simplify a bounded slice only: cost stays independent of the message size.
    return cut(flattened(text, max * 4), max);
}

QStringView oneLineView(QStringView text, qsizetype max, std::deque<QString> *keep)
{
    if (isOneLineAlready(text, max))
        return text;
    return keep->emplace_back(oneLine(text, max));
}

bool isListItem(QStringView item)
{
    if (item.size() >= 2 && item[1] == u' ' && (item[0] == u'-' || item[0] == u'*' || item[0] == u'\u2022'))
        return true;
    qsizetype digits = 0;
    while (digits < item.size() && item[digits] >= u'0' && item[digits] <= u'9')
        ++digits;
    return digits > 0 && digits + 1 < item.size() && (item[digits] == u'.' || item[digits] == u')') && item[digits + 1] == u' ';
}

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

} // namespace wl::TextCut
