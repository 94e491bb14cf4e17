#include "MainWindow.h"

#include "AboutDialog.h"
#include "DockPanels.h"
#include "WhatIfBinding.h"
#include "anchors/AnchorHistoryModel.h"
#include "anchors/AnchorItemsModel.h"
#include "common/AppIcons.h"
#include "anchors/AnchorsPanel.h"
#include "compactions/CompactionLogModel.h"
#include "compactions/CompactionsPanel.h"
#include "context/ContextModels.h"
#include "context/ContextPanel.h"
#include "conversation/ConversationModel.h"
#include "conversation/ConversationView.h"
#include "conversation/PromptInput.h"
#include "offloads/OffloadListModel.h"
#include "offloads/OffloadsPanel.h"
#include "proxy/ProxyControl.h"
#include "proxy/ProxyPanel.h"
#include "pins/PinsBinding.h"
#include "review/CheckpointEditing.h"
#include "pins/PinsPanel.h"
#include "sessions/SessionListModel.h"
#include "sessions/SessionsPanel.h"
#include "compare/ComparePoliciesWindow.h"
#include "thresholds/PolicyScoreView.h"
#include "thresholds/ThresholdsPanel.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelinePanel.h"
#include "settings/AppSettings.h"
#include "settings/FirstRunPanel.h"
#include "settings/SettingsDialog.h"
#include "settings/ThemeManager.h"
#include "workbench/AgentController.h"
#include "workbench/AgentStatusBar.h"
#include "workbench/FocusOrder.h"
#include "workbench/LayoutPresets.h"
#include "workbench/LoadedSession.h"
#include "workbench/SelectionLink.h"
#include "workbench/SessionLifecycle.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeData>
#include <QLocale>
#include <QProgressBar>
#include <QProgressDialog>
#include <QScreen>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr int kStateVersion = 2;

QString explanationFor(const char *objectName)
{
    for (const DockPanel &panel : dockPanels())
        if (qstrcmp(panel.objectName, objectName) == 0)
            return panel.explanation;
    return {};
}

// A standard key's bindings on this platform, and `fallback` where the platform has none or
// another (Quit has no binding on Windows, Preferences only on macOS).
QList<QKeySequence> standardKeys(QKeySequence::StandardKey key, const QKeySequence &fallback)
{
    QList<QKeySequence> keys = QKeySequence::keyBindings(key);
    if (!keys.contains(fallback))
        keys.append(fallback);
    return keys;
}

// View > Layout: the presets by their initial, Reset Layout by R.
QKeySequence layoutShortcut(LayoutPresets::Preset preset)
{
    switch (preset) {
    case LayoutPresets::Preset::Default: return QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R);
    case LayoutPresets::Preset::Tune: return QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T);
    case LayoutPresets::Preset::Converse: return QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C);
    case LayoutPresets::Preset::Inspect: return QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I);
    }
    return {};
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : MainWindow(nullptr, parent)
{
}

MainWindow::MainWindow(AppSettings *settings, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings ? settings : new AppSettings(this))
{
    init();
}

void MainWindow::init()
{
    setObjectName(u"MainWindow"_s);
    setWindowTitle(tr("Waterline"));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    setAcceptDrops(true);

    m_theme = new ThemeManager(this);
    m_theme->follow(m_settings);
    m_sessions = new SessionLifecycle(this);
    m_timelineModel = new TimelineModel(this);
    m_anchorModel = new AnchorHistoryModel(this);
    m_anchorItemsModel = new AnchorItemsModel(this);
    m_compactionModel = new CompactionLogModel(this);
    m_conversationModel = new ConversationModel(this);

    createCentralArea();
    createActions();
    createDocks();
    setIcons();

    m_statusSession = new QLabel(tr("No session open"), this);
    m_statusSession->setObjectName(u"SessionStatus"_s);
    statusBar()->addWidget(m_statusSession, 1);
    // Within the screen on a small one (a 1280x720 laptop), until a saved geometry says otherwise.
    resize(screen() ? defaultSize().boundedTo(screen()->availableSize()) : defaultSize());

    // The live agent, configured from the settings and following their changes.
    m_agent = new AgentController(m_conversationModel, m_conversationView, m_prompt, this);
    m_agentStatus = new AgentStatusBar(m_agent, statusBar());
    m_agentStatus->setObjectName(u"AgentStatusBar"_s);
    m_agent->followSettings(m_settings); // before the window's own reaction below
    connect(m_settings, &AppSettings::changed, this, [this](AppSettings::Key key) { applySetting(int(key)); });
    connect(m_agent, &AgentController::connectionChanged, this, &MainWindow::updateCentralPage);
    connect(m_agent, &AgentController::notice, this, [this](const QString &text) { statusBar()->showMessage(text, 6000); });
    connect(m_agent, &AgentController::newSessionRequested, this, &MainWindow::newSession);
    connect(m_agent, &AgentController::sessionDataChanged, m_sessions, &SessionLifecycle::scheduleRefresh);
    connect(m_agent, &AgentController::runEnded, m_sessions, &SessionLifecycle::scheduleRefresh);
    connect(m_agent, &AgentController::openFailed, this, [this](const QString &, const QString &error) {
        statusBar()->showMessage(tr("The agent cannot run in this session: %1").arg(error), 8000);
    });
    connectSessions();
    m_firstRun->setProfile(m_settings->defaultProfile());
    m_agentStatus->update();
    updateCentralPage();
    if (showsFirstRun())
        m_firstRun->checkAgain();
}

