#pragma once

#include "Anchors.h"
#include "Checkpoint.h"
#include "CompactionPolicy.h"
#include "CompactionRecord.h"
#include "ContextOverlays.h"
#include "ContextView.h"
#include "OffloadStore.h"
#include "TokenEstimate.h"

#include <QStringList>

#include <optional>
#include <utility>

namespace wl {

class SimulatedOffloads;

// Where gate-2 offloads go: files through an OffloadStore, or (what-if replay) only
// placeholders built in memory with the path the file would have had.
class Offloader
{
public:
    static Offloader disk(const QString &workspaceDir, const QString &sessionId);
    // `memo`, when given, keeps the simulated offloads for later runs over the same history.
    static Offloader simulated(const QString &sessionId, SimulatedOffloads *memo = nullptr);

    // history[index] offloaded, unless its placeholder would not be smaller than it (then `notSmaller`
    // and nothing written): an offload never makes the view larger.
    OffloadStore::Result offload(const QList<Message> &history, qsizetype index, const QString &toolName, int gate,
                                 int previewLines) const;
    // The whole of a message Emergency cuts (gate 3), kept in its file; simulated: only named.
    OffloadStore::Result saveWhole(const Message &message, const QString &text) const;
    // The entry saveWhole() gives (its path included), without writing anything.
    OffloadEntry wholeEntry(const Message &message, const QString &text) const { return m_store.wholeMessageEntry(message, text); }
    // The earlier context Emergency's last step replaced, kept in its file; simulated: only named.
    OffloadStore::Result saveWholeContext(qint64 coversUpTo, const QString &text) const;
    OffloadEntry wholeContextEntry(qint64 coversUpTo, const QString &text) const
    {
        return m_store.wholeContextEntry(coversUpTo, text);
    }
    bool isSimulated() const { return m_simulate; }

private:
    Offloader(const QString &workspaceDir, const QString &sessionId, bool simulate);
    static OffloadStore::Result named(const OffloadEntry &entry);
    OffloadStore::Result simulate(const Message &message, const QString &toolName, int gate, int previewLines,
                                  int occurrence) const;
    // OffloadStore::occurrenceOf, from a table of every position made on first use: a replay
    // offloads thousands of results, and counting earlier ones each time was O(history).
    int occurrenceOf(const QList<Message> &history, qsizetype index) const;
    OffloadStore m_store;
    SimulatedOffloads *m_memo = nullptr;
    bool m_simulate = false;
    mutable QList<int> m_occurrences;         // per history position: results with its call id before it
    mutable const Message *m_occurrencesOf = nullptr;
};

// The synchronous steps of one preflight over a view (docs/COMPACTION.md section 4), shared by
// Preflight (which adds the asynchronous summariser) and the Simulator. It adds
// overlays and keeps `view` equal to ContextView::build(history, overlays); it never
// touches the history.
class CompactionPass
{
public:
    CompactionPass(const QString &systemPrompt, const QList<Message> &history, qsizetype historyEnd,
                   const CompactionPolicy &policy, qint64 toolSchemaBytes, const Offloader &offloader,
                   ContextOverlays &overlays, ContextView &view);

    TokenEstimate estimate() const;
    // The tier for the current view; `force` raises it to at least Full.
    Tier decide(bool force, TierReason *reason) const;

    // Warn: gate-2 offload of large results in the head. Only scans items not scanned
    // before (the view keeps a cursor), so a Warn with nothing to do costs O(new items).
    int warnOffload(const QString &recordId);

    // The strategy's masking (docs/COMPACTION.md section 4), run at Soft, Full and Emergency before
    // anything is summarised. Under mask and hybrid every tool result of the head is replaced by its
    // placeholder whatever its size (one whose placeholder would not be smaller stays). True when no summary is to follow: under mask
    // at Soft and Full always (it never summarises there), and under both once the ratio is below
    // the tier's mask target. Under summarise: false, and nothing is done.
    bool maskInsteadOfSummary(Tier tier, const QString &recordId);

