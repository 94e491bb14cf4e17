#pragma once

#include "compaction/OffloadStore.h"

#include <QHash>
#include <QMutex>

namespace wl {

// The what-if replay's offloads, kept between runs over the same history: what offloading a
// result at a gate with a preview length gives (entry and placeholder) depends only on the
// message, so every slider step after the first reuses them instead of counting lines and
// cutting previews again. A result is served only to the very message it was made from (same id,
// call id, tool name and shared text). Safe to share between threads.
class SimulatedOffloads
{
public:
    // The simulated offload of `message` (a tool result that is not a placeholder), from the
    // cache or made by `make` and recorded.
    template<typename Make>
    OffloadStore::Result get(const Message &message, const QString &toolName, int gate, int previewLines, Make make)
    {
        const Key key{message.id, gate, previewLines};
        {
            QMutexLocker lock(&m_mutex);
            const auto it = m_results.constFind(key);
            if (it != m_results.cend() && it->matches(message, toolName))
                return it->result;
        }
        Slot slot{message.content, message.toolCallId, toolName, make()};
        const OffloadStore::Result result = slot.result;
        if (result.ok && message.id > 0) {
            QMutexLocker lock(&m_mutex);
            m_results.insert(key, std::move(slot));
        }
        return result;
    }

    qsizetype size() const
    {
        QMutexLocker lock(&m_mutex);
        return m_results.size();
    }

private:
    struct Key
    {
        qint64 messageId;
        int gate;
        int previewLines;
        friend bool operator==(const Key &, const Key &) = default;
        friend size_t qHash(const Key &k, size_t seed = 0) noexcept { return qHashMulti(seed, k.messageId, k.gate, k.previewLines); }
    };
    struct Slot
    {
        QString content; // held, so the data it points at stays this message's text
        QString callId;
        QString toolName;
        OffloadStore::Result result;

        bool matches(const Message &m, const QString &tool) const
        {
            return content.constData() == m.content.constData() && content.size() == m.content.size()
                && callId == m.toolCallId && toolName == tool;
        }
    };

    mutable QMutex m_mutex;
    QHash<Key, Slot> m_results;
};

} // namespace wl
