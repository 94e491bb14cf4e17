#include "CliEvaluate.h"

#include "CliCommands.h"
#include "CliSimulate.h"
#include "compaction/CompactionPolicy.h"
#include "model/BoundedInteger.h"
#include "replay/ImportedSession.h"
#include "replay/TranscriptFormats.h"
#include "score/PriceTable.h"
#include "score/RecordedRun.h"
#include "score/RunScorer.h"
#include "settings/AppSettings.h"
#include "store/SessionStore.h"
#include "whatif/ReplayInput.h"
#include "whatif/Simulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace wl::cli {

namespace {

int usage(const QString &text)
{
    printError(text);
    return UsageError;
}

int badInput(const QString &text)
{
    printError(text);
    return BadInput;
}

// The recorded session, whichever way it came.
struct Loaded
{
    ReplayInput replay;
    RecordedRun recorded;
    QList<qint64> reportedOutput;
    CompactionPolicy policy;
};

QString percent(double fraction)
{
    return u"%1 %"_s.arg(fraction * 100, 0, 'f', 1);
}

QString textReport(const RunScore &recorded, const RunScore &whatIf, const ScoreBasis &basis, const QString &model,
                   CacheProtocol protocol)
{
    auto row = [](const QString &name, const QString &a, const QString &b) {
        return u"%1 %2 %3\n"_s.arg(name, -20).arg(a, 14).arg(b, 14);
    };
    auto num = [](qint64 v) { return QString::number(v); };
    QString out = row(QString(), QCoreApplication::translate("waterline-cli", "recorded"), QCoreApplication::translate("waterline-cli", "what-if"));
    out += row(QCoreApplication::translate("waterline-cli", "coverage"), percent(recorded.coverage.coverage()), percent(whatIf.coverage.coverage()));
    out += row(QCoreApplication::translate("waterline-cli", "needed facts"), num(recorded.coverage.needed), num(whatIf.coverage.needed));
    out += row(QCoreApplication::translate("waterline-cli", "verbatim"), num(recorded.coverage.verbatim), num(whatIf.coverage.verbatim));
    out += row(QCoreApplication::translate("waterline-cli", "summarised"), num(recorded.coverage.summarised), num(whatIf.coverage.summarised));
    out += row(QCoreApplication::translate("waterline-cli", "retrievable"), num(recorded.coverage.retrievable), num(whatIf.coverage.retrievable));
    out += row(QCoreApplication::translate("waterline-cli", "lost"), num(recorded.coverage.lost), num(whatIf.coverage.lost));
    out += row(QCoreApplication::translate("waterline-cli", "input tokens"), num(recorded.cost.input), num(whatIf.cost.input));
    out += row(QCoreApplication::translate("waterline-cli", "cache read tokens"), num(recorded.cost.cacheRead), num(whatIf.cost.cacheRead));
    out += row(QCoreApplication::translate("waterline-cli", "cache write tokens"), num(recorded.cost.cacheWrite), num(whatIf.cost.cacheWrite));
    out += row(QCoreApplication::translate("waterline-cli", "output tokens"), num(recorded.cost.output), num(whatIf.cost.output));
    out += row(QCoreApplication::translate("waterline-cli", "summary calls"), num(recorded.summaryCalls), num(whatIf.summaryCalls));
    const QString priceNote = whatIf.priced ? QCoreApplication::translate("waterline-cli", "US$ (%1, %2 caching)").arg(model, cacheProtocolName(protocol))
                                            : QCoreApplication::translate("waterline-cli", "US$ (no price for model '%1')").arg(model);
    out += row(priceNote.left(20), u"%1"_s.arg(recorded.cost.usd(recorded.price), 0, 'f', 4), u"%1"_s.arg(whatIf.cost.usd(whatIf.price), 0, 'f', 4));
    if (!whatIf.priced || priceNote.size() > 20)
        out += priceNote + u'\n';
    constexpr qsizetype shown = 20;
    if (!whatIf.lostFacts.isEmpty()) {
        out += u'\n' + QCoreApplication::translate("waterline-cli", "Facts the what-if loses (%1):").arg(whatIf.lostFacts.size()) + u'\n';
        for (qsizetype i = 0; i < std::min(shown, whatIf.lostFacts.size()); ++i) {
            const LostFact &l = whatIf.lostFacts[i];
            const Fact &f = basis.facts[l.fact];
            out += QCoreApplication::translate("waterline-cli", "  request %1 used %2 %3").arg(basis.requestIndexes.value(l.request)).arg(factKindName(f.kind), f.text) + u'\n';
        }
        if (whatIf.lostFacts.size() > shown)
            out += u"  "_s + QCoreApplication::translate("waterline-cli", "... and %1 more").arg(whatIf.lostFacts.size() - shown) + u'\n';
    }
    out.chop(1);
    return out;
}

} // namespace

