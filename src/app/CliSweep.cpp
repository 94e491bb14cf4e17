#include "CliSweep.h"

#include "CliCommands.h"
#include "CliLoad.h"
#include "CliPolicyOptions.h"

#include "score/PolicyGrid.h"
#include "score/PolicySweep.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtConcurrentMap>

using namespace Qt::StringLiterals;

namespace wl::cli {

namespace {

constexpr qint64 kMaxGridBytes = 1 << 20;

QString translate(const char *text)
{
    return QCoreApplication::translate("waterline-cli", text);
}

std::optional<PolicyGrid> readGrid(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = translate("--sweep: cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxGridBytes) {
        *error = translate("--sweep: %1 is larger than %2 bytes").arg(path).arg(kMaxGridBytes);
        return std::nullopt;
    }
    QString problem;
    std::optional<PolicyGrid> grid = PolicyGrid::fromJson(file.readAll(), &problem);
    if (!grid)
        *error = translate("--sweep %1: %2").arg(path, problem);
    return grid;
}

QString textReport(const QList<SweepRow> &rows, const QStringList &sessions)
{
    qsizetype labelWidth = 6;
    for (const SweepRow &r : rows)
        labelWidth = std::max(labelWidth, PolicyGrid::label(r.settings).size());
    auto line = [&](const QStringList &cells) -> QString {
        QString out = cells[0].leftJustified(labelWidth);
        for (qsizetype i = 1; i < cells.size(); ++i)
            out += u' ' + cells[i].rightJustified(i == cells.size() - 1 ? 6 : 12);
        return out + u'\n';
    };
    QString out;
    if (sessions.size() > 1)
        out += translate("%1 sessions: %2").arg(sessions.size()).arg(sessions.join(u", "_s)) + u'\n';
    out += line({translate("policy"), translate("coverage"), translate("needed"), translate("lost"), translate("input"), translate("cache read"),
                 translate("cache write"), translate("output"), translate("US$"), translate("peak"), translate("summaries"), translate("pareto")});
    for (const SweepRow &r : rows) {
        const QString label = PolicyGrid::label(r.settings);
        if (!r.problem.isEmpty()) {
            out += label.leftJustified(labelWidth) + u' ' + translate("not run: %1").arg(r.problem) + u'\n';
            continue;
        }
        out += line({label, u"%1 %"_s.arg(r.coverage.coverage() * 100, 0, 'f', 1), QString::number(r.coverage.needed),
                     QString::number(r.coverage.lost), QString::number(r.cost.input), QString::number(r.cost.cacheRead),
                     QString::number(r.cost.cacheWrite), QString::number(r.cost.output),
                     r.priced ? QString::number(r.usd, 'f', 4) : u"-"_s, u"%1 %"_s.arg(r.peakRatio * 100, 0, 'f', 1),
                     QString::number(r.summaryCalls), r.pareto ? u"*"_s : QString()});
    }
    out.chop(1);
    return out;
}

struct Imported
{
    std::optional<LoadedSession> session;
    QString error;
};

} // namespace

int runSweep(const QCommandLineParser &parser, const SourceOptions &source, const PolicyOptions &policyOptions, const QString &gridPath,
             int runIndex, const QString &priceModel, bool json)
{
    QString error;
    const std::optional<PolicyGrid> grid = readGrid(gridPath, &error);
    if (!grid)
        return usageError(error);

    // The sessions: a stored one, a transcript, an event folder, or a folder of transcripts.
    const QString input = parser.value(source.input);
    const QString format = parser.value(source.format);
    QList<LoadedSession> loaded;
    const QFileInfo info(input);
    if (info.isFile() || info.isDir()) {
        if (std::optional<LoadedSession> one = loadTranscript(input, format, runIndex, &error)) {
            loaded << std::move(*one);
        } else if (info.isFile()) {
            return badInput(error);
        } else {
            const QFileInfoList files = QDir(input).entryInfoList(QDir::Files | QDir::Readable, QDir::Name);
            const QList<Imported> imported = QtConcurrent::blockingMapped(files, [&](const QFileInfo &file) {
                Imported result;
                result.session = loadTranscript(file.filePath(), format, runIndex, &result.error);
                return result;
            });
            for (qsizetype i = 0; i < files.size(); ++i) {
                if (imported[i].session)
                    loaded << *imported[i].session;
                else
                    printError(translate("warning: %1 skipped: %2").arg(files[i].fileName(), imported[i].error));
            }
            if (loaded.isEmpty())
                return badInput(translate("%1: no file in the folder imports as a transcript").arg(input));
        }
    } else if (parser.isSet(source.db)) {
        LoadedSession stored;
        if (const std::optional<int> stop = loadStored(parser.value(source.db), input, &stored))
            return *stop;
        loaded << std::move(stored);
    } else {
        return badInput(translate("%1: no such file (a session id needs --db PATH)").arg(input));
    }

    // The options given besides the grid make each session's base policy.
    const PriceTable prices = settingsPrices();
    for (LoadedSession &s : loaded) {
        if (!policyOptions.applyTo(s.policy, &error))
            return usageError(error);
        if (const std::optional<qint64> overhead = policyOptions.overhead())
            s.replay.setOverhead(*overhead);
    }
    // Scoring a session takes a while: all of them at once.
    const QList<SweepSession> sessions = QtConcurrent::blockingMapped(loaded, [&](const LoadedSession &s) {
        return SweepSession::prepare(s.name, s.replay, s.recorded, s.reportedOutput, s.policy, policyOptions.summaryModel(), prices, priceModel);
    });
    QStringList names;
    for (const SweepSession &s : sessions)
        names << s.name;

    const QList<SweepRow> rows = PolicySweep::run(sessions, grid->expand(), {});
    if (json) {
        QJsonArray array;
        for (const SweepRow &r : rows)
            array.append(r.toJson(names));
        printOut(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact)));
    } else {
        printOut(textReport(rows, names));
    }
    return Ok;
}

} // namespace wl::cli
