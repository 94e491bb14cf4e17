#include "SelectionLink.h"

#include "LoadedSession.h"

#include <algorithm>

namespace wl {

SelectionLink::SelectionLink(const LoadedSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
}

int SelectionLink::requestOfMessage(qint64 messageId) const
{
    const QList<Message> &history = m_session->history;
    const auto it = std::lower_bound(history.cbegin(), history.cend(), messageId,
                                     [](const Message &m, qint64 id) { return m.id < id; });
    if (it == history.cend() || it->id != messageId || m_session->requestCount() == 0)
        return -1;
    // Request i saw history[0, end(i)) and was answered by history[end(i)]: a message at position p
    // belongs to the first request whose end reaches p (the one that answered it or first sent it).
    const qsizetype position = it - history.cbegin();
    for (int i = 0; i < m_session->requestCount(); ++i)
        if (m_session->historyEndOf(i) >= position)
            return i;
    return m_session->requestCount() - 1; // said after the last request (its answer was not recorded)
}

qint64 SelectionLink::messageOfRequest(int requestIndex) const
{
    const QList<Message> &history = m_session->history;
    if (requestIndex < 0 || requestIndex >= m_session->requestCount() || history.isEmpty())
        return 0;
    const qsizetype end = m_session->historyEndOf(requestIndex);
    return end < history.size() ? history.at(end).id : history.constLast().id;
}

const CompactionRecord *SelectionLink::record(const QString &recordId) const
{
    if (recordId.isEmpty())
        return nullptr;
    for (const CompactionRecord &r : m_session->records)
        if (r.id == recordId)
            return &r;
    return nullptr;
}

Selection SelectionLink::forRequest(int requestIndex, Selection::Focus focus) const
{
    Selection s;
    s.requestIndex = requestIndex;
    if (const CompactionRecord *r = m_session->recordFor(requestIndex))
        s.recordId = r->id;
    s.messageId = messageOfRequest(requestIndex);
    s.focus = focus;
    return s;
}

void SelectionLink::selectRequest(int requestIndex)
{
    if (requestIndex < 0 || requestIndex >= m_session->requestCount())
        return;
    apply(forRequest(requestIndex, Selection::Focus::Request));
}

void SelectionLink::selectRecord(const QString &recordId)
{
    const CompactionRecord *r = record(recordId);
    if (!r || r->requestIndex < 0 || r->requestIndex >= m_session->requestCount())
        return;
    Selection s = forRequest(r->requestIndex, Selection::Focus::Record);
    s.recordId = r->id; // the one chosen, should a request have had two
    apply(s);
}

void SelectionLink::selectMessage(qint64 messageId)
{
    const int request = requestOfMessage(messageId);
    if (request < 0)
        return;
    Selection s = forRequest(request, Selection::Focus::Message);
    s.messageId = messageId;
    apply(s);
}

void SelectionLink::selectMessageInRequest(qint64 messageId)
{
    if (messageId <= 0 || m_current.requestIndex < 0) {
        selectMessage(messageId);
        return;
    }
    Selection s = m_current;
    s.messageId = messageId;
    s.focus = Selection::Focus::Message;
    apply(s);
}

void SelectionLink::reset(int requestIndex)
{
    if (m_emitting)
        return;
    Selection s;
    if (requestIndex >= 0 && requestIndex < m_session->requestCount()) {
        s = forRequest(requestIndex, Selection::Focus::None);
        s.messageId = 0;
    }
    // Always announced: the session under the views changed even when the numbers did not.
    m_current = Selection();
    if (s.requestIndex >= 0)
        apply(s);
}

void SelectionLink::apply(const Selection &next)
{
    if (m_emitting || next == m_current)
        return;
    const Selection previous = m_current;
    m_current = next;
    m_emitting = true;
    if (next.requestIndex != previous.requestIndex)
        Q_EMIT requestChanged(next.requestIndex);
    Q_EMIT recordChanged(next.recordId);
    Q_EMIT messageChanged(next.messageId);
    if (next.focus == Selection::Focus::Record)
        if (const CompactionRecord *r = record(next.recordId))
            Q_EMIT compactionFocused(*r);
    Q_EMIT changed(next);
    m_emitting = false;
}

} // namespace wl
