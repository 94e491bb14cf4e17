#pragma once

#include "ProxyServer.h"
#include "WireConversation.h"
#include "compaction/CompactionPolicy.h"
#include "compaction/Tier.h"

#include <QByteArray>
#include <QString>

#include <memory>

namespace wl {

// Compact mode of the proxy (issue #23 item 6): Waterline's own preflight on a client's request
// before it goes upstream. The request's conversation runs through CompactionPass with the
// extractive summariser (the agent's code, synchronous and bounded), and the view it leaves is
// written back in the client's protocol, every other field of the body kept as sent. Offloaded
// results are files under `offloadRoot` (an absolute folder), and their placeholders name the
// absolute path, so the client's own file tool can read them back.
//
// A request that cannot be compacted safely (a protocol or body this does not re-encode, a view
// whose tool calls and results would not pair up) is forwarded unchanged and says why.
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
    };

    ProxyCompactor(const CompactionPolicy &policy, const QString &offloadRoot);

    Outcome compact(WireProtocol protocol, const QByteArray &body) const;

    // The tool calls of `messages` and their results pair up as both APIs demand: each call's
    // results follow its assistant message before anything else, every result answers a call just
    // made, nothing is answered twice. False with `why`.
    static bool pairsValid(const QList<Message> &messages, QString *why);

    // The ProxyServer hook of compact mode: conversation requests go through compact(); the note
    // says what was done, or why a request went unchanged.
    static ProxyServer::RequestRewriter rewriter(std::shared_ptr<const ProxyCompactor> compactor);

private:
    CompactionPolicy m_policy;
    QString m_offloadRoot;
};

} // namespace wl
