#include "AgentRun.h"

#include "BackgroundDraft.h"
#include "BackgroundRunner.h"
#include "ChatClientSummarizer.h"
#include "LoggingCategories.h"
#include "Paths.h"
#include "SystemPrompt.h"
#include "compaction/AuditLog.h"
#include "compaction/CompactionPass.h"
#include "compaction/OffloadStore.h"
#include "compaction/PinnedSection.h"
#include "compaction/Preflight.h"
#include "compaction/TokenEstimate.h"
#include "llm/ChatClient.h"
#include "llm/Redaction.h"
#include "model/MessageCodec.h"
#include "store/SessionStore.h"
#include "store/StepAppend.h"
#include "tools/ApprovalGate.h"
#include "tools/ToolInvocation.h"
#include "tools/ToolRegistry.h"
#include "tools/Workspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

QDateTime nowUtc()
{
    return QDateTime::currentDateTimeUtc();
}

// A final answer: an assistant message that asks for nothing more.
bool isAnswer(const Message &m)
{
    return m.role == Role::Assistant && !m.hasToolCalls() && !m.isToolResult();
}

} // namespace

AgentRun::AgentRun(const AgentConfig &config, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_tools(ToolRegistry::createDefault())
{
    m_toolSpecs = m_tools->specs();
    m_toolSchemaBytes = TokenEstimate::toolSchemaBytes(m_toolSpecs);
    m_gate = new ApprovalGate(ApprovalPolicy(), this);
    m_writes = new BackgroundRunner(BackgroundRunner::Policy::Queue, this);

    if (ChatClient *client = m_config.client) {
        connect(client, &ChatClient::attemptStarted, this, &AgentRun::onAttemptStarted);
        connect(client, &ChatClient::textDelta, this, &AgentRun::onTextDelta);
        connect(client, &ChatClient::thinkingDelta, this, &AgentRun::onThinkingDelta);
        connect(client, &ChatClient::toolCallStarted, this, &AgentRun::onToolCallStarted);
        connect(client, &ChatClient::toolCallArgumentsDelta, this, &AgentRun::onToolCallArgumentsDelta);
        connect(client, &ChatClient::retrying, this, &AgentRun::onRetrying);
        connect(client, &ChatClient::replyDiscarded, this, [this] {
            if (m_requestInFlight)
                Q_EMIT replyDiscarded();
        });
        connect(client, &ChatClient::finished, this, &AgentRun::onModelFinished);
        connect(client, &ChatClient::failed, this, &AgentRun::onModelFailed);
        m_mainSummarizer = new ChatClientSummarizer(client, m_config.model, this);
        m_mainSummarizer->setMaxOutputTokens(m_config.summaryMaxOutputTokens);
    }
    ChatClient *summaryClient = m_config.summarizerClient ? m_config.summarizerClient : m_config.client;
    if (summaryClient && !m_config.summarizerModel.isEmpty()) {
        m_configuredSummarizer = new ChatClientSummarizer(summaryClient, m_config.summarizerModel, this);
        m_configuredSummarizer->setMaxOutputTokens(m_config.summaryMaxOutputTokens);
    }
    if (ChatClient *draftClient = m_config.draftClient) {
        // The same chain as a tier's, on clients the loop never sends on.
        auto *draftMain = new ChatClientSummarizer(draftClient, m_config.model, this);
        draftMain->setMaxOutputTokens(m_config.summaryMaxOutputTokens);
        ChatClientSummarizer *draftConfigured = nullptr;
        if (!m_config.summarizerModel.isEmpty()) {
            ChatClient *client = !m_config.summarizerClient ? draftClient
                : m_config.draftSummarizerClient            ? m_config.draftSummarizerClient
                                                            : m_config.summarizerClient;
            draftConfigured = new ChatClientSummarizer(client, m_config.summarizerModel, this);
            draftConfigured->setMaxOutputTokens(m_config.summaryMaxOutputTokens);
        }
        m_backgroundDraft = new BackgroundDraft(draftConfigured, draftMain, this);
        connect(m_backgroundDraft, &BackgroundDraft::drafted, this, &AgentRun::summaryDraftedAhead);
    }
}

AgentRun::~AgentRun()
{
    // What was queued is written (off this thread); nothing more is stored or emitted from here
    // on: detach first, then cancel.
    delete m_writes;
    m_writes = nullptr;
    if (m_config.client)
        m_config.client->disconnect(this);
    if (m_requestInFlight && m_config.client)
        m_config.client->cancel();
    if (m_preflight) {
        m_preflight->disconnect(this);
        m_preflight->cancel();
    }
    if (m_backgroundDraft) {
        m_backgroundDraft->disconnect(this);
        m_backgroundDraft->drop("the run is closed");
    }
    if (m_invocation) {
        m_invocation->disconnect(this);
        m_invocation->cancel();
    }
}

std::optional<AgentRun::SessionData> AgentRun::readSession(SessionStore &store, const QString &sessionId, QString *error)
{
    auto setError = [error](const QString &text) {
        if (error)
            *error = text;
        return std::nullopt;
    };
    QString why;
    std::optional<SessionInfo> info = store.session(sessionId, &why);
    if (!info)
        return setError(tr("cannot open session %1: %2").arg(sessionId, why));
    SessionData data;
    data.info = std::move(*info);
    why.clear();
    data.history = store.history(sessionId, &why);
    if (!why.isEmpty())
        return setError(tr("cannot read the history of session %1: %2").arg(sessionId, why));
    data.overlays = store.overlays(sessionId, &why);
    if (!why.isEmpty())
        return setError(tr("cannot read the compactions of session %1: %2").arg(sessionId, why));
    if (const QList<CompactionRecord> records = store.records(sessionId, &why); !records.isEmpty())
        data.lastRecordedTier = records.constLast().tier;
    if (!why.isEmpty())
        return setError(tr("cannot read the compactions of session %1: %2").arg(sessionId, why));
    for (Message &m : data.history)
        if (m.cachedBytes < 0)
            m.cacheBytes();
    return data;
}

bool AgentRun::open(QString *error)
{
    if (!m_config.store) {
        const QString text = tr("the agent needs a session store and an LLM client");
        if (error)
            *error = text;
        qCWarning(lcAgent).noquote() << text;
        return false;
    }
    QString why;
    std::optional<SessionData> data = readSession(*m_config.store, m_config.sessionId, &why);
    if (!data) {
        if (error)
            *error = why;
        qCWarning(lcAgent).noquote() << why;
        return false;
    }
    return open(std::move(*data), error);
}

bool AgentRun::open(SessionData data, QString *error)
{
    auto setError = [error](const QString &text) {
        if (error)
            *error = text;
        qCWarning(lcAgent).noquote() << text;
        return false;
    };
    if (m_opened)
        return setError(tr("the session is already open"));
    if (!m_config.store || !m_config.client)
        return setError(tr("the agent needs a session store and an LLM client"));
    if (m_config.model.isEmpty())
        return setError(tr("no model is set for the session"));
    if (data.info.id != m_config.sessionId)
        return setError(tr("the data read is of session %1, not of %2").arg(data.info.id, m_config.sessionId));

    QString why;
    const SessionInfo *info = &data.info;
    if (m_config.policy) {
        m_policy = *m_config.policy;
    } else if (!info->policy.isEmpty() && !CompactionPolicy::fromJson(info->policy, &m_policy, &why)) {
        return setError(tr("the session's compaction policy is invalid: %1").arg(why));
    }
    if (const QString problem = m_policy.validate(); !problem.isEmpty())
        return setError(tr("invalid compaction policy: %1").arg(problem));

    if (m_config.approval) {
        m_gate->setPolicy(*m_config.approval);
    } else if (!info->approvalPolicy.isEmpty()) {
        const QJsonObject json = QJsonDocument::fromJson(info->approvalPolicy.toUtf8()).object();
        m_gate->setPolicy(ApprovalPolicy::fromJson(json, &why));
    }

    // An import runs nowhere until its user chose where and with whom (SessionStore::continueSession).
    if (info->readOnly)
        return setError(tr("session %1 was imported and is read-only: continue it first to choose its workspace and "
                           "provider (File \u203a Continue Imported Session, or waterline-cli run --session ID --workspace DIR)")
                            .arg(m_config.sessionId));
    if (info->workspace.isEmpty())
        return setError(tr("session %1 has no workspace folder").arg(m_config.sessionId));
    const bool broad = Workspace::isBroadRoot(info->workspace);
    m_workspace = new Workspace(info->workspace,
                                m_config.allowBroadWorkspace ? Workspace::RootScope::AllowBroad : Workspace::RootScope::Confined,
                                this);
    if (!m_workspace->isValid() && broad && !m_config.allowBroadWorkspace)
        return setError(tr("the workspace %1 is the whole file system or your home folder: the agent could read and change "
                           "every file there; confirm it to work there (waterline-cli run --allow-broad-workspace)")
                            .arg(info->workspace));
    if (!m_workspace->isValid())
        return setError(tr("the workspace folder %1 does not exist or is not a folder").arg(info->workspace));

    // A session without a prompt of its own (an import) runs with the default one, stored only
    // when the first request goes out with it: opening a recorded session must not change what
    // its replay and what-if are measured against.
    m_systemPrompt = info->systemPrompt;
    m_systemPromptStored = !m_systemPrompt.isEmpty();
    if (m_systemPrompt.isEmpty())
        m_systemPrompt = SystemPrompt::defaultText();

    m_history = std::move(data.history);
    m_overlays = std::move(data.overlays);
    for (Message &m : m_history)
        if (m.cachedBytes < 0)
            m.cacheBytes();
    m_requestCount = int(info->requestCount);
    // The compaction state last recorded, so a reopened session does not record it again (docs/COMPACTION.md 11.7).
    if (data.lastRecordedTier)
        m_lastStateKey = Preflight::stateKeyFor(*data.lastRecordedTier, m_overlays);
    m_auditPath = m_config.auditPath.isEmpty() ? Paths::auditFile(m_config.sessionId) : m_config.auditPath;
    rebuildView();
    m_opened = true;
    qCInfo(lcAgent) << "session" << m_config.sessionId << "open:" << m_history.size() << "messages,"
                    << m_overlays.checkpoints.size() << "checkpoints," << m_requestCount << "requests";
    return true;
}

bool AgentRun::setPolicy(const CompactionPolicy &policy)
{
    if (isBusy() || !policy.validate().isEmpty())
        return false;
    m_policy = policy;
    m_lastStateKey.clear();
    if (m_backgroundDraft && (!policy.reviewSummaries || policy.strategy == CompactionStrategy::Mask))
        m_backgroundDraft->drop("no summary is reviewed under the new policy");
    return true;
}

const ContextView *AgentRun::nextRequestView() const
{
    if (m_view)
        return &*m_view;
    // A preflight holds the view while it runs (a summary on its way, a review open): the request
    // being compacted is what the gauge shows until it finishes, not an empty context.
    return m_preflight ? &m_preflight->result().view : nullptr;
}

TokenEstimate AgentRun::nextRequestEstimate() const
{
    // The preflight's own estimate (CompactionPass::estimate) of the view as it stands.
    const ContextView *view = nextRequestView();
    return TokenEstimate(view ? view->bytes() : 0, m_toolSchemaBytes, m_policy);
}

ViewComposition AgentRun::nextRequestComposition() const
{
    const ContextView *view = nextRequestView();
    return view ? ViewComposition::of(*view, nextRequestEstimate())
                : ViewComposition::of(ViewComposition::ViewBytes(), nextRequestEstimate());
}

qint64 AgentRun::estimatedTokens() const
{
    return nextRequestEstimate().totalTokens();
}

bool AgentRun::isBusy() const
{
    if (m_writes && m_writes->isBusy())
        return true;
    switch (m_state) {
    case State::Compacting:
    case State::WaitingForModel:
    case State::Streaming:
    case State::Retrying:
    case State::RunningTool:
    case State::AwaitingApproval:
        return true;
    case State::Idle:
    case State::Finished:
    case State::Stopped:
    case State::Failed:
        return false;
    }
    return false;
}

QList<Message> AgentRun::currentView() const
{
    return m_view ? m_view->messages(m_history, m_overlays) : QList<Message>();
}

void AgentRun::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    qCDebug(lcAgent) << "state" << state;
    Q_EMIT stateChanged(state);
}

