// The `waterline` desktop application.
#include "AppIdentity.h"
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    wl::setApplicationIdentity(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Waterline: run LLM agents and see how their context is compacted."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption dbOption(QStringLiteral("db"), QApplication::translate("main", "Use the session database at <path>."), QStringLiteral("path"));
    const QCommandLineOption workspaceOption(QStringLiteral("workspace"), QApplication::translate("main", "Workspace folder for a new session."), QStringLiteral("dir"));
    const QCommandLineOption sessionOption(QStringLiteral("session"), QApplication::translate("main", "Open the session with this <id>."), QStringLiteral("id"));
    const QCommandLineOption demoOption(QStringLiteral("demo"), QApplication::translate("main", "Open the bundled demo session (no network needed)."));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"), QApplication::translate("main", "Render the main window after start-up to the PNG <path> and exit."), QStringLiteral("path"));
    parser.addOptions({dbOption, workspaceOption, sessionOption, demoOption, screenshotOption});
    parser.process(app);

    if (parser.isSet(workspaceOption) && !QFileInfo(parser.value(workspaceOption)).isDir()) {
        std::fprintf(stderr, "%s\n", qPrintable(QApplication::translate("main", "waterline: the workspace '%1' is not a folder").arg(parser.value(workspaceOption))));
        return 2;
    }

    wl::MainWindow window;
    window.restoreLayout();
    window.show();

    if (parser.isSet(screenshotOption)) {
        const QString path = QDir::current().absoluteFilePath(parser.value(screenshotOption));
        // Let layouts, docks and the first paint settle before grabbing.
        QTimer::singleShot(800, &window, [&window, path] {
            const QPixmap shot = window.grab();
            if (shot.isNull() || !shot.save(path, "PNG")) {
                std::fprintf(stderr, "%s\n", qPrintable(QApplication::translate("main", "waterline: could not write the screenshot to %1").arg(path)));
                QCoreApplication::exit(1);
                return;
            }
            QCoreApplication::exit(0);
        });
    }
    return app.exec();
}