MainWindow::~MainWindow() = default;

const LoadedSession &MainWindow::session() const
{
    return m_sessions->session();
}

QString MainWindow::databasePath() const
{
    return m_sessions->databasePath();
}

void MainWindow::connectSessions()
{
    connect(m_sessions, &SessionLifecycle::storeChanged, this, &MainWindow::onStoreChanged);
    connect(m_sessions, &SessionLifecycle::opening, this, [this](const QString &sessionId) {
        m_statusSession->setText(tr("Opening session %1...").arg(sessionId));
    });
    connect(m_sessions, &SessionLifecycle::opened, this, &MainWindow::onSessionOpened);
    connect(m_sessions, &SessionLifecycle::refreshed, this, &MainWindow::onSessionRefreshed);
    connect(m_sessions, &SessionLifecycle::openFailed, this, [this](const QString &sessionId, const QString &error) {
        m_statusSession->setText(tr("Could not open session %1").arg(sessionId));
        QMessageBox::warning(this, tr("Could not open the session"), error);
    });
    connect(m_sessions, &SessionLifecycle::refreshFailed, this, [this](const QString &error) {
        statusBar()->showMessage(tr("Could not refresh the docks: %1").arg(error), 6000);
    });
    connect(m_sessions, &SessionLifecycle::demoSessionsMoved, this, [this](int count, const QString &error) {
        QString text;
        if (count > 0)
            text = tr("%n session(s) kept in the demo's database by an older Waterline moved to your sessions.", nullptr, count);
        if (!error.isEmpty())
            text += (text.isEmpty() ? QString() : u" "_s) + error;
        statusBar()->showMessage(text, 15000);
    });
    connect(m_sessions, &SessionLifecycle::abandonedImportsRemoved, this, [this](int count) {
        statusBar()->showMessage(tr("%n import(s) interrupted in an earlier run removed; import the file again to have it.", nullptr, count), 10000);
    });
    connect(m_sessions, &SessionLifecycle::listFailed, this, [this](const QString &error) {
        statusBar()->showMessage(tr("Could not list the sessions: %1").arg(error), 8000);
    });
    connect(m_sessions, &SessionLifecycle::sessionRenamed, this, [this](const QString &id, const QString &) {
        if (id == session().info.id)
            updateTitle();
    });
    connect(m_sessions, &SessionLifecycle::policyApplied, this, [this](const CompactionPolicy &policy) {
        m_thresholdsPanel->setSessionPolicy(policy);
        m_agent->setSessionPolicy(policy);
        m_compactionsPanel->setReviewSummaries(policy.reviewSummaries);
        statusBar()->showMessage(tr("The session now compacts with the new policy."), 4000);
        Q_EMIT policyApplied(policy);
    });
    connect(m_sessions, &SessionLifecycle::writeFailed, this,
            [this](SessionLifecycle::Write write, const QString &, const QString &error) {
        if (write != SessionLifecycle::Write::Policy)
            return; // the Sessions dock says it
        QMessageBox::warning(this, tr("Could not apply the policy"), error);
        m_thresholdsPanel->setSessionPolicy(session().policy);
        m_compactionsPanel->setReviewSummaries(session().policy.reviewSummaries);
    });
}

void MainWindow::createCentralArea()
{
    m_centralStack = new QStackedWidget(this);
    m_centralStack->setObjectName(u"CentralStack"_s);

    m_firstRun = new FirstRunPanel(m_centralStack);
    m_centralStack->addWidget(m_firstRun);

    m_conversationArea = new QWidget(m_centralStack);
    m_conversationArea->setObjectName(u"ConversationArea"_s);
    m_conversationView = new ConversationView(m_conversationArea);
    m_conversationView->setModel(m_conversationModel);
    m_prompt = new PromptInput(m_conversationArea);
    // The conversation gets the room; the prompt keeps a few lines and can be dragged taller.
    m_conversationSplitter = new QSplitter(Qt::Vertical, m_conversationArea);
    m_conversationSplitter->setObjectName(u"ConversationSplitter"_s);
    m_conversationSplitter->setChildrenCollapsible(false);
    m_conversationSplitter->addWidget(m_conversationView);
    m_conversationSplitter->addWidget(m_prompt);
    m_conversationSplitter->setStretchFactor(0, 1);
    m_conversationSplitter->setStretchFactor(1, 0);
    m_conversationSplitter->setSizes({600, 110});
    auto *layout = new QVBoxLayout(m_conversationArea);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_conversationSplitter);
    m_centralStack->addWidget(m_conversationArea);
    setCentralWidget(m_centralStack);

    connect(m_firstRun, &FirstRunPanel::settingsRequested, this, &MainWindow::showSettings);
    connect(m_firstRun, &FirstRunPanel::demoRequested, this, &MainWindow::openDemo);
    connect(m_firstRun, &FirstRunPanel::importRequested, this, &MainWindow::chooseTranscript);
    connect(m_firstRun, &FirstRunPanel::providerReachable, this, &MainWindow::onFirstRunReachable);
}

bool MainWindow::showsFirstRun() const
{
    return m_centralStack->currentWidget() == m_firstRun;
}

void MainWindow::updateCentralPage()
{
    // A session shows its conversation whatever the provider does (the prompt says why it waits);
    // without one, the first-run panel until a model answers.
    const bool reachable = m_agent && (m_agent->connection() == AgentController::Connection::Reachable
                                       || m_agent->connection() == AgentController::Connection::Streaming
                                       || m_agent->connection() == AgentController::Connection::Retrying);
    QWidget *page = (!session().isEmpty() || reachable) ? m_conversationArea : static_cast<QWidget *>(m_firstRun);
    if (m_centralStack->currentWidget() == page)
        return;
    m_centralStack->setCurrentWidget(page);
    if (page == m_firstRun && m_firstRun->state() == FirstRunPanel::State::NotChecked)
        m_firstRun->checkAgain();
}

