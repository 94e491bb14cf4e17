#pragma once

#include "Checkpoint.h"
#include "OffloadStore.h"
#include "Pin.h"

#include <QList>
#include <QMap>
#include <QStringList>

#include <algorithm>

namespace wl {

// An offload overlay: in views, history message `messageId` shows `placeholder`. A tool result
// offloaded at gate 1 or 2 shows its placeholder; a message Emergency cut (gate 3, any role) shows
// `placeholder` as its content and, when it has calls, `arguments` as their arguments.
struct OffloadOverlay
{
    qint64 id = 0;           // store row id
    qint64 messageId = 0;
    OffloadEntry entry;
    QString placeholder;
    QStringList arguments;   // gate 3 only: the shown arguments of each call, in order (empty: none)
    QString recordId;        // the CompactionRecord that made it, empty for gate 1
    qint64 referenceBytes = -1; // UTF-8 size of its line in a checkpoint's references, when counted

    bool isCut() const { return entry.gate == OffloadEntry::kCutGate; }

    // referenceBytes is a cache of what the other fields say: not compared.
    friend bool operator==(const OffloadOverlay &a, const OffloadOverlay &b)
    {
        return a.id == b.id && a.messageId == b.messageId && a.entry == b.entry && a.placeholder == b.placeholder
            && a.arguments == b.arguments && a.recordId == b.recordId;
    }
};

// Everything compaction added on top of a session's history. The history itself is never changed.
struct ContextOverlays
{
    QList<Checkpoint> checkpoints;          // oldest first; the view uses the newest
    QMap<qint64, OffloadOverlay> offloads;  // by message id, in id order (a checkpoint lists the newest)
    // The session's pins, oldest first (docs/COMPACTION.md section 12): the view shows them in their
    // own section after the system prompt; a pinned message is never offloaded or summarised.
    QList<Pin> pins;

    // A whole-message pin holds message `id` (selections and notes do not protect their message).
    bool isPinnedMessage(qint64 id) const
    {
        return std::any_of(pins.cbegin(), pins.cend(),
                           [id](const Pin &p) { return p.kind == Pin::Kind::Message && p.messageId == id; });
    }
};

} // namespace wl
