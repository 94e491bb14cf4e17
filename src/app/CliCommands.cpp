#include "CliCommands.h"

#include "CliExport.h"
#include "CliImport.h"
#include "CliSimulate.h"
#include "CliRun.h"

#include "model/MessageCodec.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace wl::cli {

QString tr(const char *text)
{
    return QCoreApplication::translate("waterline-cli", text);
}

int printError(const QString &text)
{
    std::fprintf(stderr, "waterline-cli: %s\n", text.toLocal8Bit().constData());
    return Failure;
}

void printOut(const QString &text)
{
    std::fprintf(stdout, "%s\n", text.toUtf8().constData());
    std::fflush(stdout);
}

namespace {


// `estimate FILE`: decode an OpenAI-style messages array and print its size.
int runEstimate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(tr("Decode a JSON array of OpenAI chat messages and print the message count and token estimate."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("file"), tr("JSON file holding an array of messages."));
    if (!parser.parse(arguments))
        return printError(parser.errorText()), UsageError;
    if (parser.isSet(QStringLiteral("help"))) {
        printOut(parser.helpText());
        return Ok;
    }
    if (parser.positionalArguments().size() != 1)
        return printError(tr("estimate takes exactly one file")), UsageError;

    const QString path = parser.positionalArguments().constFirst();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return printError(tr("%1: %2").arg(path, file.errorString())), BadInput;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return printError(tr("%1: offset %2: %3").arg(path).arg(parseError.offset).arg(parseError.errorString())), BadInput;
    const QJsonArray array = doc.isArray() ? doc.array() : doc.object().value(u"messages").toArray();
    if (!doc.isArray() && !doc.object().value(u"messages").isArray())
        return printError(tr("%1: field 'messages': expected an array of messages").arg(path)), BadInput;
    QString error;
    const auto messages = MessageCodec::fromJson(array, &error);
    if (!messages)
        return printError(tr("%1: %2").arg(path, error)), BadInput;
    qint64 bytes = 0;
    int calls = 0;
    for (const Message &m : *messages) {
        bytes += m.byteCount();
        calls += int(m.toolCalls.size());
    }
    printOut(QString::fromUtf8(QJsonDocument(QJsonObject{
        {QStringLiteral("messages"), int(messages->size())},
        {QStringLiteral("tool_calls"), calls},
        {QStringLiteral("bytes"), bytes},
        {QStringLiteral("tokens"), bytes / 4},
    }).toJson(QJsonDocument::Compact)));
    return Ok;
}

} // namespace

QList<Command> commands()
{
    return {
        {QStringLiteral("estimate"), tr("Token estimate of a JSON messages file"), runEstimate},
        {QStringLiteral("import"), tr("Import a transcript into a new stored session"), runImport},
        {QStringLiteral("export"), tr("Write a stored session as Waterline JSONL"), runExport},
        {QStringLiteral("simulate"), tr("Replay a session under a compaction policy, no model needed"), runSimulate},
        {QStringLiteral("run"), tr("Run the agent headless on a prompt"), runAgent},
    };
}

} // namespace wl::cli
