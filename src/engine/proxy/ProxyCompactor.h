#pragma once

#include "ProxyCompaction.h"
#include "ProxyServer.h"
#include "WireConversation.h"
#include "compaction/CompactionPolicy.h"
#include "compaction/ContextOverlays.h"
#include "compaction/Tier.h"

#include <QByteArray>
#include <QMutex>
#include <QString>

#include <memory>
#include <vector>

namespace wl {

// Compact mode of the proxy (issue #23 item 6): Waterline's own preflight on a client's request
// before it goes upstream. The request's conversation runs through CompactionPass with the
// extractive summariser (the agent's code, synchronous and bounded), and the view it leaves is
// written back in the client's protocol, every other field of the body kept as sent. Offloaded
// results are files under `offloadRoot` (an absolute folder), and their placeholders name the
// absolute path, so the client's own file tool can read them back.
//
// A request that cannot be compacted safely (a protocol or body this does not re-encode, a
// history or a view whose tool calls and results do not pair up) is forwarded unchanged and says why.
//
// Like the live agent, it keeps what it made per conversation: the overlays (checkpoints,
// offloads) of a conversation's earlier requests apply to its next ones, so a checkpoint is made
// once and sent unchanged until the tier fires again (and the upstream's prompt cache holds). A
// request continues a conversation when its messages begin, position for position, with those of
// the conversation's last request. One that departs from them (the client compacted or edited its
// history) drops the conversation's overlays and is compacted afresh; one that stops inside them
// (a retry of an earlier point, a side request) is compacted on its own and leaves them as they
// were. The newest kMaxConversations conversations are kept.
//
// compact() may be called from any thread; calls are serialised.
class ProxyCompactor
{
public:
    struct Outcome
    {
        enum class Kind { Unchanged, Compacted, Refused };
        Kind kind = Kind::Unchanged;
        QByteArray body;           // what to send upstream (the client's own body unless Compacted)
        QString reason;            // Refused: why it was forwarded unchanged
        Tier tier = Tier::None;
        qint64 tokensBefore = 0;   // estimate of the client's request, system prompt and schemas included
        qint64 tokensAfter = 0;
        int messagesBefore = 0;
        int messagesAfter = 0;
        int offloaded = 0;
        // Compacted: what was made, for the recorder (see ProxyCompaction).
        std::shared_ptr<const ProxyCompaction> compaction;
        QString stateNote;         // the conversation's earlier compactions were dropped, and why
    };

    static constexpr qsizetype kMaxConversations = 64;

    ProxyCompactor(const CompactionPolicy &policy, const QString &offloadRoot);

    Outcome compact(WireProtocol protocol, const QByteArray &body);
    // The policy of the next requests (the window's sliders moved); what was made so far stays.
    void setPolicy(const CompactionPolicy &policy);
    CompactionPolicy policy() const;

    // The tool calls of `messages` and their results pair up as both APIs demand: each call's
    // results follow its assistant message before anything else, every result answers a call just
    // made, nothing is answered twice. False with `why`.
    static bool pairsValid(const QList<Message> &messages, QString *why);

    // The ProxyServer hook of compact mode: conversation requests go through compact(); the note
    // says what was done, or why a request went unchanged.
    static ProxyServer::RequestRewriter rewriter(std::shared_ptr<ProxyCompactor> compactor);

private:
    struct Conversation
    {
        WireProtocol protocol = WireProtocol::None;
        QString hint;                  // WireRequest::conversationHint
        QString systemPrompt;
        QList<Message> known;          // the messages of its last request
        ContextOverlays overlays;      // what was made for it; message ids are positions + 1 in `known`
        quint64 lastUse = 0;
    };
    enum class Continuity { New, Continues, Inside, Diverged };
    // The conversation `request` belongs to, and how it goes on from it (null for New).
    Conversation *find(const WireRequest &request, Continuity *continuity);
    void forget(const Conversation *conversation);
    Outcome compactLocked(WireProtocol protocol, const QByteArray &body);

    CompactionPolicy m_policy;
    QString m_offloadRoot;
    mutable QMutex m_mutex;
    std::vector<std::unique_ptr<Conversation>> m_conversations;
    quint64 m_uses = 0;
};

} // namespace wl
