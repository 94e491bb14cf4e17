#pragma once

#include "compaction/CompactionPolicy.h"
#include "compaction/Tier.h"
#include "conversation/SlashCommand.h"
#include "llm/ProviderProfile.h"
#include "tools/ApprovalPolicy.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

class QTimer;

#include <optional>

namespace wl {

class AgentRun;
class ApiKeyStore;
class BackgroundRunner;
class ChatClient;
class ConversationModel;
class ConversationView;
class PromptInput;
class ProviderCheck;
class SessionStore;
struct ApprovalRequest;
struct ChatError;
struct CompactionRecord;
struct Message;
struct RequestRecord;
struct ToolCall;
struct ToolResult;

// The live agent of the window: owns one AgentRun for the open session and binds it to the
// conversation (streamed text, tool cards, approvals, compaction progress, errors) and the prompt
// (send, stop, slash commands, blocked with a reason while the agent cannot run).
//
// The provider comes from the settings (setProfile); its key is resolved in the background and
// its reachability probed (GET {base}/models). A session's history is read on a worker thread
// with its own database connection, then handed to AgentRun::open(), so opening never blocks.
// Changing the provider while a run is going takes effect when it ends.
class AgentController : public QObject
{
    Q_OBJECT
public:
    enum class Connection { Unknown, Checking, Reachable, Unreachable, Streaming, Retrying };
    Q_ENUM(Connection)

    AgentController(ConversationModel *model, ConversationView *view, PromptInput *prompt, QObject *parent = nullptr);
    ~AgentController() override;

    // The store the run writes to (GUI thread) and its file, which the worker opens for reading.
    void setStore(SessionStore *store, const QString &databasePath);

    // The profiles the settings hold and the default one. A session that names a profile of its
    // own (SessionInfo::providerName) runs on it while it exists, otherwise on the default.
    void setProfiles(const QList<ProviderProfile> &profiles, const ProviderProfile &defaultProfile);
    // Shorthand for setProfiles({profile}, profile).
    void setProfile(const ProviderProfile &profile);
    // The profile the agent runs on now (the session's or the default).
    ProviderProfile profile() const { return m_profile; }
    ProviderProfile defaultProfile() const { return m_defaultProfile; }
    // Why the open session does not run on the profile it names (empty: it does, or names none).
    QString profileNote() const { return m_profileNote; }
    // The profile that writes compaction summaries (docs/COMPACTION.md section 5, step 1); nullopt: the main
    // model writes them. When it fails or cannot be reached the run falls back to the main model,
    // then to the extractive summariser.
    void setSummarizerProfile(const std::optional<ProviderProfile> &profile);
    std::optional<ProviderProfile> summarizerProfile() const { return m_summaryProfile; }
    void setApprovalPolicy(const ApprovalPolicy &policy);
    ApprovalPolicy approvalPolicy() const { return m_approval; }
    // The policy of sessions that have none stored yet (new sessions).
    void setDefaultPolicy(const CompactionPolicy &policy) { m_defaultPolicy = policy; }
    CompactionPolicy defaultPolicy() const { return m_defaultPolicy; }
    // The open session's policy changed (the Thresholds dock applied one).
    void setSessionPolicy(const CompactionPolicy &policy);
    void setTurnLimit(int limit) { m_turnLimit = limit; }
    // How long the probe waits; 0 keeps ProviderCheck's default.
    void setProbeTimeoutMs(int ms);

    // Opens the agent of `sessionId` (empty: none). The conversation rows are the caller's
    // (MainWindow fills them from the loaded session); the agent appends to them from then on.
    void openSession(const QString &sessionId);
    QString sessionId() const { return m_sessionId; }
    AgentRun *run() const { return m_run; }
    bool isOpen() const;
    bool isBusy() const;
    // Why the agent cannot run now (empty: it can).
    QString openError() const { return m_openError; }
    // Set once a command of the open session ran without a sandbox (bubblewrap unavailable and the
    // session allows it): what the status bar says about it. Empty: none did.
    QString unsandboxedNote() const { return m_unsandboxedNote; }

    // Probes the provider again.
    void checkConnection();
    Connection connection() const { return m_connection; }
    QString connectionError() const { return m_connectionError; }
    static QString connectionLabel(Connection connection);

