#pragma once

#include <QObject>
#include <QPointer>

class QWidget;

namespace wl {

class AgentController;
class SessionLifecycle;
class SummaryReviewDialog;
struct Checkpoint;

// Edits of past checkpoints in the window (issue #22 item 8). The Compactions dock asks; the dialog
// edits; the new version is stored by the agent when it has the shown session open (its next
// request sends the text), else by SessionLifecycle (imports, the demo, sessions no agent runs).
// Undo goes back one version the same way.
class CheckpointEditing : public QObject
{
    Q_OBJECT
public:
    CheckpointEditing(SessionLifecycle *sessions, AgentController *agent, QWidget *dialogParent);

    // Opens `checkpoint` of the shown session in the editor; false (and notice()) when the agent
    // has the session and is busy.
    bool edit(const Checkpoint &checkpoint);
    void undo(qint64 checkpointId);
    // The editor while it is open.
    SummaryReviewDialog *dialog() const;

Q_SIGNALS:
    void notice(const QString &text);

private:
    // True when the agent holds the shown session: its versions go through the run.
    bool agentHoldsShownSession() const;

    SessionLifecycle *m_sessions;
    AgentController *m_agent;
    QPointer<QWidget> m_dialogParent;
    QPointer<SummaryReviewDialog> m_dialog;
};

} // namespace wl
