#include "ExtractiveFacts.h"

#include "MessageFacts.h"

#include <QMutex>

#include <unordered_map>

namespace wl {

namespace {

// A variant is compared by value, so only short ones are kept: placeholders hold at most 20
// preview lines of 500 UTF-8 bytes. Comparing costs less than summarising again.
constexpr qsizetype kMaxVariantChars = 16384;
constexpr size_t kMaxVariants = 4;

} // namespace

struct ExtractiveFacts::Private
{
    QMutex mutex;
    // The first message seen with an id keeps it. A node-based map: entries never move, so a summary
    // holding the lock may keep pointers to them while it adds others.
    std::unordered_map<qint64, MessageFacts> byId;
};

ExtractiveFacts::ExtractiveFacts()
    : m_d(std::make_unique<Private>())
{
}

ExtractiveFacts::~ExtractiveFacts() = default;

qsizetype ExtractiveFacts::size() const
{
    QMutexLocker lock(&m_d->mutex);
    return qsizetype(m_d->byId.size());
}

qsizetype ExtractiveFacts::versionCount() const
{
    QMutexLocker lock(&m_d->mutex);
    qsizetype n = 0;
    for (const auto &[id, f] : m_d->byId)
        n += 1 + qsizetype(f.variants.size());
    return n;
}

QMutex &ExtractiveFacts::mutex() const
{
    return m_d->mutex;
}

MessageFacts *ExtractiveFacts::slot(const Message &m) const
{
    if (m.id <= 0)
        return nullptr;
    auto it = m_d->byId.find(m.id);
    if (it == m_d->byId.end())
        it = m_d->byId.try_emplace(m.id, m).first;
    MessageFacts &first = it->second;
    if (first.isFactsOf(m))
        return &first;
    if (m.content.size() > kMaxVariantChars || !m.toolCalls.isEmpty())
        return nullptr;
    // The first version seen may itself be a placeholder, made again by every replay.
    if (first.isEqualTo(m)) {
        first.content = m.content; // the next lookup of this copy compares no text
        return &first;
    }
    for (const std::unique_ptr<MessageFacts> &variant : first.variants) {
        if (variant->isFactsOf(m))
            return variant.get();
        if (variant->isEqualTo(m)) {
            variant->content = m.content;
            return variant.get();
        }
    }
    if (first.variants.size() >= kMaxVariants)
        return nullptr;
    return first.variants.emplace_back(std::make_unique<MessageFacts>(m)).get();
}

} // namespace wl
