#include "MainWindow.h"

#include "AboutDialog.h"
#include "DockPanels.h"
#include "WhatIfBinding.h"
#include "anchors/AnchorHistoryModel.h"
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
#include "sessions/SessionListModel.h"
#include "sessions/SessionsPanel.h"
#include "thresholds/ThresholdsPanel.h"
#include "timeline/TimelineChart.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelinePanel.h"
#include "settings/AppSettings.h"
#include "settings/FirstRunPanel.h"
#include "settings/SettingsDialog.h"
#include "settings/ThemeManager.h"
#include "workbench/AgentController.h"
#include "workbench/AgentStatusBar.h"
#include "workbench/DemoSession.h"
#include "workbench/LoadedSession.h"
#include "workbench/ProgressTask.h"
#include "replay/SessionImporter.h"
#include "store/SessionStore.h"
#include "workbench/SessionLoader.h"

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
#include <QStackedWidget>
#include <QTimer>
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
constexpr auto kGeometryKey = "MainWindow/geometry";
constexpr auto kStateKey = "MainWindow/state";
constexpr auto kSplitterKey = "MainWindow/conversationSplitter";
constexpr int kStateVersion = 2;

QString explanationFor(const char *objectName)
{
    for (const DockPanel &panel : dockPanels())
        if (qstrcmp(panel.objectName, objectName) == 0)
            return panel.explanation;
    return {};
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : MainWindow(nullptr, parent)
{
}

MainWindow::MainWindow(AppSettings *settings, QWidget *parent)
    : QMainWindow(parent)
    , m_session(std::make_unique<LoadedSession>())
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
    m_loader = new SessionLoader(this);
    m_timelineModel = new TimelineModel(this);
    m_anchorModel = new AnchorHistoryModel(this);
    m_compactionModel = new CompactionLogModel(this);
    m_conversationModel = new ConversationModel(this);

    createCentralArea();
    createActions();
    createDocks();

    m_statusSession = new QLabel(tr("No session open"), this);
    statusBar()->addWidget(m_statusSession, 1);
    resize(defaultSize());

    // The live agent, configured from the settings and following their changes.
    m_agent = new AgentController(m_conversationModel, m_conversationView, m_prompt, this);
    m_agentStatus = new AgentStatusBar(m_agent, statusBar());
    m_agentStatus->setObjectName(u"AgentStatusBar"_s);
    m_agent->setApprovalPolicy(m_settings->approvalPolicy());
    m_agent->setDefaultPolicy(m_settings->compactionPolicy());
    m_agent->setTurnLimit(m_settings->turnLimit());
    applyProfiles();
    connect(m_settings, &AppSettings::changed, this, [this](AppSettings::Key key) { applySetting(int(key)); });
    connect(m_agent, &AgentController::connectionChanged, this, &MainWindow::updateCentralPage);
    connect(m_agent, &AgentController::notice, this, [this](const QString &text) { statusBar()->showMessage(text, 6000); });
    connect(m_agent, &AgentController::newSessionRequested, this, &MainWindow::newSession);
    connect(m_agent, &AgentController::sessionDataChanged, this, &MainWindow::scheduleRefresh);
    connect(m_agent, &AgentController::runEnded, this, &MainWindow::scheduleRefresh);
    connect(m_agent, &AgentController::openFailed, this, [this](const QString &, const QString &error) {
        statusBar()->showMessage(tr("The agent cannot run in this session: %1").arg(error), 8000);
    });

    // The docks follow what the agent stores, a moment after it stored it (one reload per burst).
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(300);
    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        if (m_session->isEmpty() || m_databasePath.isEmpty())
            return;
        m_refreshing = true;
        m_loader->load(m_databasePath, m_session->info.id);
    });

    connect(m_loader, &SessionLoader::loaded, this, [this](const LoadedSession &session) {
        if (m_refreshing && session.info.id == m_session->info.id) {
            m_refreshing = false;
            // The thresholds dock follows a policy stored meanwhile unless the user is editing it.
            const bool untouched = m_thresholdsPanel->policy() == m_session->policy;
            *m_session = session;
            if (untouched)
                m_thresholdsPanel->setPolicy(session.policy);
            showDocks(session);
            Q_EMIT sessionRefreshed();
            return;
        }
        m_refreshing = false;
        showSession(session);
    });
    connect(m_loader, &SessionLoader::failed, this, [this](const QString &sessionId, const QString &error) {
        if (m_refreshing) {
            m_refreshing = false;
            statusBar()->showMessage(tr("Could not refresh the docks: %1").arg(error), 6000);
            return;
        }
        m_statusSession->setText(tr("Could not open session %1").arg(sessionId));
        QMessageBox::warning(this, tr("Could not open the session"), error);
    });
    m_firstRun->setProfile(m_settings->defaultProfile());
    m_agentStatus->update();
    updateCentralPage();
    if (showsFirstRun())
        m_firstRun->checkAgain();
}

