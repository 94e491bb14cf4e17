#pragma once

#include "PairRepair.h"
#include "TokenEstimate.h"
#include "ViewItem.h"
#include "model/ViewIds.h"

#include <QList>
#include <QString>

namespace wl {

struct Checkpoint;
struct ContextOverlays;
struct Message;

// The view sent to the model (docs/COMPACTION.md section 9), as a pure function of the system prompt,
// the history and the overlays: the system prompt, the newest checkpoint as a user
// message, the history messages after the id it covers with offload placeholders
// substituted, then pair repair. The history is never modified.
//
// A ContextView holds the view as items that point into the history (no message
// copies) plus the running byte sum, and can be extended message by message, so the
// agent loop and the simulator pay O(new messages) per turn. `messages()` materialises
// the list to send.
class ContextView
{
public:
    ContextView() = default;

    // The view over history[0, historyEnd) (historyEnd < 0: the whole history).
    // `history` must be ordered by ascending id when a checkpoint is present.
    static ContextView build(const QString &systemPrompt, const QList<Message> &history,
                             const ContextOverlays &overlays, qsizetype historyEnd = -1);
    // "Undo compaction": the overlays without the checkpoints and offloads that record `recordId` made.
    static ContextOverlays withoutCompaction(const ContextOverlays &overlays, const QString &recordId);
    // Convenience: build + messages.
    static QList<Message> view(const QString &systemPrompt, const QList<Message> &history,
                               const ContextOverlays &overlays);

    // history[historyEnd()] was appended (to the same history); extends the view.
    void append(const QList<Message> &history, const ContextOverlays &overlays);
    // Extends the view up to history[0, end).
    void appendUpTo(const QList<Message> &history, const ContextOverlays &overlays, qsizetype end);

    // `checkpoint`, now the newest of the overlays, covers every history message before the one
    // items[to] shows (a message that is not a result): the view becomes what build() gives for the
    // overlays with it, without pushing the messages it keeps again. False, and nothing changed,
    // when the history does not let that be seen cheaply (ids out of order); then build() it.
    bool replaceHeadWithCheckpoint(int to, const Checkpoint &checkpoint, const QList<Message> &history);

    // Item `index` (an Original tool result) is now shown as its offload placeholder, which with
    // its call id takes `shownBytes`, or (any Original) as Emergency cut it; keeps the sum right.
    void substitutePlaceholder(int index, qint64 shownBytes);

    QList<Message> messages(const QList<Message> &history, const ContextOverlays &overlays) const;
    Message messageAt(int index, const QList<Message> &history, const ContextOverlays &overlays) const;

    const QList<ViewItem> &items() const { return m_items; }
    // The history messages the view shows (in full or as placeholders), in view order: what a
    // RequestRecord keeps of the view besides its checkpoint.
    ViewIds historyMessageIds() const;
    int size() const { return int(m_items.size()); }
    qint64 bytes() const { return m_bytes; }
    qint64 tokens() const { return TokenEstimate::tokensForBytes(m_bytes); }
    qsizetype historyEnd() const { return m_historyEnd; }
    qint64 checkpointCoversUpTo() const { return m_coversUpTo; }
    bool hasCheckpoint() const { return m_hasCheckpoint; }
    // The pinned section (docs/COMPACTION.md section 12): item 1 when the overlays hold pins.
    bool hasPinned() const { return m_hasPinned; }
    qint64 pinnedBytes() const { return m_hasPinned ? m_items.at(1).bytes : 0; }
    // The tokens of the view that pinned content takes: what a composition shows as "pinned".
    qint64 pinnedTokens() const { return TokenEstimate::tokensForBytes(pinnedBytes()); }
    // Where the body starts: after the system prompt and the pinned section.
    int bodyStart() const { return m_hasPinned ? 2 : 1; }
    const QString &systemPrompt() const { return m_systemPrompt; }
    int stubCount() const;
    const PairRepair::Report &repairReport() const { return m_pairs.report(); }

    // Head and tail of the body (docs/COMPACTION.md section 4), as item indexes. The body starts at 1
    // (after the system prompt), or 2 after a pinned section; `headStart` skips a checkpoint at the front of the body
    // (it is never re-summarised); the tail never starts with a result.
    struct Split
    {
        int bodyStart = 1;
        int headStart = 1;
        int tailStart = 1;
        bool headEmpty() const { return tailStart <= headStart; }
    };
    Split split(int tailMessages) const;

private:
    // The Warn fast path keeps its scan position in the view it scanned (reset when the head is
    // replaced); only CompactionPass::warnOffload reads and writes it.
    friend class CompactionPass;
    struct WarnScan
    {
        // Items [1, end) hold no result of more than `threshold` content bytes that could still
        // be offloaded.
        int end = 1;
        qint64 threshold = -1;
    };
    WarnScan m_warnScan;

    void pushHistory(const QList<Message> &history, qsizetype index, const ContextOverlays &overlays);

    QList<ViewItem> m_items;
    PairRepair m_pairs;
    QString m_systemPrompt;
    QString m_checkpointText;
    QString m_pinnedText;
    qint64 m_bytes = 0;
    qint64 m_coversUpTo = 0;
    qsizetype m_historyEnd = 0;
    bool m_hasCheckpoint = false;
    bool m_hasPinned = false;
};

} // namespace wl