    struct SummaryJob
    {
        int from = 0;           // item range replaced by the checkpoint
        int to = 0;
        qint64 coversFrom = 0;
        qint64 coversUpTo = 0;  // history id K
        std::optional<Checkpoint> previous;    // the checkpoint at the front of the head, if any
        int count() const { return to - from; }
    };
    // Soft: the oldest half of the head (cut moved forward to a group boundary); Full and
    // Emergency: the whole head. Offloads (gate 2) the part first. nullopt: nothing to summarise.
    std::optional<SummaryJob> prepareSummary(Tier tier, const QString &recordId);
    // What the summariser reads (placeholders included), where it is: history messages in place,
    // the others (placeholders, stubs) made into `made`, which must outlive the list. Only the few
    // made ones are copies; a head of 10,000 messages is not copied to be summarised.
    // `positions`, when given, receives each one's position in the session (its history index + 1):
    // what a summary names messages by, never their store ids.
    QList<const Message *> summaryMessages(const SummaryJob &job, QList<Message> *made, QList<qint64> *positions = nullptr) const;
    // Adds the checkpoint overlay (anchors merged with the previous ones) and rebuilds the view.
    // A checkpoint that is not smaller than what it replaces (the head, with the checkpoint before
    // it) is not added: null, and `refusal` says why. A compaction never makes the view larger.
    const Checkpoint *applySummary(const SummaryJob &job, const ParsedSummary &summary, Tier tier, const QString &recordId);
    // Adds the checkpoint of a reviewed summary (docs/COMPACTION.md section 5): its anchors exactly as
    // the user accepted them, edited or cleared, not merged with the previous ones again (the draft
    // showed them merged already). Refused on the same terms as applySummary.
    const Checkpoint *applyReviewedSummary(const SummaryJob &job, const ParsedSummary &summary, Tier tier,
                                           const QString &recordId);
    // Adds a checkpoint of a given text (the simulator's size model), on the same terms.
    const Checkpoint *applyCheckpointText(const SummaryJob &job, const QString &text, Tier tier, const QString &recordId);
    // Adds a recorded checkpoint again (the replay of a range a recorded compaction summarised):
    // its text, anchors and summary as they were, so the view is the one the agent sent.
    // Refused (null) on the same terms as applySummary.
    const Checkpoint *applyRecordedCheckpoint(const SummaryJob &job, const Checkpoint &recorded, Tier tier,
                                              const QString &recordId);
    // Emergency, after the checkpoint: offload the largest results left in the body, whatever
    // their size, until the ratio is below `full`; then, if it is not, cut the largest messages
    // left (any role but the newest user message's, tool-call arguments included) until it is.
    // When the request still does not fit its window: results shown by bare placeholders (no
    // preview lines), then everything before the newest user message replaced by one checkpoint
    // whose text says where the whole of it is kept (collapseBefore), then the newest turn's
    // messages cut; a turn still too long keeps only its newest group, the user message carried
    // whole in the checkpoint. True when it got below `full`.
    bool emergencyOffload(const QString &recordId);
    // Empty when the request fits its window; else why it is not sent (docs/COMPACTION.md section 4):
    // what it needs, and which part no compaction shortens is too large.
    QString overWindow() const;
    // True when the body is only a checkpoint and a tail with no result left to offload.
    bool onlyTailLeft() const;

    const ContextView &view() const { return m_view; }
    ContextView::Split split() const { return m_view.split(m_policy.tailMessages); }

    QList<OffloadEntry> offloaded;       // every offload of this pass, in order
    int masked = 0;                      // of those, the results the strategy masked
    int cutMessages = 0;                 // of those, the messages Emergency cut (gate 3)
    int barePlaceholderCount = 0;        // this pass's placeholders Emergency made again without preview lines
    int collapsedMessages = 0;           // messages the earlier-context checkpoint replaced (0: none made)
    OffloadEntry wholeContext;           // the file that holds what that checkpoint replaced
    QList<OffloadOverlay> newOffloads;
    QList<Checkpoint> newCheckpoints;
    QStringList offloadErrors;
    QString refusal;        // why the last checkpoint was not added, empty when it was
    AnchorMerge anchorMerge;

    // Checkpoints made by applySummary() get only their size (textBytes), not their text: for the
    // what-if replay, which makes hundreds and shows few. completeCheckpointText() makes one later.
    bool deferCheckpointText = false;
    // Checkpoints are dated by the newest history message the view holds (when that request was
    // made in the recorded session) instead of the clock: for the what-if replay, which makes
    // hundreds of them and must not depend on when it runs.
    bool recordedTime = false;
    // Tokens every request carries besides its view and tool schemas that the session does not
    // store (an imported transcript's system prompt and tools): counted in estimate().
    qint64 overheadTokens = 0;
    // The calibration of the view's count against the provider's (TokenEstimate): imports only.
    double tokenScale = 1.0;
    static void completeCheckpointText(Checkpoint &checkpoint, const ContextOverlays &overlays);

