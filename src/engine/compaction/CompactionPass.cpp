#include "CompactionPass.h"

#include "LoggingCategories.h"
#include "model/Message.h"
#include "whatif/SimulatedOffloads.h"

#include <QCoreApplication>
#include <QHash>
#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
// How many offloaded files a checkpoint lists at most (the newest ones).
constexpr int kMaxCheckpointReferences = 40;
} // namespace

Offloader::Offloader(const QString &workspaceDir, const QString &sessionId, bool simulate)
    : m_store(workspaceDir, sessionId)
    , m_simulate(simulate)
{
}

Offloader Offloader::disk(const QString &workspaceDir, const QString &sessionId)
{
    return Offloader(workspaceDir, sessionId, false);
}

Offloader Offloader::simulated(const QString &sessionId, SimulatedOffloads *memo)
{
    Offloader offloader(QString(), sessionId, true);
    offloader.m_memo = memo;
    return offloader;
}

int Offloader::occurrenceOf(const QList<Message> &history, qsizetype index) const
{
    if (index < 0 || index >= history.size())
        return 0;
    if (m_occurrencesOf != history.constData() || m_occurrences.size() != history.size()) {
        QHash<QStringView, int> seen;
        seen.reserve(history.size() / 2); // about one result per call
        m_occurrences.resize(history.size());
        for (qsizetype i = 0; i < history.size(); ++i) {
            const QString &id = history[i].toolCallId;
            m_occurrences[i] = id.isEmpty() ? 0 : seen[QStringView(id)]++;
        }
        m_occurrencesOf = history.constData();
    }
    return m_occurrences[index];
}

OffloadStore::Result Offloader::offload(const QList<Message> &history, qsizetype index, const QString &toolName, int gate,
                                       int previewLines) const
{
    const Message &message = history[index];
    OffloadStore::Result r;
    if (!m_simulate) {
        const int occurrence = occurrenceOf(history, index);
        if (!message.toolCallId.isEmpty() && !OffloadStore::isPlaceholder(message.content)
            && !m_store.shrinks(message, previewLines, occurrence)) {
            r.notSmaller = true;
            return r;
        }
        return m_store.offload(message, toolName, gate, previewLines, occurrence);
    }
    auto make = [&] {
        // What cannot be offloaded is refused before anything is counted.
        const bool offloadable = !message.toolCallId.isEmpty() && !OffloadStore::isPlaceholder(message.content);
        return simulate(message, toolName, gate, previewLines, offloadable ? occurrenceOf(history, index) : 0);
    };
    r = m_memo ? m_memo->get(message, toolName, gate, previewLines, make) : make();
    if (r.ok && r.placeholderBytes >= r.entry.bytes) {
        OffloadStore::Result refused;
        refused.notSmaller = true;
        return refused;
    }
    return r;
}

OffloadStore::Result Offloader::saveWhole(const Message &message, const QString &text) const
{
    return m_simulate ? named(m_store.wholeMessageEntry(message, text)) : m_store.saveWholeMessage(message, text);
}

OffloadStore::Result Offloader::saveWholeContext(qint64 coversUpTo, const QString &text) const
{
    return m_simulate ? named(m_store.wholeContextEntry(coversUpTo, text)) : m_store.saveWholeContext(coversUpTo, text);
}

OffloadStore::Result Offloader::named(const OffloadEntry &entry)
{
    // Simulated: nothing is written, only the path the file would have had.
    OffloadStore::Result r;
    r.entry = entry;
    r.ok = !r.entry.relativePath.isEmpty();
    if (!r.ok)
        r.error = QCoreApplication::translate("wl::CompactionPass", "not cut: the session id cannot name a file");
    return r;
}

OffloadStore::Result Offloader::simulate(const Message &message, const QString &toolName, int gate, int previewLines,
                                         int occurrence) const
{
    OffloadStore::Result r;
    if (message.toolCallId.isEmpty() || OffloadStore::isPlaceholder(message.content)) {
        r.error = QCoreApplication::translate("wl::CompactionPass", "not offloaded: not an offloadable tool result");
        return r;
    }
    r.entry.callId = message.toolCallId;
    r.entry.toolName = toolName;
    r.entry.relativePath = m_store.relativePathFor(message.toolCallId, occurrence);
    r.entry.bytes = message.byteCount() - TokenEstimate::utf8Bytes(message.toolCallId);
    r.entry.lines = message.contentLines(); // cached when the message entered history
    r.entry.gate = gate;
    r.entry.messageId = message.id;
    // Its size comes with it (counted while the preview lines are found), kept by the memo with the text.
    r.placeholder = OffloadStore::placeholderText(r.entry, message.content, previewLines, &r.placeholderBytes);
    r.ok = true;
    return r;
}

