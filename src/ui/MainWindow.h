#pragma once

#include <QMainWindow>

#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QSplitter;
class QStackedWidget;

namespace wl {

class AgentController;
class AnchorHistoryModel;
class AnchorItemsModel;
class AppSettings;
class AgentStatusBar;
class LayoutPresets;
class FirstRunPanel;
class SettingsDialog;
class ThemeManager;
class AnchorsPanel;
class CompactionLogModel;
class ComparePoliciesWindow;
class CompactionsPanel;
class ContextPanel;
class PinsBinding;
class CheckpointEditing;
class PinsPanel;
class ConversationModel;
class ConversationView;
class OffloadsPanel;
class ProxyControl;
class ProxyPanel;
class PromptInput;
class SelectionLink;
class SessionLifecycle;
class SessionStore;
class SessionsPanel;
class ThresholdsPanel;
class TimelineModel;
class TimelinePanel;
class WhatIfBinding;
struct CompactionPolicy;
struct LoadedSession;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // The settings the window follows: its own AppSettings (the application's QSettings) unless given one.
    explicit MainWindow(AppSettings *settings, QWidget *parent = nullptr);

    // Default size for a first start, before any saved geometry exists.
    static QSize defaultSize() { return {1400, 900}; }

    QDockWidget *dock(const QString &objectName) const;
    // The layout saved at the last close (AppSettings), else the Default preset for this size.
    void restoreLayout();
    LayoutPresets *layoutPresets() const { return m_layouts.get(); }

    // Which database and session are open, and every change to them (the window shows what it says).
    SessionLifecycle *sessions() const { return m_sessions; }
    // The database the Sessions dock lists (not owned; it must outlive the window).
    void setStore(SessionStore *store, const QString &databasePath);
    QString databasePath() const;
    // Opens the session used last (QSettings), if any; false when there is none.
    bool openLastSession();
    // Builds the bundled demo session once (worker thread, progress in the status bar) and opens it.
    void openDemo();
    // Asks for a workspace folder and starts a new agent session there.
    void newSession();
    // Opens the settings dialog (non-modal for the event loop; one at a time).
    void showSettings();
    // Tools > Compare Policies: the sweep window for the open session; `run`: start the default
    // sweep as soon as the session's scoring is ready (--compare-policies).
    ComparePoliciesWindow *showComparePolicies(bool run = false);
    ComparePoliciesWindow *comparePoliciesWindow() const { return m_compare; }

    // Shows a session loaded elsewhere in every dock (the conversation, timeline, anchors, offloads,
    // context, records), as if the lifecycle had opened it.
    void showSession(const LoadedSession &session);
    // Loads a session of the open database off the GUI thread, then shows it.
    void openSession(const QString &sessionId);
    const LoadedSession &session() const;

    // Imports a transcript of another agent (or a Waterline export) into the open database
    // on a worker thread, with progress and cancel, then opens it.
    void importTranscript(const QString &path);

    // Selects request `index` everywhere: timeline, context, anchors, compactions, offloads, conversation.
    void selectRequest(int index);
    int selectedRequest() const;
    SelectionLink *selection() const { return m_selection; }