    // The context gauge: the next request's estimate over the window, as its preflight counts it
    // (view, counted tool schemas, reserved output: AgentRun::nextRequestEstimate), and its tier.
    qint64 estimatedTokens() const;
    qint64 contextWindow() const;
    double utilisation() const;
    Tier tier() const;
    // Input tokens the provider reported for the last request (-1: none yet).
    qint64 lastInputTokens() const { return m_lastInputTokens; }

    // What the prompt box says while it is disabled (empty: enabled).
    QString blockedReason() const;

    // The prompt's actions (also reachable from tests and menus).
    bool send(const QString &text);
    void stop();
    bool runCommand(wl::SlashCommand command);
    bool retry();

Q_SIGNALS:
    void connectionChanged(wl::AgentController::Connection connection);
    void statusChanged();                 // gauge, model, connection: the status bar redraws
    void sessionOpened(const QString &sessionId);
    void openFailed(const QString &sessionId, const QString &error);
    // A request, message or compaction was stored: the docks that read the store should refresh.
    void sessionDataChanged();
    void newSessionRequested();           // "/new"
    void notice(const QString &text);     // a one-line message for the status bar
    void runEnded();                      // finished, stopped or failed

private:
    void useProfile(const ProviderProfile &profile);
    ProviderProfile profileForSession(const QString &providerName, QString *note) const;
    bool clientsReady() const;
    void rebuildClient();
    void dropRun();
    void bindRun();
    void updatePrompt();
    void setConnection(Connection connection, const QString &error = {});
    void applyPendingProfile();

    void onStateChanged();
    void onTextDelta(const QString &text);
    void onMessageStored(const wl::Message &message);
    void onApprovalRequested(const wl::ApprovalRequest &request);
    void onToolStarted(const wl::ToolCall &call);
    void onToolFinished(const wl::ToolCall &call, const wl::ToolResult &result, qint64 durationMs);
    void onCompactionStarted(wl::Tier tier, int messages, const QDateTime &started);
    void onCompactionRecorded(const wl::CompactionRecord &record);
    void onRetrying(int attempt, int delayMs, const QString &error);
    void onRequestStored(const wl::RequestRecord &request);
    void onStopped();
    void onFailed(const QString &error);
    void endStream(const QString &suffix = {});
    void addErrorRow(const QString &text);

    ConversationModel *m_model;
    QPointer<ConversationView> m_view;
    QPointer<PromptInput> m_prompt;
    SessionStore *m_store = nullptr;
    QString m_databasePath;

    ProviderProfile m_profile;                          // in use
    ProviderProfile m_defaultProfile;
    QList<ProviderProfile> m_profiles;
    QString m_sessionProviderName;                      // what the open session names
    QString m_profileNote;
    std::optional<ProviderProfile> m_summaryProfile;
    QString m_summaryKey;                               // memory only
    bool m_summaryKeyResolved = false;
    ChatClient *m_summaryClient = nullptr;
    std::optional<ProviderProfile> m_pendingProfile;   // applied when the run is idle
    std::optional<std::optional<ProviderProfile>> m_pendingSummary;
    QString m_noteSessionId;                            // the session m_profileNote was said for
    QString m_key;                                      // memory only
    bool m_keyResolved = false;
    ApprovalPolicy m_approval;
    CompactionPolicy m_defaultPolicy;
    int m_turnLimit = 100;
    ApiKeyStore *m_keys = nullptr;
    ProviderCheck *m_probe = nullptr;
    QTimer *m_recheck = nullptr;
    ChatClient *m_client = nullptr;
    AgentRun *m_run = nullptr;

    QString m_sessionId;
    QString m_openError;
    QString m_unsandboxedNote;
    bool m_opening = false;
    BackgroundRunner *m_reader; // reads the session to open, latest only

    Connection m_connection = Connection::Unknown;
    Connection m_idleConnection = Connection::Unknown;  // what the probe last said
    QString m_connectionError;
    qint64 m_lastInputTokens = -1;

    QString m_streamText;           // the text of the stream in flight, for a stop or failure
    QSet<QString> m_deniedCalls;
    QHash<QString, QString> m_approvalIds;   // call id -> approval row id
    int m_errorCount = 0;
};

} // namespace wl