CompactionPass::CompactionPass(const QString &systemPrompt, const QList<Message> &history, qsizetype historyEnd,
                               const CompactionPolicy &policy, qint64 toolSchemaBytes, const Offloader &offloader,
                               ContextOverlays &overlays, ContextView &view)
    : m_systemPrompt(systemPrompt)
    , m_history(history)
    , m_historyEnd(historyEnd < 0 ? history.size() : historyEnd)
    , m_policy(policy)
    , m_schemaBytes(toolSchemaBytes)
    , m_offloader(offloader)
    , m_overlays(overlays)
    , m_view(view)
{
}

TokenEstimate CompactionPass::estimate() const
{
    return TokenEstimate(m_view.bytes(), m_schemaBytes, m_policy, overheadTokens, tokenScale);
}

Tier CompactionPass::decide(bool force, TierReason *reason) const
{
    const TokenEstimate e = estimate();
    const double ratio = e.ratio();
    Tier tier = m_policy.tierFor(ratio);
    if (force && int(tier) < int(Tier::Full))
        tier = Tier::Full;
    if (reason) {
        reason->ratio = ratio;
        reason->estimateTokens = e.viewTokens();
        reason->toolSchemaTokens = e.toolSchemaTokens();
        reason->reservedOutput = e.reservedOutput();
        reason->contextWindow = m_policy.contextWindow;
        reason->warn = m_policy.warn;
        reason->soft = m_policy.soft;
        reason->full = m_policy.full;
        reason->emergency = m_policy.emergency;
        reason->forced = force;
    }
    return tier;
}

qint64 CompactionPass::contentBytes(const ViewItem &item) const
{
    return item.bytes - TokenEstimate::utf8Bytes(m_history[item.sourceIndex].toolCallId);
}

bool CompactionPass::offloadable(const ViewItem &item) const
{
    // A pinned message is never offloaded (docs/COMPACTION.md section 12).
    return item.kind == ViewItem::Kind::Original && item.isResult
        && !OffloadStore::isPlaceholder(m_history[item.sourceIndex].content)
        && (m_overlays.pins.isEmpty() || !m_overlays.isPinnedMessage(item.sourceMessageId));
}

QString CompactionPass::toolNameFor(int index) const
{
    const QList<ViewItem> &items = m_view.items();
    const QString &callId = m_history[items[index].sourceIndex].toolCallId;
    int j = index - 1;
    while (j > 0 && items[j].isResult)
        --j;
    if (j < 0 || !items[j].hasCalls)
        return {};
    for (const ToolCall &call : m_history[items[j].sourceIndex].toolCalls) {
        if (call.id == callId)
            return call.name;
    }
    return {};
}

CompactionPass::OffloadOutcome CompactionPass::offloadItem(int index, const QString &recordId, int previewLines)
{
    const ViewItem item = m_view.items()[index];
    const Message &message = m_history[item.sourceIndex];
    const OffloadStore::Result r = m_offloader.offload(m_history, item.sourceIndex, toolNameFor(index), 2, previewLines);
    if (r.notSmaller)
        return OffloadOutcome::NotSmaller;
    if (!r.ok) {
        offloadErrors.append(r.error);
        return OffloadOutcome::Failed;
    }
    OffloadOverlay overlay;
    overlay.messageId = message.id;
    overlay.entry = r.entry;
    overlay.entry.messageId = message.id;
    overlay.placeholder = r.placeholder;
    overlay.recordId = recordId;
    overlay.referenceBytes = offloadReferenceBytes(overlay.entry);
    m_overlays.offloads.insert(message.id, overlay);
    const qint64 placeholderBytes = r.placeholderBytes >= 0 ? r.placeholderBytes : TokenEstimate::utf8Bytes(r.placeholder);
    m_view.substitutePlaceholder(index, placeholderBytes + TokenEstimate::utf8Bytes(message.toolCallId));
    newOffloads.append(overlay);
    offloaded.append(overlay.entry);
    return OffloadOutcome::Done;
}