int runEvaluate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "waterline-cli", "Score a recorded session and a compaction policy: which facts each request needed (the ones its answer used), "
                         "how many of them the view kept verbatim, summarised or retrievable, which were lost, and what the requests cost "
                         "with prompt caching. FILE_OR_SESSION is a transcript file or, with --db, a stored session id."));
    parser.addHelpOption();
    const QCommandLineOption input(u"input"_s, QCoreApplication::translate("waterline-cli", "Transcript file, or session id with --db."), u"FILE_OR_SESSION"_s);
    const QCommandLineOption db(u"db"_s, QCoreApplication::translate("waterline-cli", "Session database holding the session."), u"PATH"_s);
    const QCommandLineOption format(u"format"_s, QCoreApplication::translate("waterline-cli", "Transcript format: auto (default), %1.").arg(TranscriptFormats::formats().join(u", "_s)),
                                    u"F"_s, u"auto"_s);
    const QCommandLineOption window(u"window"_s, QCoreApplication::translate("waterline-cli", "Context window in tokens (default as for simulate)."), u"N"_s);
    const QCommandLineOption warn(u"warn"_s, QCoreApplication::translate("waterline-cli", "Warn threshold, a fraction of the window (default 0.60)."), u"F"_s);
    const QCommandLineOption soft(u"soft"_s, QCoreApplication::translate("waterline-cli", "Soft threshold (default 0.70)."), u"F"_s);
    const QCommandLineOption full(u"full"_s, QCoreApplication::translate("waterline-cli", "Full threshold (default 0.80)."), u"F"_s);
    const QCommandLineOption emergency(u"emergency"_s, QCoreApplication::translate("waterline-cli", "Emergency threshold (default 0.95)."), u"F"_s);
    const QCommandLineOption tail(u"tail"_s, QCoreApplication::translate("waterline-cli", "Messages always kept at the end of the view (default 6)."), u"N"_s);
    const QCommandLineOption offload(u"offload-threshold"_s, QCoreApplication::translate("waterline-cli", "Gate 2 offload size in bytes (default 4000)."), u"BYTES"_s);
    const QCommandLineOption toolTime(u"offload-at-tool-time"_s, QCoreApplication::translate("waterline-cli", "Gate 1 offload size in bytes (default 10000)."), u"BYTES"_s);
    const QCommandLineOption overhead(u"overhead"_s, QCoreApplication::translate("waterline-cli", "Tokens every request carried besides its messages and tool schemas (default: as simulate)."),
                                      u"TOKENS"_s);
    const QCommandLineOption summary(u"summary"_s, QCoreApplication::translate("waterline-cli", "How new summaries are made: extractive (default), or size:TOKENS."), u"MODEL"_s,
                                     u"extractive"_s);
    const QCommandLineOption schemas(u"count-tool-schemas"_s, QCoreApplication::translate("waterline-cli", "Count tool schemas in the ratio: on (default) or off."), u"on|off"_s);
    const QCommandLineOption run(u"session-index"_s, QCoreApplication::translate("waterline-cli", "A file of several sessions: the session to score, counted from 0."), u"N"_s);
    const QCommandLineOption priceModel(u"price-model"_s, QCoreApplication::translate("waterline-cli", "Price the requests as this model (default: the session's model)."), u"MODEL"_s);
    const QCommandLineOption json(u"json"_s, QCoreApplication::translate("waterline-cli", "Print one JSON object {\"recorded\": {...}, \"whatif\": {...}}."));
    parser.addOptions({input, db, format, window, warn, soft, full, emergency, tail, offload, toolTime, overhead, summary, schemas, run, priceModel, json});

    if (!parser.parse(arguments))
        return usage(parser.errorText());
    if (parser.isSet(u"help"_s)) {
        printOut(parser.helpText());
        return Ok;
    }
    if (!parser.positionalArguments().isEmpty())
        return usage(QCoreApplication::translate("waterline-cli", "evaluate takes no positional arguments (give --input)"));
    if (!parser.isSet(input))
        return usage(QCoreApplication::translate("waterline-cli", "--input is required"));
    const QString formatName = parser.value(format);
    if (formatName != "auto"_L1 && !TranscriptFormats::formats().contains(formatName))
        return usage(QCoreApplication::translate("waterline-cli", "--format: unknown format '%1'").arg(formatName));

    QString error;
    auto count = [&](const QCommandLineOption &o, qint64 minimum, qint64 maximum, std::optional<qint64> *out) {
        if (!parser.isSet(o))
            return true;
        *out = BoundedInteger::fromString(parser.value(o), minimum, maximum, u"--"_s + o.names().constFirst(), &error);
        return out->has_value();
    };
    std::optional<qint64> windowValue, tailValue, offloadValue, toolTimeValue, overheadValue, runValue;
    if (!count(window, 1, BoundedInteger::maxTokens, &windowValue) || !count(tail, 1, 1'000'000, &tailValue)
        || !count(offload, 0, BoundedInteger::maxBytes, &offloadValue) || !count(toolTime, 0, BoundedInteger::maxBytes, &toolTimeValue)
        || !count(overhead, 0, BoundedInteger::maxTokens, &overheadValue) || !count(run, 0, std::numeric_limits<int>::max(), &runValue))
        return usage(error);
    const QCommandLineOption *thresholdOptions[4] = {&warn, &soft, &full, &emergency};
    std::optional<double> thresholds[4];
    for (int i = 0; i < 4; ++i) {
        const QCommandLineOption &o = *thresholdOptions[i];
        if (!parser.isSet(o))
            continue;
        bool ok = false;
        const double v = parser.value(o).toDouble(&ok);
        if (!ok || !std::isfinite(v) || v <= 0 || v > 1)
            return usage(QCoreApplication::translate("waterline-cli", "--%1: '%2' is not a fraction of the window in (0, 1]").arg(o.names().constFirst(), parser.value(o)));
        thresholds[i] = v;
    }
    SummaryModel summaryModel = SummaryModel::extractive();
    if (const QString s = parser.value(summary); s == "size"_L1) {
        summaryModel = SummaryModel::fixedSize();
    } else if (s.startsWith("size:"_L1)) {
        const auto tokens = BoundedInteger::fromString(s.mid(5), 1, BoundedInteger::maxTokens, u"--summary size"_s, &error);
        if (!tokens)
            return usage(error);
        summaryModel = SummaryModel::fixedSize(*tokens);
    } else if (s != "extractive"_L1) {
        return usage(QCoreApplication::translate("waterline-cli", "--summary: '%1' is not 'extractive' or 'size:TOKENS'").arg(s));
    }
    if (parser.isSet(schemas) && parser.value(schemas) != "on"_L1 && parser.value(schemas) != "off"_L1)
        return usage(QCoreApplication::translate("waterline-cli", "--count-tool-schemas: '%1' is not 'on' or 'off'").arg(parser.value(schemas)));

    // The recorded session, its recorded views and the output each request reported.
    Loaded loaded;
    const QString source = parser.value(input);
    if (QFileInfo(source).isFile() || QFileInfo(source).isDir()) {
        ImportOptions options;
        options.runIndex = runValue ? int(*runValue) : 0;
        const ImportResult imported = TranscriptFormats::importFile(source, formatName, options);
        if (!imported.ok)
            return badInput(imported.error);
        loaded.replay = ReplayInput::fromImport(imported.session);
        loaded.recorded = RecordedRun::fromImport(imported.session, loaded.replay);
        QList<ImportedRequest> requests = imported.session.requests;
        std::stable_sort(requests.begin(), requests.end(),
                         [](const ImportedRequest &a, const ImportedRequest &b) { return a.messageIndex < b.messageIndex; });
        for (const ImportedRequest &r : std::as_const(requests))
            loaded.reportedOutput.append(r.usage.output);
        loaded.policy = loaded.replay.defaultPolicy();
    } else if (parser.isSet(db)) {
        SessionStore store;
        int code = Ok;
        if (!openExistingStore(store, parser.value(db), &code))
            return code;
        const std::optional<SessionInfo> info = store.session(source, &error);
        if (!info)
            return badInput(QCoreApplication::translate("waterline-cli", "%1: %2").arg(parser.value(db), error));
        const QList<RequestRecord> requests = store.requests(source, &error);
        const ContextOverlays overlays = error.isEmpty() ? store.overlays(source, &error) : ContextOverlays();
        const QList<CompactionRecord> records = error.isEmpty() ? store.records(source, &error) : QList<CompactionRecord>();
        const std::optional<SessionSource> sessionSource = error.isEmpty() ? store.sessionSource(source, &error) : std::nullopt;
        QList<Message> history = error.isEmpty() ? store.history(source, &error) : QList<Message>();
        if (!error.isEmpty())
            return badInput(QCoreApplication::translate("waterline-cli", "%1: %2").arg(parser.value(db), error));
        loaded.replay = ReplayInput::fromStored(*info, std::move(history), requests, overlays, sessionSource);
        loaded.recorded = RecordedRun::fromStored(loaded.replay, requests, overlays, records);
        for (const RequestRecord &r : requests)
            loaded.reportedOutput.append(r.outputTokens.value_or(-1));
        loaded.policy = loaded.replay.defaultPolicy();
        CompactionPolicy saved;
        if (!info->policy.isEmpty() && CompactionPolicy::fromJson(info->policy, &saved) && saved.isValid())
            loaded.policy = saved;
    } else {
        return badInput(QCoreApplication::translate("waterline-cli", "%1: no such file (a session id needs --db PATH)").arg(source));
    }

    CompactionPolicy &policy = loaded.policy;
    if (windowValue)
        policy.contextWindow = *windowValue;
    double *fields[4] = {&policy.warn, &policy.soft, &policy.full, &policy.emergency};
    for (int i = 0; i < 4; ++i) {
        if (thresholds[i])
            *fields[i] = *thresholds[i];
    }
    if (tailValue)
        policy.tailMessages = int(*tailValue);
    if (offloadValue)
        policy.offloadAtCompaction = *offloadValue;
    if (toolTimeValue)
        policy.offloadAtToolTime = *toolTimeValue;
    if (parser.isSet(schemas))
        policy.countToolSchemas = parser.value(schemas) == "on"_L1;
    if (const QString problem = policy.validate(); !problem.isEmpty())
        return usage(problem);
    if (overheadValue)
        loaded.replay.overheadTokens = *overheadValue;

    // Prices: the built-in table with the user's overrides from the Settings.
    PriceTable prices = PriceTable::builtIn();
    QStringList priceProblems;
    prices.applyOverrides(AppSettings().priceOverrides(), &priceProblems);
    for (const QString &p : std::as_const(priceProblems))
        printError(QCoreApplication::translate("waterline-cli", "warning: the price override for '%1' is not an object of prices >= 0; ignored").arg(p));
    const QString model = parser.isSet(priceModel) ? parser.value(priceModel) : loaded.replay.model;
    const std::optional<PriceTable::Entry> entry = prices.lookup(model);
    const CacheProtocol protocol = entry ? entry->protocol : PriceTable::protocolFor(model);
    const std::optional<Price> price = entry ? std::optional(entry->price) : std::nullopt;

    const ReplayInput &replay = loaded.replay;
    const std::shared_ptr<const ScoreBasis> basis =
        ScoreBasis::build(replay.history, replay.requestEnds, replay.requestIndexes, loaded.reportedOutput);
    RunScorer recorded(basis, protocol, price);
    loaded.recorded.replay(replay, recorded.observer());
    RunScorer whatIf(basis, protocol, price);
    Simulator::Input simulation = replay.simulatorInput(policy, summaryModel);
    simulation.observer = whatIf.observer();
    Simulator::simulate(simulation);

    if (parser.isSet(json)) {
        auto withModel = [&](const RunScore &score) {
            QJsonObject o = score.toJson(*basis);
            QJsonObject cost = o.value(u"cost"_s).toObject();
            cost.insert(u"model"_s, model);
            cost.insert(u"protocol"_s, cacheProtocolName(protocol));
            o.insert(u"cost"_s, cost);
            return o;
        };
        printOut(QString::fromUtf8(QJsonDocument(QJsonObject{{u"recorded"_s, withModel(recorded.score())},
                                                             {u"whatif"_s, withModel(whatIf.score())}})
                                       .toJson(QJsonDocument::Compact)));
    } else {
        printOut(textReport(recorded.score(), whatIf.score(), *basis, model, protocol));
    }
    return Ok;
}

} // namespace wl::cli