void MainWindow::onFirstRunReachable(bool reachable)
{
    if (!reachable)
        return;
    // The address the user confirmed becomes the default profile's, with a model the server offers.
    ProviderProfile profile = m_firstRun->profile();
    const QStringList models = m_firstRun->models();
    if (!models.isEmpty() && !models.contains(profile.model))
        profile.model = models.constFirst();
    if (profile == m_settings->defaultProfile()) {
        m_agent->checkConnection();
        return;
    }
    QList<ProviderProfile> profiles = m_settings->profiles();
    bool replaced = false;
    for (ProviderProfile &p : profiles) {
        if (p.name == profile.name) {
            p = profile;
            replaced = true;
        }
    }
    if (!replaced)
        profiles.prepend(profile);
    QString error;
    if (!m_settings->setProfiles(profiles, &error)) {
        statusBar()->showMessage(tr("Could not save the provider: %1").arg(error), 8000);
        return;
    }
    m_settings->setDefaultProfileName(profile.name); // the agent follows the settings
}

void MainWindow::applySetting(int key)
{
    // What the window itself shows of a setting; the agent follows the settings on its own.
    switch (AppSettings::Key(key)) {
    case AppSettings::Key::ProviderProfiles:
    case AppSettings::Key::DefaultProfile:
        m_firstRun->setProfile(m_settings->defaultProfile());
        updateNewSessionDefaults();
        if (showsFirstRun())
            m_firstRun->checkAgain();
        break;
    case AppSettings::Key::CompactionPolicy:
        updateNewSessionDefaults();
        break;
    case AppSettings::Key::Language:
        statusBar()->showMessage(tr("The new language is used from the next start of Waterline."), 8000);
        break;
    default:
        break;
    }
    m_agentStatus->update();
}

SettingsDialog *MainWindow::settingsDialog() const
{
    return m_settingsDialog;
}

void MainWindow::showSettings()
{
    if (!m_settingsDialog) {
        m_settingsDialog = new SettingsDialog(m_settings, this);
        m_settingsDialog->setThemeManager(m_theme);
        m_settingsDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_settingsDialog, &QObject::destroyed, this, [this] { m_settingsDialog = nullptr; });
    }
    m_settingsDialog->open();
    m_settingsDialog->raise();
    m_settingsDialog->activateWindow();
}

void MainWindow::newSession()
{
    if (!m_sessionsPanel) {
        QMessageBox::warning(this, tr("New session"), tr("No session database is open."));
        return;
    }
    m_sessionsPanel->newSessionDialog();
}

void MainWindow::createActions()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->setObjectName(u"FileMenu"_s);
    QAction *import = fileMenu->addAction(QIcon::fromTheme(u"document-import"_s), tr("&Import Transcript..."));
    import->setObjectName(u"ImportAction"_s);
    import->setShortcuts(standardKeys(QKeySequence::Open, QKeySequence(Qt::CTRL | Qt::Key_I)));
    import->setToolTip(tr("Import a session of Claude Code, Codex, SWE-agent, OpenHands, OpenAI Chat messages or a Waterline export"));
    connect(import, &QAction::triggered, this, &MainWindow::chooseTranscript);
    QAction *newSessionAction = fileMenu->addAction(QIcon::fromTheme(u"document-new"_s), tr("&New Session..."));
    newSessionAction->setObjectName(u"NewSessionAction"_s);
    newSessionAction->setShortcut(QKeySequence::New);
    newSessionAction->setToolTip(tr("Start an agent session in a workspace folder"));
    connect(newSessionAction, &QAction::triggered, this, &MainWindow::newSession);
    m_continueAction = fileMenu->addAction(QIcon::fromTheme(u"media-playback-start"_s), tr("&Continue Imported Session..."));
    m_continueAction->setObjectName(u"ContinueImportAction"_s);
    m_continueAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_N);
    m_continueAction->setToolTip(tr("Choose the folder and provider an imported session continues with"));
    m_continueAction->setEnabled(false);
    connect(m_continueAction, &QAction::triggered, this, [this] {
        if (m_sessionsPanel)
            m_sessionsPanel->continueDialog(session().info.id);
    });
    QAction *demoAction = fileMenu->addAction(tr("Open the &Demo Session"));
    demoAction->setObjectName(u"DemoAction"_s);
    demoAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_D);
    connect(demoAction, &QAction::triggered, this, &MainWindow::openDemo);
    fileMenu->addSeparator();
    QAction *settingsAction = fileMenu->addAction(QIcon::fromTheme(u"preferences-system"_s), tr("&Settings..."));
    settingsAction->setObjectName(u"SettingsAction"_s);
    settingsAction->setShortcuts(standardKeys(QKeySequence::Preferences, QKeySequence(Qt::CTRL | Qt::Key_Comma)));
    settingsAction->setMenuRole(QAction::PreferencesRole);
    connect(settingsAction, &QAction::triggered, this, &MainWindow::showSettings);
    fileMenu->addSeparator();
    QAction *quit = fileMenu->addAction(tr("&Quit"));
    quit->setObjectName(u"QuitAction"_s);
    quit->setShortcuts(standardKeys(QKeySequence::Quit, QKeySequence(Qt::CTRL | Qt::Key_Q)));
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->setObjectName(u"ViewMenu"_s);

    QMenu *toolsMenu = menuBar()->addMenu(tr("&Tools"));
    toolsMenu->setObjectName(u"ToolsMenu"_s);
    QAction *compare = toolsMenu->addAction(tr("&Compare Policies..."));
    compare->setObjectName(u"ComparePoliciesAction"_s);
    compare->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_P);
    compare->setToolTip(tr("Replay a grid of policies over the open session and compare what each loses and costs"));
    connect(compare, &QAction::triggered, this, [this] { showComparePolicies(); });

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *about = helpMenu->addAction(tr("&About Waterline"));
    about->setObjectName(u"AboutAction"_s);
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);
    QAction *aboutQt = helpMenu->addAction(tr("About &Qt"));
    aboutQt->setObjectName(u"AboutQtAction"_s);
    aboutQt->setMenuRole(QAction::AboutQtRole);
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

