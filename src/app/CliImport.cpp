#include "CliImport.h"

#include "CliCommands.h"
#include "CliSimulate.h"
#include "compaction/CompactionPolicy.h"
#include "model/BoundedInteger.h"
#include "replay/SessionImporter.h"
#include "replay/TranscriptFormats.h"
#include "store/SessionStore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

#include <limits>

using namespace Qt::StringLiterals;

namespace wl::cli {


int runImport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("waterline-cli", "Import a transcript (another agent's session, or a Waterline export) into a new session of the "
                                                     "database and print the new session's id."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"file"_s, QCoreApplication::translate("waterline-cli", "The transcript file, or a folder of one JSON file per event (OpenHands)."));
    const QCommandLineOption format(u"format"_s, QCoreApplication::translate("waterline-cli", "Transcript format: auto (default), %1.").arg(TranscriptFormats::formats().join(u", "_s)),
                                    u"F"_s, u"auto"_s);
    const QCommandLineOption db(u"db"_s, QCoreApplication::translate("waterline-cli", "Session database (created when missing)."), u"PATH"_s);
    const QCommandLineOption workspace(u"workspace"_s, QCoreApplication::translate("waterline-cli", "Where --replay writes offloaded results (default: a private folder next to the database). "
                                                                                                    "The session stays read-only until it is continued: waterline-cli run --session ID --workspace DIR."), u"DIR"_s);
    const QCommandLineOption title(u"title"_s, QCoreApplication::translate("waterline-cli", "Session title (default: from the transcript)."), u"T"_s);
    const QCommandLineOption replay(u"replay"_s, QCoreApplication::translate("waterline-cli", "Re-run Waterline's compaction over the session (extractive summaries, "
                                                                                              "offload files in the workspace) and store what it did."));
    const QCommandLineOption window(u"window"_s, QCoreApplication::translate("waterline-cli", "With --replay: the context window in tokens (default 128000)."), u"N"_s);
    const QCommandLineOption run(QStringList{u"session-index"_s, u"run"_s},
                                 QCoreApplication::translate("waterline-cli", "A file of several sessions (OpenHands evaluation output, a JSON array of "
                                                                              "trajectories): import only session N, counted from 0 (default: each "
                                                                              "into its own session, one id per line)."),
                                 u"N"_s);
    parser.addOptions({format, db, workspace, title, replay, window, run});

    if (const std::optional<int> stop = parseArguments(parser, arguments, 1, QCoreApplication::translate("waterline-cli", "import takes exactly one file")))
        return *stop;
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
    // The option as the user spelled it (--run is the older name of --session-index).
    const QString runName = parser.optionNames().contains(u"run"_s) ? u"--run"_s : u"--session-index"_s;
    std::optional<qint64> runIndex = SessionImporter::Options::allRuns;
    if (parser.isSet(run)) {
        runIndex = BoundedInteger::fromString(parser.value(run), 0, std::numeric_limits<int>::max(), runName, &error);
        if (!runIndex)
            return printError(error), UsageError;
    }

    const QString file = parser.positionalArguments().constFirst();
    if (!QFileInfo::exists(file))
        return printError(QCoreApplication::translate("waterline-cli", "%1: no such file").arg(file)), BadInput;
    if (parser.isSet(workspace) && !QFileInfo(parser.value(workspace)).isDir())
        return printError(QCoreApplication::translate("waterline-cli", "--workspace: %1 is not a folder").arg(parser.value(workspace))), BadInput;

    SessionStore store;
    if (!store.open(parser.value(db), &error))
        return printError(error), BadInput;

    SessionImporter::Options options;
    options.format = formatName;
    options.workspace = parser.value(workspace);
    options.title = parser.value(title);
    options.runIndex = int(*runIndex);
    options.replay = parser.isSet(replay);
    options.replayPolicy = policy;
    const SessionImporter::Result result = SessionImporter::importFile(store, file, options);
    if (!result.ok)
        return printError(result.error), result.badInput ? BadInput : Failure;
    if (result.skipped > 0)
        printError(QCoreApplication::translate("waterline-cli", "warning: %1: %2 record(s) skipped; the first: %3").arg(file).arg(result.skipped).arg(result.problems.value(0)));
    if (result.rejectedNumbers > 0)
        printError(QCoreApplication::translate("waterline-cli", "warning: %1: %2 number(s) no integer holds, read as not reported; the first: %3")
                       .arg(file).arg(result.rejectedNumbers).arg(result.firstRejectedNumber));
    if (result.issues > 0)
        printError(QCoreApplication::translate("waterline-cli", "note: %1: %2 structural issue(s) kept as they were (calls without results, results without calls)")
                       .arg(file)
                       .arg(result.issues));
    if (result.sessionIds.size() > 1)
        printError(QCoreApplication::translate("waterline-cli", "note: %1 holds %2 sessions; each was imported into its own session").arg(file).arg(result.sessionIds.size()));
    printOut(result.sessionIds.join(u'\n'));
    return Ok;
}

} // namespace wl::cli