int CompactionPass::warnOffload(const QString &recordId)
{
    const ContextView::Split s = split();
    const qint64 threshold = m_policy.offloadAtCompaction;
    int from = s.bodyStart;
    ContextView::WarnScan &scan = m_view.m_warnScan;
    if (scan.threshold == threshold)
        from = std::max(from, scan.end);
    int firstFailure = -1;
    int done = 0;
    for (int i = from; i < s.tailStart; ++i) {
        const ViewItem &item = m_view.items()[i];
        // item.bytes bounds the content's bytes: most results are ruled out without counting.
        if (item.bytes <= threshold || !offloadable(item) || contentBytes(item) <= threshold)
            continue;
        const OffloadOutcome outcome = offloadItem(i, recordId, m_policy.previewLinesCompaction);
        if (outcome == OffloadOutcome::Done)
            ++done;
        else if (outcome == OffloadOutcome::Failed && firstFailure < 0)
            firstFailure = i;
    }
    // A failed offload is tried again next time (fail open, retry later).
    scan.threshold = threshold;
    scan.end = firstFailure >= 0 ? firstFailure : std::max(from, s.tailStart);
    return done;
}

std::pair<int, int> CompactionPass::summaryRange(Tier tier) const
{
    const ContextView::Split s = split();
    if (tier != Tier::Soft)
        return {s.headStart, s.tailStart};
    const QList<ViewItem> &items = m_view.items();
    int cut = s.headStart + (s.tailStart - s.headStart + 1) / 2;
    while (cut < s.tailStart && items[cut].isResult)
        ++cut;
    return {s.headStart, cut};
}

bool CompactionPass::maskInsteadOfSummary(Tier tier, const QString &recordId)
{
    const CompactionStrategy strategy = m_policy.strategy;
    if (strategy == CompactionStrategy::Summarise || !(tier == Tier::Soft || tier == Tier::Full || tier == Tier::Emergency))
        return false;
    // The whole head at every tier: masking costs no LLM call, so it goes as far as it can before a
    // summary (even Soft's, of the older half) is considered.
    if (const ContextView::Split s = split(); !s.headEmpty()) {
        for (int i = s.headStart; i < s.tailStart; ++i) {
            if (offloadable(m_view.items()[i])
                && offloadItem(i, recordId, m_policy.previewLinesCompaction) == OffloadOutcome::Done)
                ++masked;
        }
    }
    if (estimate().ratio() < m_policy.maskTarget(tier))
        return true;
    // Mask never summarises at Soft and Full; at Emergency its last resort is the extractive checkpoint.
    return strategy == CompactionStrategy::Mask && tier != Tier::Emergency;
}

std::optional<CompactionPass::SummaryJob> CompactionPass::prepareSummary(Tier tier, const QString &recordId)
{
    if (split().headEmpty())
        return std::nullopt;
    const QList<ViewItem> &items = m_view.items();
    SummaryJob job;
    std::tie(job.from, job.to) = summaryRange(tier);
    m_rangeOffloads.clear();
    const qsizetype before = offloaded.size();
    for (int i = job.from; i < job.to; ++i) {
        if (items[i].bytes > m_policy.offloadAtCompaction && offloadable(items[i])
            && contentBytes(items[i]) > m_policy.offloadAtCompaction)
            offloadItem(i, recordId, m_policy.previewLinesCompaction);
    }
    m_rangeOffloads = offloaded.mid(before);

    const ViewItem &next = m_view.items()[job.to]; // the tail is never empty, and never starts with a result
    Q_ASSERT(!next.isResult && next.sourceIndex > 0);
    job.coversUpTo = m_history[next.sourceIndex - 1].id;
    if (m_view.hasCheckpoint() && !m_overlays.checkpoints.isEmpty()) {
        job.previous = m_overlays.checkpoints.constLast();
        job.coversFrom = job.previous->coversFromMessageId;
    } else {
        job.coversFrom = m_view.items()[job.from].sourceMessageId;
    }
    return job;
}

