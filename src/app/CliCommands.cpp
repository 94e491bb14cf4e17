#include "CliCommands.h"

#include "CliEvaluate.h"
#include "CliExport.h"
#include "CliImport.h"
#include "CliSimulate.h"
#include "CliProxy.h"
#include "CliRun.h"
#include "CliShow.h"

#include "compaction/TokenEstimate.h"
#include "model/MessageCodec.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace wl::cli {

int printError(const QString &text)
{
    std::fprintf(stderr, "waterline-cli: %s\n", text.toLocal8Bit().constData());
    return Failure;
}

int usageError(const QString &text)
{
    printError(text);
    return UsageError;
}

int badInput(const QString &text)
{
    printError(text);
    return BadInput;
}

void printOut(const QString &text)
{
    std::fprintf(stdout, "%s\n", text.toUtf8().constData());
    std::fflush(stdout);
}

std::optional<int> parseArguments(QCommandLineParser &parser, const QStringList &arguments, int positional,
                                  const QString &positionalError)
{
    if (!parser.parse(arguments))
        return printError(parser.errorText()), UsageError;
    if (parser.isSet(u"help"_s)) {
        printOut(parser.helpText());
        return Ok;
    }
    if (positional >= 0 && parser.positionalArguments().size() != positional)
        return printError(positionalError), UsageError;
    return std::nullopt;
}

namespace {

// `estimate FILE`: decode an OpenAI-style messages array and print its size.
int runEstimate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("waterline-cli", "Decode a JSON array of OpenAI chat messages and print the message count and token estimate."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"file"_s, QCoreApplication::translate("waterline-cli", "JSON file holding an array of messages."));
    if (const std::optional<int> stop = parseArguments(parser, arguments, 1, QCoreApplication::translate("waterline-cli", "estimate takes exactly one file")))
        return *stop;

    const QString path = parser.positionalArguments().constFirst();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return printError(QCoreApplication::translate("waterline-cli", "%1: %2").arg(path, file.errorString())), BadInput;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return printError(QCoreApplication::translate("waterline-cli", "%1: offset %2: %3").arg(path).arg(parseError.offset).arg(parseError.errorString())), BadInput;
    const QJsonArray array = doc.isArray() ? doc.array() : doc.object().value(u"messages").toArray();
    if (!doc.isArray() && !doc.object().value(u"messages").isArray())
        return printError(QCoreApplication::translate("waterline-cli", "%1: field 'messages': expected an array of messages").arg(path)), BadInput;
    QString error;
    const auto messages = MessageCodec::fromJson(array, &error);
    if (!messages)
        return printError(QCoreApplication::translate("waterline-cli", "%1: %2").arg(path, error)), BadInput;
    qint64 bytes = 0;
    int calls = 0;
    for (const Message &m : *messages) {
        bytes += m.byteCount();
        calls += int(m.toolCalls.size());
    }
    printOut(QString::fromUtf8(QJsonDocument(QJsonObject{
        {u"messages"_s, int(messages->size())},
        {u"tool_calls"_s, calls},
        {u"bytes"_s, bytes},
        {u"tokens"_s, TokenEstimate::tokensForBytes(bytes)},
    }).toJson(QJsonDocument::Compact)));
    return Ok;
}

} // namespace

QList<Command> commands()
{
    return {
        {u"estimate"_s, QCoreApplication::translate("waterline-cli", "Token estimate of a JSON messages file"), runEstimate},
        {u"import"_s, QCoreApplication::translate("waterline-cli", "Import a transcript into a new stored session"), runImport},
        {u"export"_s, QCoreApplication::translate("waterline-cli", "Write a stored session as Waterline JSONL"), runExport},
        {u"show"_s, QCoreApplication::translate("waterline-cli", "Show a stored session's requests as the workbench does"), runShow},
        {u"simulate"_s, QCoreApplication::translate("waterline-cli", "Replay a session under a compaction policy, no model needed"), runSimulate},
        {u"evaluate"_s, QCoreApplication::translate("waterline-cli", "Score a session and a policy: facts lost, coverage and cost"), runEvaluate},
        {u"run"_s, QCoreApplication::translate("waterline-cli", "Run the agent headless on a prompt"), runAgent},
        {u"proxy"_s, QCoreApplication::translate("waterline-cli", "Forward another agent's provider requests through a local address"), runProxy},
    };
}

} // namespace wl::cli