void AgentRun::rebuildView()
{
    m_view = ContextView::build(m_systemPrompt, m_history, m_overlays);
}

// --- storing ----------------------------------------------------------------------------------

void AgentRun::storeStep(const StepAppend &step, const QString &failure, std::function<void(const StepIds &)> then)
{
    const int failures = m_failures;
    m_writes->run([store = m_config.store, sessionId = m_config.sessionId, step](QString &error) {
        return store->appendStep(sessionId, step, &error);
    }, [this, failure, failures, then = std::move(then)](const std::optional<StepIds> &ids, const QString &error) {
        if (!ids) {
            if (failures == m_failures)
                fail(failure.arg(error));
            return;
        }
        then(*ids);
    });
}

void AgentRun::afterWrites(std::function<void()> then)
{
    if (!m_writes->isBusy()) {
        then();
        return;
    }
    const int failures = m_failures;
    m_writes->run([](QString &) { return true; }, [this, failures, then = std::move(then)](bool, const QString &) {
        if (failures == m_failures)
            then();
    });
}

void AgentRun::storeMessages(const QList<Message> &messages, const QList<OffloadOverlay> &offloads,
                             const std::optional<RequestRecord> &request, AfterStored then)
{
    StepAppend step;
    step.messages = messages;
    for (Message &m : step.messages) {
        if (!m.createdAt.isValid())
            m.createdAt = nowUtc();
        m.cacheBytes();
    }
    step.offloads = offloads;
    step.request = request;
    const int failures = m_failures;
    storeStep(step, tr("cannot store the session's progress: %1"), [this, step, failures, then = std::move(then)](const StepIds &ids) {
        // What is stored is in the history from now, whatever happened meanwhile. Offload overlays
        // first, so the view shows their messages as placeholders from the start.
        for (qsizetype j = 0; j < step.offloads.size(); ++j) {
            OffloadOverlay o = step.offloads[j];
            if (const qsizetype i = ThisStep::messageIndex(o.messageId); i >= 0)
                o.messageId = ids.messageIds.value(i);
            o.entry.messageId = o.messageId;
            o.id = ids.offloadIds.value(j);
            m_overlays.offloads.insert(o.messageId, o);
        }
        if (step.request) {
            RequestRecord r = *step.request;
            r.id = ids.requestId;
            r.index = ids.requestIndex;
            r.sessionId = m_config.sessionId;
            ++m_requestCount;
            Q_EMIT requestStored(r);
        }
        QList<Message> stored;
        for (qsizetype i = 0; i < step.messages.size(); ++i) {
            Message m = step.messages[i];
            m.id = ids.messageIds.value(i);
            m.sessionId = m_config.sessionId;
            if (m.origin == ThisStep::kRow)
                m.origin = ids.requestId;
            addToHistory(m);
            stored.append(m);
            Q_EMIT messageStored(m);
        }
        if (then && failures == m_failures)
            then(stored);
    });
}

