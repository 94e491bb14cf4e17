#include "CheckpointEditing.h"

#include "SummaryReviewDialog.h"
#include "compaction/Checkpoint.h"
#include "workbench/AgentController.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLifecycle.h"

namespace wl {

CheckpointEditing::CheckpointEditing(SessionLifecycle *sessions, AgentController *agent, QWidget *dialogParent)
    : QObject(dialogParent), m_sessions(sessions), m_agent(agent), m_dialogParent(dialogParent)
{
    connect(m_sessions, &SessionLifecycle::checkpointRevised, this, [this](qint64, int version) {
        Q_EMIT notice(tr("The checkpoint is at version %1; the requests before the edit keep the text they sent.").arg(version));
    });
    connect(m_sessions, &SessionLifecycle::writeFailed, this,
            [this](SessionLifecycle::Write write, const QString &, const QString &error) {
        if (write == SessionLifecycle::Write::Revise)
            Q_EMIT notice(tr("Could not store the edited checkpoint: %1").arg(error));
        else if (write == SessionLifecycle::Write::UndoRevision)
            Q_EMIT notice(tr("Could not undo the edit: %1").arg(error));
    });
}

SummaryReviewDialog *CheckpointEditing::dialog() const
{
    return m_dialog;
}

bool CheckpointEditing::agentHoldsShownSession() const
{
    const QString shown = m_sessions->session().info.id;
    return m_agent && m_agent->isOpen() && !shown.isEmpty() && m_agent->sessionId() == shown;
}

bool CheckpointEditing::edit(const Checkpoint &checkpoint)
{
    if (checkpoint.id <= 0)
        return false;
    if (agentHoldsShownSession() && m_agent->isBusy()) {
        Q_EMIT notice(tr("The agent is working in this session: edit the checkpoint when it is idle."));
        return false;
    }
    if (m_dialog)
        m_dialog->close();
    auto *dialog = SummaryReviewDialog::openBeside(m_dialogParent);
    dialog->setCheckpoint(checkpoint);
    m_dialog = dialog;
    const qint64 id = checkpoint.id;
    connect(dialog, &SummaryReviewDialog::decided, this, [this, id](const ReviewDecision &decision) {
        if (decision.verdict != ReviewDecision::Verdict::Accept)
            return;
        if (agentHoldsShownSession())
            m_agent->reviseCheckpoint(id, decision.anchors, decision.summary);
        else
            m_sessions->reviseCheckpoint(id, decision.anchors, decision.summary);
    });
    dialog->show();
    dialog->raise();
    return true;
}

void CheckpointEditing::undo(qint64 checkpointId)
{
    if (agentHoldsShownSession())
        m_agent->undoCheckpointRevision(checkpointId);
    else
        m_sessions->undoCheckpointRevision(checkpointId);
}

} // namespace wl
