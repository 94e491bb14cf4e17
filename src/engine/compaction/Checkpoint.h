#pragma once

#include "Anchors.h"
#include "OffloadStore.h"
#include "Tier.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace wl {

// One text of a checkpoint (issue #22 items 7, 8). Version 1 is what the compaction made; an edit
// (in the review before it committed, or later) adds the next version, for the requests from
// `fromRequestIndex` on. Undo marks the newest version undone: every text is kept.
struct CheckpointVersion
{
    int version = 1;
    QString text;
    Anchors anchors;
    QString summary;
    int fromRequestIndex = 0;
    QDateTime createdAt;
    QDateTime undoneAt;            // set when an undo went back from it (the store only)

    friend bool operator==(const CheckpointVersion &, const CheckpointVersion &) = default;
};

// A checkpoint overlay (docs/COMPACTION.md section 9): the view replaces every history
// message with id <= coversUpToMessageId by one user message holding `text`.
struct Checkpoint
{
    qint64 id = 0;                  // store row id, 0 while not stored
    qint64 coversUpToMessageId = 0;
    qint64 coversFromMessageId = 0; // first body message it stands for (for the UI)
    QString text;                   // starts with "[Context Compaction]"; may be left empty while textBytes is known
    qint64 textBytes = -1;          // UTF-8 size of the text when known (the what-if replay makes texts on demand)
    Anchors anchors;
    QString summary;
    QString recordId;               // the CompactionRecord that made it
    Tier tier = Tier::None;
    QDateTime createdAt;
    int version = 1;                // the version text, anchors and summary are (the newest not undone)
    // Set when the user edited the draft in review before it committed: the summariser's own text,
    // stored as version 1 while the fields above are stored as version 2.
    std::optional<CheckpointVersion> reviewedDraft;
    // Every stored text when there is more than one (SessionStore::overlays), version 1 first and
    // undone ones included; empty otherwise. Requests sent before an edit carried an older one.
    QList<CheckpointVersion> versions;

    // The checkpoint as request `requestIndex`, sent at `sentAt`, carried it: the newest version
    // meant for it (fromRequestIndex <= requestIndex) that was not undone before it was sent. An
    // unknown `sentAt` counts undone versions as never sent. Itself when it has one version.
    Checkpoint asSent(int requestIndex, const QDateTime &sentAt) const;

    friend bool operator==(const Checkpoint &, const Checkpoint &) = default;
};

// The folder every offloaded result of a session lies in, named by a checkpoint that hides more
// files than it lists, so that those stay within reach (grep or glob on it, then read_file).
struct OffloadFolder
{
    QString relativeDir;  // ".waterline/tool_results/<session>", empty for none
    qsizetype files = 0;  // offloaded results the checkpoint hides, listed or not (0: no folder line)
    bool isEmpty() const { return relativeDir.isEmpty() || files <= 0; }
};

// The text of a checkpoint message: the marker line "[Context Compaction]", "## Anchors" with the
// five "### " sections, "## Summary" and the summary, and, when `offloaded` or `folder` is not
// empty, "## Offloaded References" with one "- <path> (<lines> lines, <bytes> bytes)" line per file
// and then one line naming the folder.
QString checkpointMessageText(const Anchors &anchors, const QString &summary, const QList<OffloadEntry> &offloaded,
                              const OffloadFolder &folder = {});

// The UTF-8 size of checkpointMessageText(anchors, summary, offloaded, folder) without making it, for
// `references` offloaded files whose offloadReferenceBytes() add up to `referenceBytes`.
qint64 checkpointMessageBytes(const Anchors &anchors, const QString &summary, qsizetype references, qint64 referenceBytes,
                              const OffloadFolder &folder = {});
qint64 offloadReferenceBytes(const OffloadEntry &entry);

// True when `text` starts with the marker "[Context Compaction]" (leading whitespace allowed).
bool isCheckpointText(const QString &text);

// Anchors and summary back out of a checkpoint message. A trailing "## Offloaded References" block
// written by checkpointMessageText() is not part of the summary; it goes to `offloadedReferences`
// (the block's lines, without its heading) when that is given.
ParsedSummary parseCheckpointText(const QString &text, QString *offloadedReferences = nullptr);

} // namespace wl