void AgentRun::addToHistory(const Message &message)
{
    m_history.append(message);
    if (!m_view)
        rebuildView();
    else
        m_view->append(m_history, m_overlays);
}

// Calls of the newest assistant message that have no result (a crash between a call and its
// result) get one that says so; nothing is run again, since the call may have had its effect.
void AgentRun::closeInterruptedCalls()
{
    QSet<QString> answered;
    for (qsizetype i = m_history.size() - 1; i >= 0; --i) {
        const Message &m = m_history[i];
        if (m.isToolResult()) {
            answered.insert(m.toolCallId);
            continue;
        }
        if (m.role != Role::Assistant || !m.hasToolCalls())
            return;
        QList<Message> results;
        for (const ToolCall &call : m.toolCalls) {
            if (answered.contains(call.id))
                continue;
            results.append(Message::toolResult(
                call.id,
                u"[no result: the agent was interrupted while this %1 call was pending; it may or may not have "
                 "taken effect. Check before repeating it.]"_s
                    .arg(call.name),
                true));
        }
        if (!results.isEmpty()) {
            qCInfo(lcAgent) << "closing" << results.size() << "interrupted tool call(s)";
            storeMessages(results, {}, std::nullopt, {});
        }
        return;
    }
}

void AgentRun::closeCalls(int fromIndex, const QString &reason)
{
    QList<Message> results;
    for (int i = fromIndex; i < m_calls.size(); ++i)
        results.append(Message::toolResult(m_calls[i].id, reason, true));
    m_calls.clear();
    m_callIndex = 0;
    if (!results.isEmpty())
        storeMessages(results, {}, std::nullopt, {});
}

