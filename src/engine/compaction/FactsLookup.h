#pragma once

#include "ExtractiveFacts.h"
#include "MessageFacts.h"

#include <QList>
#include <QMutex>

#include <deque>
#include <optional>
#include <vector>

namespace wl {

// The facts of the messages one summary reads, from a shared ExtractiveFacts when there is one
// (locked for the whole summary: one lock instead of one per fact, and entries stay put while it is
// held) or from a cache of its own. Each fact is computed the first time it is asked for;
// references stay valid until the lookup is destroyed. `i` is an index into `messages`.
class FactsLookup
{
public:
    FactsLookup(const QList<const Message *> &messages, const ExtractiveFacts *shared);
    ~FactsLookup();
    FactsLookup(const FactsLookup &) = delete;
    FactsLookup &operator=(const FactsLookup &) = delete;

    const QList<CallFacts> &calls(int i);
    const MessageScan::ResultFacts &result(int i, ToolKind kind);
    // An assistant's statements of choice; a user's instructions that constrain the work.
    const QStringList &decisions(int i);
    const QStringList &plans(int i);
    const QStringList &intentions(int i);
    // MessageScan::sentenceAround() of the trimmed start of the message.
    const QString &firstSentence(int i);
    // TextCut::oneLine() of the start of the message.
    QString headLine(int i, qsizetype max);

private:
    MessageFacts &of(int i)
    {
        MessageFacts *f = m_of[size_t(i)];
        return f ? *f : add(i);
    }
    MessageFacts &add(int i);

    const QList<const Message *> &m_messages;
    std::optional<ExtractiveFacts> m_own; // when none is shared: the cache of this summary
    const ExtractiveFacts *m_cache;
    QMutexLocker<QMutex> m_lock;
    std::vector<MessageFacts *> m_of; // by message index, filled on first use
    std::deque<MessageFacts> m_uncached;
};

} // namespace wl