namespace {
// Files of results a checkpoint covering up to `coversUpTo` hides: listing them keeps their paths in
// reach of read_file. Only the newest kMaxCheckpointReferences are listed (those offloaded by this
// compaction among them); the overlays are in message id order, so they are the ones just before the
// first id the checkpoint does not cover.
template<typename Visit>
void forEachHiddenOffload(const QMap<qint64, OffloadOverlay> &offloads, qint64 coversUpTo, Visit visit)
{
    const auto end = offloads.upperBound(coversUpTo);
    auto from = end;
    for (int n = 0; n < kMaxCheckpointReferences && from != offloads.cbegin(); ++n)
        --from;
    for (auto it = from; it != end; ++it)
        visit(*it);
}

// When a checkpoint hides more files than it lists, the folder that holds them all, with their
// number: an early file no longer listed stays within reach of grep, glob and read_file.
OffloadFolder hiddenFolder(const QMap<qint64, OffloadOverlay> &offloads, qint64 coversUpTo)
{
    OffloadFolder folder;
    const auto end = offloads.upperBound(coversUpTo);
    // Counted from the end: a checkpoint hides most offloads, and only the tail's are left after it.
    const qsizetype hidden = offloads.size() - std::distance(end, offloads.cend());
    if (hidden <= kMaxCheckpointReferences)
        return folder;
    const QString &path = std::prev(end)->entry.relativePath;
    const qsizetype slash = path.lastIndexOf(u'/');
    if (slash <= 0)
        return folder;
    folder.relativeDir = path.left(slash);
    folder.files = hidden;
    return folder;
}
} // namespace

QList<const Message *> CompactionPass::summaryMessages(const SummaryJob &job, QList<Message> *made,
                                                      QList<qint64> *positions) const
{
    const QList<ViewItem> &items = m_view.items();
    const auto begin = items.cbegin() + job.from;
    const auto end = items.cbegin() + job.to;
    made->clear();
    // Never grows past this: the pointers into it stay valid.
    made->reserve(std::count_if(begin, end, [](const ViewItem &item) { return item.kind != ViewItem::Kind::Original; }));
    // A pinned message is not summarised: the pinned section keeps it verbatim (section 12).
    const bool anyPins = !m_overlays.pins.isEmpty();
    QList<const Message *> out;
    out.reserve(job.count());
    if (positions) {
        positions->clear();
        positions->reserve(job.count());
    }
    for (auto item = begin; item != end; ++item) {
        if (anyPins && item->kind == ViewItem::Kind::Original && m_overlays.isPinnedMessage(item->sourceMessageId))
            continue;
        if (positions)
            positions->append(qint64(item->sourceIndex) + 1);
        if (item->kind == ViewItem::Kind::Original) {
            out.append(&m_history[item->sourceIndex]);
        } else {
            made->append(m_view.messageAt(int(item - items.cbegin()), m_history, m_overlays));
            out.append(&made->constLast());
        }
    }
    return out;
}

QList<OffloadEntry> CompactionPass::hiddenOffloads(const QMap<qint64, OffloadOverlay> &offloads, qint64 coversUpTo)
{
    QList<OffloadEntry> entries;
    entries.reserve(std::min<qsizetype>(kMaxCheckpointReferences, offloads.size()));
    forEachHiddenOffload(offloads, coversUpTo, [&](const OffloadOverlay &offload) { entries.append(offload.entry); });
    return entries;
}

const Checkpoint *CompactionPass::applySummary(const SummaryJob &job, const ParsedSummary &summary, Tier tier,
                                               const QString &recordId)
{
    anchorMerge = mergeAnchors(job.previous ? job.previous->anchors : Anchors{}, summary.anchors);
    return applyMergedSummary(job, summary.summary, tier, recordId);
}

const Checkpoint *CompactionPass::applyReviewedSummary(const SummaryJob &job, const ParsedSummary &summary, Tier tier,
                                                       const QString &recordId)
{
    const Anchors previous = job.previous ? job.previous->anchors : Anchors{};
    anchorMerge.anchors = summary.anchors;
    for (AnchorKind kind : kAllAnchorKinds) {
        const QString &before = previous.value(kind);
        const QString &after = summary.anchors.value(kind);
        AnchorChange &change = anchorMerge.changes[size_t(kind)];
        if (before.trimmed() == after.trimmed())
            change = AnchorChange::Unchanged;
        else
            change = isUnknownAnchorValue(before) ? AnchorChange::New : AnchorChange::Updated; // a cleared one is an update
    }
    return applyMergedSummary(job, summary.summary, tier, recordId);
}

