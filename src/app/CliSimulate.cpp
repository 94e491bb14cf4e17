#include "CliSimulate.h"

#include "CliCommands.h"
#include "CliPolicyOptions.h"
#include "compaction/CompactionPolicy.h"
#include "model/BoundedInteger.h"
#include "model/MessageCodec.h"
#include "replay/ImportedSession.h"
#include "replay/TranscriptFormats.h"
#include "store/SessionStore.h"
#include "whatif/ReplayInput.h"
#include "whatif/Simulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace wl::cli {

namespace {

std::optional<qint64> parseCount(const QString &option, const QString &value, qint64 minimum, qint64 maximum, QString *error)
{
    return BoundedInteger::fromString(value, minimum, maximum, option, error);
}

void warnAboutImport(const ImportedSession &s)
{
    if (s.skippedLines > 0) {
        printError(QCoreApplication::translate("waterline-cli", "warning: %1: %2 record(s) skipped; the first: %3")
                       .arg(s.sourcePath)
                       .arg(s.skippedLines)
                       .arg(s.problems.value(0)));
    }
    if (s.rejectedNumbers > 0) {
        printError(QCoreApplication::translate("waterline-cli", "warning: %1: %2 number(s) no integer holds, read as not reported; the first: %3")
                       .arg(s.sourcePath)
                       .arg(s.rejectedNumbers)
                       .arg(s.numberProblems.value(0)));
    }
}

// Which session of a file of several to replay: the one given by index (already imported), the
// one with the given id, or -- with neither given and more than one there -- none: `error` then
// lists them. Returns the index, or -1.
int pickSession(const ImportedSession &s, bool indexGiven, const std::optional<QString> &id, QString *error)
{
    auto listing = [&s]() {
        constexpr int shown = 20;
        QString list;
        for (int i = 0; i < std::min<int>(s.runCount, shown); ++i)
            list += u"\n  %1  %2"_s.arg(i, 4).arg(s.runIds.value(i));
        if (s.runCount > shown)
            list += u"\n  "_s + QCoreApplication::translate("waterline-cli", "... and %1 more").arg(s.runCount - shown);
        return list;
    };
    if (id) {
        const qsizetype found = s.runIds.indexOf(*id);
        if (found < 0) {
            *error = QCoreApplication::translate("waterline-cli", "--session-id: %1 holds no session '%2'; its %n session(s):", nullptr, s.runCount)
                         .arg(s.sourcePath, *id) + listing();
            return -1;
        }
        return int(found);
    }
    if (!indexGiven && s.runCount > 1) {
        *error = QCoreApplication::translate("waterline-cli", "%1 holds %2 sessions; pick one with --session-index N or --session-id ID:")
                     .arg(s.sourcePath).arg(s.runCount) + listing();
        return -1;
    }
    return s.runIndex;
}

QString textTable(const SimulationResult &result)
{
    QString out = u"%1 %2 %3 %4 %5 %6 %7 %8\n"_s.arg(u"index"_s, 6)
                      .arg(u"tier"_s, -9)
                      .arg(u"before"_s, 7)
                      .arg(u"after"_s, 7)
                      .arg(u"tokens"_s, 9)
                      .arg(u"sent"_s, 9)
                      .arg(u"offl"_s, 5)
                      .arg(u"summ"_s, 5);
    for (const SimulationRow &r : result.rows) {
        out += u"%1 %2 %3 %4 %5 %6 %7 %8"_s.arg(r.index, 6)
                   .arg(tierName(r.tier), -9)
                   .arg(r.ratioBefore, 7, 'f', 3)
                   .arg(r.ratioAfter, 7, 'f', 3)
                   .arg(r.tokensBefore, 9)
                   .arg(r.tokensAfter, 9)
                   .arg(r.offloaded, 5)
                   .arg(r.summarized, 5);
        if (!r.error.isEmpty())
            out += u"  "_s + r.error;
        out += u'\n';
    }
    const SimulationTotals &t = result.totals;
    out += QCoreApplication::translate("waterline-cli", "requests %1, summary calls %2, emergencies %3, peak ratio %4, tokens sent %5")
               .arg(t.requests)
               .arg(t.summaryCalls)
               .arg(t.emergencies)
               .arg(t.peakRatio, 0, 'f', 3)
               .arg(t.tokensSent);
    // Tokens sent are the requests'; what the summaries read comes on top with an LLM summariser.
    out += u'\n' + QCoreApplication::translate("waterline-cli", "window %1, peak ratio before compaction %2, requests per tier "
                                                               "warn %3 soft %4 full %5 emergency %6, offloads %7, read by summaries %8")
               .arg(t.window)
               .arg(t.peakRatioBefore, 0, 'f', 3)
               .arg(t.tiers[size_t(Tier::Warn)])
               .arg(t.tiers[size_t(Tier::Soft)])
               .arg(t.tiers[size_t(Tier::Full)])
               .arg(t.tiers[size_t(Tier::Emergency)])
               .arg(t.offloads)
               .arg(t.summaryInputTokens);
    return out;
}

} // namespace

std::optional<qint64> parseWindow(const QString &option, const QString &value, QString *error)
{
    return parseCount(option, value, 1, BoundedInteger::maxTokens, error);
}

bool openExistingStore(SessionStore &store, const QString &path, int *exitCode)
{
    if (!QFileInfo(path).isFile()) {
        printError(QCoreApplication::translate("waterline-cli", "%1: no such session database").arg(path));
        *exitCode = BadInput;
        return false;
    }
    QString error;
    if (!store.open(path, &error)) {
        printError(error);
        *exitCode = BadInput;
        return false;
    }
    return true;
}