// --- actions ------------------------------------------------------------------------------------

bool AgentRun::submit(const QString &prompt)
{
    if (!m_opened || isBusy() || prompt.trimmed().isEmpty())
        return false;
    m_stopRequested = false;
    m_lastError.clear();
    m_lastAnswer.clear();
    closeInterruptedCalls();
    storeMessages({Message::user(prompt)}, {}, std::nullopt, [this](const QList<Message> &) {
        m_turns = 0;
        startTurn();
    });
    return true;
}

bool AgentRun::resume()
{
    if (!m_opened || isBusy())
        return false;
    if (m_history.isEmpty() || isAnswer(m_history.constLast()))
        return false;
    m_lastError.clear();
    m_stopRequested = false;
    closeInterruptedCalls();
    afterWrites([this] {
        m_turns = 0;
        startTurn();
    });
    return true;
}

bool AgentRun::retryLastTurn()
{
    if (!m_opened || isBusy() || m_history.isEmpty())
        return false;
    if (!isAnswer(m_history.constLast()))
        return resume();
    for (qsizetype i = m_history.size() - 1; i >= 0; --i) {
        const Message &m = m_history[i];
        if (m.role == Role::User && !m.isToolResult())
            return submit(m.content);
    }
    return false;
}

void AgentRun::stop()
{
    if (!isBusy())
        return;
    qCInfo(lcAgent) << "stop requested in state" << m_state;
    m_stopRequested = true;
    if (m_backgroundDraft)
        m_backgroundDraft->cancelCall("the user stopped the agent");
    switch (m_state) {
    case State::Compacting:
        if (m_preflight)
            m_preflight->cancel(); // finishes at once: onPreflightFinished stores what was done and stops
        break;
    case State::WaitingForModel:
    case State::Streaming:
    case State::Retrying:
        m_requestInFlight = false;
        m_config.client->cancel();
        storeFailedRequest(tr("stopped by the user"), [this] { endStopped(); });
        break;
    case State::RunningTool:
        if (m_invocation)
            m_invocation->cancel(); // the run finishes at once with a "stopped" result: onToolFinished
        break;
    case State::AwaitingApproval:
        if (ToolInvocation *invocation = m_invocation) {
            // Answered here rather than through the invocation's queued result: the tool never runs.
            invocation->disconnect(this);
            m_invocation = nullptr;
            const ToolCall call = invocation->call();
            invocation->deleteLater();
            ToolResult result = ToolResult::error(u"the %1 call was cancelled: the user stopped the agent"_s.arg(call.name));
            result.exitCode = -1;
            result.metadata.insert(u"cancelled"_s, true);
            completeTool(call, result);
        }
        break;
    case State::Idle:
    case State::Finished:
    case State::Stopped:
    case State::Failed:
        break;
    }
}

bool AgentRun::approve(const QString &callId, ApprovalDecision decision)
{
    if (m_state != State::AwaitingApproval || !m_invocation || m_invocation->call().id != callId)
        return false;
    m_denied = decision == ApprovalDecision::Deny;
    m_invocation->decide(decision);
    return true;
}

bool AgentRun::compactNow(bool force)
{
    if (!m_opened || isBusy())
        return false;
    m_stopRequested = false;
    runPreflight(force, true, AfterPreflight::Idle);
    return true;
}

bool AgentRun::undoLastCompaction()
{
    if (!m_opened || isBusy() || m_overlays.checkpoints.isEmpty())
        return false;
    const qint64 id = m_overlays.checkpoints.constLast().id;
    if (id <= 0)
        return false;
    // The store drops the checkpoint and the offloads of the same compaction together.
    m_writes->run([store = m_config.store, sessionId = m_config.sessionId, id](QString &error) -> std::optional<ContextOverlays> {
        if (!store->removeCheckpoint(id, &error))
            return std::nullopt;
        ContextOverlays overlays = store->overlays(sessionId, &error);
        if (!error.isEmpty())
            return std::nullopt;
        return overlays;
    }, [this, id](const std::optional<ContextOverlays> &overlays, const QString &error) {
        if (!overlays) {
            fail(tr("cannot undo the compaction: %1").arg(error));
            return;
        }
        m_overlays = *overlays;
        m_lastStateKey.clear();
        rebuildView();
        if (m_backgroundDraft)
            m_backgroundDraft->drop("the compaction it extended was undone");
        Q_EMIT compactionUndone(id);
    });
    return true;
}

bool AgentRun::decideSummaryReview(const ReviewDecision &decision)
{
    if (!m_preflight || !m_preflight->isAwaitingReview())
        return false;
    m_preflight->decideReview(decision); // finishes the preflight: onPreflightFinished goes on
    return true;
}

bool AgentRun::reviewCommitted(QString *why) const
{
    if (why)
        *why = m_reviewRefusal;
    return m_reviewCommitted;
}

bool AgentRun::isAwaitingReview() const
{
    return m_preflight && m_preflight->isAwaitingReview();
}

