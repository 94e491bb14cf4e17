#include "PairRepair.h"

#include "TokenEstimate.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

QString PairRepair::stubText()
{
    return u"[tool result unavailable: the context was compacted]"_s;
}

qint64 PairRepair::stubBytes(const QString &callId)
{
    static const qint64 textBytes = TokenEstimate::utf8Bytes(stubText());
    // Call ids are short ASCII in practice: a loop costs less than the general count's call.
    if (callId.size() <= 64) {
        bool ascii = true;
        for (QChar c : callId)
            ascii &= c.unicode() < 0x80;
        if (ascii)
            return textBytes + callId.size();
    }
    return textBytes + TokenEstimate::utf8Bytes(callId);
}

void PairRepair::reset()
{
    m_openCalls = QList<ToolCall>(); // see pushMessage()
    m_answered.clear();
    m_openSlots = -1;
    m_report = {};
    m_drops.clear();
}

qint64 PairRepair::pushMessage(QList<ViewItem> &items, const ViewItem &item, const Message *message)
{
    // Dropped, not clear()ed (on a list shared with a message, clear() allocates a new buffer) and
    // not assigned `{}` (that is the initializer-list assign(), which walks the old list's elements).
    m_openCalls = QList<ToolCall>();
    m_answered.clear();
    m_openSlots = -1;
    items.append(item);
    qint64 delta = item.bytes;
    if (message && message->hasToolCalls()) {
        m_openCalls = message->toolCalls;
        m_answered.assign(size_t(m_openCalls.size()), false);
        m_openSlots = items.size();
        for (qsizetype i = 0; i < m_openCalls.size(); ++i) {
            ViewItem stub;
            stub.kind = ViewItem::Kind::Stub;
            stub.isResult = true;
            stub.sourceIndex = item.sourceIndex;
            stub.callIndex = qint32(i);
            stub.sourceMessageId = item.sourceMessageId;
            stub.coversFrom = stub.coversTo = item.sourceMessageId;
            stub.bytes = stubBytes(m_openCalls.at(i).id); // at(): operator[] would copy the list shared with the message
            items.append(stub);
            delta += stub.bytes;
        }
    }
    return delta;
}

qint64 PairRepair::pushResult(QList<ViewItem> &items, const ViewItem &item, const QString &callId)
{
    bool duplicate = false;
    for (qsizetype i = 0; i < m_openCalls.size(); ++i) {
        if (m_openCalls.at(i).id != callId)
            continue;
        if (m_answered[size_t(i)]) {
            duplicate = true;
            continue;
        }
        m_answered[size_t(i)] = true;
        ViewItem &slot = items[m_openSlots + i];
        const qint64 delta = item.bytes - slot.bytes;
        slot = item;
        return delta;
    }
    if (duplicate)
        ++m_report.duplicatesDropped;
    else
        ++m_report.resultsDropped;
    m_report.droppedCallIds.append(callId);
    m_drops.push_back({item.sourceIndex, duplicate});
    return 0;
}

void PairRepair::replaceRange(QList<ViewItem> &items, qsizetype from, qsizetype to, const ViewItem &replacement, qint32 firstKept)
{
    Q_ASSERT(from >= 0 && from < to && to <= items.size());
    Q_ASSERT(to == items.size() || !items.at(to).isResult);
    // The open group, if any, starts at or after `to` (a result never follows a message without calls).
    Q_ASSERT(m_openSlots < 0 || m_openSlots > to);
    items[from] = replacement;
    items.remove(from + 1, to - from - 1);
    if (m_openSlots >= 0)
        m_openSlots -= to - from - 1;
    // Drops are in history order: those before the first kept message go.
    const auto firstKeptDrop = std::find_if(m_drops.cbegin(), m_drops.cend(),
                                            [&](const Drop &d) { return d.sourceIndex >= firstKept; });
    const auto gone = firstKeptDrop - m_drops.cbegin();
    if (gone == 0)
        return;
    for (auto d = m_drops.cbegin(); d != firstKeptDrop; ++d) {
        if (d->duplicate)
            --m_report.duplicatesDropped;
        else
            --m_report.resultsDropped;
    }
    m_report.droppedCallIds.remove(0, gone);
    m_drops.erase(m_drops.cbegin(), firstKeptDrop);
}

QList<Message> PairRepair::repair(const QList<Message> &messages, Report *report)
{
    PairRepair pairs;
    QList<ViewItem> items;
    items.reserve(messages.size());
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const Message &m = messages[i];
        ViewItem item;
        item.sourceIndex = qint32(i);
        item.sourceMessageId = m.id;
        item.coversFrom = item.coversTo = m.id;
        if (m.isToolResult()) {
            item.isResult = true;
            pairs.pushResult(items, item, m.toolCallId);
        } else {
            item.hasCalls = m.hasToolCalls();
            pairs.pushMessage(items, item, &m);
        }
    }
    Report r = pairs.report();
    QList<Message> out;
    out.reserve(items.size());
    for (const ViewItem &item : std::as_const(items)) {
        const Message &source = messages[item.sourceIndex];
        if (item.kind == ViewItem::Kind::Stub) {
            const QString &callId = source.toolCalls[item.callIndex].id;
            Message stub = Message::toolResult(callId, stubText());
            stub.sessionId = source.sessionId;
            stub.cacheBytes();
            out.append(stub);
            ++r.stubsInserted;
            r.stubbedCallIds.append(callId);
        } else {
            out.append(source);
        }
    }
    if (report)
        *report = r;
    return out;
}

} // namespace wl
