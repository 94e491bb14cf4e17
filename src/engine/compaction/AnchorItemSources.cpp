#include "AnchorItemSources.h"

#include "model/Message.h"

#include <QHash>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// The arguments of a message's tool calls, one call a line, at most kMaxSourceChars of them together.
QString callsText(const Message &m)
{
    QString calls;
    for (const ToolCall &call : m.toolCalls) {
        if (calls.size() >= lineage::kMaxSourceChars)
            break;
        calls += call.arguments.left(lineage::kMaxSourceChars - calls.size()) + u'\n';
    }
    return calls;
}

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
            MessageWords words;
            words.calls = lineage::tokens(callsText(m));
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
                return searchForm(m.content.left(lineage::kMaxSourceChars)).contains(wanted)
                    || (m.hasToolCalls() && searchForm(callsText(m)).contains(wanted));
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
