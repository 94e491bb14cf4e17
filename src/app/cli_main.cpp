// `waterline-cli`: headless entry point. `waterline-cli COMMAND --help` for each command.
#include "AppIdentity.h"
#include "CliCommands.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    wl::setApplicationIdentity(app);
    wl::installTranslations(app, wl::languageSetting());
    const QStringList args = QCoreApplication::arguments();

    auto usage = [] {
        QString text = QCoreApplication::translate("waterline-cli", "Usage: waterline-cli COMMAND [OPTIONS]\n\nCommands:\n");
        for (const wl::cli::Command &command : wl::cli::commands())
            text += u"  %1  %2\n"_s.arg(command.name, -10).arg(command.summary);
        text += QCoreApplication::translate("waterline-cli", "\nRun 'waterline-cli COMMAND --help' for a command's options.");
        return text;
    };

    if (args.size() < 2)
        return wl::cli::printError(usage()), wl::cli::UsageError;
    const QString first = args.at(1);
    if (first == u"--help" || first == u"-h" || first == u"help") {
        wl::cli::printOut(usage());
        return wl::cli::Ok;
    }
    if (first == u"--version" || first == u"-v") {
        wl::cli::printOut(u"waterline-cli %1"_s.arg(QCoreApplication::applicationVersion()));
        return wl::cli::Ok;
    }
    for (const wl::cli::Command &command : wl::cli::commands()) {
        if (command.name == first) {
            QStringList rest = args.mid(2);
            rest.prepend(u"waterline-cli "_s + first);
            return command.run(rest);
        }
    }
    wl::cli::printError(QCoreApplication::translate("waterline-cli", "unknown command '%1'").arg(first));
    wl::cli::printOut(usage());
    return wl::cli::UsageError;
}
