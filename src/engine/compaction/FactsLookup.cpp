#include "FactsLookup.h"

#include "TextCut.h"

namespace wl {

FactsLookup::FactsLookup(const QList<const Message *> &messages, const ExtractiveFacts *shared)
    : m_messages(messages)
    , m_cache(shared ? shared : &m_own.emplace())
    , m_lock(shared ? &shared->mutex() : nullptr)
    , m_of(size_t(messages.size()), nullptr)
{
}

FactsLookup::~FactsLookup() = default;

const QList<CallFacts> &FactsLookup::calls(int i)
{
    MessageFacts &f = of(i);
    if (!f.calls) {
        const Message &m = *m_messages.at(i);
        QList<CallFacts> out;
        out.reserve(m.toolCalls.size());
        for (const ToolCall &call : m.toolCalls)
            out << CallFacts::of(call);
        f.calls = std::move(out);
    }
    return *f.calls;
}

const MessageScan::ResultFacts &FactsLookup::result(int i, ToolKind kind)
{
    const size_t k = kind == ToolKind::Shell ? 0 : kind == ToolKind::Edit ? 1 : 2;
    std::optional<MessageScan::ResultFacts> &slot = of(i).results[k];
    if (!slot)
        slot = MessageScan::resultOf(*m_messages.at(i), kind);
    return *slot;
}

const QStringList &FactsLookup::decisions(int i)
{
    std::optional<QStringList> &slot = of(i).decisions;
    if (!slot) {
        const Message &m = *m_messages.at(i);
        slot = m.role == Role::User ? MessageScan::constraintsIn(MessageScan::head(m.content))
                                    : MessageScan::decisionsIn(MessageScan::head(m.content));
    }
    return *slot;
}

const QStringList &FactsLookup::intentions(int i)
{
    std::optional<QStringList> &slot = of(i).intentions;
    if (!slot)
        slot = MessageScan::intentionsIn(MessageScan::head(m_messages.at(i)->content));
    return *slot;
}

const QStringList &FactsLookup::plans(int i)
{
    std::optional<QStringList> &slot = of(i).plans;
    if (!slot)
        slot = MessageScan::planLinesOf(m_messages.at(i)->content);
    return *slot;
}

const QString &FactsLookup::firstSentence(int i)
{
    std::optional<QString> &slot = of(i).firstSentence;
    if (!slot)
        slot = MessageScan::sentenceAround(MessageScan::head(m_messages.at(i)->content).trimmed(), 0, 0);
    return *slot;
}

QString FactsLookup::headLine(int i, qsizetype max)
{
    QHash<qsizetype, QString> &lines = of(i).headLines;
    auto found = lines.find(max);
    if (found == lines.end())
        found = lines.insert(max, TextCut::oneLine(MessageScan::head(m_messages.at(i)->content), max));
    return *found;
}

MessageFacts &FactsLookup::add(int i)
{
    const Message &m = *m_messages.at(i);
    MessageFacts *f = m_cache->slot(m);
    if (!f)
        f = &m_uncached.emplace_back(m); // another message holds its id: facts for this summary only
    m_of[size_t(i)] = f;
    return *f;
}

} // namespace wl