SummaryDraft AgentRun::pendingReview() const
{
    return isAwaitingReview() ? m_preflight->draft() : SummaryDraft{};
}

bool AgentRun::isDraftingAhead() const
{
    return m_backgroundDraft && m_backgroundDraft->isDrafting();
}

void AgentRun::storeCheckpointVersion(qint64 checkpointId, std::function<std::optional<int>(SessionStore &, QString &)> write,
                                      const QString &failure)
{
    // The version goes to the store off this thread; the overlays (with the checkpoint's newest
    // version) come back read in the same job.
    using Stored = std::optional<std::pair<int, ContextOverlays>>;
    m_writes->run([store = m_config.store, sessionId = m_config.sessionId, write = std::move(write)](QString &error) -> Stored {
        const std::optional<int> number = write(*store, error);
        if (!number)
            return std::nullopt;
        ContextOverlays overlays = store->overlays(sessionId, &error);
        if (!error.isEmpty())
            return std::nullopt;
        return std::make_pair(*number, std::move(overlays));
    }, [this, checkpointId, failure](const Stored &stored, const QString &error) {
        if (!stored) {
            fail(failure.arg(error));
            return;
        }
        m_overlays = stored->second;
        rebuildView();
        if (m_backgroundDraft)
            m_backgroundDraft->drop("a checkpoint got a new version");
        qCInfo(lcAgent) << "checkpoint" << checkpointId << "is at version" << stored->first;
        Q_EMIT checkpointRevised(checkpointId, stored->first);
    });
}

bool AgentRun::reviseCheckpoint(qint64 checkpointId, const Anchors &anchors, const QString &summary)
{
    if (!m_opened || isBusy())
        return false;
    const auto it = std::find_if(m_overlays.checkpoints.cbegin(), m_overlays.checkpoints.cend(),
                                 [checkpointId](const Checkpoint &cp) { return cp.id == checkpointId; });
    if (it == m_overlays.checkpoints.cend())
        return false;
    const CheckpointVersion version = CompactionPass::revision(*it, m_overlays.offloads, anchors, summary, m_requestCount);
    storeCheckpointVersion(checkpointId, [checkpointId, version](SessionStore &store, QString &error) {
        return store.addCheckpointVersion(checkpointId, version, &error);
    }, tr("cannot store the edited checkpoint: %1"));
    return true;
}

bool AgentRun::undoCheckpointRevision(qint64 checkpointId)
{
    if (!m_opened || isBusy())
        return false;
    // Version 1 is what the compaction made: there is nothing before it to go back to.
    const auto it = std::find_if(m_overlays.checkpoints.cbegin(), m_overlays.checkpoints.cend(),
                                 [checkpointId](const Checkpoint &cp) { return cp.id == checkpointId; });
    if (it == m_overlays.checkpoints.cend() || it->version <= 1)
        return false;
    storeCheckpointVersion(checkpointId, [checkpointId](SessionStore &store, QString &error) {
        return store.undoCheckpointVersion(checkpointId, &error);
    }, tr("cannot undo the edit: %1"));
    return true;
}

bool AgentRun::skipSummary()
{
    if (m_state != State::Compacting || !m_preflight)
        return false;
    m_preflight->skipSummary();
    return true;
}

// --- the loop -----------------------------------------------------------------------------------

void AgentRun::startTurn()
{
    if (m_stopRequested) {
        endStopped();
        return;
    }
    if (m_turns >= m_config.maxTurns) {
        fail(tr("the turn limit of %1 requests was reached; send another prompt to go on").arg(m_config.maxTurns));
        return;
    }
    ++m_turns;
    runPreflight(false, false, AfterPreflight::SendRequest);
}

void AgentRun::refreshPins(std::function<void()> then)
{
    // The window pins and unpins on a worker, and pin_fact on the tool's thread: the pins are read
    // (off this thread, behind the writes queued before) before each request, so its view shows
    // what was pinned meanwhile.
    const int failures = m_failures;
    m_writes->run([store = m_config.store, sessionId = m_config.sessionId](QString &error) { return store->pins(sessionId, &error); },
                  [this, failures, then = std::move(then)](const QList<Pin> &pins, const QString &error) {
        if (failures != m_failures)
            return;
        if (!error.isEmpty()) {
            qCWarning(lcAgent) << "cannot read the pins; keeping the ones read before:" << error;
        } else if (pins != m_overlays.pins) {
            m_overlays.pins = pins;
            rebuildView();
        }
        then();
    });
}

qint64 AgentRun::pinBudgetTokens() const
{
    return PinnedSection::budgetTokens(m_policy, TokenEstimate::utf8Bytes(m_systemPrompt), m_toolSchemaBytes);
}

void AgentRun::runPreflight(bool force, bool userRequested, AfterPreflight then)
{
    refreshPins([this, force, userRequested, then] { startPreflight(force, userRequested, then); });
}

