#include "MainWindow.h"

#include "DockPanels.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>

namespace wl {

namespace {
constexpr auto kGeometryKey = "MainWindow/geometry";
constexpr auto kStateKey = "MainWindow/state";
constexpr int kStateVersion = 1;
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(tr("Waterline"));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);

    auto *central = makeExplanationPanel(
        tr("The agent conversation appears here. Open a session from the Sessions dock or start a new one."), this);
    central->setObjectName(QStringLiteral("ConversationArea"));
    setCentralWidget(central);

    createActions();
    createDocks();
    statusBar()->showMessage(tr("Ready"));
    resize(defaultSize());
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
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

void MainWindow::createDocks()
{
    QMenu *viewMenu = findChild<QMenu *>(QStringLiteral("ViewMenu"));
    QDockWidget *previousRight = nullptr;
    QDockWidget *previousBottom = nullptr;
    for (const DockPanel &panel : dockPanels()) {
        auto *dock = new QDockWidget(panel.title, this);
        dock->setObjectName(QString::fromLatin1(panel.objectName));
        dock->setWidget(makeExplanationPanel(panel.explanation, dock));
        const QString name = dock->objectName();
        if (name == u"SessionsDock") {
            addDockWidget(Qt::LeftDockWidgetArea, dock);
        } else if (name == u"TimelineDock" || name == u"CompactionsDock") {
            addDockWidget(Qt::BottomDockWidgetArea, dock);
            if (previousBottom)
                tabifyDockWidget(previousBottom, dock);
            previousBottom = dock;
        } else {
            addDockWidget(Qt::RightDockWidgetArea, dock);
            if (previousRight)
                tabifyDockWidget(previousRight, dock);
            previousRight = dock;
        }
        viewMenu->addAction(dock->toggleViewAction());
    }
    if (auto *timeline = dock(QStringLiteral("TimelineDock")))
        timeline->raise();
    if (auto *thresholds = dock(QStringLiteral("ThresholdsDock")))
        thresholds->raise();
}

QDockWidget *MainWindow::dock(const QString &objectName) const
{
    return findChild<QDockWidget *>(objectName, Qt::FindDirectChildrenOnly);
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
    QMessageBox::about(this, tr("About Waterline"),
        tr("<h3>Waterline %1</h3>"
           "<p>A workbench for long-running LLM agents: run an agent in a workspace folder, "
           "and watch, inspect and tune how its context window is compacted.</p>"
           "<p>Built with Qt %2 (LGPL-3.0) and KDE Frameworks' KSyntaxHighlighting (MIT).</p>")
            .arg(QStringLiteral(WATERLINE_VERSION), QString::fromLatin1(qVersion())));
}

} // namespace wl
