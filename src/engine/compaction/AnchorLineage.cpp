#include "AnchorLineage.h"

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

QString normalized(const QString &text)
{
    return text.simplified().toCaseFolded();
}

} // namespace

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
    QString normalized;      // for Kept
    QSet<QString> tokens;    // for Reworded
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
                newNormalized.append(lineage::normalized(t));
            for (qsizetype n = 0; n < texts.size(); ++n) {
                for (qsizetype o = 0; o < old.size(); ++o) {
                    if (!oldTaken[size_t(o)] && old.at(o).normalized == newNormalized.at(n)) {
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
                next.append({index, newNormalized.at(n), newTokens.at(n)});
            }
            old = std::move(next);
        }
    }
    return items;
}

} // namespace wl
