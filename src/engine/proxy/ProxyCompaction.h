#pragma once

#include "compaction/Checkpoint.h"
#include "compaction/CompactionRecord.h"
#include "compaction/ContextOverlays.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace wl {

// What compact mode did to one request it rewrote, for the recorder to store as the session's own
// compaction. It is in the request's terms: every message id in it (a checkpoint's range, an
// offload's message, the record's offloaded entries) is the message's position in the request's
// messages plus one; the recorder maps those to the ids it stored them under.
struct ProxyCompaction
{
    // The record, when this request made overlays (requestIndex and sessionId are the recorder's
    // to fill in); none when the view only reused those of earlier requests.
    std::optional<CompactionRecord> record;
    QList<Checkpoint> checkpoints;     // made for this request
    QList<OffloadOverlay> offloads;    // likewise
    qsizetype requestMessages = 0;     // how many messages the request held
    bool viewOpensWithCheckpoint = false; // the view sent began with a checkpoint (new or reused)
    QString stateNote;                 // the conversation's earlier compactions were dropped, and why
    // The policy it compacted under (CompactionPolicy::toJson): stored as the session's, so its
    // timeline measures against the window the compaction used.
    QJsonObject policy;
};

} // namespace wl