void AgentRun::startPreflight(bool force, bool userRequested, AfterPreflight then)
{
    PreflightInput in;
    in.sessionId = m_config.sessionId;
    in.systemPrompt = m_systemPrompt;
    in.history = m_history;
    in.overlays = m_overlays;
    in.policy = m_policy;
    in.tools = m_toolSpecs;
    in.toolSchemaBytes = m_toolSchemaBytes;
    in.requestIndex = m_requestCount;
    in.workspaceDir = m_workspace->root();
    in.force = force;
    in.userRequested = userRequested;
    in.lastStateKey = m_lastStateKey;
    in.notedErrors = m_notedErrors;
    in.rejectedTier = m_rejectedTier;
    if (m_backgroundDraft && m_policy.reviewSummaries)
        in.draft = m_backgroundDraft->ready();
    // The audit line is appended here after the store took the record, so both always hold the same records.
    in.view = std::move(m_view);
    m_view.reset();

    auto *preflight = new Preflight(std::move(in), this);
    m_preflight = preflight;
    m_afterPreflight = then;
    preflight->setSummarizers(m_configuredSummarizer, m_mainSummarizer);
    connect(preflight, &Preflight::finished, this, &AgentRun::onPreflightFinished);
    connect(preflight, &Preflight::reviewRequested, this, &AgentRun::summaryReviewRequested);
    if (m_backgroundDraft) {
        // A draft still being written is cancelled rather than waited for: the tier's own call
        // (or the ready draft's top-up) is one call either way, and the client is free for it.
        connect(preflight, &Preflight::summaryStarting, m_backgroundDraft,
                [draft = m_backgroundDraft] { draft->cancelCall("the tier fired before it arrived"); });
    }
    preflight->start();
    if (m_preflight == preflight && !preflight->isFinished()) {
        setState(State::Compacting);
        const CompactionRecord &record = preflight->result().record;
        Q_EMIT compactionStarted(record.tier, preflight->pendingSummaryCount(), record.timestamp);
    }
}

void AgentRun::onPreflightFinished()
{
    Preflight *preflight = m_preflight;
    if (!preflight)
        return;
    m_preflight = nullptr;
    PreflightResult result = preflight->takeResult();
    preflight->deleteLater();
    m_view = std::move(result.view);
    m_overlays = result.overlays;
    if (result.reviewAccepted) {
        m_reviewCommitted = !result.newCheckpoints.isEmpty();
        m_reviewRefusal = result.refusal;
    }
    if (result.reviewRejected)
        m_rejectedTier = result.record.tier;
    else if (!result.newCheckpoints.isEmpty() || result.record.tier < m_rejectedTier)
        m_rejectedTier = Tier::None; // committed, or below the rejected tier again (an undo)
    storeCompaction(result, [this, tier = result.record.tier, notSent = result.notSent] {
        m_requestTier = tier;
        if (m_stopRequested) {
            endStopped();
            return;
        }
        keepDraftCurrent(tier);
        if (m_afterPreflight == AfterPreflight::Idle) {
            setState(State::Idle);
            return;
        }
        if (!notSent.isEmpty()) {
            // Over the window even after Emergency (docs/COMPACTION.md section 4): never sent.
            fail(notSent);
            return;
        }
        sendRequest();
    });
}

void AgentRun::storeCompaction(const PreflightResult &result, std::function<void()> then)
{
    const bool overlays = !result.newCheckpoints.isEmpty() || !result.newOffloads.isEmpty();
    if (!overlays && !result.shouldRecord) {
        then();
        return;
    }
    StepAppend step;
    step.checkpoints = result.newCheckpoints;
    step.offloads = result.newOffloads;
    step.record = result.record;
    // A failure: the view keeps the new overlays for this request only; the next open starts without them.
    storeStep(step, tr("cannot store a compaction: %1"),
              [this, step, stateKey = result.stateKey, then = std::move(then)](const StepIds &ids) {
        const qsizetype firstNew = m_overlays.checkpoints.size() - step.checkpoints.size();
        for (qsizetype i = 0; i < step.checkpoints.size(); ++i) {
            if (firstNew + i >= 0 && firstNew + i < m_overlays.checkpoints.size())
                m_overlays.checkpoints[firstNew + i].id = ids.checkpointIds.value(i);
        }
        for (qsizetype j = 0; j < step.offloads.size(); ++j) {
            const auto it = m_overlays.offloads.find(step.offloads[j].messageId);
            if (it != m_overlays.offloads.end())
                it->id = ids.offloadIds.value(j);
        }
        m_lastStateKey = stateKey;
        m_notedErrors.clear(); // they are in this record now
        const CompactionRecord &record = *step.record;
        QString auditError;
        if (!AuditLog::append(m_auditPath, record, &auditError))
            qCWarning(lcAgent).noquote() << "cannot append to the compaction audit" << m_auditPath << ":" << auditError;
        qCInfo(lcAgent) << "compaction" << tierName(record.tier) << record.tokensBefore << "->" << record.tokensAfter << "tokens";
        Q_EMIT compactionRecorded(record);
        then();
    });
}

void AgentRun::keepDraftCurrent(Tier tier)
{
    if (!m_backgroundDraft)
        return;
    if (tier >= Tier::Soft) {
        // Used, stale, rejected (drafting starts again from the next Warn) or past (Emergency).
        m_backgroundDraft->drop("a Soft or higher tier fired");
        return;
    }
    if (tier != Tier::Warn || !m_policy.reviewSummaries || m_policy.strategy == CompactionStrategy::Mask || !m_view
        || m_backgroundDraft->isDrafting())
        return; // one call at a time: the next Warn tops up what this one misses
    BackgroundDraft::Input in;
    in.sessionId = m_config.sessionId;
    in.systemPrompt = m_systemPrompt;
    in.history = m_history;
    in.overlays = m_overlays;
    in.view = *m_view;
    in.policy = m_policy;
    in.toolSchemaBytes = m_toolSchemaBytes;
    in.requestIndex = m_requestCount;
    m_backgroundDraft->update(in);
}

