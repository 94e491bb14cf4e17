#pragma once

#include "ViewItem.h"
#include "model/Message.h"

#include <QList>
#include <QStringList>

#include <vector>

namespace wl {

// Tool-call pairing (docs/COMPACTION.md section 7). Every result follows the assistant message that
// called it (results belong to the nearest assistant-with-calls before them, with only
// results in between); every call gets exactly one result, in call order, a stub when
// the real one is gone; duplicates and orphans are dropped; so a body never starts
// with a result.
class PairRepair
{
public:
    struct Report
    {
        int stubsInserted = 0;
        int resultsDropped = 0;     // orphans: no matching call right before them
        int duplicatesDropped = 0;  // a second result for an answered call
        QStringList stubbedCallIds;
        QStringList droppedCallIds; // orphans and duplicates

        bool changed() const { return stubsInserted + resultsDropped + duplicatesDropped > 0; }
    };

    static QString stubText(); // "[tool result unavailable: the context was compacted]"
    static qint64 stubBytes(const QString &callId);

    static QList<Message> repair(const QList<Message> &messages, Report *report = nullptr);

    // The streaming form ContextView uses: items are fed in history order and `items`
    // is a repaired view after every call. Results of the last group replace its stubs.
    void reset();
    // A message that is not a tool result (system prompt, checkpoint, or a history message).
    // `message` may be null for items without calls. Returns the change of the byte sum.
    qint64 pushMessage(QList<ViewItem> &items, const ViewItem &item, const Message *message);
    // A tool result with call id `callId`. Returns the change of the byte sum (0 when dropped).
    qint64 pushResult(QList<ViewItem> &items, const ViewItem &item, const QString &callId);

    const Report &report() const { return m_report; } // stubs are counted by ContextView from its items

    // items[from, to) become the one item `replacement` (a message without calls), the others are
    // kept: the state is as if `replacement` and the kept items after it had been pushed afresh. The
    // kept part must start with a message that is not a result, history[firstKept]; the report then
    // keeps only what history[firstKept...] dropped.
    void replaceRange(QList<ViewItem> &items, qsizetype from, qsizetype to, const ViewItem &replacement, qint32 firstKept);

private:
    QList<ToolCall> m_openCalls;   // calls of the last assistant message while only results follow it
    std::vector<char> m_answered;  // per open call: its result arrived (char: no bit packing to pay for)
    qsizetype m_openSlots = -1;    // index in items of the first call slot of the open group
    Report m_report;
    struct Drop
    {
        qint32 sourceIndex;
        bool duplicate;
    };
    std::vector<Drop> m_drops;     // what m_report counts, in push order
};

} // namespace wl
