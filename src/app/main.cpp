// The `waterline` desktop application.
#include "AppIdentity.h"
#include "MainWindow.h"
#include "compare/ComparePoliciesWindow.h"
#include "workbench/SessionLifecycle.h"

#include "Paths.h"
#include "sessions/SessionsPanel.h"
#include "store/SessionStore.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>

#include <cstdio>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

void printError(const QString &text)
{
    std::fprintf(stderr, "waterline: %s\n", qPrintable(text));
}

// Grabs the window once start-up work (opening a session) has settled; with `compare`, the Compare
// Policies window once its first sweep has finished.
void scheduleScreenshot(wl::MainWindow &window, const QString &path, bool waitForSession, bool compare = false)
{
    auto grab = [&window, path, compare] {
        QTimer::singleShot(800, &window, [&window, path, compare] {
            QWidget *target = compare && window.comparePoliciesWindow() ? static_cast<QWidget *>(window.comparePoliciesWindow()) : &window;
            const QPixmap shot = target->grab();
            if (shot.isNull() || !shot.save(path, "PNG")) {
                printError(QApplication::translate("main", "could not write the screenshot to %1").arg(path));
                QCoreApplication::exit(1);
                return;
            }
            QCoreApplication::exit(0);
        });
    };
    if (compare) {
        QObject::connect(&window, &wl::MainWindow::sessionShown, &window, [&window, grab] {
            QObject::connect(window.showComparePolicies(true), &wl::ComparePoliciesWindow::finished, &window, grab, Qt::SingleShotConnection);
        }, Qt::SingleShotConnection);
    } else if (!waitForSession) {
        grab();
        return;
    } else {
        QObject::connect(&window, &wl::MainWindow::sessionShown, &window, grab, Qt::SingleShotConnection);
    }
    // Never hang: grab what there is after two minutes.
    QTimer::singleShot(120000, &window, grab);
}

// Waterline's options. The descriptions are translated when the translators are installed first.
struct CommandLine
{
    CommandLine()
        : helpOption(parser.addHelpOption())
        , versionOption(parser.addVersionOption())
    {
        parser.setApplicationDescription(QCoreApplication::translate("main", "Waterline: run LLM agents and see how their context is compacted."));
        parser.addOptions({dbOption, workspaceOption, sessionOption, demoOption, screenshotOption, showDockOption, compareOption});
    }

    // True when the arguments parse and ask for help or the version, and nothing else needs doing.
    bool onlyPrints(const QStringList &arguments)
    {
        return parser.parse(arguments)
            && (parser.isSet(helpOption) || parser.isSet(u"help-all"_s) || parser.isSet(versionOption));
    }

    QCommandLineParser parser;
    const QCommandLineOption helpOption;
    const QCommandLineOption versionOption;
    const QCommandLineOption dbOption{u"db"_s, QCoreApplication::translate("main", "Use the session database at <path>."), u"path"_s};
    const QCommandLineOption workspaceOption{u"workspace"_s, QCoreApplication::translate("main", "Start a new session in the workspace folder <dir>."), u"dir"_s};
    const QCommandLineOption sessionOption{QStringList{u"open"_s, u"session"_s}, QCoreApplication::translate("main", "Open the session with this <id>."), u"id"_s};
    const QCommandLineOption demoOption{u"demo"_s, QCoreApplication::translate("main", "Open the bundled demo session (no network needed).")};
    const QCommandLineOption screenshotOption{u"screenshot"_s, QCoreApplication::translate("main", "Render the main window after start-up to the PNG <path> and exit."), u"path"_s};
    const QCommandLineOption showDockOption{u"show-dock"_s, QCoreApplication::translate("main", "Bring the dock <name> (e.g. Anchors) to the front; useful with --screenshot."), u"name"_s};
    const QCommandLineOption compareOption{u"compare-policies"_s, QCoreApplication::translate("main", "Open Compare Policies on the session once it is shown and run its default sweep; "
                                                                                                "with --screenshot, render that window once the sweep is done.")};
};

// The id after --session (or in --session=ID), read before QApplication removes it.
QString sessionFromArguments(const QStringList &arguments)
{
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        if ((a == u"--session" || a == u"-session") && i + 1 < arguments.size())
            return arguments.at(i + 1);
        if (a.startsWith(u"--session="))
            return a.mid(10);
    }
    return {};
}

QStringList argumentList(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    return arguments;
}

} // namespace

