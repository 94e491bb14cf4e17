#include "ConversationFeed.h"

#include "agent/AgentRun.h"
#include "compaction/CompactionRecord.h"
#include "conversation/ConversationModel.h"
#include "conversation/ConversationView.h"
#include "tools/ApprovalRequest.h"
#include "tools/ToolResult.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace wl {

ConversationFeed::ConversationFeed(ConversationModel *model, ConversationView *view, QObject *parent)
    : QObject(parent)
    , m_model(model)
{
    if (!view)
        return;
    connect(view, &ConversationView::approvalDecided, this, [this](const QString &approvalId, ApprovalDecision decision) {
        QString callId;
        for (auto it = m_approvalIds.cbegin(); it != m_approvalIds.cend(); ++it)
            if (it.value() == approvalId)
                callId = it.key();
        if (callId.isEmpty() || !m_run || !m_run->approve(callId, decision))
            return;
        m_model->resolveApproval(approvalId, decision);
        if (decision == ApprovalDecision::Deny)
            m_deniedCalls.insert(callId);
    });
    connect(view, &ConversationView::skipRequested, this, [this] {
        if (m_run && m_run->skipSummary())
            Q_EMIT notice(tr("Skipped this summary step; the next fallback writes it."));
    });
}

void ConversationFeed::follow(AgentRun *run)
{
    if (m_run)
        m_run->disconnect(this);
    m_run = run;
    m_streamText.clear();
    m_deniedCalls.clear();
    m_approvalIds.clear();
    if (!run)
        return;
    connect(run, &AgentRun::stateChanged, this, &ConversationFeed::onStateChanged);
    connect(run, &AgentRun::textDelta, this, &ConversationFeed::onTextDelta);
    connect(run, &AgentRun::messageStored, this, &ConversationFeed::onMessageStored);
    connect(run, &AgentRun::approvalRequested, this, &ConversationFeed::onApprovalRequested);
    connect(run, &AgentRun::toolStarted, this, [this](const ToolCall &call) { m_model->setToolRunning(call.id); });
    connect(run, &AgentRun::toolFinished, this, &ConversationFeed::onToolFinished);
    connect(run, &AgentRun::compactionStarted, this, &ConversationFeed::onCompactionStarted);
    connect(run, &AgentRun::compactionRecorded, this, &ConversationFeed::onCompactionRecorded);
    connect(run, &AgentRun::compactionUndone, this, [this] {
        Q_EMIT notice(tr("The last compaction was undone: the next request sends the earlier view again."));
        Q_EMIT dataChanged();
    });
    connect(run, &AgentRun::retrying, this, &ConversationFeed::onRetrying);
    connect(run, &AgentRun::replyDiscarded, this, [this] {
        m_model->discardAssistantStream();
        m_streamText.clear();
    });
    connect(run, &AgentRun::requestStored, this, &ConversationFeed::dataChanged);
    connect(run, &AgentRun::stopped, this, &ConversationFeed::onStopped);
    connect(run, &AgentRun::failed, this, &ConversationFeed::onFailed);
}

void ConversationFeed::beginTurn()
{
    m_streamText.clear();
}

void ConversationFeed::clearNotes()
{
    m_unsandboxedNote.clear();
}

void ConversationFeed::onStateChanged()
{
    const AgentRun::State state = m_run->state();
    if (state != AgentRun::State::Compacting && state != AgentRun::State::Retrying)
        m_model->clearProgress();
}

void ConversationFeed::onTextDelta(const QString &text)
{
    if (!m_model->isStreaming()) {
        m_model->beginAssistantStream();
        m_streamText.clear();
    }
    m_streamText += text;
    m_model->appendStreamText(text);
}

void ConversationFeed::endStream()
{
    if (!m_model->isStreaming())
        return;
    m_model->finishAssistantStream(Message::assistant(m_streamText));
    m_streamText.clear();
}

void ConversationFeed::onMessageStored(const Message &message)
{
    if (message.role == Role::Assistant && !message.isToolResult()) {
        if (m_model->isStreaming())
            m_model->finishAssistantStream(message);
        else
            m_model->appendMessages({message});
        m_streamText.clear();
    } else if (message.isToolResult()) {
        ToolCallOutcome outcome;
        outcome.status = message.isError ? ToolCallStatus::Error : ToolCallStatus::Ok;
        if (m_deniedCalls.contains(message.toolCallId))
            outcome.status = ToolCallStatus::Denied;
        outcome.text = message.content;
        outcome.offloaded = m_run && m_run->overlays().offloads.contains(message.id);
        outcome.messageId = message.id;
        if (!m_model->setToolResult(message.toolCallId, outcome))
            m_model->appendMessages({message});
    } else {
        m_model->appendMessages({message});
    }
    Q_EMIT messageShown();
}

