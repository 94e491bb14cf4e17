#include "CliEvaluate.h"

#include "CliCommands.h"
#include "CliPolicyOptions.h"
#include "CliLoad.h"
#include "CliSimulate.h"
#include "CliSweep.h"
#include "compaction/CompactionPolicy.h"
#include "model/BoundedInteger.h"
#include "score/PriceTable.h"
#include "score/RunScorer.h"
#include "score/SessionScoring.h"
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
    SourceOptions sourceOptions;
    const QCommandLineOption &input = sourceOptions.input;
    const QCommandLineOption &db = sourceOptions.db;
    const QCommandLineOption &format = sourceOptions.format;
    PolicyOptions policyOptions;
    const QCommandLineOption run(u"session-index"_s, QCoreApplication::translate("waterline-cli", "A file of several sessions: the session to score, counted from 0."), u"N"_s);
    const QCommandLineOption priceModel(u"price-model"_s, QCoreApplication::translate("waterline-cli", "Price the requests as this model (default: the session's model)."), u"MODEL"_s);
    const QCommandLineOption json(u"json"_s, QCoreApplication::translate("waterline-cli", "Print one JSON object {\"recorded\": {...}, \"whatif\": {...}} "
                                                                                   "(with --sweep: an array of one object per policy)."));
    const QCommandLineOption sweep(u"sweep"_s, QCoreApplication::translate("waterline-cli", "Score every policy of a grid (a JSON object of option name to a list of values) "
                                                                                     "over the session, or over every transcript of the folder --input names; "
                                                                                     "the other policy options set the base the grid changes."),
                                   u"GRID.json"_s);
    sourceOptions.addTo(parser);
    policyOptions.addTo(parser);
    parser.addOptions({run, priceModel, json, sweep});

    // Every bad value is a usage error naming its option.
    if (const std::optional<int> stop = readReplayArguments(parser, arguments, QCoreApplication::translate("waterline-cli", "evaluate takes no positional arguments (give --input)"), sourceOptions, policyOptions))
        return *stop;
    const QString formatName = parser.value(format);
    QString error;
    std::optional<qint64> runValue;
    if (parser.isSet(run) && !(runValue = BoundedInteger::fromString(parser.value(run), 0, std::numeric_limits<int>::max(), u"--session-index"_s, &error)))
        return usageError(error);

    if (parser.isSet(sweep))
        return runSweep(parser, sourceOptions, policyOptions, parser.value(sweep), runValue ? int(*runValue) : 0,
                        parser.isSet(priceModel) ? parser.value(priceModel) : QString(), parser.isSet(json));

    // The recorded session, its recorded views and the output each request reported.
    LoadedSession loaded;
    const QString source = parser.value(input);
    if (QFileInfo(source).isFile() || QFileInfo(source).isDir()) {
        std::optional<LoadedSession> imported = loadTranscript(source, formatName, runValue ? int(*runValue) : 0, &error);
        if (!imported)
            return badInput(error);
        loaded = std::move(*imported);
    } else if (parser.isSet(db)) {
        if (const std::optional<int> stop = loadStored(parser.value(db), source, &loaded))
            return *stop;
    } else {
        return badInput(QCoreApplication::translate("waterline-cli", "%1: no such file (a session id needs --db PATH)").arg(source));
    }

    CompactionPolicy &policy = loaded.policy;
    if (!policyOptions.applyTo(policy, &error))
        return usageError(error);
    if (const std::optional<qint64> overhead = policyOptions.overhead())
        loaded.replay.setOverhead(*overhead);

    const PriceTable prices = settingsPrices();
    const ReplayInput &replay = loaded.replay;
    const std::shared_ptr<const SessionScoring> scoring = SessionScoring::build(
        replay, loaded.recorded, loaded.reportedOutput, prices, parser.isSet(priceModel) ? parser.value(priceModel) : QString());
    const QString model = scoring->model();
    const CacheProtocol protocol = scoring->protocol();
    const ScoreBasis *basis = &scoring->basis();
    RunScorer whatIf = scoring->scorer();
    Simulator::Input simulation = replay.simulatorInput(policy, policyOptions.summaryModel());
    simulation.observer = whatIf.observer();
    Simulator::simulate(simulation);
    const RunScore &recordedScore = scoring->recorded();

    if (parser.isSet(json)) {
        auto withModel = [&](const RunScore &score) {
            QJsonObject o = score.toJson(*basis);
            QJsonObject cost = o.value(u"cost"_s).toObject();
            cost.insert(u"model"_s, model);
            cost.insert(u"protocol"_s, cacheProtocolName(protocol));
            o.insert(u"cost"_s, cost);
            return o;
        };
        printOut(QString::fromUtf8(QJsonDocument(QJsonObject{{u"recorded"_s, withModel(recordedScore)},
                                                             {u"whatif"_s, withModel(whatIf.score())}})
                                       .toJson(QJsonDocument::Compact)));
    } else {
        printOut(textReport(recordedScore, whatIf.score(), *basis, model, protocol));
    }
    return Ok;
}

} // namespace wl::cli
