#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QCommandLineParser;

namespace wl::cli {

// Exit codes shared by every subcommand.
enum ExitCode { Ok = 0, Failure = 1, UsageError = 2, BadInput = 3 };

struct Command
{
    QString name;
    QString summary;
    // Receives the arguments after the subcommand name (argv[0] is "waterline-cli <name>").
    std::function<int(const QStringList &arguments)> run;
};

// Every subcommand; later components append theirs here.
QList<Command> commands();

int printError(const QString &text);   // "waterline-cli: <text>" on stderr, returns Failure
int usageError(const QString &text);   // the same, returns UsageError
int badInput(const QString &text);     // the same, returns BadInput
// Parses a subcommand's arguments, prints its help for --help and refuses a wrong number of
// positional arguments (`positional` < 0: any number) with `positionalError`. Returns the exit
// code to stop with, or nothing when the command goes on.
std::optional<int> parseArguments(QCommandLineParser &parser, const QStringList &arguments, int positional = -1,
                                  const QString &positionalError = {});
void printOut(const QString &text);    // text on stdout, newline added

} // namespace wl::cli