QDockWidget *MainWindow::addPanelDock(const char *objectName, QWidget *panel, Qt::DockWidgetArea area)
{
    QString title;
    for (const DockPanel &p : dockPanels())
        if (qstrcmp(p.objectName, objectName) == 0)
            title = p.title;
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(QString::fromLatin1(objectName));
    dock->setWidget(panel ? panel : makeExplanationPanel(explanationFor(objectName), dock));
    addDockWidget(area, dock);
    // View > <dock> shows the dock and brings it to the front (Qt's toggle action would hide a dock
    // that is open behind another tab); Alt+1, Alt+2, ... in menu order. The dock's own close
    // button hides it.
    if (auto *viewMenu = findChild<QMenu *>(u"ViewMenu"_s)) {
        QAction *show = viewMenu->addAction(title);
        show->setObjectName(QString::fromLatin1(objectName) + u"Action"_s);
        const int position = int(viewMenu->actions().size());
        if (position <= 9)
            show->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_0 + position)));
        show->setToolTip(tr("Show the %1 dock and bring it to the front").arg(title));
        connect(show, &QAction::triggered, dock, [dock] {
            dock->show();
            dock->raise();
            if (dock->widget())
                dock->widget()->setFocus(Qt::ShortcutFocusReason);
        });
    }
    return dock;
}

void MainWindow::setIcons()
{
    // The icon theme's where it has them, the bundled set otherwise (AppIcons).
    using AppIcons::Icon;
    const std::pair<const char16_t *, Icon> actions[] = {
        {u"NewSessionAction", Icon::NewSession}, {u"ImportAction", Icon::Import},
        {u"ContinueImportAction", Icon::Run},    {u"DemoAction", Icon::Demo},
        {u"SettingsAction", Icon::Settings},
    };
    for (const auto &[name, icon] : actions) {
        if (auto *action = findChild<QAction *>(QString::fromUtf16(name)))
            action->setIcon(AppIcons::icon(icon));
    }
    for (const DockPanel &panel : dockPanels()) {
        const QString name = QString::fromLatin1(panel.objectName);
        const QIcon icon = AppIcons::dockIcon(name);
        if (auto *dock = findChild<QDockWidget *>(name)) {
            dock->setWindowIcon(icon);
            dock->toggleViewAction()->setIcon(icon);
        }
        if (auto *show = findChild<QAction *>(name + u"Action"_s))
            show->setIcon(icon);
    }
    // The docks' Export buttons ("TimelineExportButton", ...): icon and text.
    const auto buttons = findChildren<QToolButton *>();
    for (QToolButton *button : buttons) {
        if (button->objectName().endsWith(u"ExportButton")) {
            button->setIcon(AppIcons::icon(Icon::Export));
            button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        }
    }
}