MainWindow::~MainWindow() = default;

const LoadedSession &MainWindow::session() const
{
    return *m_session;
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

    connect(m_conversationView, &ConversationView::compactionActivated, this, &MainWindow::selectRecord);
    connect(m_firstRun, &FirstRunPanel::settingsRequested, this, &MainWindow::showSettings);
    connect(m_firstRun, &FirstRunPanel::demoRequested, this, &MainWindow::openDemo);
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
    QWidget *page = (!m_session->isEmpty() || reachable) ? m_conversationArea : static_cast<QWidget *>(m_firstRun);
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
    m_settings->setDefaultProfileName(profile.name);
    applyProfiles();
}

void MainWindow::applyProfiles()
{
    m_agent->setProfiles(m_settings->profiles(), m_settings->defaultProfile());
    // "The default profile" (empty name) adds no summariser step: the main model writes summaries.
    const QString summarizer = m_settings->summarizerProfileName();
    m_agent->setSummarizerProfile(summarizer.isEmpty() ? std::nullopt
                                                       : std::optional<ProviderProfile>(m_settings->summarizerProfile()));
}

void MainWindow::applySetting(int key)
{
    switch (AppSettings::Key(key)) {
    case AppSettings::Key::ProviderProfiles:
    case AppSettings::Key::DefaultProfile:
        applyProfiles();
        m_firstRun->setProfile(m_settings->defaultProfile());
        updateNewSessionDefaults();
        if (showsFirstRun())
            m_firstRun->checkAgain();
        break;
    case AppSettings::Key::ApprovalPolicy:
        m_agent->setApprovalPolicy(m_settings->approvalPolicy());
        break;
    case AppSettings::Key::CompactionPolicy:
        m_agent->setDefaultPolicy(m_settings->compactionPolicy());
        updateNewSessionDefaults();
        break;
    case AppSettings::Key::TurnLimit:
        m_agent->setTurnLimit(m_settings->turnLimit());
        break;
    case AppSettings::Key::Language:
        statusBar()->showMessage(tr("The new language is used from the next start of Waterline."), 8000);
        break;
    case AppSettings::Key::SummarizerProfile:
        applyProfiles();
        break;
    case AppSettings::Key::Theme:          // ThemeManager follows the settings itself
    case AppSettings::Key::PriceOverrides: // read by the cost model each time it prices a run
        break;
    }
    m_agentStatus->update();
}

