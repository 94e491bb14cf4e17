#pragma once

#include "RequestRecord.h"
#include "compaction/Checkpoint.h"
#include "compaction/CompactionRecord.h"
#include "compaction/ContextOverlays.h"
#include "model/Message.h"

#include <QList>

#include <optional>

namespace wl {

// Everything one agent step adds to a session, written in one transaction by
// SessionStore::appendStep: all of it is stored, or none of it.
//
// References to rows created by the same step use SessionStore::kThisStep (-1):
// - Message::origin == kThisStep: the message came from this step's request;
// - RequestRecord::viewCheckpointId == kThisStep: the view opened with this step's newest checkpoint;
// - OffloadOverlay::messageId == kThisStep - i (i >= 0): this step's message i.
struct StepAppend
{
    QList<Message> messages;          // appended in order; ids, session, bytes and created time are filled in
    std::optional<RequestRecord> request;
    QList<Checkpoint> checkpoints;
    QList<OffloadOverlay> offloads;
    std::optional<CompactionRecord> record;
    // Replay under another policy: rewrites the stored request with index requestUpdate->index in
    // place: its view (message ids, and checkpoint id, which may be kThisStep), estimate,
    // tool-schema tokens and tier. Usage, model, times and error stay as recorded.
    std::optional<RequestRecord> requestUpdate;
};

// The ids appendStep assigned, in the order of the StepAppend's lists.
struct StepIds
{
    QList<qint64> messageIds;
    qint64 requestId = 0;
    int requestIndex = -1;
    QList<qint64> checkpointIds;
    QList<qint64> offloadIds;
};

} // namespace wl