const Checkpoint *CompactionPass::applyMergedSummary(const SummaryJob &job, const QString &summary, Tier tier,
                                                     const QString &recordId)
{
    Checkpoint cp;
    const OffloadFolder folder = hiddenFolder(m_overlays.offloads, job.coversUpTo);
    if (deferCheckpointText) {
        qsizetype references = 0;
        qint64 referenceBytes = 0;
        forEachHiddenOffload(m_overlays.offloads, job.coversUpTo, [&](const OffloadOverlay &offload) {
            ++references;
            referenceBytes += offload.referenceBytes >= 0 ? offload.referenceBytes : offloadReferenceBytes(offload.entry);
        });
        cp.textBytes = checkpointMessageBytes(anchorMerge.anchors, summary, references, referenceBytes, folder);
    } else {
        cp.text = checkpointMessageText(anchorMerge.anchors, summary, hiddenOffloads(m_overlays.offloads, job.coversUpTo), folder);
    }
    cp.anchors = anchorMerge.anchors;
    cp.summary = summary;
    return addCheckpoint(job, cp, tier, recordId);
}

void CompactionPass::completeCheckpointText(Checkpoint &checkpoint, const ContextOverlays &overlays)
{
    if (!checkpoint.text.isEmpty() || checkpoint.textBytes < 0)
        return;
    // Offloads never change below a checkpoint once it is made (those messages are out of every
    // later view), so a later state of the overlays lists the same files.
    checkpoint.text = checkpointMessageText(checkpoint.anchors, checkpoint.summary,
                                            hiddenOffloads(overlays.offloads, checkpoint.coversUpToMessageId),
                                            hiddenFolder(overlays.offloads, checkpoint.coversUpToMessageId));
    Q_ASSERT(TokenEstimate::utf8Bytes(checkpoint.text) == checkpoint.textBytes);
}

const Checkpoint *CompactionPass::applyCheckpointText(const SummaryJob &job, const QString &text, Tier tier,
                                                      const QString &recordId)
{
    Checkpoint cp;
    cp.text = text;
    if (job.previous)
        cp.anchors = job.previous->anchors;
    return addCheckpoint(job, cp, tier, recordId);
}

const Checkpoint *CompactionPass::applyRecordedCheckpoint(const SummaryJob &job, const Checkpoint &recorded, Tier tier,
                                                          const QString &recordId)
{
    anchorMerge = mergeAnchors(job.previous ? job.previous->anchors : Anchors{}, recorded.anchors);
    anchorMerge.anchors = recorded.anchors; // as recorded, whatever merging them again would give
    Checkpoint cp;
    cp.text = recorded.text;
    cp.textBytes = TokenEstimate::utf8Bytes(recorded.text);
    cp.anchors = recorded.anchors;
    cp.summary = recorded.summary;
    cp.version = recorded.version;
    cp.versions = recorded.versions; // an edited one: the replay follows its versions request by request
    return addCheckpoint(job, cp, tier, recordId);
}

OffloadFolder CompactionPass::hiddenOffloadFolder(const QMap<qint64, OffloadOverlay> &offloads, qint64 coversUpTo)
{
    return hiddenFolder(offloads, coversUpTo);
}

qint64 CompactionPass::bytesKeptBeside(const SummaryJob &job) const
{
    const ContextView::Split s = split();
    qint64 replaced = 0;
    for (int i = s.bodyStart; i < job.to; ++i)
        replaced += m_view.items()[i].bytes;
    return m_view.bytes() - replaced;
}

