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
#include "thresholds/WhatIfRunner.h"
#include "timeline/TimelineChart.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelinePanel.h"
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
#include <QProgressDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

namespace wl {

namespace {
constexpr auto kGeometryKey = "MainWindow/geometry";
constexpr auto kStateKey = "MainWindow/state";
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
    : QMainWindow(parent)
    , m_session(std::make_unique<LoadedSession>())
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(tr("Waterline"));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    setAcceptDrops(true);

    m_loader = new SessionLoader(this);
    m_whatIf = new WhatIfRunner(this);
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

    connect(m_loader, &SessionLoader::loaded, this, &MainWindow::showSession);
    connect(m_loader, &SessionLoader::failed, this, [this](const QString &sessionId, const QString &error) {
        m_statusSession->setText(tr("Could not open session %1").arg(sessionId));
        QMessageBox::warning(this, tr("Could not open the session"), error);
    });
}

MainWindow::~MainWindow() = default;

const LoadedSession &MainWindow::session() const
{
    return *m_session;
}

void MainWindow::createCentralArea()
{
    auto *central = new QWidget(this);
    central->setObjectName(QStringLiteral("ConversationArea"));
    m_conversationView = new ConversationView(central);
    m_conversationView->setModel(m_conversationModel);
    m_prompt = new PromptInput(central);
    m_prompt->setBlockedReason(tr("Open or start a session to talk to an agent."));
    // The conversation gets the room; the prompt keeps a few lines and can be dragged taller.
    auto *splitter = new QSplitter(Qt::Vertical, central);
    splitter->setObjectName(QStringLiteral("ConversationSplitter"));
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_conversationView);
    splitter->addWidget(m_prompt);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);
    splitter->setSizes({600, 110});
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(splitter);
    setCentralWidget(central);
    connect(m_conversationView, &ConversationView::compactionActivated, this, &MainWindow::selectRecord);
}

void MainWindow::createActions()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->setObjectName(QStringLiteral("FileMenu"));
    QAction *import = fileMenu->addAction(QIcon::fromTheme(QStringLiteral("document-import")), tr("&Import Transcript..."));
    import->setObjectName(QStringLiteral("ImportAction"));
    import->setShortcut(Qt::CTRL | Qt::Key_I);
    import->setToolTip(tr("Import a session of Claude Code, Codex, SWE-agent, OpenHands, OpenAI Chat messages or a Waterline export"));
    connect(import, &QAction::triggered, this, &MainWindow::chooseTranscript);
    fileMenu->addSeparator();
    QAction *quit = fileMenu->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->setObjectName(QStringLiteral("ViewMenu"));

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
    if (auto *viewMenu = findChild<QMenu *>(QStringLiteral("ViewMenu")))
        viewMenu->addAction(dock->toggleViewAction());
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

    bindWhatIf(m_thresholdsPanel, m_whatIf, m_timelineModel);
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
        statusBar()->showMessage(tr("The session now compacts with the new policy."), 4000);
        Q_EMIT policyApplied(policy);
    });
}

void MainWindow::setStore(SessionStore *store, const QString &databasePath)
{
    m_store = store;
    m_databasePath = databasePath;
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
    m_sessionsPanel->refresh();
}

bool MainWindow::openLastSession()
{
    const QString last = QSettings().value(QStringLiteral("Session/last")).toString();
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
        QSettings().setValue(QStringLiteral("Session/last"), session.info.id);
    if (m_sessionsPanel) {
        m_sessionsPanel->refresh();
        m_sessionsPanel->setCurrentSession(session.info.id);
    }
    setWindowTitle(tr("%1 — Waterline").arg(session.info.title.isEmpty() ? tr("Untitled session") : session.info.title));

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
    fillConversation(session);

    m_thresholdsPanel->setPolicy(session.policy);
    m_thresholdsPanel->setSessionPolicy(session.policy);
    m_thresholdsPanel->setRecordedTotals(session.recordedTotals());
    m_whatIf->setSession(session.simulatorInput());
    m_whatIf->request(session.policy);

    if (session.isEmpty())
        m_statusSession->setText(tr("No session open"));
    else
        m_statusSession->setText(tr("%1: %n message(s)", nullptr, int(session.history.size())).arg(session.info.title)
                             + tr(", %n request(s)", nullptr, session.requestCount())
                             + tr(", %n compaction(s)", nullptr, int(session.records.size())));
    if (session.requestCount() > 0)
        selectRequest(session.requestCount() - 1);
    Q_EMIT sessionShown();
}

void MainWindow::fillConversation(const LoadedSession &session)
{
    // Messages in order, with a compaction marker where each compaction happened.
    m_conversationModel->clear();
    qsizetype cursor = 0;
    for (const CompactionRecord &record : session.records) {
        if (record.tier == Tier::None)
            continue;
        const qsizetype end = std::max(cursor, session.historyEndOf(record.requestIndex));
        if (end > cursor)
            m_conversationModel->appendMessages(session.history.mid(cursor, end - cursor));
        cursor = end;
        CompactionMarker marker;
        marker.recordId = record.id;
        marker.tier = record.tier;
        marker.tokensBefore = record.tokensBefore;
        marker.tokensAfter = record.tokensAfter;
        marker.offloads = int(record.offloaded.size());
        for (AnchorChange c : record.anchorChanges)
            marker.anchorsChanged += (c == AnchorChange::New || c == AnchorChange::Updated) ? 1 : 0;
        m_conversationModel->addCompactionMarker(marker);
    }
    if (cursor < session.history.size())
        m_conversationModel->appendMessages(session.history.mid(cursor));
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
    const QString dir = settings.value(QStringLiteral("Import/lastDir"), QDir::homePath()).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Import a transcript"), dir,
        tr("Agent transcripts (*.jsonl *.json *.traj);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("Import/lastDir"), QFileInfo(path).absolutePath());
    importTranscript(path);
}

void MainWindow::importTranscript(const QString &path)
{
    if (m_databasePath.isEmpty()) {
        QMessageBox::warning(this, tr("Import"), tr("No session database is open."));
        return;
    }
    auto sessionId = std::make_shared<QString>();
    const QString databasePath = m_databasePath;
    auto *task = new ProgressTask([path, databasePath, sessionId](const ProgressTask::Report &report, const std::atomic_bool &cancel) {
        SessionStore store;
        QString error;
        if (!store.open(databasePath, &error))
            return error;
        SessionImporter::Options options;
        options.cancel = &cancel;
        options.progress = [&report, path](qint64 done, qint64 total) {
            report(QFileInfo(path).fileName(), total > 0 ? int(100 * done / total) : 0);
        };
        const SessionImporter::Result result = SessionImporter::importFile(store, path, options);
        if (!result.ok)
            return result.cancelled ? QString() : result.error;
        *sessionId = result.sessionId;
        return QString();
    }, this);
    auto *dialog = new QProgressDialog(tr("Importing %1...").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 100, this);
    dialog->setWindowTitle(tr("Import"));
    dialog->setMinimumDuration(300);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    connect(dialog, &QProgressDialog::canceled, task, &ProgressTask::cancel);
    connect(task, &ProgressTask::progress, dialog, [dialog](const QString &, int percent) { dialog->setValue(percent); });
    connect(task, &ProgressTask::finished, this, [this, task, dialog, sessionId, path](const QString &error, bool cancelled) {
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
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl &url : urls)
        if (url.isLocalFile())
            importTranscript(url.toLocalFile());
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
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue(QLatin1StringView(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1StringView(kStateKey), saveState(kStateVersion));
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
