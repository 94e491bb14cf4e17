#pragma once

#include "compaction/ViewComposition.h"

#include "ProviderConnection.h"
#include "compaction/CompactionPolicy.h"
#include "compaction/Tier.h"
#include "conversation/SlashCommand.h"
#include "llm/ProviderProfile.h"
#include "tools/ApprovalPolicy.h"

#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>

namespace wl {

class AgentRun;
class AppSettings;
class SummaryReviewDialog;
struct Anchors;
struct Checkpoint;
struct SummaryDraft;
class BackgroundRunner;
class ConversationFeed;
class ConversationModel;
class ConversationView;
class PromptInput;
class SessionStore;
struct RequestRecord;

// The live agent of the window: opens one AgentRun for the open session and drives it from the
// prompt (send, stop, slash commands, blocked with a reason while the agent cannot run). Its two
// helpers do the rest: ProviderConnection chooses the profile, resolves keys, builds the clients
// and probes reachability; ConversationFeed turns the run's signals into conversation rows.
//
// A session's history is read on a worker thread with its own database connection, then handed
// to AgentRun::open(), so opening never blocks. Changing the provider while a run is going takes
// effect when it ends.
class AgentController : public QObject
{
    Q_OBJECT
public:
    using Connection = ProviderConnection::Connection;

    AgentController(ConversationModel *model, ConversationView *view, PromptInput *prompt, QObject *parent = nullptr);
    ~AgentController() override;

    // The store the run writes to (GUI thread) and its file, which the worker opens for reading.
    void setStore(SessionStore *store, const QString &databasePath);

    // The provider side: profiles, keys, clients, reachability.
    ProviderConnection *provider() const { return m_provider; }
    // The profiles the settings hold and the default one. A session that names a profile of its
    // own (SessionInfo::providerName) runs on it while it exists, otherwise on the default.
    void setProfiles(const QList<ProviderProfile> &profiles, const ProviderProfile &defaultProfile);
    // Shorthand for setProfiles({profile}, profile).
    void setProfile(const ProviderProfile &profile);
    // The profile the agent runs on now (the session's or the default).
    ProviderProfile profile() const { return m_provider->profile(); }
    ProviderProfile defaultProfile() const { return m_provider->defaultProfile(); }
    // Why the open session does not run on the profile it names (empty: it does, or names none).
    QString profileNote() const { return m_profileNote; }
    // The profile that writes compaction summaries (docs/COMPACTION.md section 5, step 1); nullopt: the main
    // model writes them. When it fails or cannot be reached the run falls back to the main model,
    // then to the extractive summariser.
    void setSummarizerProfile(const std::optional<ProviderProfile> &profile) { m_provider->setSummarizerProfile(profile); }
    std::optional<ProviderProfile> summarizerProfile() const { return m_provider->summarizerProfile(); }
    void setApprovalPolicy(const ApprovalPolicy &policy);
    ApprovalPolicy approvalPolicy() const { return m_approval; }
    // The policy of sessions that have none stored yet (new sessions).
    void setDefaultPolicy(const CompactionPolicy &policy) { m_defaultPolicy = policy; }
    CompactionPolicy defaultPolicy() const { return m_defaultPolicy; }
    // The open session's policy changed (the Thresholds dock applied one).
    void setSessionPolicy(const CompactionPolicy &policy);
    void setTurnLimit(int limit) { m_turnLimit = limit; }
    // Takes the profiles, the summariser, the approval policy, the default compaction policy and the
    // turn limit from `settings` now and whenever they change (the settings must outlive this).
    void followSettings(AppSettings *settings);
    // How long the probe waits; 0 keeps ProviderCheck's default.
    void setProbeTimeoutMs(int ms) { m_provider->setProbeTimeoutMs(ms); }

    // Opens the agent of `sessionId` (empty: none). The conversation rows are the caller's
    // (MainWindow fills them from the loaded session); the agent appends to them from then on.
    void openSession(const QString &sessionId);
    // A session of another database than setStore's (the demo's): nothing runs on it, and the
    // prompt says `reason`.
    void openReadOnly(const QString &sessionId, const QString &reason);
    QString sessionId() const { return m_sessionId; }
    AgentRun *run() const { return m_run; }
    bool isOpen() const;
    bool isBusy() const;
    // Why the agent cannot run now (empty: it can).
    QString openError() const { return m_openError; }
    // Set once a command of the open session ran without a sandbox (bubblewrap unavailable and the
    // session allows it): what the status bar says about it. Empty: none did.
    QString unsandboxedNote() const;

