#include "AgentController.h"

#include "UiLogging.h"
#include "agent/AgentRun.h"
#include "common/BackgroundRunner.h"
#include "compaction/CompactionRecord.h"
#include "conversation/ConversationModel.h"
#include "conversation/ConversationView.h"
#include "conversation/PromptInput.h"
#include "llm/ApiKeyStore.h"
#include "llm/ChatClient.h"
#include "settings/ProviderCheck.h"
#include "store/RequestRecord.h"
#include "store/SessionStore.h"
#include "tools/ApprovalGate.h"
#include "tools/ApprovalRequest.h"
#include "tools/ToolResult.h"

#include <QJsonDocument>
#include <QTimer>
#include <QUrl>

#include <memory>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

bool isToolResultMessage(const Message &m)
{
    return m.isToolResult();
}

} // namespace

AgentController::AgentController(ConversationModel *model, ConversationView *view, PromptInput *prompt, QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_view(view)
    , m_prompt(prompt)
    , m_profile(ProviderProfile::defaultProfile())
    , m_defaultProfile(m_profile)
    , m_keys(new ApiKeyStore(this))
    , m_probe(new ProviderCheck(this))
    , m_reader(new BackgroundRunner(BackgroundRunner::Policy::LatestOnly, this))
{
    m_recheck = new QTimer(this);
    m_recheck->setSingleShot(true);
    m_recheck->setInterval(15000);
    connect(m_recheck, &QTimer::timeout, this, &AgentController::checkConnection);
    if (qEnvironmentVariableIntValue("WATERLINE_NO_KEYCHAIN") == 1)
        m_keys->setKeychainEnabled(false);

    connect(m_keys, &ApiKeyStore::keyResolved, this, [this](const QString &keyRef, const ApiKeyStore::Result &result) {
        // Answers for profiles no longer in use are dropped; one key may serve both clients.
        bool changed = false;
        if (keyRef == m_profile.keyRef && !m_keyResolved) {
            m_key = result.key;
            m_keyResolved = true;
            changed = true;
        }
        if (m_summaryProfile && keyRef == m_summaryProfile->keyRef && !m_summaryKeyResolved) {
            m_summaryKey = result.key;
            m_summaryKeyResolved = true;
            changed = true;
        }
        if (changed)
            rebuildClient();
    });
    connect(m_probe, &ProviderCheck::modelsFound, this, [this](const QStringList &) {
        m_idleConnection = Connection::Reachable;
        if (!isBusy())
            setConnection(Connection::Reachable);
    });
    connect(m_probe, &ProviderCheck::failed, this, [this](const ChatError &error) {
        m_idleConnection = Connection::Unreachable;
        if (!isBusy())
            setConnection(Connection::Unreachable, error.displayText());
    });

    if (m_prompt) {
        connect(m_prompt, &PromptInput::submitted, this, [this](const QString &text) { send(text); });
        connect(m_prompt, &PromptInput::stopRequested, this, &AgentController::stop);
        connect(m_prompt, &PromptInput::commandRequested, this, &AgentController::runCommand);
    }
    if (m_view) {
        connect(m_view, &ConversationView::approvalDecided, this, [this](const QString &approvalId, ApprovalDecision decision) {
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
        connect(m_view, &ConversationView::retryRequested, this, [this](const QString &errorId) {
            if (retry())
                m_model->setErrorRetryable(errorId, false);
        });
        connect(m_view, &ConversationView::skipRequested, this, [this] {
            if (m_run && m_run->skipSummary())
                Q_EMIT notice(tr("Skipped this summary step; the next fallback writes it."));
        });
    }
    updatePrompt();
}

AgentController::~AgentController()
{
    m_reader->cancel(); // a read still running is dropped
    delete m_reader;    // waits for it
    m_reader = nullptr;
    dropRun();
}

void AgentController::setStore(SessionStore *store, const QString &databasePath)
{
    if (m_store == store && m_databasePath == databasePath)
        return;
    m_store = store;
    m_databasePath = databasePath;
    openSession(QString());
}

void AgentController::setProfile(const ProviderProfile &profile)
{
    setProfiles({profile}, profile);
}

void AgentController::setProfiles(const QList<ProviderProfile> &profiles, const ProviderProfile &defaultProfile)
{
    m_profiles = profiles;
    m_defaultProfile = defaultProfile;
    // While a session is being read its own profile is not known yet: the read decides.
    if (m_sessionId.isEmpty() || m_opening) {
        useProfile(defaultProfile);
        return;
    }
    QString note;
    const ProviderProfile wanted = profileForSession(m_sessionProviderName, &note);
    if (note != m_profileNote) {
        m_profileNote = note;
        if (!note.isEmpty())
            Q_EMIT notice(note);
    }
    useProfile(wanted);
}

ProviderProfile AgentController::profileForSession(const QString &providerName, QString *note) const
{
    note->clear();
    if (providerName.isEmpty())
        return m_defaultProfile;
    for (const ProviderProfile &p : m_profiles)
        if (p.name == providerName)
            return p;
    *note = tr("This session ran on the provider profile \u201c%1\u201d, which no longer exists; it uses the default profile \u201c%2\u201d.")
                .arg(providerName, m_defaultProfile.name);
    return m_defaultProfile;
}

void AgentController::useProfile(const ProviderProfile &profile)
{
    if (isBusy()) {
        if (m_pendingProfile == profile || (!m_pendingProfile && profile == m_profile))
            return;
        m_pendingProfile = profile;
        Q_EMIT notice(tr("The new provider is used when the agent has finished."));
        return;
    }
    const bool same = profile == m_profile && m_keyResolved;
    m_profile = profile;
    m_pendingProfile.reset();
    if (same) {
        checkConnection();
        return;
    }
    m_keyResolved = false;
    m_key.clear();
    m_keys->lookup(profile); // answers from the event loop: rebuildClient()
    checkConnection();
    Q_EMIT statusChanged();
}

void AgentController::setSummarizerProfile(const std::optional<ProviderProfile> &profile)
{
    if (isBusy()) {
        m_pendingSummary = profile;
        return;
    }
    m_pendingSummary.reset();
    if (profile == m_summaryProfile && (!profile || m_summaryKeyResolved))
        return;
    m_summaryProfile = profile;
    m_summaryKeyResolved = false;
    m_summaryKey.clear();
    if (profile)
        m_keys->lookup(*profile); // answers from the event loop: rebuildClient()
    else
        rebuildClient();
}

void AgentController::applyPendingProfile()
{
    if (isBusy())
        return;
    if (m_pendingSummary) {
        const std::optional<ProviderProfile> p = *m_pendingSummary;
        m_pendingSummary.reset();
        setSummarizerProfile(p);
    }
    if (m_pendingProfile) {
        const ProviderProfile p = *m_pendingProfile;
        m_pendingProfile.reset();
        useProfile(p);
    }
}

void AgentController::setApprovalPolicy(const ApprovalPolicy &policy)
{
    m_approval = policy;
    if (m_run && m_run->approvalGate())
        m_run->approvalGate()->setPolicy(policy);
}

void AgentController::setSessionPolicy(const CompactionPolicy &policy)
{
    if (m_run && !m_run->setPolicy(policy))
        Q_EMIT notice(tr("The new policy applies from the next prompt."));
    Q_EMIT statusChanged();
}

void AgentController::setProbeTimeoutMs(int ms)
{
    if (ms > 0)
        m_probe->setTimeoutMs(ms);
}

void AgentController::checkConnection()
{
    const QUrl base = m_profile.baseUrl;
    if (!base.isValid() || base.host().isEmpty()) {
        m_idleConnection = Connection::Unreachable;
        setConnection(Connection::Unreachable, tr("the provider has no valid address"));
        return;
    }
    if (!isBusy())
        setConnection(Connection::Checking);
    m_probe->discoverModels(m_profile);
}

void AgentController::rebuildClient()
{
    if (!m_keyResolved || (m_summaryProfile && !m_summaryKeyResolved))
        return; // the other key is still being looked up: its answer comes back here
    // A new client needs a new run (the run connects to its client once); the session is read again.
    const QString session = m_sessionId;
    dropRun();
    delete m_client;
    delete m_summaryClient;
    m_summaryClient = nullptr;
    m_client = ChatClient::create(m_profile, m_key, this);
    // A summariser profile that is the main one adds no step to the chain.
    if (m_summaryProfile && !(*m_summaryProfile == m_profile))
        m_summaryClient = ChatClient::create(*m_summaryProfile, m_summaryKey, this);
    m_sessionId.clear();
    if (!session.isEmpty())
        openSession(session);
    else
        updatePrompt();
}

void AgentController::dropRun()
{
    if (!m_run)
        return;
    AgentRun *run = m_run;
    m_run = nullptr;
    run->disconnect(this);
    run->stop();
    delete run;
}

bool AgentController::isOpen() const
{
    return m_run != nullptr;
}

bool AgentController::clientsReady() const
{
    return m_client && m_keyResolved && (!m_summaryProfile || m_summaryKeyResolved);
}

bool AgentController::isBusy() const
{
    return m_run && m_run->isBusy();
}

void AgentController::openSession(const QString &sessionId)
{
    m_reader->cancel(); // a read still running is for another session (or none)
    dropRun();
    if (sessionId != m_noteSessionId) {
        m_profileNote.clear();
        m_noteSessionId.clear();
        m_sessionProviderName.clear();
    }
    m_sessionId = sessionId;
    m_openError.clear();
    m_unsandboxedNote.clear();
    m_streamText.clear();
    m_deniedCalls.clear();
    m_approvalIds.clear();
    m_lastInputTokens = -1;
    m_opening = !sessionId.isEmpty() && m_store && !m_databasePath.isEmpty();
    if (!sessionId.isEmpty() && !m_opening)
        m_openError = tr("no session database is open");
    updatePrompt();
    Q_EMIT statusChanged();
    if (!m_opening)
        return;

    // The history is read on the worker with its own connection; AgentRun::open() gets it whole.
    const QString databasePath = m_databasePath;
    m_reader->run([sessionId, databasePath](QString &error) {
        std::optional<AgentRun::SessionData> data;
        SessionStore store;
        if (store.open(databasePath, &error))
            data = AgentRun::readSession(store, sessionId, &error);
        return data;
    }, [this, sessionId](std::optional<AgentRun::SessionData> data, const QString &error) {
        m_opening = false;
        if (!data) {
            m_openError = error;
            updatePrompt();
            Q_EMIT openFailed(sessionId, error);
            return;
        }
        // The session runs on the profile it names while that still exists, else on the default.
        m_sessionProviderName = data->info.providerName;
        QString note;
        const ProviderProfile wanted = profileForSession(m_sessionProviderName, &note);
        if (note != m_profileNote || m_noteSessionId != sessionId) {
            m_profileNote = note;
            m_noteSessionId = sessionId;
            if (!note.isEmpty()) {
                qCInfo(lcUi).noquote() << note;
                Q_EMIT notice(note);
            }
        }
        if (!(wanted == m_profile)) {
            // Its key is looked up first: rebuildClient() opens the session again.
            m_opening = true;
            useProfile(wanted);
            updatePrompt();
            return;
        }
        if (!clientsReady()) {
            // A key is still being looked up: rebuildClient() opens the session again.
            m_opening = true;
            updatePrompt();
            return;
        }
        AgentRun::SessionData session = std::move(*data);
        AgentConfig config;
        config.store = m_store;
        config.sessionId = sessionId;
        config.client = m_client;
        config.model = m_profile.model;
        config.maxOutputTokens = m_profile.effectiveMaxOutputTokens();
        config.approval = m_approval;
        if (m_summaryClient) {
            config.summarizerClient = m_summaryClient;
            config.summarizerModel = m_summaryProfile->model;
            config.summaryMaxOutputTokens = m_summaryProfile->effectiveMaxOutputTokens();
        }
        config.maxTurns = m_turnLimit;
        // A workspace that is "/" or the home folder was confirmed when the session was created
        // (SessionsPanel::newSessionDialog).
        config.allowBroadWorkspace = true;
        if (session.info.policy.isEmpty()) {
            // A session without a policy of its own gets the default one, with the model's window.
            const CompactionPolicy policy = m_profile.sizedPolicy(m_defaultPolicy);
            QString why;
            if (m_store->setSessionPolicy(sessionId, policy.toJson(), &why))
                session.info.policy = policy.toJson();
            else
                qCWarning(lcUi).noquote() << "cannot store the default policy of session" << sessionId << why;
            config.policy = policy;
        }
        auto *run = new AgentRun(config, this);
        QString why;
        if (!run->open(std::move(session), &why)) {
            delete run;
            m_openError = why;
            updatePrompt();
            Q_EMIT openFailed(sessionId, why);
            return;
        }
        m_run = run;
        bindRun();
        updatePrompt();
        Q_EMIT statusChanged();
        Q_EMIT sessionOpened(sessionId);
    });
}

void AgentController::bindRun()
{
    AgentRun *run = m_run;
    connect(run, &AgentRun::stateChanged, this, &AgentController::onStateChanged);
    connect(run, &AgentRun::textDelta, this, &AgentController::onTextDelta);
    connect(run, &AgentRun::messageStored, this, &AgentController::onMessageStored);
    connect(run, &AgentRun::approvalRequested, this, &AgentController::onApprovalRequested);
    connect(run, &AgentRun::toolStarted, this, &AgentController::onToolStarted);
    connect(run, &AgentRun::toolFinished, this, &AgentController::onToolFinished);
    connect(run, &AgentRun::compactionStarted, this, &AgentController::onCompactionStarted);
    connect(run, &AgentRun::compactionRecorded, this, &AgentController::onCompactionRecorded);
    connect(run, &AgentRun::compactionUndone, this, [this] {
        Q_EMIT notice(tr("The last compaction was undone: the next request sends the earlier view again."));
        Q_EMIT sessionDataChanged();
        Q_EMIT statusChanged();
    });
    connect(run, &AgentRun::retrying, this, &AgentController::onRetrying);
    connect(run, &AgentRun::replyDiscarded, this, [this] {
        m_model->discardAssistantStream();
        m_streamText.clear();
    });
    connect(run, &AgentRun::requestStored, this, &AgentController::onRequestStored);
    connect(run, &AgentRun::finished, this, [this] {
        Q_EMIT runEnded();
        applyPendingProfile();
    });
    connect(run, &AgentRun::stopped, this, &AgentController::onStopped);
    connect(run, &AgentRun::failed, this, &AgentController::onFailed);
}

// --- the prompt ---------------------------------------------------------------------------------

bool AgentController::send(const QString &text)
{
    if (!m_run) {
        Q_EMIT notice(blockedReason());
        return false;
    }
    if (m_run->isBusy()) {
        Q_EMIT notice(tr("The agent is still working; stop it (Esc) or wait."));
        return false;
    }
    m_streamText.clear();
    return m_run->submit(text);
}

void AgentController::stop()
{
    if (m_run)
        m_run->stop();
}

bool AgentController::retry()
{
    if (!m_run || m_run->isBusy())
        return false;
    if (!m_run->retryLastTurn()) {
        Q_EMIT notice(tr("There is nothing to retry."));
        return false;
    }
    return true;
}

bool AgentController::runCommand(SlashCommand command)
{
    if (command == SlashCommand::NewSession) {
        Q_EMIT newSessionRequested();
        return true;
    }
    if (!m_run) {
        Q_EMIT notice(blockedReason());
        return false;
    }
    if (m_run->isBusy()) {
        Q_EMIT notice(tr("The agent is working; stop it (Esc) before running a command."));
        return false;
    }
    switch (command) {
    case SlashCommand::Compact:
    case SlashCommand::CompactForce:
        return m_run->compactNow(command == SlashCommand::CompactForce);
    case SlashCommand::UndoCompaction:
        if (!m_run->undoLastCompaction()) {
            Q_EMIT notice(m_run->lastError().isEmpty() ? tr("There is no compaction to undo.") : m_run->lastError());
            return false;
        }
        return true;
    case SlashCommand::Retry:
        return retry();
    case SlashCommand::NewSession:
        break;
    }
    return false;
}

QString AgentController::blockedReason() const
{
    if (m_sessionId.isEmpty())
        return tr("Start a session to talk to an agent: File \u203a New Session (Ctrl+N) picks its workspace folder.");
    if (!m_openError.isEmpty())
        return tr("This session cannot run an agent: %1").arg(m_openError);
    if (m_profile.model.trimmed().isEmpty())
        return tr("The provider \u201c%1\u201d has no model set: choose one in Settings (Ctrl+,).").arg(m_profile.name);
    if (m_connection == Connection::Unreachable)
        return tr("No model is reachable at %1 (%2). Start the server or pick another provider in Settings (Ctrl+,).")
            .arg(m_profile.baseUrl.toString(), m_connectionError);
    if (m_opening || !m_run)
        return tr("Opening the session\u2026");
    return {};
}

void AgentController::updatePrompt()
{
    if (!m_prompt)
        return;
    m_prompt->setBlockedReason(blockedReason());
    m_prompt->setRunning(isBusy());
}

// --- connection and gauge --------------------------------------------------------------------------

void AgentController::setConnection(Connection connection, const QString &error)
{
    if (connection == Connection::Unreachable)
        m_connectionError = error;
    else if (connection == Connection::Reachable)
        m_connectionError.clear();
    if (connection == Connection::Unreachable)
        m_recheck->start(); // a server started later is noticed without a click
    else
        m_recheck->stop();
    if (m_connection == connection)
        return;
    m_connection = connection;
    updatePrompt();
    Q_EMIT connectionChanged(connection);
    Q_EMIT statusChanged();
}

QString AgentController::connectionLabel(Connection connection)
{
    switch (connection) {
    case Connection::Unknown: return tr("not checked");
    case Connection::Checking: return tr("checking\u2026");
    case Connection::Reachable: return tr("reachable");
    case Connection::Unreachable: return tr("unreachable");
    case Connection::Streaming: return tr("streaming");
    case Connection::Retrying: return tr("retrying");
    }
    return {};
}

qint64 AgentController::estimatedTokens() const
{
    return m_run ? m_run->estimatedTokens() : 0;
}

qint64 AgentController::contextWindow() const
{
    return m_run ? m_run->policy().contextWindow : m_profile.effectiveContextWindow();
}

double AgentController::utilisation() const
{
    // The ratio the next request's preflight will decide on (reserved output and schemas included).
    return m_run ? m_run->nextRequestEstimate().ratio() : 0.0;
}

Tier AgentController::tier() const
{
    return m_run ? m_run->policy().tierFor(utilisation()) : Tier::None;
}

// --- the run's signals ---------------------------------------------------------------------------

void AgentController::onStateChanged()
{
    const AgentRun::State state = m_run->state();
    switch (state) {
    case AgentRun::State::WaitingForModel:
    case AgentRun::State::Streaming:
        setConnection(Connection::Streaming);
        break;
    case AgentRun::State::Retrying:
        setConnection(Connection::Retrying);
        break;
    default:
        setConnection(m_idleConnection == Connection::Unknown ? Connection::Reachable : m_idleConnection,
                      m_connectionError);
        break;
    }
    if (state != AgentRun::State::Compacting && state != AgentRun::State::Retrying)
        m_model->clearProgress();
    updatePrompt();
    Q_EMIT statusChanged();
}

void AgentController::onTextDelta(const QString &text)
{
    if (!m_model->isStreaming()) {
        m_model->beginAssistantStream();
        m_streamText.clear();
    }
    m_streamText += text;
    m_model->appendStreamText(text);
}

void AgentController::endStream(const QString &suffix)
{
    if (!m_model->isStreaming())
        return;
    m_model->finishAssistantStream(Message::assistant(m_streamText + suffix));
    m_streamText.clear();
}

void AgentController::onMessageStored(const Message &message)
{
    if (message.role == Role::Assistant && !isToolResultMessage(message)) {
        if (m_model->isStreaming())
            m_model->finishAssistantStream(message);
        else
            m_model->appendMessages({message});
        m_streamText.clear();
    } else if (isToolResultMessage(message)) {
        ToolCallOutcome outcome;
        outcome.status = message.isError ? ToolCallStatus::Error : ToolCallStatus::Ok;
        if (m_deniedCalls.contains(message.toolCallId))
            outcome.status = ToolCallStatus::Denied;
        outcome.text = message.content;
        outcome.offloaded = m_run && m_run->overlays().offloads.contains(message.id);
        if (!m_model->setToolResult(message.toolCallId, outcome))
            m_model->appendMessages({message});
    } else {
        m_model->appendMessages({message});
    }
    Q_EMIT statusChanged();
}

void AgentController::onApprovalRequested(const ApprovalRequest &request)
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

void AgentController::onToolStarted(const ToolCall &call)
{
    m_model->setToolRunning(call.id);
}

void AgentController::onToolFinished(const ToolCall &call, const ToolResult &result, qint64 durationMs)
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
        Q_EMIT statusChanged();
    }
}

void AgentController::onCompactionStarted(Tier tier, int messages, const QDateTime &started)
{
    ConversationProgress progress;
    progress.kind = ConversationProgress::Kind::Compacting;
    progress.tier = tier;
    progress.messageCount = messages;
    progress.startedAt = started.isValid() ? started.toLocalTime() : QDateTime::currentDateTime();
    progress.skippable = true;
    m_model->setProgress(progress);
}

void AgentController::onCompactionRecorded(const CompactionRecord &record)
{
    m_model->clearProgress();
    if (record.changed || record.tier != Tier::None) {
        CompactionMarker marker;
        marker.recordId = record.id;
        marker.tier = record.tier;
        marker.tokensBefore = record.tokensBefore;
        marker.tokensAfter = record.tokensAfter;
        marker.offloads = int(record.offloaded.size());
        for (AnchorChange c : record.anchorChanges)
            marker.anchorsChanged += (c == AnchorChange::New || c == AnchorChange::Updated) ? 1 : 0;
        m_model->addCompactionMarker(marker);
    } else {
        Q_EMIT notice(tr("Compaction checked: the context is below every threshold, nothing changed."));
    }
    Q_EMIT sessionDataChanged();
    Q_EMIT statusChanged();
}

void AgentController::onRetrying(int attempt, int delayMs, const QString &error)
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

void AgentController::onRequestStored(const RequestRecord &request)
{
    if (request.error.isEmpty()) {
        m_idleConnection = Connection::Reachable;
        m_connectionError.clear();
    }
    if (request.inputTokens)
        m_lastInputTokens = *request.inputTokens;
    Q_EMIT sessionDataChanged();
    Q_EMIT statusChanged();
}

void AgentController::onStopped()
{
    const bool partial = m_model->isStreaming() && !m_streamText.isEmpty();
    endStream();
    ConversationError error;
    error.id = u"stopped-%1"_s.arg(++m_errorCount);
    error.text = partial ? tr("Stopped by the user. The partial answer above was not kept; Retry continues the turn.")
                         : tr("Stopped by the user. Retry continues the turn.");
    error.retryable = true;
    m_model->addError(error);
    Q_EMIT runEnded();
    applyPendingProfile();
}

void AgentController::onFailed(const QString &text)
{
    endStream();
    addErrorRow(text);
    checkConnection(); // a failure may mean the server went away: the status bar and the prompt say so
    Q_EMIT runEnded();
    applyPendingProfile();
}

void AgentController::addErrorRow(const QString &text)
{
    ConversationError error;
    error.id = u"error-%1"_s.arg(++m_errorCount);
    error.text = text;
    error.retryable = true;
    m_model->addError(error);
}

} // namespace wl