const Checkpoint *CompactionPass::addCheckpoint(const SummaryJob &job, Checkpoint cp, Tier tier, const QString &recordId)
{
    // What it replaces: every body item before the kept part (an earlier checkpoint included).
    const ContextView::Split s = split();
    qint64 replaced = 0;
    for (int i = s.bodyStart; i < job.to; ++i)
        replaced += m_view.items()[i].bytes;
    const qint64 bytes = cp.textBytes >= 0 ? cp.textBytes : TokenEstimate::utf8Bytes(cp.text);
    if (!replaces(bytes, replaced)) {
        refusal = QCoreApplication::translate("wl::CompactionPass",
                                              "not compacted: the summary (%1 bytes) is not smaller than the %2 bytes it would replace")
                      .arg(bytes)
                      .arg(replaced);
        return nullptr;
    }
    refusal.clear();
    cp.coversUpToMessageId = job.coversUpTo;
    cp.coversFromMessageId = job.coversFrom;
    cp.recordId = recordId;
    cp.tier = tier;
    if (!recordedTime)
        cp.createdAt = QDateTime::currentDateTime();
    else if (const qsizetype end = std::min(m_historyEnd, m_history.size()); end > 0)
        cp.createdAt = m_history[end - 1].createdAt;
    m_overlays.checkpoints.append(cp);
    newCheckpoints.append(cp);
    const Checkpoint &added = m_overlays.checkpoints.constLast();
    // The kept messages are shown as they were: only the head is replaced (view == build(overlays)).
    if (m_view.historyEnd() != m_historyEnd || !m_view.replaceHeadWithCheckpoint(job.to, added, m_history))
        m_view = ContextView::build(m_systemPrompt, m_history, m_overlays, m_historyEnd);
    return &added;
}

namespace {
// The name of the tool whose call `history[result]` answers: the nearest call with its id before it.
QString toolNameOf(const QList<Message> &history, qsizetype result)
{
    const QString &callId = history[result].toolCallId;
    for (qsizetype i = result - 1; i >= 0; --i) {
        for (const ToolCall &call : history[i].toolCalls) {
            if (call.id == callId)
                return call.name;
        }
    }
    return {};
}
} // namespace

int CompactionPass::offloadAtToolTime(const QList<Message> &history, qsizetype from, qsizetype to,
                                      const CompactionPolicy &policy, const Offloader &offloader,
                                      ContextOverlays &overlays, QList<OffloadOverlay> *made)
{
    int done = 0;
    for (qsizetype i = std::max<qsizetype>(0, from); i < std::min(to, history.size()); ++i) {
        const Message &m = history[i];
        if (!m.isToolResult() || m.toolCallId.isEmpty())
            continue;
        // The cached size bounds the content's: most results are ruled out without counting.
        if (m.byteCount() <= policy.offloadAtToolTime)
            continue;
        const qint64 contentBytes = m.byteCount() - TokenEstimate::utf8Bytes(m.toolCallId);
        if (contentBytes <= policy.offloadAtToolTime || overlays.offloads.contains(m.id)
            || (!overlays.pins.isEmpty() && overlays.isPinnedMessage(m.id)))
            continue;
        const QString tool = toolNameOf(history, i);
        if (!OffloadStore::gate1Applies(tool, contentBytes, policy.offloadAtToolTime) || OffloadStore::isPlaceholder(m.content))
            continue;
        const OffloadStore::Result r = offloader.offload(history, i, tool, 1, policy.previewLinesToolTime);
        if (!r.ok)
            continue; // fail open, as the agent does: the whole result stays
        OffloadOverlay overlay;
        overlay.messageId = m.id;
        overlay.entry = r.entry;
        overlay.entry.messageId = m.id;
        overlay.placeholder = r.placeholder;
        overlay.referenceBytes = offloadReferenceBytes(overlay.entry);
        overlays.offloads.insert(m.id, overlay);
        if (made)
            made->append(overlay);
        ++done;
    }
    return done;
}

bool CompactionPass::onlyTailLeft() const
{
    const ContextView::Split s = split();
    if (!s.headEmpty())
        return false;
    const QList<ViewItem> &items = m_view.items();
    return std::none_of(items.cbegin() + 1, items.cend(), [&](const ViewItem &i) { return offloadable(i); });
}

CheckpointVersion CompactionPass::revision(const Checkpoint &cp, const QMap<qint64, OffloadOverlay> &offloads,
                                           const Anchors &anchors, const QString &summary, int fromRequestIndex)
{
    CheckpointVersion version;
    version.anchors = anchors;
    version.summary = summary;
    version.text = checkpointMessageText(anchors, summary, hiddenOffloads(offloads, cp.coversUpToMessageId),
                                         hiddenOffloadFolder(offloads, cp.coversUpToMessageId));
    version.fromRequestIndex = fromRequestIndex;
    return version;
}

} // namespace wl
