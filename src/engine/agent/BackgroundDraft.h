#pragma once

#include "compaction/CompactionPolicy.h"
#include "compaction/ContextOverlays.h"
#include "compaction/ContextView.h"
#include "compaction/SummaryReview.h"
#include "model/Message.h"

#include <QObject>
#include <QPointer>

#include <optional>

namespace wl {

class Summarizer;
class SummaryChain;

// The review's summary written ahead (issue #22 item 7): from the Warn tier on, while the agent
// goes on, it summarises what a Soft compaction would replace, and keeps that draft current by
// topping it up with what the range gained (the draft as the prompt's previous checkpoint). The
// Soft or Full that fires later opens its review with it (PreflightInput::draft).
//
// It never commits, stores or offloads anything: the range is worked out by a CompactionPass on
// copies, with simulated offloads. Its summarisers must not share a ChatClient with the agent
// loop. A failed call is dropped (logged); at most one call is in flight.
class BackgroundDraft : public QObject
{
    Q_OBJECT
public:
    // What a Warn preflight left: the session's state as the next request would send it.
    struct Input
    {
        QString sessionId;
        QString systemPrompt;
        QList<Message> history;
        ContextOverlays overlays;
        ContextView view;
        CompactionPolicy policy;
        qint64 toolSchemaBytes = 0;
        int requestIndex = 0;
    };

    // Either summariser may be null; neither is owned (the fallback chain's steps, as for a tier).
    BackgroundDraft(Summarizer *configured, Summarizer *mainModel, QObject *parent = nullptr);
    ~BackgroundDraft() override;

    // Drafts what Soft would summarise now, or tops the ready draft up with what the range gained.
    // Nothing while a call is in flight, when the draft is current, or when Soft would write no
    // summary (masking would do).
    void update(const Input &input);
    // Cancels the call in flight; a ready draft stays (`why` is logged).
    void cancelCall(const char *why);
    // Forgets the draft and cancels its call.
    void drop(const char *why);

    const std::optional<ReadyDraft> &ready() const { return m_ready; }
    bool isDrafting() const { return m_chain != nullptr; }

Q_SIGNALS:
    // A draft (or its top-up) arrived; ready() holds it.
    void drafted(int requestIndex);

private:
    void onSummary();

    QPointer<Summarizer> m_configured;
    QPointer<Summarizer> m_mainModel;
    std::optional<ReadyDraft> m_ready;
    SummaryChain *m_chain = nullptr;
    // What the call in flight reads: messages point into m_history and m_made.
    QList<Message> m_history;
    QList<Message> m_made;
    QList<const Message *> m_messages;
    ReadyDraft m_pending; // the draft the call in flight makes, without its summary
};

} // namespace wl