int runSimulate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("waterline-cli", "Replay a recorded session under a compaction policy, with no model and no network, and print what "
                                                     "each request would have sent.\nFILE_OR_SESSION is a transcript file (any format `import` reads, read in "
                                                     "memory) or, with --db, the id of a stored session (its saved policy is the starting point)."));
    parser.addHelpOption();
    SourceOptions sourceOptions;
    const QCommandLineOption &input = sourceOptions.input;
    const QCommandLineOption &db = sourceOptions.db;
    const QCommandLineOption &format = sourceOptions.format;
    PolicyOptions policyOptions;
    const QCommandLineOption dump(u"dump-views"_s, QCoreApplication::translate("waterline-cli", "Write DIR/<index>.json per request: the view as OpenAI chat messages."),
                                  u"DIR"_s);
    const QCommandLineOption json(u"json"_s, QCoreApplication::translate("waterline-cli", "Print one JSON object {\"requests\": [...], \"totals\": {...}}."));
    const QCommandLineOption run(QStringList{u"session-index"_s, u"run"_s},
                                 QCoreApplication::translate("waterline-cli", "A file of several sessions (OpenHands evaluation output, a JSON array of "
                                                                              "trajectories): the session to replay, counted from 0."),
                                 u"N"_s);
    const QCommandLineOption runId(u"session-id"_s, QCoreApplication::translate("waterline-cli", "A file of several sessions: the session to replay, by its id "
                                                                                                "(instance_id or run_id)."),
                                   u"ID"_s);
    sourceOptions.addTo(parser);
    policyOptions.addTo(parser);
    parser.addOptions({dump, json, run, runId});

    // Every bad value is a usage error naming its option.
    if (const std::optional<int> stop = readReplayArguments(parser, arguments, QCoreApplication::translate("waterline-cli", "simulate takes no positional arguments (give --input)"), sourceOptions, policyOptions))
        return *stop;
    const QString formatName = parser.value(format);
    QString error;
    std::optional<qint64> runValue;
    // The option as the user spelled it (--run is the older name of --session-index).
    const QString runName = parser.optionNames().contains(u"run"_s) ? u"--run"_s : u"--session-index"_s;
    if (parser.isSet(run) && !(runValue = parseCount(runName, parser.value(run), 0, std::numeric_limits<int>::max(), &error)))
        return usageError(error);
    if (parser.isSet(run) && parser.isSet(runId))
        return usageError(QCoreApplication::translate("waterline-cli", "--session-index and --session-id exclude each other"));

    // The recorded session.
    const QString source = parser.value(input);
    ReplayInput replay;
    CompactionPolicy policy;
    if (QFileInfo(source).isFile() || QFileInfo(source).isDir()) {
        ImportOptions options;
        options.runIndex = runValue ? int(*runValue) : 0;
        ImportResult imported = TranscriptFormats::importFile(source, formatName, options);
        if (!imported.ok)
            return badInput(imported.error);
        if (const int picked = pickSession(imported.session, parser.isSet(run), parser.isSet(runId) ? std::optional(parser.value(runId)) : std::nullopt, &error);
            picked < 0) {
            return usageError(error);
        } else if (picked != imported.session.runIndex) {
            options.runIndex = picked;
            imported = TranscriptFormats::importFile(source, formatName, options);
            if (!imported.ok)
                return badInput(imported.error);
        }
        warnAboutImport(imported.session);
        replay = ReplayInput::fromImport(imported.session);
        policy = replay.defaultPolicy();
    } else if (parser.isSet(db)) {
        SessionStore store;
        int code = Ok;
        if (!openExistingStore(store, parser.value(db), &code))
            return code;
        std::optional<ReplayInput> stored = ReplayInput::fromStore(store, source, &error);
        if (!stored)
            return badInput(QCoreApplication::translate("waterline-cli", "%1: %2").arg(parser.value(db), error));
        replay = std::move(*stored);
        policy = replay.defaultPolicy();
        if (const auto info = store.session(source); info && !info->policy.isEmpty()) {
            CompactionPolicy saved;
            if (CompactionPolicy::fromJson(info->policy, &saved) && saved.isValid())
                policy = saved;
        }
    } else {
        return badInput(QCoreApplication::translate("waterline-cli", "%1: no such file (a session id needs --db PATH)").arg(source));
    }

    if (!policyOptions.applyTo(policy, &error))
        return usageError(error);
    if (const std::optional<qint64> overhead = policyOptions.overhead())
        replay.setOverhead(*overhead);
    const SimulationResult result = Simulator::simulate(replay.simulatorInput(policy, policyOptions.summaryModel()));

    if (parser.isSet(dump)) {
        const QString dir = parser.value(dump);
        if (!QDir().mkpath(dir))
            return printError(QCoreApplication::translate("waterline-cli", "--dump-views: cannot create the folder %1").arg(dir));
        for (int row = 0; row < result.rows.size(); ++row) {
            const QString path = QDir(dir).filePath(QString::number(result.rows[row].index) + u".json"_s);
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly))
                return printError(QCoreApplication::translate("waterline-cli", "cannot write %1: %2").arg(path, file.errorString()));
            file.write(QJsonDocument(MessageCodec::toJson(result.viewAt(row))).toJson(QJsonDocument::Compact));
            file.write("\n");
            if (!file.commit())
                return printError(QCoreApplication::translate("waterline-cli", "cannot write %1: %2").arg(path, file.errorString()));
        }
    }

    if (parser.isSet(json))
        printOut(QString::fromUtf8(QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact)));
    else
        printOut(textTable(result));
    return Ok;
}

} // namespace wl::cli