void MainWindow::scheduleRefresh()
{
    m_refreshTimer->start();
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
    import->setShortcut(Qt::CTRL | Qt::Key_I);
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
            m_sessionsPanel->continueDialog(m_session->info.id);
    });
    QAction *demoAction = fileMenu->addAction(tr("Open the &Demo Session"));
    demoAction->setObjectName(u"DemoAction"_s);
    connect(demoAction, &QAction::triggered, this, &MainWindow::openDemo);
    fileMenu->addSeparator();
    QAction *settingsAction = fileMenu->addAction(QIcon::fromTheme(u"preferences-system"_s), tr("&Settings..."));
    settingsAction->setObjectName(u"SettingsAction"_s);
    QList<QKeySequence> settingsKeys = QKeySequence::keyBindings(QKeySequence::Preferences);
    const QKeySequence ctrlComma(Qt::CTRL | Qt::Key_Comma);
    if (!settingsKeys.contains(ctrlComma))
        settingsKeys.append(ctrlComma);
    settingsAction->setShortcuts(settingsKeys);
    settingsAction->setMenuRole(QAction::PreferencesRole);
    connect(settingsAction, &QAction::triggered, this, &MainWindow::showSettings);
    fileMenu->addSeparator();
    QAction *quit = fileMenu->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->setObjectName(u"ViewMenu"_s);

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *about = helpMenu->addAction(tr("&About Waterline"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);
    QAction *aboutQt = helpMenu->addAction(tr("About &Qt"));
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

void MainWindow::createDocks()
{
    m_timelinePanel = new TimelinePanel(m_timelineModel, this);
    m_thresholdsPanel = new ThresholdsPanel(this);
    m_anchorsPanel = new AnchorsPanel(m_anchorModel, this);
    m_offloadsPanel = new OffloadsPanel(this);
    m_contextPanel = new ContextPanel(this);
    m_compactionsPanel = new CompactionsPanel(m_compactionModel, this);

    m_sessionsDock = addPanelDock("SessionsDock", nullptr, Qt::LeftDockWidgetArea);
    m_sessionsDock->setMinimumWidth(200);
    QDockWidget *timeline = addPanelDock("TimelineDock", m_timelinePanel, Qt::BottomDockWidgetArea);
    QDockWidget *thresholds = addPanelDock("ThresholdsDock", m_thresholdsPanel, Qt::RightDockWidgetArea);
    QDockWidget *anchors = addPanelDock("AnchorsDock", m_anchorsPanel, Qt::RightDockWidgetArea);
    QDockWidget *offloads = addPanelDock("OffloadsDock", m_offloadsPanel, Qt::RightDockWidgetArea);
    QDockWidget *context = addPanelDock("ContextDock", m_contextPanel, Qt::RightDockWidgetArea);
    QDockWidget *compactions = addPanelDock("CompactionsDock", m_compactionsPanel, Qt::BottomDockWidgetArea);
    tabifyDockWidget(thresholds, anchors);
    tabifyDockWidget(anchors, offloads);
    tabifyDockWidget(offloads, context);
    tabifyDockWidget(timeline, compactions);
    thresholds->raise();
    timeline->raise();
    resizeDocks({timeline}, {300}, Qt::Vertical);
    resizeDocks({thresholds, m_sessionsDock}, {470, 250}, Qt::Horizontal);

    m_whatIf = new WhatIfBinding(m_thresholdsPanel, m_timelineModel, this);
    connect(m_timelinePanel->chart(), &TimelineChart::requestSelected, this, &MainWindow::selectRequest);
    connect(m_anchorsPanel, &AnchorsPanel::recordSelected, this, &MainWindow::selectRecord);
    connect(m_compactionsPanel, &CompactionsPanel::recordSelected, this,
            [this](const QString &, int requestIndex) { selectRequest(requestIndex); });
    connect(m_conversationView, &ConversationView::offloadActivated, this, [this, offloads](const QString &callId) {
        offloads->show();
        offloads->raise();
        m_offloadsPanel->showCallId(callId);
    });
    connect(m_thresholdsPanel, &ThresholdsPanel::applyRequested, this, [this](const CompactionPolicy &policy) {
        // The session's live policy: stored, so the agent and later opens use it.
        QString error;
        if (m_store && !m_session->isEmpty() && !m_store->setSessionPolicy(m_session->info.id, policy.toJson(), &error)) {
            QMessageBox::warning(this, tr("Could not apply the policy"), error);
            m_thresholdsPanel->setSessionPolicy(m_session->policy);
            return;
        }
        m_session->policy = policy;
        m_session->info.policy = policy.toJson();
        m_agent->setSessionPolicy(policy);
        statusBar()->showMessage(tr("The session now compacts with the new policy."), 4000);
        Q_EMIT policyApplied(policy);
    });
}

void MainWindow::setStore(SessionStore *store, const QString &databasePath)
{
    if (m_sessionsPanel && m_store != store) {
        // Another database (the demo's): a panel of its own.
        m_sessionsPanel->deleteLater();
        m_sessionsPanel = nullptr;
    }
    m_store = store;
    m_databasePath = databasePath;
    m_agent->setStore(store, databasePath);
    if (!m_sessionsPanel) {
        m_sessionsPanel = new SessionsPanel(store, m_sessionsDock);
        m_sessionsDock->setWidget(m_sessionsPanel);
        connect(m_sessionsPanel, &SessionsPanel::openRequested, this, [this](const QString &id) {
            openSession(m_databasePath, id);
        });
        connect(m_sessionsPanel, &SessionsPanel::sessionDeleted, this, [this](const QString &id) {
            if (m_session->info.id == id)
                showSession(LoadedSession());
        });
    }
    updateNewSessionDefaults();
    m_sessionsPanel->refresh();
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
    if (findChild<ProgressTask *>(u"DemoTask"_s))
        return; // being built
    // The demo is built once (import and replay, a few seconds) on a worker thread, in a database of its own.
    auto *bar = new QProgressBar(this);
    bar->setRange(0, 100);
    bar->setMaximumWidth(320);
    bar->setTextVisible(true);
    statusBar()->addPermanentWidget(bar);
    auto sessionId = std::make_shared<QString>();
    const QString folder = DemoSession::defaultFolder();
    auto *task = new ProgressTask([sessionId, folder](const ProgressTask::Report &report, const std::atomic_bool &cancel) {
        const DemoSession::Result result = DemoSession::ensure(folder, report, &cancel);
        *sessionId = result.sessionId;
        return result.ok ? QString() : result.error;
    }, this);
    task->setObjectName(u"DemoTask"_s);
    connect(task, &ProgressTask::progress, bar, [bar](const QString &stage, int percent) {
        bar->setValue(percent);
        bar->setFormat(stage + u" %p%"_s);
    });
    connect(task, &ProgressTask::finished, this, [this, task, bar, folder, sessionId](QString error) {
        task->deleteLater();
        bar->deleteLater();
        const QString dbPath = folder + u"/demo.db"_s;
        auto store = std::make_unique<SessionStore>();
        if (error.isEmpty())
            store->open(dbPath, &error);
        if (!error.isEmpty()) {
            QMessageBox::warning(this, tr("Demo session"), tr("The demo session could not be prepared:\n%1").arg(error));
            Q_EMIT demoFailed(error);
            return;
        }
        std::unique_ptr<SessionStore> previous = std::move(m_demoStore);
        m_demoStore = std::move(store);
        setStore(m_demoStore.get(), dbPath);
        openSession(dbPath, *sessionId);
        // The earlier demo connection may still be in use by the old panel until it is deleted.
        if (previous)
            QTimer::singleShot(0, this, [p = previous.release()] { delete p; });
    });
    task->start();
}

bool MainWindow::openLastSession()
{
    const QString last = QSettings().value(u"Session/last"_s).toString();
    if (last.isEmpty() || !m_sessionsPanel || m_sessionsPanel->model()->rowForSession(last) < 0)
        return false;
    openSession(m_databasePath, last);
    return true;
}

QDockWidget *MainWindow::dock(const QString &objectName) const
{
    return findChild<QDockWidget *>(objectName, Qt::FindDirectChildrenOnly);
}

void MainWindow::openSession(const QString &databasePath, const QString &sessionId)
{
    m_statusSession->setText(tr("Opening session %1...").arg(sessionId));
    m_loader->load(databasePath, sessionId);
}

void MainWindow::showSession(const LoadedSession &session)
{
    *m_session = session;
    m_selectedRequest = -1;
    if (!session.isEmpty())
        QSettings().setValue(u"Session/last"_s, session.info.id);
    if (m_sessionsPanel) {
        m_sessionsPanel->refresh();
        m_sessionsPanel->setCurrentSession(session.info.id);
    }
    setWindowTitle(tr("%1 — Waterline").arg(session.info.title.isEmpty() ? tr("Untitled session") : session.info.title));
    m_continueAction->setEnabled(session.info.readOnly);
    m_conversationModel->setTranscript(session.history, session.compactionMarkers());
    m_thresholdsPanel->setPolicy(session.policy);
    showDocks(session);
    // The agent of the session reads it again on its own worker: the rows above stay, it appends.
    m_agent->openSession(session.info.id);
    updateCentralPage();
    if (!session.isEmpty() && m_centralStack->currentWidget() == m_conversationArea)
        m_prompt->setFocus();
    Q_EMIT sessionShown();
}

void MainWindow::showDocks(const LoadedSession &session)
{
    m_timelineModel->setThresholds({session.policy.warn, session.policy.soft, session.policy.full, session.policy.emergency});
    m_timelineModel->setRecorded(session.timelineRows());
    m_timelineModel->setWhatIf({});
    m_anchorModel->setSnapshots(session.anchorSnapshots());
    m_compactionModel->setRecords(session.records);
    const QList<OffloadRow> offloadRows = session.offloadRows();
    m_offloadsPanel->setRows(offloadRows);
    if (!offloadRows.isEmpty())
        m_offloadsPanel->showCallId(offloadRows.constLast().entry.callId); // the newest, so the viewer is not empty
    m_contextPanel->clear();

    // The thresholds dock keeps what the user is editing; Apply compares with the stored policy.
    m_thresholdsPanel->setSessionPolicy(session.policy);
    m_thresholdsPanel->setRecordedTotals(session.recordedTotals());
    m_whatIf->setSession(session.simulatorInput());
    m_whatIf->request(m_thresholdsPanel->policy());

    if (session.isEmpty())
        m_statusSession->setText(tr("No session open"));
    else
        m_statusSession->setText(tr("%1: %n message(s)", nullptr, int(session.history.size())).arg(session.info.title)
                             + tr(", %n request(s)", nullptr, session.requestCount())
                             + tr(", %n compaction(s)", nullptr, int(session.records.size())));
    m_selectedRequest = -1;
    if (session.requestCount() > 0)
        selectRequest(session.requestCount() - 1);
}

void MainWindow::selectRequest(int index)
{
    if (m_selecting || index < 0 || index >= m_session->requestCount())
        return;
    m_selecting = true;
    m_selectedRequest = index;
    m_timelinePanel->chart()->setSelectedRequest(index);
    m_contextPanel->showSnapshot(m_session->contextSnapshot(index));
    if (const CompactionRecord *record = m_session->recordFor(index)) {
        m_anchorsPanel->showRecord(record->id);
        m_compactionsPanel->showRecord(record->id);
    }
    m_selecting = false;
}

void MainWindow::selectRecord(const QString &recordId)
{
    for (const CompactionRecord &r : m_session->records) {
        if (r.id == recordId) {
            selectRequest(r.requestIndex);
            return;
        }
    }
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
    if (m_databasePath.isEmpty()) {
        QMessageBox::warning(this, tr("Import"), tr("No session database is open."));
        return;
    }
    auto sessionId = std::make_shared<QString>();
    auto sessionCount = std::make_shared<qsizetype>(0);
    const QString databasePath = m_databasePath;
    auto *task = new ProgressTask([path, databasePath, sessionId, sessionCount](const ProgressTask::Report &report, const std::atomic_bool &cancel) {
        SessionStore store;
        QString error;
        if (!store.open(databasePath, &error))
            return error;
        SessionImporter::Options options;
        options.runIndex = SessionImporter::Options::allRuns; // a file of several sessions gives several
        options.cancel = &cancel;
        options.progress = [&report, path](qint64 done, qint64 total) {
            report(QFileInfo(path).fileName(), total > 0 ? int(100 * done / total) : 0);
        };
        const SessionImporter::Result result = SessionImporter::importFile(store, path, options);
        if (!result.ok)
            return result.cancelled ? QString() : result.error;
        *sessionId = result.sessionId;
        *sessionCount = result.sessionIds.size();
        return QString();
    }, this);
    auto *dialog = new QProgressDialog(tr("Importing %1...").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 100, this);
    dialog->setWindowTitle(tr("Import"));
    dialog->setMinimumDuration(300);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    connect(dialog, &QProgressDialog::canceled, task, &ProgressTask::cancel);
    connect(task, &ProgressTask::progress, dialog, [dialog](const QString &, int percent) { dialog->setValue(percent); });
    connect(task, &ProgressTask::finished, this, [this, task, dialog, sessionId, sessionCount, path](const QString &error, bool cancelled) {
        dialog->deleteLater();
        task->deleteLater();
        if (cancelled) {
            statusBar()->showMessage(tr("Import of %1 cancelled; nothing was kept.").arg(QFileInfo(path).fileName()), 5000);
            Q_EMIT importFinished(QString(), tr("cancelled"));
            return;
        }
        if (!error.isEmpty()) {
            QMessageBox::warning(this, tr("Import failed"), error);
            Q_EMIT importFinished(QString(), error);
            return;
        }
        if (m_sessionsPanel)
            m_sessionsPanel->refresh();
        if (*sessionCount > 1)
            statusBar()->showMessage(tr("%1 holds %2 sessions: each was imported, the first is open.").arg(QFileInfo(path).fileName()).arg(*sessionCount), 8000);
        openSession(m_databasePath, *sessionId);
        Q_EMIT importFinished(*sessionId, QString());
    });
    task->start();
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
    QSettings settings;
    const QByteArray geometry = settings.value(QLatin1StringView(kGeometryKey)).toByteArray();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = settings.value(QLatin1StringView(kStateKey)).toByteArray();
    if (!state.isEmpty())
        restoreState(state, kStateVersion);
    const QByteArray splitter = settings.value(QLatin1StringView(kSplitterKey)).toByteArray();
    if (!splitter.isEmpty())
        m_conversationSplitter->restoreState(splitter);
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue(QLatin1StringView(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1StringView(kStateKey), saveState(kStateVersion));
    settings.setValue(QLatin1StringView(kSplitterKey), m_conversationSplitter->saveState());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    event->accept();
}

void MainWindow::showAbout()
{
    AboutDialog::openFor(this);
}

} // namespace wl
