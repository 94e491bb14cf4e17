#pragma once

#include <QtGlobal>

#include <memory>

class QMutex;

namespace wl {

struct Message;
struct MessageFacts;

// What each message contributes to an extractive summary (its tool calls' paths and commands,
// whether a tool result failed, its sentences of choice, its plan lines, its first line), memoised
// by message id so that repeated summaries over the same history (what-if replays on every slider
// step) pay only the merge. Filled lazily by ExtractiveSummarizer::summarize(); safe to share
// between threads. A message is only served from the cache when it is the very message the facts
// were taken from (same id, role, shared text and call arguments), so an offload placeholder or an
// edited copy is never mistaken for the original. A few short other versions of a message (the
// placeholders that views show in its place) have facts of their own, matched by value.
class ExtractiveFacts
{
public:
    ExtractiveFacts();
    ~ExtractiveFacts();
    ExtractiveFacts(const ExtractiveFacts &) = delete;
    ExtractiveFacts &operator=(const ExtractiveFacts &) = delete;

    // How many messages have facts recorded.
    qsizetype size() const;
    // How many versions of messages have: the originals plus the other versions kept by value.
    qsizetype versionCount() const;

private:
    friend class FactsLookup;

    // Guards every entry; a summary holds it while it reads (one lock per summary, not per fact).
    QMutex &mutex() const;
    // Under mutex(): the facts of `m`, created when its id is new; null when another message
    // holds the id. Entries never move while the cache lives.
    MessageFacts *slot(const Message &m) const;

    struct Private;
    std::unique_ptr<Private> m_d;
};

} // namespace wl
