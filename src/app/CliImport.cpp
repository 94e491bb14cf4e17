#include "CliImport.h"

#include "CliCommands.h"
#include "CliSimulate.h"
#include "compaction/CompactionPolicy.h"
#include "replay/SessionImporter.h"
#include "replay/TranscriptFormats.h"
#include "store/SessionStore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace wl::cli {


int runImport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("waterline-cli", "Import a transcript (another agent's session, or a Waterline export) into a new session of the "
                                                     "database and print the new session's id."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"file"_s, QCoreApplication::translate("waterline-cli", "The transcript file."));
    const QCommandLineOption format(u"format"_s, QCoreApplication::translate("waterline-cli", "Transcript format: auto (default), %1.").arg(TranscriptFormats::formats().join(u", "_s)),
                                    u"F"_s, u"auto"_s);
    const QCommandLineOption db(u"db"_s, QCoreApplication::translate("waterline-cli", "Session database (created when missing)."), u"PATH"_s);
    const QCommandLineOption workspace(u"workspace"_s, QCoreApplication::translate("waterline-cli", "Workspace folder of the session, where --replay writes offloaded results (default: the file's folder; "
                                                                                                    "a Waterline export keeps the workspace it was exported with)."), u"DIR"_s);
    const QCommandLineOption title(u"title"_s, QCoreApplication::translate("waterline-cli", "Session title (default: from the transcript)."), u"T"_s);
    const QCommandLineOption replay(u"replay"_s, QCoreApplication::translate("waterline-cli", "Re-run Waterline's compaction over the session (extractive summaries, "
                                                                                              "offload files in the workspace) and store what it did."));
    const QCommandLineOption window(u"window"_s, QCoreApplication::translate("waterline-cli", "With --replay: the context window in tokens (default 128000)."), u"N"_s);
    const QCommandLineOption run(u"run"_s, QCoreApplication::translate("waterline-cli", "OpenHands evaluation output: which run (line) to import (default 0)."), u"N"_s, u"0"_s);
    parser.addOptions({format, db, workspace, title, replay, window, run});

    if (!parser.parse(arguments))
        return printError(parser.errorText()), UsageError;
    if (parser.isSet(u"help"_s)) {
        printOut(parser.helpText());
        return Ok;
    }
    if (parser.positionalArguments().size() != 1)
        return printError(QCoreApplication::translate("waterline-cli", "import takes exactly one file")), UsageError;
    if (!parser.isSet(db))
        return printError(QCoreApplication::translate("waterline-cli", "--db is required")), UsageError;
    const QString formatName = parser.value(format);
    if (formatName != "auto"_L1 && !TranscriptFormats::formats().contains(formatName))
        return printError(QCoreApplication::translate("waterline-cli", "--format: unknown format '%1' (known: auto, %2)").arg(formatName, TranscriptFormats::formats().join(u", "_s))),
               UsageError;
    QString error;
    CompactionPolicy policy;
    if (parser.isSet(window)) {
        if (!parser.isSet(replay))
            return printError(QCoreApplication::translate("waterline-cli", "--window needs --replay")), UsageError;
        const auto value = parseWindow(u"--window"_s, parser.value(window), &error);
        if (!value)
            return printError(error), UsageError;
        policy.contextWindow = *value;
    }
    bool runOk = false;
    const int runIndex = parser.value(run).toInt(&runOk);
    if (!runOk || runIndex < 0)
        return printError(QCoreApplication::translate("waterline-cli", "--run: '%1' is not a whole number of at least 0").arg(parser.value(run))), UsageError;

    const QString file = parser.positionalArguments().constFirst();
    if (!QFileInfo(file).isFile())
        return printError(QFileInfo(file).exists() ? QCoreApplication::translate("waterline-cli", "%1: is a folder, not a transcript file").arg(file)
                                                   : QCoreApplication::translate("waterline-cli", "%1: no such file").arg(file)),
               BadInput;
    if (parser.isSet(workspace) && !QFileInfo(parser.value(workspace)).isDir())
        return printError(QCoreApplication::translate("waterline-cli", "--workspace: %1 is not a folder").arg(parser.value(workspace))), BadInput;

    SessionStore store;
    if (!store.open(parser.value(db), &error))
        return printError(error), BadInput;

    SessionImporter::Options options;
    options.format = formatName;
    options.workspace = parser.value(workspace);
    options.title = parser.value(title);
    options.runIndex = runIndex;
    options.replay = parser.isSet(replay);
    options.replayPolicy = policy;
    const SessionImporter::Result result = SessionImporter::importFile(store, file, options);
    if (!result.ok)
        return printError(result.error), result.badInput ? BadInput : Failure;
    if (result.skipped > 0)
        printError(QCoreApplication::translate("waterline-cli", "warning: %1: %2 record(s) skipped; the first: %3").arg(file).arg(result.skipped).arg(result.problems.value(0)));
    if (result.issues > 0)
        printError(QCoreApplication::translate("waterline-cli", "note: %1: %2 structural issue(s) kept as they were (calls without results, results without calls)")
                       .arg(file)
                       .arg(result.issues));
    printOut(result.sessionId);
    return Ok;
}

} // namespace wl::cli
