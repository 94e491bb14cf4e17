#include "AgentController.h"

#include "ConversationFeed.h"
#include "UiLogging.h"
#include "BackgroundRunner.h"
#include "settings/AppSettings.h"
#include "agent/AgentRun.h"
#include "conversation/ConversationModel.h"
#include "conversation/ConversationView.h"
#include "review/SummaryReviewDialog.h"
#include "conversation/PromptInput.h"
#include "store/RequestRecord.h"
#include "store/SessionStore.h"
#include "tools/ApprovalGate.h"
#include "whatif/ReplayInput.h"

#include <memory>

namespace wl {

// What the worker read of a session, handed to the GUI thread.
struct AgentController::SessionRead
{
    std::optional<AgentRun::SessionData> data;
};

AgentController::AgentController(ConversationModel *model, ConversationView *view, PromptInput *prompt, QObject *parent)
    : QObject(parent)
    , m_provider(new ProviderConnection(this))
    , m_feed(new ConversationFeed(model, view, this))
    , m_prompt(prompt)
    , m_view(view)
    , m_reader(new BackgroundRunner(BackgroundRunner::Policy::LatestOnly, this))
    , m_writes(new BackgroundRunner(BackgroundRunner::Policy::Queue, this))
{
    connect(m_provider, &ProviderConnection::clientsChanged, this, &AgentController::onClientsChanged);
    connect(m_provider, &ProviderConnection::connectionChanged, this, [this](Connection connection) {
        updatePrompt();
        Q_EMIT connectionChanged(connection);
        Q_EMIT statusChanged();
    });
    connect(m_provider, &ProviderConnection::profileChanged, this, &AgentController::statusChanged);
    connect(m_provider, &ProviderConnection::notice, this, &AgentController::notice);
    connect(m_feed, &ConversationFeed::notice, this, &AgentController::notice);
    connect(m_feed, &ConversationFeed::messageShown, this, &AgentController::statusChanged);
    connect(m_feed, &ConversationFeed::unsandboxedChanged, this, &AgentController::statusChanged);
    connect(m_feed, &ConversationFeed::dataChanged, this, [this] {
        Q_EMIT sessionDataChanged();
        Q_EMIT statusChanged();
    });

    if (m_prompt) {
        connect(m_prompt, &PromptInput::submitted, this, [this](const QString &text) { send(text); });
        connect(m_prompt, &PromptInput::stopRequested, this, &AgentController::stop);
        connect(m_prompt, &PromptInput::commandRequested, this, &AgentController::runCommand);
    }
    if (view) {
        connect(view, &ConversationView::retryRequested, this, [this, model](const QString &errorId) {
            if (retry())
                model->setErrorRetryable(errorId, false);
        });
    }
    updatePrompt();
}

AgentController::~AgentController()
{
    m_reader->cancel(); // a read still running is dropped
    delete m_reader;    // waits for it
    m_reader = nullptr;
    delete m_writes;    // waits for the writes queued (the store outlives the controller)
    m_writes = nullptr;
    dropRun();
}

void AgentController::followSettings(AppSettings *settings)
{
    const auto applyProfiles = [this, settings] {
        setProfiles(settings->profiles(), settings->defaultProfile());
        // "The default profile" (empty name) adds no summariser step: the main model writes summaries.
        setSummarizerProfile(settings->summarizerProfileName().isEmpty()
                                 ? std::nullopt
                                 : std::optional<ProviderProfile>(settings->summarizerProfile()));
    };
    setApprovalPolicy(settings->approvalPolicy());
    setDefaultPolicy(settings->compactionPolicy());
    setTurnLimit(settings->turnLimit());
    applyProfiles();
    connect(settings, &AppSettings::changed, this, [this, settings, applyProfiles](AppSettings::Key key) {
        switch (key) {
        case AppSettings::Key::ProviderProfiles:
        case AppSettings::Key::DefaultProfile:
        case AppSettings::Key::SummarizerProfile:
            applyProfiles();
            break;
        case AppSettings::Key::ApprovalPolicy:
            setApprovalPolicy(settings->approvalPolicy());
            break;
        case AppSettings::Key::CompactionPolicy:
            setDefaultPolicy(settings->compactionPolicy());
            break;
        case AppSettings::Key::TurnLimit:
            setTurnLimit(settings->turnLimit());
            break;
        default:
            break; // the window's own (language, theme, layout) or read where used (prices)
        }
    });
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
    m_provider->setProfiles(profiles, defaultProfile);
    // While a session is being read its own profile is not known yet: the read decides.
    if (m_sessionId.isEmpty() || m_opening) {
        m_provider->useProfile(defaultProfile);
        return;
    }
    QString note;
    const ProviderProfile wanted = m_provider->profileForSession(m_sessionProviderName, &note);
    if (note != m_profileNote) {
        m_profileNote = note;
        if (!note.isEmpty())
            Q_EMIT notice(note);
    }
    m_provider->useProfile(wanted);
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

void AgentController::onClientsChanged()
{
    // A new client needs a new run (the run connects to its client once); the session is read again.
    const QString session = m_sessionId;
    dropRun();
    m_sessionId.clear();
    if (!session.isEmpty())
        openSession(session);
    else
        updatePrompt();
}

void AgentController::dropRun()
{
    if (m_review)
        m_review->close(); // a review left open is rejected; the run is stopped below anyway
    if (!m_run)
        return;
    AgentRun *run = m_run;
    m_run = nullptr;
    m_feed->follow(nullptr);
    run->disconnect(this);
    run->stop();
    delete run;
    m_provider->setRunBusy(false);
}

bool AgentController::isOpen() const
{
    return m_run != nullptr;
}

bool AgentController::isBusy() const
{
    return m_run && m_run->isBusy();
}

QString AgentController::unsandboxedNote() const
{
    return m_feed->unsandboxedNote();
}

// --- opening a session ---------------------------------------------------------------------------

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
    m_readOnly = false;
    m_recordedTraffic = false;
    m_readOnlyReason.clear();
    m_feed->clearNotes();
    m_lastInputTokens = -1;
    m_opening = !sessionId.isEmpty() && m_store && !m_databasePath.isEmpty();
    if (!sessionId.isEmpty() && !m_opening)
        m_openError = tr("no session database is open");
    updatePrompt();
    Q_EMIT statusChanged();
    if (m_opening)
        readSession(sessionId);
}

void AgentController::openReadOnly(const QString &sessionId, const QString &reason)
{
    openSession(QString());
    m_sessionId = sessionId;
    m_readOnly = true;
    m_readOnlyReason = reason;
    m_openError.clear();
    updatePrompt();
    Q_EMIT statusChanged();
}

void AgentController::readSession(const QString &sessionId)
{
    // The history is read on the worker with its own connection; AgentRun::open() gets it whole.
    const QString databasePath = m_databasePath;
    m_reader->run(
        [sessionId, databasePath](QString &error) {
            auto read = std::make_shared<SessionRead>();
            SessionStore store;
            if (store.open(databasePath, &error))
                read->data = AgentRun::readSession(store, sessionId, &error);
            return read;
        },
        [this, sessionId](std::shared_ptr<SessionRead> read, const QString &error) {
            if (!read)
                read = std::make_shared<SessionRead>();
            sessionRead(sessionId, *read, error);
        });
}

void AgentController::sessionRead(const QString &sessionId, SessionRead &read, const QString &error)
{
    m_opening = false;
    if (!read.data) {
        m_openError = error;
        updatePrompt();
        Q_EMIT openFailed(sessionId, error);
        return;
    }
    if (read.data->info.readOnly) {
        // An import: nothing runs on it until the user continues it (SessionsPanel::continueDialog).
        m_readOnly = true;
        m_recordedTraffic = read.data->info.isRecordedTraffic();
        updatePrompt();
        Q_EMIT statusChanged();
        return;
    }
    // The session runs on the profile it names while that still exists, else on the default.
    m_sessionProviderName = read.data->info.providerName;
    QString note;
    const ProviderProfile wanted = m_provider->profileForSession(m_sessionProviderName, &note);
    if (note != m_profileNote || m_noteSessionId != sessionId) {
        m_profileNote = note;
        m_noteSessionId = sessionId;
        if (!note.isEmpty()) {
            qCInfo(lcUi).noquote() << note;
            Q_EMIT notice(note);
        }
    }
    if (!(wanted == m_provider->profile()) || !m_provider->clientsReady()) {
        // Its key is looked up first (or still being looked up): onClientsChanged() opens it again.
        m_opening = true;
        if (!(wanted == m_provider->profile()))
            m_provider->useProfile(wanted);
        updatePrompt();
        return;
    }
    startRun(sessionId, read);
}

void AgentController::startRun(const QString &sessionId, SessionRead &read)
{
    AgentRun::SessionData session = std::move(*read.data);
    const ProviderProfile profile = m_provider->profile();
    AgentConfig config;
    config.store = m_store;
    config.sessionId = sessionId;
    config.client = m_provider->client();
    config.model = profile.model;
    config.maxOutputTokens = profile.effectiveMaxOutputTokens();
    config.approval = m_approval;
    if (ChatClient *summary = m_provider->summaryClient()) {
        config.summarizerClient = summary;
        config.summarizerModel = m_provider->summarizerProfile()->model;
        config.summaryMaxOutputTokens = m_provider->summarizerProfile()->effectiveMaxOutputTokens();
        config.draftSummarizerClient = m_provider->draftSummaryClient();
    }
    // With review on, the summary is drafted in the background from the Warn tier on clients of its own.
    config.draftClient = m_provider->draftClient();
    config.maxTurns = m_turnLimit;
    // A workspace that is "/" or the home folder was confirmed when the session was created or
    // continued (SessionsPanel::confirmWorkspace).
    config.allowBroadWorkspace = true;
    if (session.info.policy.isEmpty()) {
        // A session without a policy of its own gets the default one, with the window the docks and
        // `waterline-cli simulate` showed it with (ReplayInput::defaultWindow: the session's), so the
        // gauge measures against the window the Thresholds dock shows. Stored off the GUI thread;
        // this run uses it from the start either way, and the docks follow once it is stored.
        CompactionPolicy policy = m_defaultPolicy;
        if (policy.contextWindow == CompactionPolicy().contextWindow)
            policy.contextWindow = ReplayInput::defaultWindow(session.info.providerProfile);
        m_writes->run([store = m_store, sessionId, json = policy.toJson()](QString &error) {
            const bool ok = store->setSessionPolicy(sessionId, json, &error);
            store->releaseThreadConnection(); // pool threads outlive the job
            return ok;
        }, [this, sessionId](bool ok, const QString &error) {
            if (ok)
                Q_EMIT sessionDataChanged(); // the docks show the policy it now has
            else
                qCWarning(lcUi).noquote() << "cannot store the default policy of session" << sessionId << error;
        });
        session.info.policy = policy.toJson();
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
    m_feed->follow(run);
    connect(run, &AgentRun::stateChanged, this, &AgentController::onStateChanged);
    connect(run, &AgentRun::requestStored, this, &AgentController::onRequestStored);
    connect(run, &AgentRun::finished, this, &AgentController::onRunEnded);
    connect(run, &AgentRun::summaryReviewRequested, this, &AgentController::openReview);
    connect(run, &AgentRun::checkpointRevised, this, [this](qint64, int version) {
        Q_EMIT notice(tr("The checkpoint is at version %1: the next request sends it.").arg(version));
        Q_EMIT sessionDataChanged();
        Q_EMIT statusChanged();
    });
    connect(run, &AgentRun::stopped, this, &AgentController::onRunEnded);
    connect(run, &AgentRun::failed, this, [this] {
        m_provider->checkConnection(); // a failure may mean the server went away: the status bar and the prompt say so
        onRunEnded();
    });
    updatePrompt();
    Q_EMIT statusChanged();
    Q_EMIT sessionOpened(sessionId);
}

// --- reviewing summaries -------------------------------------------------------------------------

SummaryReviewDialog *AgentController::reviewDialog() const
{
    return m_review;
}

SummaryReviewDialog *AgentController::makeDialog()
{
    if (m_review)
        m_review->close();
    auto *dialog = SummaryReviewDialog::openBeside(m_view ? m_view->window() : nullptr);
    m_review = dialog;
    return dialog;
}

void AgentController::openReview(const SummaryDraft &draft)
{
    SummaryReviewDialog *dialog = makeDialog();
    dialog->setDraft(draft);
    connect(dialog, &SummaryReviewDialog::decided, this, [this](const ReviewDecision &decision) {
        if (!m_run || !m_run->decideSummaryReview(decision))
            return;
        if (decision.verdict == ReviewDecision::Verdict::Reject) {
            Q_EMIT notice(tr("Summary rejected: the history stays; it is drafted again at the next tier."));
            return;
        }
        // Said only of a checkpoint that was committed (the preflight has finished by now).
        QString why;
        Q_EMIT notice(m_run->reviewCommitted(&why) ? tr("Summary accepted: the agent goes on.")
                                                   : tr("The summary was not committed (%1); the agent goes on.").arg(why));
    });
    Q_EMIT notice(tr("A summary waits for your review; the agent goes on when you accept or reject it."));
    dialog->show();
    dialog->raise();
}

bool AgentController::reviseCheckpoint(qint64 checkpointId, const Anchors &anchors, const QString &summary)
{
    if (!m_run)
        return false;
    if (!m_run->reviseCheckpoint(checkpointId, anchors, summary)) {
        Q_EMIT notice(m_run->isBusy() ? tr("The checkpoint can be edited when the agent is idle.") : m_run->lastError());
        return false;
    }
    return true;
}

bool AgentController::undoCheckpointRevision(qint64 checkpointId)
{
    if (!m_run)
        return false;
    if (!m_run->undoCheckpointRevision(checkpointId)) {
        Q_EMIT notice(m_run->isBusy() ? tr("The edit can be undone when the agent is idle.") : m_run->lastError());
        return false;
    }
    return true;
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
    m_feed->beginTurn();
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
    if (m_readOnly && !m_readOnlyReason.isEmpty())
        return m_readOnlyReason;
    if (m_readOnly && m_recordedTraffic)
        return tr("This session was recorded through the proxy and is read-only. File \u203a Continue Imported Session "
                  "(Ctrl+Shift+N) chooses the folder an agent continues it in and the provider it talks to.");
    if (m_readOnly)
        return tr("This session was imported and is read-only. File \u203a Continue Imported Session (Ctrl+Shift+N) "
                  "chooses the folder an agent continues it in and the provider it talks to.");
    if (!m_openError.isEmpty())
        return tr("This session cannot run an agent: %1").arg(m_openError);
    const ProviderProfile profile = m_provider->profile();
    if (profile.model.trimmed().isEmpty())
        return tr("The provider \u201c%1\u201d has no model set: choose one in Settings (Ctrl+,).").arg(profile.name);
    if (m_provider->connection() == Connection::Unreachable)
        return tr("No model is reachable at %1 (%2). Start the server or pick another provider in Settings (Ctrl+,).")
            .arg(profile.baseUrl.toString(), m_provider->connectionError());
    if (m_opening || !m_run)
        return tr("Opening the session\u2026");
    return {};
}

void AgentController::updatePrompt()
{
    if (!m_prompt)
        return;
    // A read-only import is no fault: its reason is the box's placeholder, not a banner.
    m_prompt->setBlockedReason(blockedReason(), !m_readOnly);
    m_prompt->setRunning(isBusy());
}

// --- the gauge -----------------------------------------------------------------------------------

qint64 AgentController::estimatedTokens() const
{
    return m_run ? m_run->estimatedTokens() : 0;
}

qint64 AgentController::contextWindow() const
{
    return m_run ? m_run->policy().contextWindow : m_provider->profile().effectiveContextWindow();
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

ViewComposition AgentController::nextRequestComposition() const
{
    return m_run ? m_run->nextRequestComposition() : ViewComposition();
}

// --- the run's state -----------------------------------------------------------------------------

void AgentController::onStateChanged()
{
    switch (m_run->state()) {
    case AgentRun::State::WaitingForModel:
    case AgentRun::State::Streaming:
        m_provider->setRunActivity(Connection::Streaming);
        break;
    case AgentRun::State::Retrying:
        m_provider->setRunActivity(Connection::Retrying);
        break;
    default:
        m_provider->setRunActivity(Connection::Unknown);
        break;
    }
    m_provider->setRunBusy(m_run->isBusy());
    updatePrompt();
    Q_EMIT statusChanged();
}

void AgentController::onRequestStored(const RequestRecord &request)
{
    if (request.error.isEmpty())
        m_provider->noteRequestSucceeded();
    if (request.inputTokens)
        m_lastInputTokens = *request.inputTokens;
}

void AgentController::onRunEnded()
{
    // Stopped or failed while a draft waited: the review has nothing left to answer.
    if (m_review && !m_review->isRevision())
        m_review->close();
    Q_EMIT runEnded();
    // A profile chosen while the run was busy applies now.
    m_provider->setRunBusy(isBusy());
}

} // namespace wl