    // Probes the provider again.
    void checkConnection() { m_provider->checkConnection(); }
    Connection connection() const { return m_provider->connection(); }
    QString connectionError() const { return m_provider->connectionError(); }
    static QString connectionLabel(Connection connection) { return ProviderConnection::connectionLabel(connection); }

    // The context gauge: the next request's estimate over the window, as its preflight counts it
    // (view, counted tool schemas, reserved output: AgentRun::nextRequestEstimate), and its tier.
    qint64 estimatedTokens() const;
    qint64 contextWindow() const;
    double utilisation() const;
    Tier tier() const;
    // The next request by category (empty while no session runs).
    ViewComposition nextRequestComposition() const;
    // Input tokens the provider reported for the last request (-1: none yet).
    qint64 lastInputTokens() const { return m_lastInputTokens; }

    // What the prompt box says while it is disabled (empty: enabled).
    QString blockedReason() const;

    // The prompt's actions (also reachable from tests and menus).
    bool send(const QString &text);
    void stop();
    bool runCommand(wl::SlashCommand command);
    bool retry();

    // Review of summaries (issue #22 items 7, 8). While a draft waits, the review dialog is open
    // beside the window (reviewDialog()); its answer goes to the run.
    SummaryReviewDialog *reviewDialog() const;
    // A new version of a checkpoint of the open session (CheckpointEditing opens the editor), and
    // the undo of the newest; false (with a notice) while the agent is busy.
    bool reviseCheckpoint(qint64 checkpointId, const wl::Anchors &anchors, const QString &summary);
    bool undoCheckpointRevision(qint64 checkpointId);

Q_SIGNALS:
    void connectionChanged(wl::ProviderConnection::Connection connection);
    void statusChanged();                 // gauge, model, connection: the status bar redraws
    void sessionOpened(const QString &sessionId);
    void openFailed(const QString &sessionId, const QString &error);
    // A request, message or compaction was stored: the docks that read the store should refresh.
    void sessionDataChanged();
    void newSessionRequested();           // "/new"
    void notice(const QString &text);     // a one-line message for the status bar
    void runEnded();                      // finished, stopped or failed

private:
    struct SessionRead;
    // Reads the session on the worker; sessionRead() continues on the GUI thread.
    void readSession(const QString &sessionId);
    void sessionRead(const QString &sessionId, SessionRead &read, const QString &error);
    // Builds the run of a session that was read, on the profile it runs on.
    void startRun(const QString &sessionId, SessionRead &read);
    void onClientsChanged();
    void dropRun();
    void updatePrompt();
    void onStateChanged();
    void onRequestStored(const wl::RequestRecord &request);
    void onRunEnded();
    void openReview(const wl::SummaryDraft &draft);
    SummaryReviewDialog *makeDialog();

    ProviderConnection *m_provider;
    ConversationFeed *m_feed;
    QPointer<PromptInput> m_prompt;
    QPointer<ConversationView> m_view;
    QPointer<SummaryReviewDialog> m_review;
    SessionStore *m_store = nullptr;
    QString m_databasePath;

    QString m_sessionProviderName;                      // what the open session names
    QString m_profileNote;
    QString m_noteSessionId;                            // the session m_profileNote was said for
    ApprovalPolicy m_approval;
    CompactionPolicy m_defaultPolicy;
    int m_turnLimit = 100;
    AgentRun *m_run = nullptr;

    QString m_sessionId;
    bool m_readOnly = false; // the open session is an import not continued yet
    bool m_recordedTraffic = false; // that import is an agent's traffic recorded by the proxy
    QString m_readOnlyReason;       // openReadOnly's
    QString m_openError;
    bool m_opening = false;
    BackgroundRunner *m_reader; // reads the session to open, latest only
    BackgroundRunner *m_writes; // the controller's own store writes, in order
    qint64 m_lastInputTokens = -1;
};

} // namespace wl
