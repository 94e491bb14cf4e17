// The `waterline` desktop application.
#include "AppIdentity.h"
#include "MainWindow.h"

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

// Grabs the window once start-up work (opening a session) has settled.
void scheduleScreenshot(wl::MainWindow &window, const QString &path, bool waitForSession)
{
    auto grab = [&window, path] {
        QTimer::singleShot(800, &window, [&window, path] {
            const QPixmap shot = window.grab();
            if (shot.isNull() || !shot.save(path, "PNG")) {
                printError(QApplication::translate("main", "could not write the screenshot to %1").arg(path));
                QCoreApplication::exit(1);
                return;
            }
            QCoreApplication::exit(0);
        });
    };
    if (!waitForSession) {
        grab();
        return;
    }
    QObject::connect(&window, &wl::MainWindow::sessionShown, &window, grab, Qt::SingleShotConnection);
    // Never hang: grab what there is after two minutes.
    QTimer::singleShot(120000, &window, grab);
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    wl::setApplicationIdentity(app);
    wl::installTranslations(app, wl::languageSetting());

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Waterline: run LLM agents and see how their context is compacted."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption dbOption(QStringLiteral("db"), QApplication::translate("main", "Use the session database at <path>."), QStringLiteral("path"));
    const QCommandLineOption workspaceOption(QStringLiteral("workspace"), QApplication::translate("main", "Start a new session in the workspace folder <dir>."), QStringLiteral("dir"));
    const QCommandLineOption sessionOption(QStringLiteral("session"), QApplication::translate("main", "Open the session with this <id>."), QStringLiteral("id"));
    const QCommandLineOption demoOption(QStringLiteral("demo"), QApplication::translate("main", "Open the bundled demo session (no network needed)."));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"), QApplication::translate("main", "Render the main window after start-up to the PNG <path> and exit."), QStringLiteral("path"));
    const QCommandLineOption showDockOption(QStringLiteral("show-dock"), QApplication::translate("main", "Bring the dock <name> (e.g. Anchors) to the front; useful with --screenshot."), QStringLiteral("name"));
    parser.addOptions({dbOption, workspaceOption, sessionOption, demoOption, screenshotOption, showDockOption});
    parser.process(app);

    if (parser.isSet(workspaceOption) && !QFileInfo(parser.value(workspaceOption)).isDir()) {
        printError(QApplication::translate("main", "the workspace '%1' is not a folder").arg(parser.value(workspaceOption)));
        return 2;
    }

    const bool demo = parser.isSet(demoOption);
    const QString dbPath = parser.isSet(dbOption) ? QFileInfo(parser.value(dbOption)).absoluteFilePath()
                                                  : wl::Paths::defaultDatabasePath();
    wl::SessionStore store;
    QString storeError;
    if (!demo)
        QDir().mkpath(QFileInfo(dbPath).absolutePath());
    wl::MainWindow window;
    window.restoreLayout();
    if (parser.isSet(showDockOption)) {
        QDockWidget *dock = window.dock(parser.value(showDockOption) + QStringLiteral("Dock"));
        if (!dock) {
            printError(QApplication::translate("main", "there is no dock named '%1'").arg(parser.value(showDockOption)));
            return 2;
        }
        dock->show();
        dock->raise();
    }

    if (demo) {
        window.show();
        QObject::connect(&window, &wl::MainWindow::demoFailed, &window, [](const QString &error) { printError(error); });
        window.openDemo();
        if (parser.isSet(screenshotOption))
            scheduleScreenshot(window, QDir::current().absoluteFilePath(parser.value(screenshotOption)), true);
        return app.exec();
    }

    const bool storeOk = store.open(dbPath, &storeError);
    window.setStore(&store, dbPath);
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
        QString id, error;
        const QString workspace = QFileInfo(parser.value(workspaceOption)).absoluteFilePath();
        if (!window.sessionsPanel()->confirmWorkspace(workspace)) {
            printError(QApplication::translate("main", "not starting a session in %1: it is the whole file system or your home folder").arg(workspace));
        } else if (window.sessionsPanel()->createSession(QDir(workspace).dirName(), workspace, &id, &error)) {
            window.openSession(dbPath, id);
            opening = true;
        } else {
            printError(error);
        }
    } else if (parser.isSet(sessionOption)) {
        window.openSession(dbPath, parser.value(sessionOption));
        opening = true;
    } else {
        opening = window.openLastSession();
    }

    if (parser.isSet(screenshotOption))
        scheduleScreenshot(window, QDir::current().absoluteFilePath(parser.value(screenshotOption)), opening);
    return app.exec();
}
