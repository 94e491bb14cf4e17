#include "AnchorLineage.h"

#include "model/Message.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <utility>
#include <vector>
#include <optional>

using namespace Qt::StringLiterals;

namespace wl {

QString itemFateName(ItemFate fate)
{
    switch (fate) {
    case ItemFate::Absent: return u"absent"_s;
    case ItemFate::Added: return u"added"_s;
    case ItemFate::Kept: return u"kept"_s;
    case ItemFate::Reworded: return u"reworded"_s;
    case ItemFate::Dropped: return u"dropped"_s;
    }
    return {};
}

QString LineageItem::latestText() const
{
    for (qsizetype i = texts.size() - 1; i >= 0; --i)
        if (!texts.at(i).isEmpty())
            return texts.at(i);
    return {};
}

int LineageItem::rewordCount() const
{
    return int(std::count(fates.cbegin(), fates.cend(), ItemFate::Reworded));
}

namespace lineage {

namespace {

// A list marker at the start of a line: "-", "*", "+", "\u2022", or a number with "." or ")",
// followed by a space.
QStringView withoutListMarker(QStringView line)
{
    if (line.size() >= 2 && (line[0] == u'-' || line[0] == u'*' || line[0] == u'+' || line[0] == u'\u2022')
        && line[1].isSpace())
        return line.sliced(2).trimmed();
    qsizetype digits = 0;
    while (digits < line.size() && digits < 4 && line[digits].isDigit())
        ++digits;
    if (digits > 0 && digits + 1 < line.size() && (line[digits] == u'.' || line[digits] == u')')
        && line[digits + 1].isSpace())
        return line.sliced(digits + 2).trimmed();
    return line;
}

bool isWordChar(char32_t c)
{
    return QChar::isLetterOrNumber(c) || QChar::isMark(c) || c == U'_';
}

bool isJoiner(char32_t c)
{
    return c == U'/' || c == U'.' || c == U'-' || c == U'\\';
}

bool isSpacelessScript(char32_t c)
{
    switch (QChar::script(c)) {
    case QChar::Script_Han:
    case QChar::Script_Hiragana:
    case QChar::Script_Katakana:
        return true;
    default:
        return false;
    }
}

bool isFiller(const QString &word)
{
    static const QSet<QString> words{u"the"_s, u"a"_s,  u"an"_s, u"and"_s, u"or"_s,   u"to"_s,  u"of"_s,
                                     u"in"_s,  u"on"_s, u"at"_s, u"for"_s, u"with"_s, u"by"_s,  u"from"_s,
                                     u"as"_s,  u"is"_s, u"are"_s, u"be"_s, u"it"_s,   u"this"_s, u"that"_s};
    return words.contains(word);
}

void addToken(QSet<QString> *out, const QString &raw)
{
    if (raw.isEmpty())
        return;
    const QString token = raw.toCaseFolded();
    if (isFiller(token))
        return;
    out->insert(token);
    const qsizetype slash = std::max(token.lastIndexOf(u'/'), token.lastIndexOf(u'\\'));
    if (slash >= 0 && slash + 1 < token.size())
        out->insert(token.sliced(slash + 1));
}

// A file name: ends in "." and one to eight letters or digits, at least one a letter, after a word
// character ("server.go", "CMakeLists.txt"; not "1.5").
bool isFileName(const QString &token)
{
    const qsizetype dot = token.lastIndexOf(u'.');
    if (dot <= 0 || dot + 1 >= token.size() || token.size() - dot - 1 > 8)
        return false;
    bool letter = false;
    for (qsizetype i = dot + 1; i < token.size(); ++i) {
        if (!token.at(i).isLetterOrNumber())
            return false;
        letter = letter || token.at(i).isLetter();
    }
    return letter;
}

bool isPath(const QString &token)
{
    return token.size() > 1 && (token.contains(u'/') || token.contains(u'\\'));
}

QString normalized(const QString &text)
{
    return text.simplified().toCaseFolded();
}

} // namespace

QStringList splitItems(const QString &anchorValue)
{
    QStringList items;
    for (QStringView line : QStringView(anchorValue).split(u'\n')) {
        if (items.size() >= kMaxItemsPerAnchor)
            break;
        const QStringView text = withoutListMarker(line.trimmed());
        if (text.isEmpty() || isUnknownAnchorValue(text.toString()))
            continue;
        items.append(text.first(std::min(text.size(), kMaxItemChars)).toString());
    }
    return items;
}

QSet<QString> tokens(QStringView text)
{
    QSet<QString> out;
    QString current;
    const QList<uint> points = text.toUcs4();
    for (qsizetype i = 0; i < points.size(); ++i) {
        const char32_t c = points.at(i);
        if (isSpacelessScript(c)) {
            addToken(&out, std::exchange(current, {}));
            addToken(&out, QString::fromUcs4(&c, 1));
        } else if (isWordChar(c)) {
            current += QString::fromUcs4(&c, 1);
        } else if (isJoiner(c) && !current.isEmpty() && i + 1 < points.size() && isWordChar(points.at(i + 1))
                   && !isSpacelessScript(points.at(i + 1))) {
            current += QChar(c);
        } else {
            addToken(&out, std::exchange(current, {}));
        }
    }
    addToken(&out, current);
    return out;
}

namespace {
double jaccard(const QSet<QString> &a, const QSet<QString> &b)
{
    if (a.isEmpty() || b.isEmpty())
        return 0;
    const QSet<QString> &small = a.size() <= b.size() ? a : b;
    const QSet<QString> &large = a.size() <= b.size() ? b : a;
    qsizetype common = 0;
    for (const QString &t : small)
        common += large.contains(t) ? 1 : 0;
    return double(common) / double(a.size() + b.size() - common);
}
} // namespace

double similarity(const QString &a, const QString &b)
{
    if (normalized(a) == normalized(b))
        return 1;
    return jaccard(tokens(a), tokens(b));
}

} // namespace lineage

namespace {

// An item still there after the previous step, waiting to be matched.
struct Live
{
    qsizetype item;          // index in the result
    QString text;
    QSet<QString> tokens;
};

} // namespace

QList<LineageItem> traceAnchorLineage(const QList<LineageStep> &steps)
{
    QList<LineageItem> items;
    const qsizetype stepCount = steps.size();
    std::array<QList<Live>, kAnchorCount> live;

    auto newItem = [&](AnchorKind kind, qsizetype step, const QString &text) {
        LineageItem item;
        item.kind = kind;
        item.fates = QList<ItemFate>(stepCount, ItemFate::Absent);
        item.texts = QStringList(stepCount, QString());
        item.fates[step] = ItemFate::Added;
        item.texts[step] = text;
        item.addedAt = int(step);
        items.append(item);
        return items.size() - 1;
    };

    for (qsizetype step = 0; step < stepCount; ++step) {
        for (AnchorKind kind : kAllAnchorKinds) {
            const QStringList texts = lineage::splitItems(steps.at(step).anchors.value(kind));
            QList<Live> &old = live[size_t(kind)];
            std::vector<std::optional<qsizetype>> matchOfNew(size_t(texts.size())); // index into `old`
            std::vector<bool> oldTaken(size_t(old.size()), false);
            std::vector<bool> reworded(size_t(texts.size()), false);

            // Kept: the same text, first unmatched old item in order.
            QList<QString> newNormalized;
            for (const QString &t : texts)
                newNormalized.append(t.simplified().toCaseFolded());
            for (qsizetype n = 0; n < texts.size(); ++n) {
                for (qsizetype o = 0; o < old.size(); ++o) {
                    if (!oldTaken[size_t(o)] && old.at(o).text.simplified().toCaseFolded() == newNormalized.at(n)) {
                        oldTaken[size_t(o)] = true;
                        matchOfNew[size_t(n)] = o;
                        break;
                    }
                }
            }

            // Reworded: the most similar remaining pairs, greedily.
            QList<QSet<QString>> newTokens;
            for (const QString &t : texts)
                newTokens.append(lineage::tokens(t));
            struct Pair { double score; qsizetype o; qsizetype n; };
            std::vector<Pair> pairs;
            for (qsizetype n = 0; n < texts.size(); ++n) {
                if (matchOfNew[size_t(n)])
                    continue;
                for (qsizetype o = 0; o < old.size(); ++o) {
                    if (oldTaken[size_t(o)])
                        continue;
                    const double score = lineage::jaccard(old.at(o).tokens, newTokens.at(n));
                    if (score >= lineage::kRewordSimilarity)
                        pairs.push_back({score, o, n});
                }
            }
            std::stable_sort(pairs.begin(), pairs.end(), [](const Pair &a, const Pair &b) {
                if (a.score != b.score)
                    return a.score > b.score;
                return a.o != b.o ? a.o < b.o : a.n < b.n;
            });
            for (const Pair &p : pairs) {
                if (oldTaken[size_t(p.o)] || matchOfNew[size_t(p.n)])
                    continue;
                oldTaken[size_t(p.o)] = true;
                matchOfNew[size_t(p.n)] = p.o;
                reworded[size_t(p.n)] = true;
            }

            // Dropped: old items nobody matched.
            for (qsizetype o = 0; o < old.size(); ++o) {
                if (oldTaken[size_t(o)])
                    continue;
                LineageItem &item = items[old.at(o).item];
                item.fates[step] = ItemFate::Dropped;
                item.droppedAt = int(step);
            }

            QList<Live> next;
            for (qsizetype n = 0; n < texts.size(); ++n) {
                qsizetype index;
                if (const auto o = matchOfNew[size_t(n)]) {
                    index = old.at(*o).item;
                    items[index].fates[step] = reworded[size_t(n)] ? ItemFate::Reworded : ItemFate::Kept;
                    items[index].texts[step] = texts.at(n);
                } else {
                    index = newItem(kind, step, texts.at(n));
                }
                next.append({index, texts.at(n), newTokens.at(n)});
            }
            old = std::move(next);
        }
    }
    return items;
}

namespace {

// The tokens of one history message, made on first use: of all it says (content and tool call
// arguments) and of its tool calls alone.
struct MessageWords
{
    QSet<QString> all;
    QSet<QString> calls;
};

class MessageTokens
{
public:
    explicit MessageTokens(const QList<Message> &history) : m_history(history) {}