void MainWindow::createDocks()
{
    m_timelinePanel = new TimelinePanel(m_timelineModel, this);
    m_timelinePanel->setSettings(m_settings);
    m_thresholdsPanel = new ThresholdsPanel(this);
    m_anchorsPanel = new AnchorsPanel(m_anchorModel, m_anchorItemsModel, this);
    m_offloadsPanel = new OffloadsPanel(this);
    m_contextPanel = new ContextPanel(this);
    m_compactionsPanel = new CompactionsPanel(m_compactionModel, this);
    // The session's pins under what the selected request sent: both are "what the model sees".
    m_pinsPanel = new PinsPanel(this);
    auto *contextArea = new QSplitter(Qt::Vertical, this);
    contextArea->setObjectName(u"ContextPinsSplitter"_s);
    contextArea->addWidget(m_contextPanel);
    contextArea->addWidget(m_pinsPanel);
    contextArea->setStretchFactor(0, 3);
    contextArea->setStretchFactor(1, 1);
    contextArea->setSizes({300, 100}); // shares: a quarter for the pins whatever the dock's height

    m_sessionsDock = addPanelDock("SessionsDock", nullptr, Qt::LeftDockWidgetArea);
    m_sessionsDock->setMinimumWidth(200);
    QDockWidget *timeline = addPanelDock("TimelineDock", m_timelinePanel, Qt::BottomDockWidgetArea);
    QDockWidget *thresholds = addPanelDock("ThresholdsDock", m_thresholdsPanel, Qt::RightDockWidgetArea);
    QDockWidget *anchors = addPanelDock("AnchorsDock", m_anchorsPanel, Qt::RightDockWidgetArea);
    QDockWidget *offloads = addPanelDock("OffloadsDock", m_offloadsPanel, Qt::RightDockWidgetArea);
    QDockWidget *context = addPanelDock("ContextDock", contextArea, Qt::RightDockWidgetArea);
    QDockWidget *compactions = addPanelDock("CompactionsDock", m_compactionsPanel, Qt::BottomDockWidgetArea);
    m_proxy = new ProxyControl(m_settings, this);
    // Compact mode compacts under what the Thresholds dock's sliders show, as they move.
    m_proxy->setCompactPolicy(m_thresholdsPanel->policy());
    connect(m_thresholdsPanel, &ThresholdsPanel::policyEdited, m_proxy, &ProxyControl::setCompactPolicy);
    m_proxyPanel = new ProxyPanel(m_proxy, this);
    // Sessions recorded from the proxy's traffic show up as they grow: the list, and the open
    // session's timeline and docks when it is the one recorded.
    connect(m_proxy, &ProxyControl::sessionRecorded, this, [this](const QString &sessionId) {
        if (m_proxy->databasePath() != m_sessions->databasePath())
            return;
        m_sessions->listSessions();
        if (m_sessions->session().info.id == sessionId)
            m_sessions->scheduleRefresh();
    });
    connect(m_proxy, &ProxyControl::recordFailed, this, [this](const QString &error) {
        statusBar()->showMessage(tr("The proxy could not record a request: %1").arg(error), 8000);
    });
    QDockWidget *proxyDock = addPanelDock("ProxyDock", m_proxyPanel, Qt::BottomDockWidgetArea);
    m_layouts = std::make_unique<LayoutPresets>(
        this, LayoutPresets::Docks{m_sessionsDock, timeline, thresholds, anchors, offloads, context, compactions});
    m_layouts->apply(LayoutPresets::Preset::Default);
    // The proxy (for watching other agents) is a tab behind the timeline and compactions: tabbed
    // after the preset, which regroups those two. The presets leave it where the user put it.
    tabifyDockWidget(compactions, proxyDock);
    timeline->raise();
    // View > Layout: the presets and Reset, after the docks (whose Alt+digit keys count the menu).
    if (auto *viewMenu = findChild<QMenu *>(u"ViewMenu"_s)) {
        viewMenu->addSeparator();
        QMenu *layoutMenu = viewMenu->addMenu(tr("&Layout"));
        layoutMenu->setObjectName(u"LayoutMenu"_s);
        for (const LayoutPresets::Preset preset : LayoutPresets::presets()) {
            QAction *action = layoutMenu->addAction(LayoutPresets::name(preset));
            action->setObjectName(LayoutPresets::name(preset) + u"LayoutAction"_s);
            action->setShortcut(layoutShortcut(preset));
            connect(action, &QAction::triggered, this, [this, preset] { m_layouts->apply(preset); });
        }
        layoutMenu->addSeparator();
        QAction *reset = layoutMenu->addAction(tr("&Reset Layout"));
        reset->setObjectName(u"ResetLayoutAction"_s);
        reset->setShortcut(layoutShortcut(LayoutPresets::Preset::Default));
        reset->setToolTip(tr("Put every dock back where it starts, sized to this window"));
        connect(reset, &QAction::triggered, this, [this] { m_layouts->apply(LayoutPresets::Preset::Default); });
    }

    m_whatIf = new WhatIfBinding(m_thresholdsPanel, m_timelineModel, this);
    linkSelection();
    connect(m_conversationView, &ConversationView::offloadActivated, this, [this, offloads](const QString &callId) {
        offloads->show();
        offloads->raise();
        m_offloadsPanel->showCallId(callId);
    });
    m_pins = new PinsBinding(m_sessions, m_conversationView, m_pinsPanel, this);
    connect(m_pinsPanel, &PinsPanel::messageChosen, m_selection, &SelectionLink::selectMessage);
    // A newly scored session reaches an open Compare window.
    connect(m_whatIf, &WhatIfBinding::scoringReady, this, [this] {
        if (m_compare)
            m_compare->setOpenSession(session().info.title, m_whatIf->session(), m_whatIf->scoring());
    });
    // The session's live policy: stored (off the GUI thread), so the agent and later opens use it.
    connect(m_thresholdsPanel, &ThresholdsPanel::applyRequested, m_sessions, &SessionLifecycle::applyPolicy);
    // Review of summaries (issue #22 items 7, 8): a setting of the session's policy, toggled in the
    // Compactions dock; a past checkpoint is edited there as a new version.
    connect(m_compactionsPanel, &CompactionsPanel::reviewSummariesToggled, this, [this](bool on) {
        CompactionPolicy policy = session().policy;
        policy.reviewSummaries = on;
        m_sessions->applyPolicy(policy);
    });
    // The agent controller is made after the docks: it is looked up when the user asks.
    connect(m_compactionsPanel, &CompactionsPanel::editCheckpointRequested, this,
            [this](const Checkpoint &checkpoint) { checkpointEditing()->edit(checkpoint); });
    connect(m_compactionsPanel, &CompactionsPanel::undoCheckpointEditRequested, this,
            [this](qint64 checkpointId) { checkpointEditing()->undo(checkpointId); });
}

CheckpointEditing *MainWindow::checkpointEditing()
{
    if (!m_checkpointEditing) {
        m_checkpointEditing = new CheckpointEditing(m_sessions, m_agent, this);
        connect(m_checkpointEditing, &CheckpointEditing::notice, this,
                [this](const QString &text) { statusBar()->showMessage(text, 6000); });
    }
    return m_checkpointEditing;
}

