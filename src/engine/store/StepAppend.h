#pragma once

#include "RequestRecord.h"
#include "compaction/Checkpoint.h"
#include "compaction/CompactionRecord.h"
#include "compaction/ContextOverlays.h"
#include "model/Message.h"

#include <QList>

#include <optional>

namespace wl {

// References, inside a StepAppend, to rows the same step creates (their ids are not known until it
// is stored). They are negative, so they never name a stored row:
// - Message::origin == ThisStep::kRow: the message came from this step's request;
// - RequestRecord::viewCheckpointId == ThisStep::kRow: the view opened with this step's newest checkpoint;
// - OffloadOverlay::messageId == ThisStep::message(i): this step's message i.
// The store resolves them when it writes the step, the agent run when it takes the stored ids back.
namespace ThisStep {
inline constexpr qint64 kRow = -1;
// The reference to this step's message `i` (i >= 0).
constexpr qint64 message(qsizetype i)
{
    return kRow - i;
}
// The index of this step's message that `id` names, or -1 when `id` names no message of this step.
constexpr qsizetype messageIndex(qint64 id)
{
    return id <= kRow ? qsizetype(kRow - id) : -1;
}
} // namespace ThisStep

// Everything one agent step adds to a session, written in one transaction by
// SessionStore::appendStep: all of it is stored, or none of it. Rows of the same step are named
// with ThisStep.
struct StepAppend
{
    QList<Message> messages;          // appended in order; ids, session, bytes and created time are filled in
    std::optional<RequestRecord> request;
    QList<Checkpoint> checkpoints;
    QList<OffloadOverlay> offloads;
    std::optional<CompactionRecord> record;
    // Replay under another policy: rewrites the stored request with index requestUpdate->index in
    // place: its view (message ids, and checkpoint id, which may be ThisStep::kRow), estimate,
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