int main(int argc, char *argv[])
{
    // --help and --version only print: answer them from a QCoreApplication, because QApplication
    // aborts when no display is reachable (a package check, a script over ssh). Anything the parser
    // does not know (such as Qt's own -platform) still goes to QApplication as before.
    if (CommandLine().onlyPrints(argumentList(argc, argv))) {
        QCoreApplication app(argc, argv);
        wl::setApplicationIdentity(app);
        wl::installTranslations(app, wl::languageSetting());
        CommandLine commandLine;
        commandLine.parser.process(app); // prints the help or the version and exits
        return 0;
    }

    // QApplication takes --session ID for itself (X11 session management) before the parser sees it.
    const QString sessionArgument = sessionFromArguments(argumentList(argc, argv));
    QApplication app(argc, argv);
    wl::setApplicationIdentity(app);
    wl::installTranslations(app, wl::languageSetting());

    CommandLine commandLine;
    QCommandLineParser &parser = commandLine.parser;
    const QCommandLineOption &dbOption = commandLine.dbOption;
    const QCommandLineOption &workspaceOption = commandLine.workspaceOption;
    const QCommandLineOption &sessionOption = commandLine.sessionOption;
    const QCommandLineOption &demoOption = commandLine.demoOption;
    const QCommandLineOption &screenshotOption = commandLine.screenshotOption;
    const QCommandLineOption &showDockOption = commandLine.showDockOption;
    parser.process(app);
    const bool compare = parser.isSet(commandLine.compareOption);

    if (parser.isSet(workspaceOption) && !QFileInfo(parser.value(workspaceOption)).isDir()) {
        printError(QApplication::translate("main", "the workspace '%1' is not a folder").arg(parser.value(workspaceOption)));
        return 2;
    }

    const bool demo = parser.isSet(demoOption);
    const QString dbPath = parser.isSet(dbOption) ? QFileInfo(parser.value(dbOption)).absoluteFilePath()
                                                  : wl::Paths::defaultDatabasePath();
    wl::SessionStore store;
    QString storeError;
    QDir().mkpath(QFileInfo(dbPath).absolutePath());
    wl::MainWindow window;
    window.restoreLayout();
    if (parser.isSet(showDockOption)) {
        QDockWidget *dock = window.dock(parser.value(showDockOption) + u"Dock"_s);
        if (!dock) {
            printError(QApplication::translate("main", "there is no dock named '%1'").arg(parser.value(showDockOption)));
            return 2;
        }
        dock->show();
        dock->raise();
    }

    // The user's database is open with the demo too: whatever is made after opening the demo
    // (imports, proxy recordings, new sessions) goes there, never into the demo's.
    const bool storeOk = store.open(dbPath, &storeError);
    window.setStore(&store, dbPath);

    if (demo) {
        if (!storeOk)
            printError(QApplication::translate("main", "The session database %1 could not be opened: %2").arg(dbPath, storeError));
        window.show();
        QObject::connect(&window, &wl::MainWindow::demoFailed, &window, [](const QString &error) { printError(error); });
        window.openDemo();
        if (parser.isSet(screenshotOption))
            scheduleScreenshot(window, QDir::current().absoluteFilePath(parser.value(screenshotOption)), true, compare);
        else if (compare)
            QObject::connect(&window, &wl::MainWindow::sessionShown, &window, [&window] { window.showComparePolicies(true); }, Qt::SingleShotConnection);
        return app.exec();
    }

    window.show();

    bool opening = false;
    if (!storeOk) {
        const QString text = QApplication::translate("main", "The session database %1 could not be opened:\n%2\n\n"
                                                             "Nothing was changed in it. Start Waterline with --db to use another file.")
                                 .arg(dbPath, storeError);
        printError(text);
        if (!parser.isSet(screenshotOption))
            QMessageBox::critical(&window, QApplication::translate("main", "Waterline"), text);
    } else if (parser.isSet(workspaceOption)) {
        const QString workspace = QFileInfo(parser.value(workspaceOption)).absoluteFilePath();
        if (!window.sessionsPanel()->confirmWorkspace(workspace)) {
            printError(QApplication::translate("main", "not starting a session in %1: it is the whole file system or your home folder").arg(workspace));
        } else {
            // Stored off the GUI thread, then opened.
            QObject::connect(window.sessions(), &wl::SessionLifecycle::writeFailed, &window,
                             [](wl::SessionLifecycle::Write, const QString &, const QString &error) { printError(error); });
            window.sessionsPanel()->createSession(QDir(workspace).dirName(), workspace);
            opening = true;
        }
    } else if (parser.isSet(sessionOption) || !sessionArgument.isEmpty()) {
        window.openSession(parser.isSet(sessionOption) ? parser.value(sessionOption) : sessionArgument);
        opening = true;
    } else {
        opening = window.openLastSession();
    }

    if (parser.isSet(screenshotOption))
        scheduleScreenshot(window, QDir::current().absoluteFilePath(parser.value(screenshotOption)), opening, compare && opening);
    else if (compare)
        QObject::connect(&window, &wl::MainWindow::sessionShown, &window, [&window] { window.showComparePolicies(true); }, Qt::SingleShotConnection);
    return app.exec();
}