// The system prompt (a default one is stored with the first request that sends it) and the tool
// schemas (what the replay of this session counts with each request, as the preflight did), then
// the request.
void AgentRun::storeSessionSetup()
{
    QJsonArray schemas;
    if (!m_toolSchemasStored)
        for (const ToolSpec &spec : std::as_const(m_toolSpecs))
            schemas.append(MessageCodec::toJson(spec));
    const int failures = m_failures;
    m_writes->run([store = m_config.store, sessionId = m_config.sessionId, prompt = m_systemPromptStored ? QString() : m_systemPrompt,
                   schemas = m_toolSchemasStored ? std::optional<QJsonArray>() : std::optional<QJsonArray>(schemas)](QString &error) {
        QString why;
        if (!prompt.isEmpty() && !store->setSystemPrompt(sessionId, prompt, &why)) {
            error = tr("cannot store the system prompt: %1").arg(why);
            return false;
        }
        if (schemas && !store->setToolSchemas(sessionId, *schemas, &why)) {
            error = tr("cannot store the tool schemas: %1").arg(why);
            return false;
        }
        return true;
    }, [this, failures](bool stored, const QString &error) {
        if (failures != m_failures)
            return;
        if (!stored) {
            fail(error);
            return;
        }
        m_systemPromptStored = true;
        m_toolSchemasStored = true;
        if (m_stopRequested)
            endStopped();
        else
            sendRequest();
    });
}

void AgentRun::sendRequest()
{
    if (!m_systemPromptStored || !m_toolSchemasStored) {
        storeSessionSetup();
        return;
    }
    ChatRequest request;
    request.messages = m_view->messages(m_history, m_overlays);
    request.tools = m_toolSpecs;
    request.model = m_config.model;
    request.maxOutputTokens = m_config.maxOutputTokens;

    RequestRecord r;
    r.sessionId = m_config.sessionId;
    r.viewMessageIds = m_view->historyMessageIds();
    if (m_view->hasCheckpoint() && !m_overlays.checkpoints.isEmpty())
        r.viewCheckpointId = m_overlays.checkpoints.constLast().id;
    r.estimateTokens = m_view->tokens();
    r.toolSchemaTokens = TokenEstimate::tokensForBytes(m_toolSchemaBytes);
    r.toolSchemaBytes = m_toolSchemaBytes;
    r.tier = m_requestTier;
    r.model = m_config.model;
    r.startedAt = nowUtc();
    m_pendingRequest = r;

    m_requestInFlight = true;
    setState(State::WaitingForModel);
    qCDebug(lcAgent) << "request" << m_requestCount << ":" << request.messages.size() << "messages," << r.estimateTokens
                     << "tokens";
    m_config.client->send(request);
}

void AgentRun::onAttemptStarted(int)
{
    if (m_requestInFlight)
        setState(State::WaitingForModel);
}

void AgentRun::onTextDelta(const QString &text)
{
    if (!m_requestInFlight)
        return;
    setState(State::Streaming);
    Q_EMIT textDelta(text);
}

void AgentRun::onThinkingDelta(const QString &text)
{
    if (!m_requestInFlight)
        return;
    setState(State::Streaming);
    Q_EMIT thinkingDelta(text);
}

void AgentRun::onToolCallStarted(int index, const QString &id, const QString &name)
{
    if (!m_requestInFlight)
        return;
    setState(State::Streaming);
    Q_EMIT toolCallStreaming(index, id, name);
}

void AgentRun::onToolCallArgumentsDelta(int index, const QString &delta)
{
    if (!m_requestInFlight)
        return;
    Q_EMIT toolCallArgumentsDelta(index, delta);
}

void AgentRun::onRetrying(int attempt, int delayMs, const ChatError &error)
{
    if (!m_requestInFlight)
        return;
    setState(State::Retrying);
    Q_EMIT retrying(attempt, delayMs, error.displayText());
}

void AgentRun::onModelFinished(const Message &assistant, const ChatUsage &usage, const QString &finishReason)
{
    if (!m_requestInFlight)
        return;
    m_requestInFlight = false;
    RequestRecord r = m_pendingRequest;
    r.finishedAt = nowUtc();
    if (usage.inputKnown)
        r.inputTokens = usage.input;
    if (usage.outputKnown)
        r.outputTokens = usage.output;
    if (usage.cacheReadKnown)
        r.cacheReadTokens = usage.cacheRead;
    if (usage.cacheWriteKnown)
        r.cacheWriteTokens = usage.cacheWrite;

    Message message = assistant;
    message.role = Role::Assistant;
    message.id = 0;
    message.sessionId.clear();
    message.toolCallId.clear();
    message.origin = ThisStep::kRow;
    message.createdAt = {};
    message.cachedBytes = -1;
    message.cachedLines = -1;
    storeMessages({message}, {}, r, [this, finishReason](const QList<Message> &stored) {
        const Message &answer = stored.constFirst();
        if (answer.hasToolCalls()) {
            m_calls = answer.toolCalls;
            m_callIndex = 0;
            runNextTool();
            return;
        }
        qCInfo(lcAgent) << "answer after" << m_turns << "request(s), finish reason" << finishReason;
        m_lastAnswer = answer.content;
        setState(State::Finished);
        Q_EMIT finished(answer.content);
    });
}

void AgentRun::onModelFailed(const ChatError &error)
{
    if (!m_requestInFlight)
        return;
    m_requestInFlight = false;
    const QString text = error.displayText();
    storeFailedRequest(text, [this, text] { fail(text); });
}

