#include "CliShow.h"

#include "CliCommands.h"
#include "CliSimulate.h"

#include "score/RecordedRequests.h"
#include "store/SessionStore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace wl::cli {

namespace {


QJsonObject compositionJson(const ViewComposition &composition)
{
    QJsonObject parts;
    for (ViewComposition::Part part : ViewComposition::kParts) {
        if (part != ViewComposition::Part::Free)
            parts.insert(QString::fromLatin1(ViewComposition::partKey(part)), composition.tokens(part));
    }
    return parts;
}

QJsonObject rowJson(const RecordedRequestRow &row)
{
    return QJsonObject{
        {u"index"_s, row.index},
        {u"tier"_s, tierName(row.tier)},
        {u"window"_s, row.window},
        {u"gauge_tokens"_s, row.gaugeTokens},
        {u"sent_tokens"_s, row.sentTokens},
        {u"composition"_s, compositionJson(row.composition)},
        {u"source_compacted"_s, row.sourceCompacted},
        {u"view_messages"_s, row.viewMessages},
        {u"history_messages"_s, row.historyMessages},
        {u"provider_input_tokens"_s, row.providerInputTokens ? QJsonValue(*row.providerInputTokens) : QJsonValue(QJsonValue::Null)},
    };
}

void printTable(const SessionInfo &info, const ReplayInput::Window &window, const QList<RecordedRequestRow> &rows)
{
    const QLocale locale;
    printOut(QCoreApplication::translate("waterline-cli", "Session %1: %2").arg(info.id, info.title));
    printOut(QCoreApplication::translate("waterline-cli", "Source format: %1").arg(info.sourceFormat.isEmpty() ? QCoreApplication::translate("waterline-cli", "(recorded here)") : info.sourceFormat));
    printOut(QCoreApplication::translate("waterline-cli", "Window: %1 tokens (%2)").arg(locale.toString(window.tokens), window.source));
    printOut(QString());
    auto cell = [](const QString &text, int width) { return text.rightJustified(width); };
    printOut(cell(QCoreApplication::translate("waterline-cli", "#"), 5) + cell(QCoreApplication::translate("waterline-cli", "tier"), 10) + cell(QCoreApplication::translate("waterline-cli", "gauge"), 10) + cell(QCoreApplication::translate("waterline-cli", "sent"), 10)
             + cell(QCoreApplication::translate("waterline-cli", "provider"), 10) + cell(QCoreApplication::translate("waterline-cli", "view/held"), 12) + u"  "_s + QCoreApplication::translate("waterline-cli", "source compacted"));
    for (const RecordedRequestRow &row : rows) {
        const QString provider = row.providerInputTokens ? locale.toString(*row.providerInputTokens) : QCoreApplication::translate("waterline-cli", "-");
        printOut(cell(QString::number(row.index), 5) + cell(tierName(row.tier), 10) + cell(locale.toString(row.gaugeTokens), 10)
                 + cell(locale.toString(row.sentTokens), 10) + cell(provider, 10)
                 + cell(u"%1/%2"_s.arg(row.viewMessages).arg(row.historyMessages), 12) + u"  "_s
                 + (row.sourceCompacted ? QCoreApplication::translate("waterline-cli", "yes") : QString()));
    }
}

} // namespace

int runShow(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("waterline-cli", "Show a stored session as the workbench shows it: per request the gauge's total, what was sent, its composition and what the provider reported."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"session"_s, QCoreApplication::translate("waterline-cli", "Id of the session."));
    const QCommandLineOption db(u"db"_s, QCoreApplication::translate("waterline-cli", "Session database."), u"PATH"_s);
    const QCommandLineOption json(u"json"_s, QCoreApplication::translate("waterline-cli", "Print one JSON object instead of a table."));
    parser.addOptions({db, json});
    if (const std::optional<int> stop = parseArguments(parser, arguments, 1, QCoreApplication::translate("waterline-cli", "show takes exactly one session id")))
        return *stop;
    if (!parser.isSet(db))
        return usageError(QCoreApplication::translate("waterline-cli", "--db is required"));

    SessionStore store;
    int code = Ok;
    if (!openExistingStore(store, parser.value(db), &code))
        return code;
    const QString id = parser.positionalArguments().constFirst();
    QString error;
    const std::optional<RecordedRequests::StoredRequests> shown = RecordedRequests::ofStored(store, id, &error);
    if (!shown)
        return badInput(QCoreApplication::translate("waterline-cli", "%1: %2").arg(parser.value(db), error.isEmpty() ? QCoreApplication::translate("waterline-cli", "there is no session %1").arg(id) : error));
    const SessionInfo *info = &shown->info;
    const QList<RecordedRequestRow> &rows = shown->rows;
    // The window the rows are measured against: the session's own policy's, else the replay's.
    const ReplayInput::Window window = RecordedRequests::windowOf(shown->replay, shown->policy);

    if (!parser.isSet(json)) {
        printTable(*info, window, rows);
        return Ok;
    }
    QJsonArray rowArray;
    for (const RecordedRequestRow &row : rows)
        rowArray.append(rowJson(row));
    const QJsonObject session{
        {u"id"_s, info->id},
        {u"title"_s, info->title},
        {u"source_format"_s, info->sourceFormat.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(info->sourceFormat)},
        {u"window"_s, window.tokens},
        {u"window_source"_s, window.source},
        // The calibration of the view's count against the provider's (1: none): the "calibration"
        // part of each composition is what it adds.
        {u"token_scale"_s, shown->replay.tokenScale},
    };
    printOut(QString::fromUtf8(QJsonDocument(QJsonObject{{u"session"_s, session}, {u"requests"_s, rowArray}}).toJson(QJsonDocument::Compact)));
    return Ok;
}

} // namespace wl::cli