    TimelinePanel *timelinePanel() const { return m_timelinePanel; }
    ThresholdsPanel *thresholdsPanel() const { return m_thresholdsPanel; }
    AnchorsPanel *anchorsPanel() const { return m_anchorsPanel; }
    ContextPanel *contextPanel() const { return m_contextPanel; }
    CompactionsPanel *compactionsPanel() const { return m_compactionsPanel; }
    OffloadsPanel *offloadsPanel() const { return m_offloadsPanel; }
    ProxyControl *proxy() const { return m_proxy; }
    SessionsPanel *sessionsPanel() const { return m_sessionsPanel; }
    ConversationModel *conversationModel() const { return m_conversationModel; }
    ConversationView *conversationView() const { return m_conversationView; }
    PromptInput *promptInput() const { return m_prompt; }
    AgentController *agent() const { return m_agent; }
    // Edits of past checkpoints (made on first use, after the agent controller).
    CheckpointEditing *checkpointEditing();
    AppSettings *appSettings() const { return m_settings; }
    FirstRunPanel *firstRunPanel() const { return m_firstRun; }
    QStackedWidget *centralStack() const { return m_centralStack; }
    SettingsDialog *settingsDialog() const;
    // True while the central area shows the first-run panel rather than the conversation.
    bool showsFirstRun() const;

Q_SIGNALS:
    void sessionShown();
    // The docks were refreshed from the store after the live agent stored something.
    void sessionRefreshed();
    void demoFailed(const QString &error);
    void importFinished(const QString &sessionId, const QString &error);
    void policyApplied(const wl::CompactionPolicy &policy);

protected:
    void closeEvent(QCloseEvent *event) override;
    // Tab and Shift+Tab in reading order, past docks hidden behind a tab (FocusOrder).
    bool focusNextPrevChild(bool next) override;
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void init();
    void createActions();
    void createCentralArea();
    void createDocks();
    QDockWidget *addPanelDock(const char *objectName, QWidget *panel, Qt::DockWidgetArea area);
    void connectSessions();
    void onSessionOpened(const LoadedSession &session);
    void onSessionRefreshed(const LoadedSession &session);
    void onStoreChanged();
    void updateTitle();
    void updateSessionStatus();
    void setIcons();
    void showDocks(const LoadedSession &session);
    // The open session's title in the title bar and the status bar.
    void applySetting(int key);
    void updateCentralPage();
    void onFirstRunReachable(bool reachable);
    void updateNewSessionDefaults();
    void linkSelection();
    void saveLayout() const;
    void fitDefaultLayout();
    void showAbout();
    void chooseTranscript();

    std::unique_ptr<LayoutPresets> m_layouts;
    // No saved layout: Default follows the window's size until it settles after the first show.
    bool m_defaultLayoutPending = false;
    AppSettings *m_settings = nullptr;
    SessionLifecycle *m_sessions = nullptr;
    ThemeManager *m_theme = nullptr;
    AgentController *m_agent = nullptr;
    QStackedWidget *m_centralStack = nullptr;
    FirstRunPanel *m_firstRun = nullptr;
    QWidget *m_conversationArea = nullptr;
    QSplitter *m_conversationSplitter = nullptr;
    SettingsDialog *m_settingsDialog = nullptr;
    ComparePoliciesWindow *m_compare = nullptr;
    AgentStatusBar *m_agentStatus = nullptr;
    SelectionLink *m_selection = nullptr;

    WhatIfBinding *m_whatIf = nullptr;
    TimelineModel *m_timelineModel = nullptr;
    AnchorHistoryModel *m_anchorModel = nullptr;
    AnchorItemsModel *m_anchorItemsModel = nullptr;
    CompactionLogModel *m_compactionModel = nullptr;
    ConversationModel *m_conversationModel = nullptr;

    ConversationView *m_conversationView = nullptr;
    PromptInput *m_prompt = nullptr;
    TimelinePanel *m_timelinePanel = nullptr;
    ThresholdsPanel *m_thresholdsPanel = nullptr;
    AnchorsPanel *m_anchorsPanel = nullptr;
    OffloadsPanel *m_offloadsPanel = nullptr;
    ContextPanel *m_contextPanel = nullptr;
    CompactionsPanel *m_compactionsPanel = nullptr;
    ProxyControl *m_proxy = nullptr;
    ProxyPanel *m_proxyPanel = nullptr;
    PinsPanel *m_pinsPanel = nullptr;
    PinsBinding *m_pins = nullptr;
    CheckpointEditing *m_checkpointEditing = nullptr;
    QLabel *m_statusSession = nullptr;
    SessionsPanel *m_sessionsPanel = nullptr;
    QAction *m_continueAction = nullptr;
    qsizetype m_transcriptSize = 0; // messages of the shown session in the conversation
    QDockWidget *m_sessionsDock = nullptr;
};

} // namespace wl