void MainWindow::linkSelection()
{
    // One selection for every view: each reports what the user chose and follows the link.
    m_selection = new SelectionLink(&m_sessions->session(), this);
    connect(m_thresholdsPanel->scoreView(), &PolicyScoreView::requestChosen, m_selection, &SelectionLink::selectRequest);
    connect(m_timelinePanel, &TimelinePanel::requestChosen, m_selection, &SelectionLink::selectRequest);
    connect(m_timelinePanel, &TimelinePanel::compactionChosen, m_selection, &SelectionLink::selectRecord);
    connect(m_compactionsPanel, &CompactionsPanel::recordSelected, m_selection, &SelectionLink::selectRecord);
    connect(m_anchorsPanel, &AnchorsPanel::recordSelected, m_selection, &SelectionLink::selectRecord);
    connect(m_anchorsPanel, &AnchorsPanel::messageSelected, m_selection, &SelectionLink::selectMessage);
    connect(m_contextPanel, &ContextPanel::messageChosen, m_selection, &SelectionLink::selectMessageInRequest);
    connect(m_offloadsPanel, &OffloadsPanel::locateMessageRequested, m_selection,
            [this](const QString &, qint64 messageId) { m_selection->selectMessage(messageId); });
    connect(m_conversationView, &ConversationView::messageChosen, m_selection, &SelectionLink::selectMessage);
    connect(m_conversationView, &ConversationView::compactionActivated, m_selection, &SelectionLink::selectRecord);

    connect(m_selection, &SelectionLink::requestChanged, m_timelinePanel, &TimelinePanel::selectRequest);
    connect(m_selection, &SelectionLink::requestChanged, m_contextPanel, [this](int index) {
        m_contextPanel->showSnapshot(session().contextSnapshot(index));
    });
    connect(m_selection, &SelectionLink::recordChanged, m_anchorsPanel, &AnchorsPanel::showRecord);
    connect(m_selection, &SelectionLink::recordChanged, m_compactionsPanel, &CompactionsPanel::showRecord);
    connect(m_selection, &SelectionLink::messageChanged, m_contextPanel, &ContextPanel::selectMessage);
    connect(m_selection, &SelectionLink::messageChanged, m_offloadsPanel, &OffloadsPanel::selectMessage);
    connect(m_selection, &SelectionLink::messageChanged, m_conversationView, &ConversationView::selectMessage);
    connect(m_selection, &SelectionLink::compactionFocused, m_offloadsPanel, &OffloadsPanel::showCompactionOffloads);
    connect(m_selection, &SelectionLink::compactionFocused, m_conversationView,
            [this](const CompactionRecord &record) { m_conversationView->selectCompaction(record.id); });
}

void MainWindow::setStore(SessionStore *store, const QString &databasePath)
{
    m_sessions->setStore(store, databasePath);
}

void MainWindow::onStoreChanged()
{
    m_agent->setStore(m_sessions->store(), m_sessions->databasePath());
    m_proxy->setDatabasePath(m_sessions->databasePath()); // the proxy records into the open database
    if (!m_sessionsPanel) {
        m_sessionsPanel = new SessionsPanel(m_sessions, m_sessionsDock);
        m_sessionsDock->setWidget(m_sessionsPanel);
    }
    updateNewSessionDefaults();
}

void MainWindow::updateNewSessionDefaults()
{
    if (!m_sessionsPanel)
        return;
    // The default policy, sized to the default model's window unless the user set a window of their own.
    const ProviderProfile profile = m_settings->defaultProfile();
    const CompactionPolicy policy = profile.sizedPolicy(m_settings->compactionPolicy());
    m_sessionsPanel->setNewSessionDefaults(policy, profile, m_settings->profiles());
}

void MainWindow::openDemo()
{
    if (m_sessions->isBuildingDemo())
        return;
    // Built once on a worker thread (a few seconds), with its progress in the status bar.
    auto *bar = new QProgressBar(this);
    bar->setObjectName(u"DemoProgress"_s);
    bar->setRange(0, 100);
    bar->setMaximumWidth(320);
    bar->setTextVisible(true);
    statusBar()->addPermanentWidget(bar);
    connect(m_sessions, &SessionLifecycle::demoProgress, bar, [bar](const QString &stage, int percent) {
        bar->setValue(percent);
        bar->setFormat(stage + u" %p%"_s);
    });
    const auto done = [bar] { bar->deleteLater(); };
    connect(m_sessions, &SessionLifecycle::demoFinished, bar, done, Qt::SingleShotConnection);
    connect(m_sessions, &SessionLifecycle::demoFailed, bar, done, Qt::SingleShotConnection);
    m_sessions->openDemo();
}

bool MainWindow::openLastSession()
{
    return m_sessions->openLast();
}

QDockWidget *MainWindow::dock(const QString &objectName) const
{
    return findChild<QDockWidget *>(objectName, Qt::FindDirectChildrenOnly);
}

void MainWindow::openSession(const QString &sessionId)
{
    m_sessions->open(sessionId);
}

void MainWindow::showSession(const LoadedSession &session)
{
    m_sessions->show(session);
}

void MainWindow::updateTitle()
{
    const SessionInfo &info = session().info;
    setWindowTitle(tr("%1 — Waterline").arg(info.title.isEmpty() ? tr("Untitled session") : info.title));
    updateSessionStatus();
}

void MainWindow::updateSessionStatus()
{
    const LoadedSession &s = session();
    if (s.isEmpty())
        m_statusSession->setText(tr("No session open"));
    else
        m_statusSession->setText(tr("%1: %n message(s)", nullptr, int(s.history.size())).arg(s.info.title)
                                 + tr(", %n request(s)", nullptr, s.requestCount())
                                 + tr(", %n compaction(s)", nullptr, int(s.records.size())));
}

