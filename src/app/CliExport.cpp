#include "CliExport.h"

#include "CliCommands.h"
#include "CliSimulate.h"
#include "store/SessionStore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace wl::cli {


int runExport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("waterline-cli", "Write a stored session as Waterline JSONL (the format `import` reads back)."));
    parser.addHelpOption();
    parser.addPositionalArgument(u"session"_s, QCoreApplication::translate("waterline-cli", "Id of the session."));
    const QCommandLineOption db(u"db"_s, QCoreApplication::translate("waterline-cli", "Session database."), u"PATH"_s);
    const QCommandLineOption out(u"out"_s, QCoreApplication::translate("waterline-cli", "Output file (default: standard output)."), u"FILE"_s);
    parser.addOptions({db, out});

    if (const std::optional<int> stop = parseArguments(parser, arguments, 1, QCoreApplication::translate("waterline-cli", "export takes exactly one session id")))
        return *stop;
    if (!parser.isSet(db))
        return printError(QCoreApplication::translate("waterline-cli", "--db is required")), UsageError;

    SessionStore store;
    int code = Ok;
    if (!openExistingStore(store, parser.value(db), &code))
        return code;
    const QString id = parser.positionalArguments().constFirst();
    QString error;
    if (!store.session(id, &error))
        return printError(QCoreApplication::translate("waterline-cli", "%1: %2").arg(parser.value(db), error)), BadInput;

    if (parser.isSet(out)) {
        if (!store.exportSession(id, parser.value(out), &error))
            return printError(error);
        return Ok;
    }
    QTemporaryDir dir;
    if (!dir.isValid())
        return printError(QCoreApplication::translate("waterline-cli", "cannot create a temporary folder: %1").arg(dir.errorString()));
    const QString path = dir.filePath(u"export.jsonl"_s);
    if (!store.exportSession(id, path, &error))
        return printError(error);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return printError(QCoreApplication::translate("waterline-cli", "cannot read %1: %2").arg(path, file.errorString()));
    QByteArray chunk;
    while (!(chunk = file.read(1 << 20)).isEmpty()) {
        if (std::fwrite(chunk.constData(), 1, size_t(chunk.size()), stdout) != size_t(chunk.size()))
            return printError(QCoreApplication::translate("waterline-cli", "cannot write to standard output"));
    }
    std::fflush(stdout);
    return Ok;
}

} // namespace wl::cli
