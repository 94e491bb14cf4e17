// Emergency's steps after its checkpoint (docs/COMPACTION.md section 4): offload, cut, and when the
// request still does not fit its window, bare placeholders and the earlier context replaced by a
// note naming the file that holds it. The rest of CompactionPass is in CompactionPass.cpp.
#include "CompactionPass.h"

#include "EmergencyCut.h"
#include "model/Message.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
// The items of `items` from `from` on that `keep(index, item)` accepts, largest first (ties in view order).
template<typename Keep>
QList<int> largestFirst(const QList<ViewItem> &items, int from, Keep keep)
{
    QList<int> out;
    for (int i = from; i < items.size(); ++i) {
        if (keep(i, items[i]))
            out.append(i);
    }
    std::stable_sort(out.begin(), out.end(), [&](int a, int b) { return items[a].bytes > items[b].bytes; });
    return out;
}
} // namespace

bool CompactionPass::fitsWindow() const
{
    const TokenEstimate e = estimate();
    return e.contextWindow() <= 0 || e.totalTokens() <= e.contextWindow();
}

bool CompactionPass::emergencyOffload(const QString &recordId)
{
    const QList<int> candidates = largestFirst(m_view.items(), 1, [&](int, const ViewItem &item) { return offloadable(item); });
    for (int index : candidates) {
        if (estimate().ratio() < m_policy.full)
            break;
        offloadItem(index, recordId, m_policy.previewLinesCompaction);
    }
    if (estimate().ratio() >= m_policy.full)
        cutLargest(recordId);
    // A request over its window is never sent while anything but its fixed parts could be shorter.
    if (!fitsWindow())
        barePlaceholders(recordId);
    if (!fitsWindow() && collapseBefore(keptFromItem(), -1, recordId))
        cutLargest(recordId); // what the newest user message's own turn made
    // A turn of tool calls too long for the window beside the newest user message: only its newest
    // group is kept, the user message carried whole in the checkpoint's text.
    if (const int user = newestUserItem(); !fitsWindow() && user >= 0 && newestGroupItem() > user
        && collapseBefore(newestGroupItem(), user, recordId))
        cutLargest(recordId);
    // Not even that group fits beside the fixed parts: the note stands for the whole body, the
    // newest user message carried whole in it when the view still holds it.
    if (!fitsWindow())
        collapseBefore(int(m_view.items().size()), newestUserItem(), recordId);
    return estimate().ratio() < m_policy.full;
}

int CompactionPass::newestUserItem() const
{
    const QList<ViewItem> &items = m_view.items();
    for (int i = int(items.size()) - 1; i >= m_view.bodyStart(); --i) {
        const ViewItem &item = items[i];
        if (item.sourceIndex >= 0 && !item.isResult && item.kind != ViewItem::Kind::Stub
            && m_history[item.sourceIndex].role == Role::User)
            return i;
    }
    return -1;
}

qint64 CompactionPass::viewBytesFor(qint64 totalTokens) const
{
    const TokenEstimate e = estimate();
    return e.maxViewBytesFor(totalTokens - (e.totalTokens() - e.viewTokens()));
}

qint64 CompactionPass::viewBytesBelowFull() const
{
    // ratio < full: total tokens at most ceil(full x window) - 1, of which the view may take what
    // the schemas, the overhead and the reserved output leave.
    return viewBytesFor(qint64(std::ceil(m_policy.full * double(estimate().contextWindow()))) - 1);
}

void CompactionPass::cutLargest(const QString &recordId)
{
    // The newest user message is what the request answers: never cut (when it alone is too large,
    // the request is not sent: overWindow()). Pinned messages are kept verbatim (section 12).
    const int newestUser = newestUserItem();
    const QList<ViewItem> &items = m_view.items();
    const QList<int> candidates = largestFirst(items, m_view.bodyStart(), [&](int i, const ViewItem &item) {
        // A message smaller than a cut's note and what it keeps cannot get smaller: not tried.
        return i != newestUser && item.kind == ViewItem::Kind::Original && !item.isResult && item.bytes > 512
            && (m_overlays.pins.isEmpty() || !m_overlays.isPinnedMessage(item.sourceMessageId));
    });
    for (int index : candidates) {
        if (estimate().ratio() < m_policy.full)
            break;
        const ViewItem item = items[index];
        const Message &message = m_history[item.sourceIndex];
        const QString whole = EmergencyCut::wholeText(message);
        const OffloadEntry entry = m_offloader.wholeEntry(message, whole);
        const qint64 excess = m_view.bytes() - viewBytesBelowFull();
        const auto cut = EmergencyCut::cut(message, item.bytes - excess, entry.relativePath);
        if (!cut)
            continue;
        const OffloadStore::Result saved = m_offloader.saveWhole(message, whole);
        if (!saved.ok) {
            offloadErrors.append(saved.error); // fail open: the message stays whole
            continue;
        }
        OffloadOverlay overlay;
        overlay.messageId = message.id;
        overlay.entry = saved.entry;
        overlay.placeholder = cut->content;
        overlay.arguments = cut->arguments;
        overlay.recordId = recordId;
        overlay.referenceBytes = offloadReferenceBytes(overlay.entry);
        m_overlays.offloads.insert(message.id, overlay);
        m_view.substitutePlaceholder(index, cut->bytes);
        newOffloads.append(overlay);
        offloaded.append(overlay.entry);
        ++cutMessages;
    }
}