void MainWindow::onSessionOpened(const LoadedSession &session)
{
    if (m_sessionsPanel) {
        m_sessionsPanel->setCurrentSession(session.info.id);
        m_sessionsPanel->setOpenSessionPolicy(session.info.title, session.isEmpty() ? std::nullopt
                                                                                    : std::optional(session.policy));
    }
    updateTitle();
    m_continueAction->setEnabled(session.info.readOnly);
    m_conversationModel->setTranscript(session.history, session.compactionMarkers());
    m_transcriptSize = session.history.size();
    // What to do next while the conversation is empty.
    if (session.isEmpty())
        m_conversationView->setEmptyText(tr("No session open. File \u203a New Session (Ctrl+N) starts one in a folder of "
                                            "your choice; the Sessions dock opens an earlier one."));
    else
        m_conversationView->setEmptyText(tr("This session has no messages yet. Write what the agent should do in the box "
                                            "below and press Ctrl+Enter; type / for commands such as /compact.\n\nAs it "
                                            "works, the timeline, the compactions and the context it sends fill the docks."));
    m_thresholdsPanel->setPolicy(session.policy);
    showDocks(session);
    // The agent of the session reads it again on its own worker: the rows above stay, it appends.
    if (m_sessions->showsDemo())
        m_agent->openReadOnly(session.info.id, tr("The demo is read-only and keeps nothing you do. File \u203a New Session "
                                                  "(Ctrl+N) starts a session of your own; File \u203a Import Transcript "
                                                  "adds another agent's."));
    else
        m_agent->openSession(session.info.id);
    updateCentralPage();
    if (!session.isEmpty() && m_centralStack->currentWidget() == m_conversationArea)
        m_prompt->setFocus();
    Q_EMIT sessionShown();
}

void MainWindow::onSessionRefreshed(const LoadedSession &session)
{
    // The thresholds dock follows a policy stored meanwhile unless the user is editing it.
    if (m_thresholdsPanel->policy() == m_thresholdsPanel->sessionPolicy())
        m_thresholdsPanel->setPolicy(session.policy);
    // A session recorded from the proxy grows while its agent runs elsewhere: the conversation
    // follows, as the docks do. (Waterline's own agent appends to the sessions it runs itself.)
    if (session.info.readOnly && session.history.size() != m_transcriptSize) {
        m_conversationModel->setTranscript(session.history, session.compactionMarkers());
        m_conversationView->scrollToBottom();
    }
    m_transcriptSize = session.history.size();
    showDocks(session);
    Q_EMIT sessionRefreshed();
}

void MainWindow::showDocks(const LoadedSession &session)
{
    m_timelineModel->setThresholds({session.policy.warn, session.policy.soft, session.policy.full, session.policy.emergency});
    m_timelineModel->setRecorded(session.timelineRows(), session.policy.contextWindow);
    m_timelineModel->setWhatIf({});
    const QList<AnchorSnapshot> anchorSnapshots = session.anchorSnapshots();
    m_anchorModel->setSnapshots(anchorSnapshots);
    m_anchorItemsModel->setLineage(session.anchorLineage, anchorSnapshots);
    m_compactionModel->setRecords(session.records);
    m_compactionsPanel->setCheckpoints(session.overlays.checkpoints);
    m_compactionsPanel->setReviewSummaries(session.policy.reviewSummaries);
    m_conversationModel->setOffloadedResults(session.offloadedMessageIds());
    const QList<OffloadRow> offloadRows = session.offloadRows();
    m_offloadsPanel->setRows(offloadRows);
    if (!offloadRows.isEmpty())
        m_offloadsPanel->showCallId(offloadRows.constLast().entry.callId); // the newest, so the viewer is not empty
    m_contextPanel->clear();
    m_pins->setSession(session);

    // The thresholds dock keeps what the user is editing; Apply compares with the stored policy.
    m_thresholdsPanel->setSessionPolicy(session.policy);
    m_thresholdsPanel->setRecordedTotals(session.recordedTotals());
    m_agentStatus->setSession(session);
    m_whatIf->setSession(session.simulatorInput());
    m_whatIf->scoreSession(session, m_settings->priceOverrides());
    if (m_compare) {
        m_compare->setCurrentPolicy(m_thresholdsPanel->policy());
        m_compare->setOpenSession(session.info.title, m_whatIf->session(), m_whatIf->scoring());
    }
    m_whatIf->request(m_thresholdsPanel->policy());

    updateSessionStatus();
    // The newest request, without moving the conversation (it follows the end).
    m_selection->reset(session.requestCount() - 1);
}

void MainWindow::selectRequest(int index)
{
    m_selection->selectRequest(index);
}

int MainWindow::selectedRequest() const
{
    return m_selection->current().requestIndex;
}