void AgentRun::storeFailedRequest(const QString &error, std::function<void()> then)
{
    RequestRecord r = m_pendingRequest;
    r.finishedAt = nowUtc();
    r.error = error;
    storeMessages({}, {}, r, [then = std::move(then)](const QList<Message> &) { then(); });
}

void AgentRun::runNextTool()
{
    if (m_stopRequested) {
        closeCalls(m_callIndex, u"[not run: the user stopped the agent before this call]"_s);
        afterWrites([this] { endStopped(); });
        return;
    }
    if (m_callIndex >= m_calls.size()) {
        m_calls.clear();
        m_callIndex = 0;
        startTurn();
        return;
    }
    const ToolCall call = m_calls[m_callIndex];
    ToolContext context;
    context.workspace = m_workspace;
    context.sessionId = m_config.sessionId;
    context.callId = call.id;
    context.sandbox = m_gate->policy().sandbox();
    context.privatePaths = QStringList{m_auditPath};
    // pin_fact, approved, stores a model pin on the tool's thread (its own connection); the next
    // preflight reads it back with the others.
    context.pinFact = [store = m_config.store, sessionId = m_config.sessionId, budget = pinBudgetTokens()](const QString &text,
                                                                                                       const QString &reason) {
        Pin pin;
        pin.kind = Pin::Kind::Note;
        pin.source = Pin::Source::Model;
        pin.text = text;
        pin.reason = reason;
        QString error;
        return store->addPin(sessionId, pin, budget, &error) ? QString() : error;
    };
    if (const QString database = m_config.store->path(); !database.isEmpty())
        context.privatePaths << database << database + u"-wal"_s << database + u"-shm"_s << database + u"-journal"_s;
    auto *invocation = new ToolInvocation(*m_tools, *m_gate, context, call, this);
    m_invocation = invocation;
    m_toolAnnounced = false;
    m_denied = false;
    connect(invocation, &ToolInvocation::approvalRequested, this, [this](const ApprovalRequest &request) {
        setState(State::AwaitingApproval);
        Q_EMIT approvalRequested(request);
    });
    connect(invocation, &ToolInvocation::stateChanged, this, [this, invocation](ToolInvocation::State state) {
        if (state != ToolInvocation::State::Running || m_toolAnnounced || m_denied)
            return;
        m_toolAnnounced = true;
        setState(State::RunningTool);
        Q_EMIT toolStarted(invocation->call());
    });
    connect(invocation, &ToolInvocation::finished, this, &AgentRun::onToolFinished);
    invocation->start();
}

void AgentRun::onToolFinished(const ToolResult &result)
{
    ToolInvocation *invocation = m_invocation;
    if (!invocation)
        return;
    m_invocation = nullptr;
    const ToolCall call = invocation->call();
    invocation->deleteLater();
    // Secrets a command printed never reach the history, the offload files or the model.
    ToolResult scrubbed = result;
    Redaction::Scrubbed clean = Redaction::scrub(result.content);
    if (!clean.removed.isEmpty()) {
        qCInfo(lcAgent) << "removed" << clean.removed.size() << "secret(s) from the result of" << call.name;
        scrubbed.content = std::move(clean.text);
        scrubbed.metadata.insert(u"redacted"_s, QJsonArray::fromStringList(clean.removed));
    }
    completeTool(call, scrubbed);
}

void AgentRun::completeTool(const ToolCall &call, const ToolResult &result)
{
    Message message = Message::toolResult(call.id, result.content, result.isError);
    message.cacheBytes();
    QList<OffloadOverlay> offloads;
    if (OffloadStore::gate1Applies(call.name, TokenEstimate::utf8Bytes(result.content), m_policy.offloadAtToolTime)
        && !OffloadStore::isPlaceholder(result.content)) {
        const OffloadStore store(m_workspace->root(), m_config.sessionId);
        // Results that share a call id each get a file: this one is the n-th with its id.
        const int occurrence = OffloadStore::resultsBefore(m_history, m_history.size(), call.id);
        if (store.shrinks(message, m_policy.previewLinesToolTime, occurrence)) {
            const OffloadStore::Result offload = store.offload(message, call.name, 1, m_policy.previewLinesToolTime, occurrence);
            if (offload.ok) {
                OffloadOverlay overlay;
                overlay.messageId = ThisStep::message(0); // the result, the step's only message
                overlay.entry = offload.entry;
                overlay.placeholder = offload.placeholder;
                offloads.append(overlay);
            } else {
                // Fail open: the model reads the whole result. The next request's record says so.
                qCWarning(lcAgent).noquote() << "offload at tool time failed, the result stays in the context:"
                                             << offload.error;
                m_notedErrors.append(tr("gate 1 offload of the result of %1 (%2) failed: %3").arg(call.id, call.name, offload.error));
            }
        }
    }
    storeMessages({message}, offloads, std::nullopt, [this, call, result](const QList<Message> &) {
        Q_EMIT toolFinished(call, result, result.durationMs);
        ++m_callIndex;
        runNextTool();
    });
}

void AgentRun::endStopped()
{
    m_stopRequested = false;
    m_calls.clear();
    m_callIndex = 0;
    qCInfo(lcAgent) << "stopped";
    setState(State::Stopped);
    Q_EMIT stopped();
}

void AgentRun::fail(const QString &error)
{
    ++m_failures;
    m_lastError = error;
    m_stopRequested = false;
    m_requestInFlight = false;
    qCWarning(lcAgent).noquote() << "run failed:" << error;
    setState(State::Failed);
    Q_EMIT failed(error);
}

} // namespace wl