void CompactionPass::barePlaceholders(const QString &recordId)
{
    // Every result of the body left whole, or offloaded by this pass with preview lines, largest
    // first: shown by its bare placeholder (its file, lines and bytes) until the ratio is below `full`.
    const QList<ViewItem> &items = m_view.items();
    const QList<int> candidates = largestFirst(items, m_view.bodyStart(), [&](int, const ViewItem &item) {
        return item.isResult && (item.kind == ViewItem::Kind::Placeholder || offloadable(item));
    });
    for (int index : candidates) {
        if (estimate().ratio() < m_policy.full)
            break;
        const ViewItem item = items[index];
        if (item.kind == ViewItem::Kind::Original) {
            offloadItem(index, recordId, 0);
            continue;
        }
        // Only this pass's own: an earlier compaction's offload is a stored row of its own, undone
        // with it (the collapse replaces those that precede the newest user message).
        const auto it = m_overlays.offloads.find(item.sourceMessageId);
        const auto made = std::find_if(newOffloads.begin(), newOffloads.end(),
                                       [&](const OffloadOverlay &o) { return o.messageId == item.sourceMessageId; });
        if (it == m_overlays.offloads.end() || it->isCut() || made == newOffloads.end())
            continue;
        const Message &message = m_history[item.sourceIndex];
        qint64 bytes = 0;
        QString bare = OffloadStore::placeholderText(it->entry, message.content, 0, &bytes);
        const qint64 shown = bytes + TokenEstimate::utf8Bytes(message.toolCallId);
        if (shown >= item.bytes)
            continue;
        it->placeholder = std::move(bare);
        made->placeholder = it->placeholder;
        m_view.substitutePlaceholder(index, shown);
        ++barePlaceholderCount;
    }
}

int CompactionPass::newestGroupItem() const
{
    // The last message that is not a result: a message Emergency cut is shown as a placeholder and
    // starts a group all the same.
    const QList<ViewItem> &items = m_view.items();
    for (int i = int(items.size()) - 1; i > m_view.bodyStart(); --i) {
        if (!items[i].isResult && (items[i].kind == ViewItem::Kind::Original || items[i].kind == ViewItem::Kind::Placeholder))
            return i;
    }
    return -1;
}

int CompactionPass::keptFromItem() const
{
    // The newest user message and what followed it; when a checkpoint covers that message already
    // (a long turn of tool calls), the newest group.
    const int newestUser = newestUserItem();
    return newestUser >= 0 ? newestUser : newestGroupItem();
}