void ConversationFeed::onApprovalRequested(const ApprovalRequest &request)
{
    ApprovalPrompt row;
    row.id = u"approval-"_s + request.callId;
    row.tool = request.toolName;
    row.callId = request.callId;
    if (!request.command.isEmpty()) {
        row.detail = request.command;
    } else if (!request.diff.isEmpty()) {
        row.detail = request.diff;
        row.detailIsDiff = true;
    } else {
        row.detail = request.summary.isEmpty()
            ? QString::fromUtf8(QJsonDocument(request.arguments).toJson(QJsonDocument::Indented))
            : request.summary;
    }
    if (!request.problem.isEmpty())
        row.detail += u"\n"_s + tr("Problem: %1").arg(request.problem);
    m_approvalIds.insert(request.callId, row.id);
    m_model->addApprovalRequest(row);
}

void ConversationFeed::onToolFinished(const ToolCall &call, const ToolResult &result, qint64 durationMs)
{
    ToolCallOutcome outcome;
    outcome.status = m_deniedCalls.contains(call.id) ? ToolCallStatus::Denied
        : result.isError                            ? ToolCallStatus::Error
                                                    : ToolCallStatus::Ok;
    outcome.text = result.content;
    outcome.durationMs = durationMs;
    // The stored result (already in the model) knows whether it was offloaded.
    const QModelIndex card = m_model->indexForCallId(call.id);
    outcome.offloaded = card.isValid() && card.data(ConversationModel::OffloadedRole).toBool();
    m_model->setToolResult(call.id, outcome);
    if (result.metadata.value(u"sandboxed"_s) == QJsonValue(false) && m_unsandboxedNote.isEmpty()) {
        m_unsandboxedNote = tr("Commands of this session run without a sandbox: %1")
                                .arg(result.metadata.value(u"unsandboxedReason"_s).toString());
        Q_EMIT notice(m_unsandboxedNote);
        Q_EMIT unsandboxedChanged();
    }
}

void ConversationFeed::onCompactionStarted(Tier tier, int messages, const QDateTime &started)
{
    ConversationProgress progress;
    progress.kind = ConversationProgress::Kind::Compacting;
    progress.tier = tier;
    progress.messageCount = messages;
    progress.startedAt = started.isValid() ? started.toLocalTime() : QDateTime::currentDateTime();
    progress.skippable = true;
    m_model->setProgress(progress);
}

void ConversationFeed::onCompactionRecorded(const CompactionRecord &record)
{
    m_model->clearProgress();
    if (record.changed || record.tier != Tier::None) {
        m_model->addCompactionMarker(ConversationModel::compactionMarker(record));
        // Review of summaries: say in the conversation when a compaction did not wait for it.
        if (record.tier == Tier::Emergency && m_run && m_run->policy().reviewSummaries)
            m_model->appendMessages({Message::system(
                tr("Not reviewed: the Emergency tier does not wait; it committed the extractive checkpoint. "
                   "You can still edit it in the Compactions dock."))});
    } else {
        Q_EMIT notice(tr("Compaction checked: the context is below every threshold, nothing changed."));
    }
    Q_EMIT dataChanged();
}

void ConversationFeed::onRetrying(int attempt, int delayMs, const QString &error)
{
    ConversationProgress progress;
    progress.kind = ConversationProgress::Kind::WaitingToRetry;
    progress.attempt = attempt;
    progress.startedAt = QDateTime::currentDateTime();
    progress.nextAttemptAt = progress.startedAt.addMSecs(delayMs);
    progress.skippable = false; // the client waits as the provider asked; Esc stops
    m_model->setProgress(progress);
    Q_EMIT notice(tr("The provider answered: %1").arg(error));
}

void ConversationFeed::onStopped()
{
    const bool partial = m_model->isStreaming() && !m_streamText.isEmpty();
    endStream();
    ConversationError error;
    error.id = u"stopped-%1"_s.arg(++m_errorCount);
    error.text = partial ? tr("Stopped by the user. The partial answer above was not kept; Retry continues the turn.")
                         : tr("Stopped by the user. Retry continues the turn.");
    error.retryable = true;
    m_model->addError(error);
}

void ConversationFeed::onFailed(const QString &text)
{
    endStream();
    addErrorRow(text);
}

void ConversationFeed::addErrorRow(const QString &text)
{
    ConversationError error;
    error.id = u"error-%1"_s.arg(++m_errorCount);
    error.text = text;
    error.retryable = true;
    m_model->addError(error);
}

} // namespace wl
