#pragma once
// Small builders shared by the compaction pipeline tests.

#include "compaction/ContextOverlays.h"
#include "compaction/PairRepair.h"
#include "model/Message.h"

#include <QList>
#include <QSet>
#include <QString>

namespace wl::test {

inline QString big(qsizetype n, QChar c = QLatin1Char('a'))
{
    return QString(n, c);
}

// A session history with store-like ids (1, 2, ...) and cached byte counts.
class HistoryBuilder
{
public:
    explicit HistoryBuilder(const QString &sessionId = QStringLiteral("s1")) : m_session(sessionId) {}

    HistoryBuilder &user(const QString &text) { return add(Message::user(text)); }
    HistoryBuilder &assistant(const QString &text) { return add(Message::assistant(text)); }
    HistoryBuilder &call(const QString &callId, const QString &tool, const QString &arguments = QStringLiteral("{}"),
                         const QString &text = {})
    {
        return add(Message::assistant(text, {{callId, tool, arguments, true}}));
    }
    HistoryBuilder &calls(const QList<ToolCall> &calls, const QString &text = {})
    {
        return add(Message::assistant(text, calls));
    }
    HistoryBuilder &result(const QString &callId, const QString &text, bool isError = false)
    {
        return add(Message::toolResult(callId, text, isError));
    }
    HistoryBuilder &add(Message m)
    {
        m.id = ++m_lastId;
        m.sessionId = m_session;
        m.cacheBytes();
        m_messages.append(m);
        return *this;
    }
    const QList<Message> &messages() const { return m_messages; }
    QList<Message> &messages() { return m_messages; }
    operator QList<Message>() const { return m_messages; }

private:
    QString m_session;
    QList<Message> m_messages;
    qint64 m_lastId = 0;
};

// Every field that matters, so "byte for byte" comparisons catch any change.
inline bool identical(const Message &a, const Message &b)
{
    return a.sameContent(b) && a.id == b.id && a.sessionId == b.sessionId && a.createdAt == b.createdAt
        && a.origin == b.origin && a.cachedBytes == b.cachedBytes;
}

inline bool identical(const QList<Message> &a, const QList<Message> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!identical(a[i], b[i]))
            return false;
    }
    return true;
}

// An independent check of what the chat APIs require of a view: empty when fine.
inline QString pairingProblem(const QList<Message> &view)
{
    if (view.isEmpty() || view.first().role != Role::System)
        return QStringLiteral("view does not start with the system prompt");
    if (view.size() > 1 && view[1].isToolResult())
        return QStringLiteral("body starts with a tool result");
    for (qsizetype i = 1; i < view.size(); ++i) {
        const Message &m = view[i];
        if (!m.hasToolCalls())
            continue;
        QList<QString> expected;
        for (const ToolCall &c : m.toolCalls)
            expected.append(c.id);
        qsizetype j = i + 1;
        QList<QString> got;
        while (j < view.size() && view[j].isToolResult())
            got.append(view[j++].toolCallId);
        if (got != expected)
            return QStringLiteral("calls of message %1 are answered by [%2], expected [%3]")
                .arg(i).arg(got.join(u',')).arg(expected.join(u','));
    }
    // A result must belong to the group right before it.
    for (qsizetype i = 1; i < view.size(); ++i) {
        if (!view[i].isToolResult())
            continue;
        qsizetype j = i - 1;
        while (j > 0 && view[j].isToolResult())
            --j;
        if (!view[j].hasToolCalls())
            return QStringLiteral("orphan result %1 at %2").arg(view[i].toolCallId).arg(i);
    }
    return {};
}

} // namespace wl::test