    // Gate 1 (docs/COMPACTION.md section 6) as the agent applies it when a tool finishes, for a replay: the results
    // among history[from, to) above the policy's tool-time threshold (read-back tools exempt, fail
    // open) get an offload overlay (no record id) in `overlays`, also appended to `made`.
    static int offloadAtToolTime(const QList<Message> &history, qsizetype from, qsizetype to, const CompactionPolicy &policy,
                                 const Offloader &offloader, ContextOverlays &overlays, QList<OffloadOverlay> *made);

    // The offloaded files a checkpoint covering up to `coversUpTo` lists (the newest 40 it hides).
    // When it hides more, its text also names their folder, so the others stay within reach.
    static QList<OffloadEntry> hiddenOffloads(const QMap<qint64, OffloadOverlay> &offloads, qint64 coversUpTo);
    // The folder line of that checkpoint's references (empty when it lists every file it hides).
    static OffloadFolder hiddenOffloadFolder(const QMap<qint64, OffloadOverlay> &offloads, qint64 coversUpTo);
    // An edit of checkpoint `cp` (issue #22 item 8) as its next version for the requests from
    // `fromRequestIndex` on: the text the edited anchors and summary make, with the references
    // the checkpoint lists in `offloads`.
    static CheckpointVersion revision(const Checkpoint &cp, const QMap<qint64, OffloadOverlay> &offloads,
                                      const Anchors &anchors, const QString &summary, int fromRequestIndex);
    // The rule every checkpoint is added by: it must be smaller than the bytes it replaces.
    static bool replaces(qint64 checkpointBytes, qint64 replacedBytes) { return checkpointBytes < replacedBytes; }
    // The bytes of the view that a checkpoint for `job` would keep beside itself (what it does not replace).
    qint64 bytesKeptBeside(const SummaryJob &job) const;

private:
    // The items Soft (the oldest half of the head, the cut moved forward to a group boundary) or
    // Full and Emergency (the whole head) replace: [first, second). The head must not be empty.
    std::pair<int, int> summaryRange(Tier tier) const;
    const Checkpoint *addCheckpoint(const SummaryJob &job, Checkpoint cp, Tier tier, const QString &recordId);
    // applySummary with the anchors `anchorMerge` already holds.
    const Checkpoint *applyMergedSummary(const SummaryJob &job, const QString &summary, Tier tier, const QString &recordId);
    enum class OffloadOutcome { Done, NotSmaller, Failed };
    OffloadOutcome offloadItem(int index, const QString &recordId, int previewLines);
    // Emergency's last step: the largest messages cut (EmergencyCut) until the ratio is below `full`.
    void cutLargest(const QString &recordId);
    // The view item of the newest user message (not a result), -1 when the view holds none.
    int newestUserItem() const;
    // The view bytes the ratio allows below `full` (negative when the rest alone reaches it).
    qint64 viewBytesBelowFull() const;
    // The view bytes that leave the request at `totalTokens` (negative when the rest alone exceeds it).
    qint64 viewBytesFor(qint64 totalTokens) const;
    bool fitsWindow() const;
    // Emergency's steps for a request over its window: the results of the body left whole or
    // offloaded by this pass shown by their bare placeholders, largest first, until the ratio is
    // below `full`.
    void barePlaceholders(const QString &recordId);
    // Items [bodyStart, to) of the body (the checkpoint, placeholders, short messages; `to` may be
    // the end of the view, when not even the newest group fits) replaced by
    // one checkpoint: a note naming the file that keeps the whole of them, with as much of the
    // previous checkpoint as fits, and item `carried` (the newest user message, when it is among
    // them; -1: none) whole after it. False when there is nothing to replace or the file cannot be kept.
    bool collapseBefore(int to, int carried, const QString &recordId);
    // The newest user message, else (a checkpoint covers it) the newest group's first message: where
    // Emergency's collapse keeps the view from. -1 when there is none.
    int keptFromItem() const;
    // The last message of the body that is not a result (-1: none).
    int newestGroupItem() const;
    qint64 contentBytes(const ViewItem &item) const;
    bool offloadable(const ViewItem &item) const;
    QString toolNameFor(int index) const;

    const QString &m_systemPrompt;
    const QList<Message> &m_history;
    qsizetype m_historyEnd;
    const CompactionPolicy &m_policy;
    qint64 m_schemaBytes;
    const Offloader &m_offloader;
    ContextOverlays &m_overlays;
    ContextView &m_view;
    QList<OffloadEntry> m_rangeOffloads; // offloads of the summarised part (its "Offloaded References")
};

} // namespace wl
