#pragma once

#include "Anchors.h"
#include "Tier.h"

#include <QDateTime>
#include <QString>

namespace wl {

// A checkpoint overlay (spec section 9): the view replaces every history
// message with id <= coversUpToMessageId by one user message holding `text`.
struct Checkpoint
{
    qint64 id = 0;                  // store row id, 0 while not stored
    qint64 coversUpToMessageId = 0;
    qint64 coversFromMessageId = 0; // first body message it stands for (for the UI)
    QString text;                   // starts with "[Context Compaction]"
    Anchors anchors;
    QString summary;
    QString recordId;               // the CompactionRecord that made it
    Tier tier = Tier::None;
    QDateTime createdAt;

    friend bool operator==(const Checkpoint &, const Checkpoint &) = default;
};

} // namespace wl
