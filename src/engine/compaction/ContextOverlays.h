#pragma once

#include "Checkpoint.h"
#include "OffloadStore.h"

#include <QList>
#include <QMap>

namespace wl {

// An offload overlay: in views, history message `messageId` shows `placeholder`.
struct OffloadOverlay
{
    qint64 id = 0;           // store row id
    qint64 messageId = 0;
    OffloadEntry entry;
    QString placeholder;
    QString recordId;        // the CompactionRecord that made it, empty for gate 1
    qint64 referenceBytes = -1; // UTF-8 size of its line in a checkpoint's references, when counted

    // referenceBytes is a cache of what the other fields say: not compared.
    friend bool operator==(const OffloadOverlay &a, const OffloadOverlay &b)
    {
        return a.id == b.id && a.messageId == b.messageId && a.entry == b.entry && a.placeholder == b.placeholder
            && a.recordId == b.recordId;
    }
};

// Everything compaction added on top of a session's history. The history itself is never changed.
struct ContextOverlays
{
    QList<Checkpoint> checkpoints;          // oldest first; the view uses the newest
    QMap<qint64, OffloadOverlay> offloads;  // by message id, in id order (a checkpoint lists the newest)
};

} // namespace wl
