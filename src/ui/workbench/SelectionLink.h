#pragma once

#include "compaction/CompactionRecord.h"

#include <QObject>
#include <QString>

namespace wl {

struct LoadedSession;

// What the window has selected: one request, the compaction that ran before it (if any) and one
// message of the conversation. `focus` says which of them the user chose; the others follow it.
struct Selection
{
    enum class Focus { None, Request, Record, Message };

    int requestIndex = -1;
    QString recordId;       // the record of the compaction before `requestIndex`; empty for none
    qint64 messageId = 0;   // a history message id; 0 for none
    Focus focus = Focus::None;

    friend bool operator==(const Selection &, const Selection &) = default;
};

// The one selection every view of a session shares (the timeline, the Compactions, Anchors,
// Context and Offloads docks, the conversation), and the mapping between its parts:
//   request -> the compaction record that ran before it, and the message that answered it
//   record  -> its request (and that request's message)
//   message -> the request that first carried it (the one it answered, for an assistant message)
// Views tell it what the user chose through the select slots and follow the change signals
// with slots that do not report back; a choice made while the signals of another are being
// delivered is ignored, so no two views can ping-pong.
class SelectionLink : public QObject
{
    Q_OBJECT
public:
    // `session` is read at each call (not owned; it outlives the link).
    explicit SelectionLink(const LoadedSession *session, QObject *parent = nullptr);

    const Selection &current() const { return m_current; }

    // The mapping, on the session as it is now (-1 / 0 / nullptr when there is none).
    int requestOfMessage(qint64 messageId) const;
    qint64 messageOfRequest(int requestIndex) const;
    const CompactionRecord *record(const QString &recordId) const;

public Q_SLOTS:
    void selectRequest(int requestIndex);
    void selectRecord(const QString &recordId);
    // The message and the request it belongs to.
    void selectMessage(qint64 messageId);
    // The message, keeping the request (a message chosen among those a request saw).
    void selectMessageInRequest(qint64 messageId);
    // Starts over on a (re)loaded session: request `requestIndex` (or nothing, -1) is selected
    // with no message, so the conversation is not moved.
    void reset(int requestIndex = -1);

Q_SIGNALS:
    // In this order for one change: requestChanged (only when the request changed),
    // recordChanged, messageChanged, compactionFocused (only when a compaction was chosen), changed.
    void requestChanged(int requestIndex);
    void recordChanged(const QString &recordId);
    void messageChanged(qint64 messageId);
    void compactionFocused(const wl::CompactionRecord &record);
    void changed(const wl::Selection &current);

private:
    Selection forRequest(int requestIndex, Selection::Focus focus) const;
    void apply(const Selection &next);

    const LoadedSession *m_session;
    Selection m_current;
    bool m_emitting = false;
};

} // namespace wl