    const MessageWords &at(qsizetype index)
    {
        auto it = m_cache.find(index);
        if (it == m_cache.end()) {
            const Message &m = m_history.at(index);
            QString calls;
            for (const ToolCall &call : m.toolCalls)
                calls += call.arguments.left(lineage::kMaxSourceChars) + u'\n';
            MessageWords words;
            words.calls = lineage::tokens(calls);
            words.all = lineage::tokens(m.content.left(lineage::kMaxSourceChars));
            words.all.unite(words.calls);
            it = m_cache.insert(index, words);
        }
        return *it;
    }

private:
    const QList<Message> &m_history;
    QHash<qsizetype, MessageWords> m_cache;
};

// Case folded, spaces collapsed, without surrounding punctuation: how an item is looked for verbatim.
QString searchForm(QStringView text)
{
    QString folded = text.toString().simplified().toCaseFolded();
    qsizetype begin = 0, end = folded.size();
    while (begin < end && (folded.at(begin).isPunct() || folded.at(begin).isSpace()))
        ++begin;
    while (end > begin && (folded.at(end - 1).isPunct() || folded.at(end - 1).isSpace()))
        --end;
    return folded.sliced(begin, end - begin);
}

bool containsAll(const QSet<QString> &words, const QSet<QString> &wanted)
{
    for (const QString &w : wanted)
        if (!words.contains(w))
            return false;
    return true;
}

} // namespace

void findItemSources(QList<LineageItem> *items, const QList<LineageStep> &steps, const QList<Message> &history)
{
    MessageTokens messageTokens(history);
    for (LineageItem &item : *items) {
        item.sourceMessageId = 0;
        if (item.addedAt < 0 || item.addedAt >= steps.size())
            continue;
        const qint64 upTo = steps.at(item.addedAt).coversUpToMessageId;
        const QString text = item.texts.value(item.addedAt);
        const QSet<QString> itemTokens = lineage::tokens(text);
        qsizetype end = 0; // the messages up to the end of the summarised range
        while (end < history.size() && (upTo <= 0 || history.at(end).id <= upTo))
            ++end;
        auto first = [&](auto &&matches) -> qint64 {
            for (qsizetype i = 0; i < end; ++i)
                if (matches(i, messageTokens.at(i)))
                    return history.at(i).id;
            return 0;
        };

        // File names first ("server.go", also the last part of a path); bare folders only without them.
        QSet<QString> files;
        for (const QString &t : itemTokens)
            if (lineage::isFileName(t))
                files.insert(t);
        if (files.isEmpty()) {
            for (const QString &t : itemTokens)
                if (lineage::isPath(t))
                    files.insert(t);
        }
        if (!files.isEmpty()) {
            // The call that wrote, read or ran it; else the first message that mentions it.
            item.sourceMessageId = first([&](qsizetype, const MessageWords &w) { return w.calls.intersects(files); });
            if (item.sourceMessageId == 0)
                item.sourceMessageId = first([&](qsizetype, const MessageWords &w) { return w.all.intersects(files); });
            continue;
        }
        if (itemTokens.isEmpty())
            continue;
        // Verbatim (case folded): only messages holding every token are read.
        const QString wanted = searchForm(text);
        if (!wanted.isEmpty()) {
            item.sourceMessageId = first([&](qsizetype i, const MessageWords &w) {
                if (!containsAll(w.all, itemTokens))
                    return false;
                const Message &m = history.at(i);
                if (searchForm(m.content.left(lineage::kMaxSourceChars)).contains(wanted))
                    return true;
                for (const ToolCall &call : m.toolCalls)
                    if (searchForm(call.arguments.left(lineage::kMaxSourceChars)).contains(wanted))
                        return true;
                return false;
            });
        }
        // Reworded by the summariser: most of its words, for an item long enough that this means something.
        if (item.sourceMessageId == 0 && itemTokens.size() >= lineage::kMinFuzzySourceTokens) {
            item.sourceMessageId = first([&](qsizetype, const MessageWords &w) {
                qsizetype common = 0;
                for (const QString &t : itemTokens)
                    common += w.all.contains(t) ? 1 : 0;
                return double(common) / double(itemTokens.size()) >= lineage::kSourceContainment;
            });
        }
    }
}

} // namespace wl
