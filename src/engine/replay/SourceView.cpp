#include "SourceView.h"

#include "compaction/TokenEstimate.h"

#include <QHash>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

bool byMessage(const ExternalCompaction &a, const ExternalCompaction &b)
{
    return a.messageIndex < b.messageIndex;
}

// How many of `sorted` happened at or before message `end`.
qsizetype inForce(const QList<ExternalCompaction> &sorted, int end)
{
    return std::upper_bound(sorted.cbegin(), sorted.cend(), end,
                            [](int value, const ExternalCompaction &c) { return value < c.messageIndex; })
        - sorted.cbegin();
}

// The first request whose history end reaches position `at`.
qsizetype firstRequestAt(const QList<qsizetype> &requestEnds, qsizetype at)
{
    return std::lower_bound(requestEnds.cbegin(), requestEnds.cend(), at) - requestEnds.cbegin();
}

} // namespace

const QString SourceView::kClearedText = u"[Old tool result content cleared]"_s;

qint64 SourceView::clearedBytes(const QString &callId)
{
    return TokenEstimate::utf8Bytes(kClearedText) + TokenEstimate::utf8Bytes(callId);
}

SourceView::SourceView(const QList<ExternalCompaction> &compactions)
{
    for (const ExternalCompaction &c : compactions) {
        if (c.messageIndex < 0)
            continue; // nowhere in the history: nothing to follow
        if (c.effect == ExternalCompaction::Effect::ReplacesHistory)
            m_replacing.append(c);
        else if (c.effect == ExternalCompaction::Effect::ClearsResults && !c.clearedCallIds.isEmpty())
            m_clearing.append(c);
    }
    std::stable_sort(m_replacing.begin(), m_replacing.end(), byMessage);
    std::stable_sort(m_clearing.begin(), m_clearing.end(), byMessage);
}

SourceView::Span SourceView::at(int end) const
{
    Span span;
    span.replaced = int(inForce(m_replacing, end)) - 1;
    span.from = span.replaced >= 0 ? m_replacing[span.replaced].messageIndex : 0;
    span.clearing = int(inForce(m_clearing, end));
    return span;
}

int SourceView::viewMessages(const Span &span, int end, int lead)
{
    const int first = std::max(span.from, lead);
    return std::min(lead, end) + std::max(0, end - first);
}

qint64 SourceView::viewBytes(int end, int lead, const BytesBefore &bytesBefore, const ResultOf &resultOf) const
{
    const Span span = at(end);
    const int first = std::max(span.from, lead);
    qint64 bytes = bytesBefore(std::min(lead, end));
    if (end > first)
        bytes += bytesBefore(end) - bytesBefore(first);
    if (span.replaced >= 0)
        bytes += TokenEstimate::utf8Bytes(m_replacing[span.replaced].sentInstead);
    for (int c = 0; c < span.clearing; ++c) {
        const ExternalCompaction &clearing = m_clearing[c];
        for (const QString &callId : clearing.clearedCallIds) {
            const Result result = resultOf(callId);
            if (result.index >= first && result.index < std::min(end, clearing.messageIndex))
                bytes += clearedBytes(callId) - result.bytes;
        }
    }
    return std::max<qint64>(0, bytes);
}

SourceView::Overlays SourceView::overlays(const QList<Message> &history, int lead, const QList<qsizetype> &requestEnds) const
{
    Overlays out;
    for (const ExternalCompaction &c : m_replacing) {
        const qsizetype at = std::clamp<qsizetype>(c.messageIndex - lead, 0, history.size());
        Checkpoint cp;
        cp.coversFromMessageId = at > 0 ? history.constFirst().id : 0;
        cp.coversUpToMessageId = at > 0 ? history[at - 1].id : 0;
        cp.summary = c.summary;
        cp.text = c.sentInstead;
        cp.textBytes = TokenEstimate::utf8Bytes(cp.text);
        cp.createdAt = c.timestamp;
        out.checkpoints.append({firstRequestAt(requestEnds, at), cp});
    }
    if (m_clearing.isEmpty())
        return out;
    QHash<QString, qsizetype> resultAt; // call id -> position of its (first) result
    for (qsizetype i = 0; i < history.size(); ++i) {
        if (history[i].isToolResult() && !resultAt.contains(history[i].toolCallId))
            resultAt.insert(history[i].toolCallId, i);
    }
    for (const ExternalCompaction &c : m_clearing) {
        const qsizetype at = std::clamp<qsizetype>(c.messageIndex - lead, 0, history.size());
        for (const QString &callId : c.clearedCallIds) {
            const auto it = resultAt.constFind(callId);
            if (it == resultAt.cend() || *it >= at)
                continue;
            OffloadOverlay o;
            o.messageId = history[*it].id;
            o.placeholder = kClearedText;
            out.offloads.append({firstRequestAt(requestEnds, at), o});
        }
    }
    return out;
}

QList<qsizetype> SourceView::segmentStarts(int lead, const QList<qsizetype> &requestEnds) const
{
    QList<qsizetype> starts;
    for (const ExternalCompaction &c : m_replacing) {
        const qsizetype start = firstRequestAt(requestEnds, std::max<qsizetype>(0, c.messageIndex - lead));
        if (start < requestEnds.size() && (starts.isEmpty() || starts.constLast() < start))
            starts.append(start);
    }
    return starts;
}

} // namespace wl
