#include "ContextView.h"

#include "ContextOverlays.h"
#include "EmergencyCut.h"
#include "PinnedSection.h"
#include "TokenEstimate.h"
#include "LoggingCategories.h"
#include "model/Message.h"

#include <algorithm>

namespace wl {

namespace {
ViewItem checkpointItem(const Checkpoint &cp)
{
    ViewItem item;
    item.kind = ViewItem::Kind::Checkpoint;
    item.coversFrom = cp.coversFromMessageId;
    item.coversTo = cp.coversUpToMessageId;
    item.bytes = cp.textBytes >= 0 ? cp.textBytes : TokenEstimate::utf8Bytes(cp.text);
    return item;
}

// A message Emergency cut, as the view shows it (its byte count cached: the item's bytes).
Message cutMessage(const Message &source, const OffloadOverlay &cut)
{
    Message m = source;
    EmergencyCut::apply(m, cut.placeholder, cut.arguments);
    return m;
}

// Where the messages after a checkpoint covering up to `coversUpTo` start (history in id order).
qsizetype firstUncovered(const QList<Message> &history, qsizetype historyEnd, qint64 coversUpTo)
{
    const auto first = std::partition_point(history.cbegin(), history.cbegin() + historyEnd,
                                            [&](const Message &m) { return m.id <= coversUpTo; });
    return first - history.cbegin();
}
} // namespace

ContextView ContextView::build(const QString &systemPrompt, const QList<Message> &history,
                               const ContextOverlays &overlays, qsizetype historyEnd)
{
    ContextView v;
    v.m_systemPrompt = systemPrompt;
    if (historyEnd < 0 || historyEnd > history.size())
        historyEnd = history.size();

    ViewItem system;
    system.kind = ViewItem::Kind::System;
    system.bytes = TokenEstimate::utf8Bytes(systemPrompt);
    v.m_bytes += v.m_pairs.pushMessage(v.m_items, system, nullptr);

    if (!overlays.pins.isEmpty()) {
        ViewItem pinned;
        pinned.kind = ViewItem::Kind::Pinned;
        v.m_pinnedText = PinnedSection::text(overlays.pins);
        pinned.bytes = TokenEstimate::utf8Bytes(v.m_pinnedText);
        v.m_hasPinned = true;
        v.m_bytes += v.m_pairs.pushMessage(v.m_items, pinned, nullptr);
    }

    qsizetype start = 0;
    if (!overlays.checkpoints.isEmpty()) {
        const Checkpoint &cp = overlays.checkpoints.constLast();
        v.m_hasCheckpoint = true;
        v.m_coversUpTo = cp.coversUpToMessageId;
        v.m_checkpointText = cp.text;
        v.m_bytes += v.m_pairs.pushMessage(v.m_items, checkpointItem(cp), nullptr);
        start = firstUncovered(history, historyEnd, cp.coversUpToMessageId);
    }
    v.m_items.reserve(v.m_items.size() + (historyEnd - start) + 8);
    v.m_historyEnd = start;
    for (qsizetype i = start; i < historyEnd; ++i)
        v.pushHistory(history, i, overlays);
    return v;
}

ContextOverlays ContextView::withoutCompaction(const ContextOverlays &overlays, const QString &recordId)
{
    ContextOverlays out = overlays;
    out.checkpoints.removeIf([&](const Checkpoint &c) { return c.recordId == recordId; });
    out.offloads.removeIf([&](const QMap<qint64, OffloadOverlay>::iterator &it) { return it->recordId == recordId; });
    return out;
}

QList<Message> ContextView::view(const QString &systemPrompt, const QList<Message> &history,
                                 const ContextOverlays &overlays)
{
    return build(systemPrompt, history, overlays).messages(history, overlays);
}

void ContextView::append(const QList<Message> &history, const ContextOverlays &overlays)
{
    Q_ASSERT(m_historyEnd < history.size());
    pushHistory(history, m_historyEnd, overlays);
}

void ContextView::appendUpTo(const QList<Message> &history, const ContextOverlays &overlays, qsizetype end)
{
    end = std::min(end, history.size());
    while (m_historyEnd < end)
        pushHistory(history, m_historyEnd, overlays);
}

void ContextView::pushHistory(const QList<Message> &history, qsizetype index, const ContextOverlays &overlays)
{
    m_historyEnd = index + 1;
    const Message &m = history[index];
    if (m_hasCheckpoint && m.id <= m_coversUpTo)
        return; // covered by the checkpoint (ids out of order); never shown twice
    ViewItem item;
    item.sourceIndex = qint32(index);
    item.sourceMessageId = m.id;
    item.coversFrom = item.coversTo = m.id;
    // New messages come after every offloaded one: skip the search for them.
    const auto &offloads = overlays.offloads;
    const auto offload = offloads.isEmpty() || m.id > offloads.lastKey() ? offloads.cend() : offloads.constFind(m.id);
    if (!m.isToolResult()) {
        item.hasCalls = m.hasToolCalls();
        item.bytes = m.byteCount();
        if (offload != offloads.cend() && m.id != 0 && offload->isCut()) {
            // Cut by Emergency (section 4): shown shortened, counted as replaced content.
            item.kind = ViewItem::Kind::Placeholder;
            item.bytes = cutMessage(m, *offload).cachedBytes;
        }
        m_bytes += m_pairs.pushMessage(m_items, item, &m);
        return;
    }
    item.isResult = true;
    if (offload != offloads.cend() && m.id != 0) {
        item.kind = ViewItem::Kind::Placeholder;
        item.bytes = TokenEstimate::utf8Bytes(offload->placeholder) + TokenEstimate::utf8Bytes(m.toolCallId);
    } else {
        item.bytes = m.byteCount();
    }
    m_bytes += m_pairs.pushResult(m_items, item, m.toolCallId);
}

bool ContextView::replaceHeadWithCheckpoint(int to, const Checkpoint &checkpoint, const QList<Message> &history)
{
    const int body = bodyStart();
    if (to < body + 1 || to >= m_items.size() || m_historyEnd > history.size())
        return false;
    const ViewItem &next = m_items.at(to);
    const qsizetype first = next.sourceIndex;
    const qint64 coversUpTo = checkpoint.coversUpToMessageId;
    if (next.kind != ViewItem::Kind::Original || next.isResult || first <= 0 || first >= m_historyEnd
        || history.at(first - 1).id != coversUpTo)
        return false;
    // build() would start at the same message and show every one after it (none is covered).
    if (firstUncovered(history, m_historyEnd, coversUpTo) != first)
        return false;
    for (qsizetype i = first; i < m_historyEnd; ++i) {
        if (history.at(i).id <= coversUpTo)
            return false;
    }
    const ViewItem item = checkpointItem(checkpoint);
    for (int i = body; i < to; ++i)
        m_bytes -= m_items.at(i).bytes;
    m_bytes += item.bytes;
    m_pairs.replaceRange(m_items, body, to, item, qint32(first));
    m_hasCheckpoint = true;
    m_coversUpTo = coversUpTo;
    m_checkpointText = checkpoint.text;
    m_warnScan = {}; // as a fresh build leaves it
    return true;
}

ViewIds ContextView::historyMessageIds() const
{
    ViewIds ids;
    for (const ViewItem &item : m_items) {
        if ((item.kind == ViewItem::Kind::Original || item.kind == ViewItem::Kind::Placeholder) && !ids.append(item.sourceMessageId))
            qCWarning(lcCompaction) << "view item" << item.sourceMessageId << "does not follow" << ids.last() << "in id order; left out of the recorded view";
    }
    return ids;
}

void ContextView::substitutePlaceholder(int index, qint64 shownBytes)
{
    ViewItem &item = m_items[index];
    Q_ASSERT(item.kind == ViewItem::Kind::Original || item.kind == ViewItem::Kind::Placeholder);
    m_bytes += shownBytes - item.bytes;
    item.bytes = shownBytes;
    item.kind = ViewItem::Kind::Placeholder;
}

Message ContextView::messageAt(int index, const QList<Message> &history, const ContextOverlays &overlays) const
{
    const ViewItem &item = m_items[index];
    switch (item.kind) {
    case ViewItem::Kind::System: {
        Message m = Message::system(m_systemPrompt);
        m.cachedBytes = item.bytes;
        return m;
    }
    case ViewItem::Kind::Checkpoint: {
        Message m = Message::user(m_checkpointText);
        m.cachedBytes = item.bytes;
        return m;
    }
    case ViewItem::Kind::Pinned: {
        Message m = Message::user(m_pinnedText);
        m.cachedBytes = item.bytes;
        return m;
    }
    case ViewItem::Kind::Original:
        return history[item.sourceIndex];
    case ViewItem::Kind::Placeholder: {
        const Message &source = history[item.sourceIndex];
        if (!source.isToolResult()) {
            const auto cut = overlays.offloads.constFind(source.id);
            return cut != overlays.offloads.cend() ? cutMessage(source, *cut) : source;
        }
        Message m = source;
        // Only the text: value() would copy the whole overlay (entry, paths, record id) per message.
        const auto offload = overlays.offloads.constFind(m.id);
        m.content = offload != overlays.offloads.cend() ? offload->placeholder : QString();
        m.cachedBytes = item.bytes;
        m.cachedLines = -1; // the original's count; the placeholder's is never asked for
        return m;
    }
    case ViewItem::Kind::Stub: {
        const Message &caller = history[item.sourceIndex];
        Message m = Message::toolResult(caller.toolCalls[item.callIndex].id, PairRepair::stubText());
        m.sessionId = caller.sessionId;
        m.cachedBytes = item.bytes;
        return m;
    }
    }
    return {};
}

QList<Message> ContextView::messages(const QList<Message> &history, const ContextOverlays &overlays) const
{
    QList<Message> out;
    out.reserve(m_items.size());
    for (int i = 0; i < m_items.size(); ++i)
        out.append(messageAt(i, history, overlays));
    return out;
}

int ContextView::stubCount() const
{
    return int(std::count_if(m_items.cbegin(), m_items.cend(),
                             [](const ViewItem &i) { return i.kind == ViewItem::Kind::Stub; }));
}

ContextView::Split ContextView::split(int tailMessages) const
{
    Split s;
    const int n = int(m_items.size());
    s.bodyStart = bodyStart();
    s.headStart = (n > s.bodyStart && m_items[s.bodyStart].kind == ViewItem::Kind::Checkpoint) ? s.bodyStart + 1 : s.bodyStart;
    int tail = std::max(s.bodyStart, n - std::max(1, tailMessages));
    while (tail > s.bodyStart && m_items[tail].isResult)
        --tail;
    s.tailStart = tail;
    return s;
}

} // namespace wl