void MainWindow::chooseTranscript()
{
    QSettings settings;
    const QString dir = settings.value(u"Import/lastDir"_s, QDir::homePath()).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Import a transcript"), dir,
        tr("Agent transcripts (*.jsonl *.json *.traj);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(u"Import/lastDir"_s, QFileInfo(path).absolutePath());
    importTranscript(path);
}

void MainWindow::importTranscript(const QString &path)
{
    if (m_sessions->databasePath().isEmpty()) {
        QMessageBox::warning(this, tr("Import"), tr("No session database is open."));
        Q_EMIT importFinished(QString(), tr("No session database is open."));
        return;
    }
    const QString fileName = QFileInfo(path).fileName();
    auto *dialog = new QProgressDialog(tr("Importing %1...").arg(fileName), tr("Cancel"), 0, 100, this);
    dialog->setWindowTitle(tr("Import"));
    dialog->setMinimumDuration(300);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    connect(dialog, &QProgressDialog::canceled, m_sessions, &SessionLifecycle::cancelImport);
    connect(m_sessions, &SessionLifecycle::importProgress, dialog, [dialog, path](const QString &file, int percent) {
        if (file == path)
            dialog->setValue(percent);
    });
    connect(m_sessions, &SessionLifecycle::importFinished, dialog,
            [this, dialog, path, fileName](const QString &file, const QString &sessionId, const QString &error, bool cancelled, int count) {
        if (file != path)
            return;
        dialog->disconnect(this);
        dialog->deleteLater();
        if (cancelled) {
            statusBar()->showMessage(tr("Import of %1 cancelled; nothing was kept.").arg(fileName), 5000);
            Q_EMIT importFinished(QString(), tr("cancelled"));
            return;
        }
        if (!error.isEmpty()) {
            QMessageBox::warning(this, tr("Import failed"), error);
            Q_EMIT importFinished(QString(), error);
            return;
        }
        if (count > 1)
            statusBar()->showMessage(tr("%1 holds %2 sessions: each was imported, the first is open.").arg(fileName).arg(count), 8000);
        Q_EMIT importFinished(sessionId, QString());
    });
    m_sessions->importTranscript(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    // Files and folders (a conversation stored as one file per event) alike.
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl &url : urls)
        if (url.isLocalFile())
            importTranscript(QFileInfo(url.toLocalFile()).absoluteFilePath());
    event->acceptProposedAction();
}

void MainWindow::restoreLayout()
{
    using Part = AppSettings::WindowPart;
    const QByteArray geometry = m_settings->windowLayout(Part::Geometry);
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = m_settings->windowLayout(Part::DockState);
    if (state.isEmpty() || !restoreState(state, kStateVersion)) {
        // First start: the Default preset, sized to the window once it is shown at its real size.
        m_layouts->apply(LayoutPresets::Preset::Default);
        m_defaultLayoutPending = true;
    }
    const QByteArray splitter = m_settings->windowLayout(Part::ConversationSplitter);
    if (!splitter.isEmpty())
        m_conversationSplitter->restoreState(splitter);
}

void MainWindow::saveLayout() const
{
    using Part = AppSettings::WindowPart;
    m_settings->setWindowLayout(Part::Geometry, saveGeometry());
    m_settings->setWindowLayout(Part::DockState, saveState(kStateVersion));
    m_settings->setWindowLayout(Part::ConversationSplitter, m_conversationSplitter->saveState());
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_defaultLayoutPending)
        return;
    // The window manager (or -geometry) may still size the window after it is shown: the Default
    // layout follows until then, and the window's layout is the user's from there on.
    QTimer::singleShot(0, this, &MainWindow::fitDefaultLayout);
    QTimer::singleShot(1500, this, [this] { m_defaultLayoutPending = false; });
}

void MainWindow::fitDefaultLayout()
{
    // Sizes the docks again; the tabs in front stay in front (a dock raised meanwhile, by the View
    // menu or --show-dock, is not sent back behind the default one).
    QList<QDockWidget *> inFront;
    for (QDockWidget *dock : findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly))
        if (dock->isVisible() && !dock->visibleRegion().isEmpty())
            inFront.append(dock);
    m_layouts->apply(LayoutPresets::Preset::Default);
    for (QDockWidget *dock : std::as_const(inFront))
        dock->raise();
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    if (m_defaultLayoutPending && isVisible())
        QTimer::singleShot(0, this, &MainWindow::fitDefaultLayout);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    event->accept();
}

bool MainWindow::focusNextPrevChild(bool next)
{
    if (QWidget *target = FocusOrder::next(this, focusWidget(), next)) {
        FocusOrder::focus(target, next ? Qt::TabFocusReason : Qt::BacktabFocusReason);
        return true;
    }
    return QMainWindow::focusNextPrevChild(next);
}

void MainWindow::showAbout()
{
    AboutDialog::openFor(this);
}

ComparePoliciesWindow *MainWindow::showComparePolicies(bool run)
{
    if (!m_compare) {
        m_compare = new ComparePoliciesWindow(this);
        // Apply: the sliders take the policy as if the user had set it (the what-if follows).
        connect(m_compare, &ComparePoliciesWindow::applyRequested, m_thresholdsPanel, &ThresholdsPanel::editPolicy);
        connect(m_thresholdsPanel, &ThresholdsPanel::policyEdited, m_compare, &ComparePoliciesWindow::setCurrentPolicy);
    }
    m_compare->setPriceOverrides(m_settings->priceOverrides());
    m_compare->setCurrentPolicy(m_thresholdsPanel->policy());
    m_compare->setOpenSession(session().info.title, m_whatIf->session(), m_whatIf->scoring());
    m_compare->show();
    m_compare->raise();
    m_compare->activateWindow();
    if (run) {
        if (m_whatIf->scoring()) {
            m_compare->run();
        } else {
            connect(m_whatIf, &WhatIfBinding::scoringReady, m_compare, [this] {
                m_compare->setOpenSession(session().info.title, m_whatIf->session(), m_whatIf->scoring());
                m_compare->run();
            }, Qt::SingleShotConnection);
        }
    }
    return m_compare;
}

} // namespace wl