bool CompactionPass::collapseBefore(int to, int carried, const QString &recordId)
{
    const int from = m_view.bodyStart();
    if (to <= from)
        return false;
    const QList<ViewItem> &items = m_view.items();
    // `to` is a group's first message, or the end of the view (the note then stands for all of it).
    const bool all = to >= items.size();
    const qsizetype historyEnd = std::min(m_historyEnd, m_history.size());
    if (all && historyEnd <= 0)
        return false;
    Q_ASSERT(all || (!items[to].isResult && items[to].sourceIndex > 0));

    // What the replaced part showed, whole: the checkpoint's text and each message as it was sent.
    std::optional<Checkpoint> previous;
    if (m_view.hasCheckpoint() && !m_overlays.checkpoints.isEmpty()) {
        previous = m_overlays.checkpoints.constLast();
        completeCheckpointText(*previous, m_overlays);
    }
    QString whole = previous ? previous->text : QString();
    int messages = 0;
    for (int i = from; i < to; ++i) {
        if (items[i].kind == ViewItem::Kind::Checkpoint)
            continue;
        const Message shown = m_view.messageAt(i, m_history, m_overlays);
        whole += u"\n\n[message %1, %2]\n"_s.arg(items[i].sourceIndex + 1).arg(roleName(shown.role));
        whole += EmergencyCut::wholeText(shown);
        ++messages;
    }
    // The newest user message, when it is among them, goes on whole in the checkpoint's text.
    const QString carriedText = carried < 0 ? QString()
        : EmergencyCut::carriedUserMessage(m_history[items[carried].sourceIndex].content);

    SummaryJob job;
    job.from = from;
    job.to = to;
    job.coversUpTo = all ? m_history[historyEnd - 1].id : m_history[items[to].sourceIndex - 1].id;
    job.previous = previous;
    job.coversFrom = previous ? previous->coversFromMessageId : items[from].sourceMessageId;

    // The note and as much of the checkpoint as leaves the request below `full`, else within the window.
    const qint64 kept = bytesKeptBeside(job) + TokenEstimate::utf8Bytes(carriedText);
    const qint64 wholeBytes = TokenEstimate::utf8Bytes(whole);
    const QString wholePath = m_offloader.wholeContextEntry(job.coversUpTo, whole).relativePath;
    const QString least = EmergencyCut::contextText({}, wholeBytes, messages, 0, wholePath);
    qint64 room = viewBytesBelowFull() - kept;
    if (room < TokenEstimate::utf8Bytes(least))
        room = viewBytesFor(estimate().contextWindow()) - kept;
    if (room < TokenEstimate::utf8Bytes(least))
        return false; // it would not fit either: the view stays as it is, and says why it is not sent
    Checkpoint cp;
    cp.text = EmergencyCut::contextText(previous ? QStringView(previous->text) : QStringView(), wholeBytes, messages, room,
                                        wholePath)
        + carriedText;
    cp.textBytes = TokenEstimate::utf8Bytes(cp.text);
    if (previous) {
        cp.anchors = previous->anchors; // the anchors go on; the text names where the rest is
        cp.summary = previous->summary;
    }
    const OffloadStore::Result saved = m_offloader.saveWholeContext(job.coversUpTo, whole);
    if (!saved.ok) {
        offloadErrors.append(saved.error); // fail open: not cut, and not sent when it does not fit
        return false;
    }
    if (!addCheckpoint(job, cp, Tier::Emergency, recordId))
        return false;
    wholeContext = saved.entry;
    collapsedMessages += messages;
    return true;
}

QString CompactionPass::overWindow() const
{
    const TokenEstimate e = estimate();
    if (e.contextWindow() <= 0 || e.totalTokens() <= e.contextWindow())
        return {};
    const QList<ViewItem> &items = m_view.items();
    const int newestUser = newestUserItem();
    struct Part { QString name; qint64 tokens; };
    const QList<Part> parts{
        {QCoreApplication::translate("wl::CompactionPass", "the system prompt"), e.scaled(TokenEstimate::tokensForBytes(items.value(0).bytes))},
        {QCoreApplication::translate("wl::CompactionPass", "the tool schemas"), e.toolSchemaTokens()},
        {QCoreApplication::translate("wl::CompactionPass", "the newest user message"),
         newestUser < 0 ? 0 : e.scaled(TokenEstimate::tokensForBytes(items[newestUser].bytes))},
        {QCoreApplication::translate("wl::CompactionPass", "the pinned section"), e.scaled(m_view.pinnedTokens())},
        {QCoreApplication::translate("wl::CompactionPass", "the reserved output"), e.reservedOutput()},
        {QCoreApplication::translate("wl::CompactionPass", "the import's estimated overhead"), e.overheadTokens()},
    };
    qint64 fixed = 0;
    const Part *largest = &parts.first();
    for (const Part &part : parts) {
        fixed += part.tokens;
        if (part.tokens > largest->tokens)
            largest = &part;
    }
    const qint64 rest = e.totalTokens() - fixed;
    QString why = QCoreApplication::translate("wl::CompactionPass",
                                              "not sent: the request needs %1 tokens and the context window holds %2, even after "
                                              "the emergency compaction; ")
                      .arg(e.totalTokens())
                      .arg(e.contextWindow());
    if (fixed > e.contextWindow())
        return why + QCoreApplication::translate("wl::CompactionPass", "%1 is too large (%2 tokens)").arg(largest->name).arg(largest->tokens);
    // A window so small that the note standing for the earlier context and the short messages of the
    // newest turn do not fit beside those parts.
    return why + QCoreApplication::translate("wl::CompactionPass", "what no compaction shortens takes %1 tokens (the largest: %2, %3 tokens) "
                                                                   "and the checkpoint, placeholders and short messages left %4")
                     .arg(fixed)
                     .arg(largest->name)
                     .arg(largest->tokens)
                     .arg(rest);
}

} // namespace wl
