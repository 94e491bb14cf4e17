#include "NeededFacts.h"

#include "FactExtractor.h"
#include "model/Message.h"

#include <QHash>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl::NeededFacts {

namespace {

bool isWordChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_';
}

// The ASCII words of a text (letters, digits, underscore), four characters or more.
QSet<QStringView> words(QStringView text)
{
    QSet<QStringView> out;
    qsizetype start = -1;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        const bool w = i < text.size() && isWordChar(text[i]);
        if (w && start < 0)
            start = i;
        if (!w && start >= 0) {
            if (i - start >= 4)
                out.insert(text.sliced(start, i - start));
            start = -1;
        }
    }
    return out;
}

// The longest ASCII word of a phrase: an answer that holds the phrase holds this word.
QString gateWord(QStringView phrase)
{
    QStringView best;
    for (QStringView w : words(phrase)) {
        if (w.size() > best.size())
            best = w;
    }
    return best.toString();
}

} // namespace

QList<qsizetype> answerMessages(const QList<Message> &history, const QList<qsizetype> &requestEnds, qsizetype r)
{
    QList<qsizetype> out;
    if (r < 0 || r >= requestEnds.size())
        return out;
    const qsizetype start = requestEnds[r];
    qsizetype limit = r + 1 < requestEnds.size() ? std::max(requestEnds[r + 1], start + 1) : history.size();
    limit = std::min(limit, history.size());
    for (qsizetype i = start; i < limit; ++i) {
        const Message &m = history[i];
        if (m.role == Role::User && !m.isToolResult())
            break;
        if (m.role == Role::Assistant)
            out.append(i);
    }
    return out;
}

QList<QList<int>> compute(const QList<Message> &history, const QList<Fact> &facts, const QList<qsizetype> &requestEnds)
{
    // Facts matched by token (artifacts, identifiers, instruction terms), and by phrase (instructions,
    // outcomes), the latter found through a word the phrase must bring along.
    QHash<QString, QList<int>> byToken;
    QHash<QString, QList<int>> byWord;
    QList<int> ungated;
    for (int f = 0; f < facts.size(); ++f) {
        const Fact &fact = facts[f];
        if (fact.kind == Fact::Kind::Artifact || fact.kind == Fact::Kind::Identifier) {
            byToken[fact.key].append(f);
            continue;
        }
        for (const QString &t : fact.terms)
            byToken[t].append(f);
        const QString gate = gateWord(fact.key);
        if (gate.isEmpty())
            ungated.append(f);
        else
            byWord[gate].append(f);
    }

    QList<QList<int>> needed(requestEnds.size());
    for (qsizetype r = 0; r < requestEnds.size(); ++r) {
        const qsizetype end = requestEnds[r];
        QString answer;
        for (qsizetype i : answerMessages(history, requestEnds, r)) {
            answer += FactExtractor::searchableText(history[i]);
            answer += u'\n';
        }
        if (answer.isEmpty())
            continue;
        QSet<int> used;
        auto take = [&](int f) {
            if (facts[f].message < end)
                used.insert(f);
        };
        for (const QString &t : FactExtractor::tokens(answer, true)) {
            if (const auto it = byToken.constFind(t); it != byToken.cend()) {
                for (int f : *it)
                    take(f);
            }
        }
        auto phrase = [&](int f) {
            if (facts[f].message < end && !used.contains(f) && answer.contains(facts[f].key))
                used.insert(f);
        };
        for (QStringView w : words(answer)) {
            if (const auto it = byWord.constFind(w.toString()); it != byWord.cend()) {
                for (int f : *it)
                    phrase(f);
            }
        }
        for (int f : std::as_const(ungated))
            phrase(f);
        QList<int> list(used.cbegin(), used.cend());
        std::sort(list.begin(), list.end());
        needed[r] = list;
    }
    return needed;
}

} // namespace wl::NeededFacts
