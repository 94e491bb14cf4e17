#include "CliProxy.h"

#include "CliCommands.h"
#include "CliPolicyOptions.h"

#include "Paths.h"
#include "compaction/CompactionPolicy.h"
#include "proxy/ProxyCompactor.h"
#include "proxy/ProxyRecorder.h"
#include "proxy/ProxyServer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <csignal>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace wl::cli {

namespace {
// "127.0.0.1:8080", "[::1]:8080", "localhost:8080" or a bare port.
bool parseListen(const QString &text, QHostAddress *address, quint16 *port)
{
    QString host = u"127.0.0.1"_s;
    QString portText = text;
    if (const qsizetype colon = text.lastIndexOf(u':'); colon >= 0) {
        host = text.left(colon);
        portText = text.mid(colon + 1);
        if (host.startsWith(u'[') && host.endsWith(u']'))
            host = host.mid(1, host.size() - 2);
    }
    bool ok = false;
    const uint value = portText.toUInt(&ok);
    if (!ok || value > 65535)
        return false;
    *port = quint16(value);
    *address = host == u"localhost" ? QHostAddress(QHostAddress::LocalHost) : QHostAddress(host);
    return !address->isNull();
}

void quitOnSignal(int)
{
    QCoreApplication::quit();
}
} // namespace

int runProxy(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("waterline-cli",
        "Forward an agent's provider requests to the upstream provider, unchanged, through a local address,\n"
        "and record each conversation as a session of the database.\n"
        "Give the agent the base URL printed on the first line (its token keeps other local users out)."));
    parser.addHelpOption();
    const QCommandLineOption listen(u"listen"_s, QCoreApplication::translate("waterline-cli", "Loopback address and port to listen on (default 127.0.0.1:0, any free port)."), u"ADDRESS:PORT"_s, u"127.0.0.1:0"_s);
    const QCommandLineOption upstream(u"upstream"_s, QCoreApplication::translate("waterline-cli", "The provider's base URL, such as https://api.anthropic.com or https://api.openai.com."), u"URL"_s);
    const QCommandLineOption db(u"db"_s, QCoreApplication::translate("waterline-cli", "Session database to record the conversations into (default: the one the window uses)."), u"PATH"_s);
    const QCommandLineOption compact(u"compact"_s, QCoreApplication::translate("waterline-cli", "Compact mode: run Waterline's compaction (extractive summaries, offloads) on each request before forwarding it, with the policy options below. Off by default."));
    parser.addOptions({listen, upstream, db, compact});
    PolicyOptions policyOptions;
    policyOptions.addTo(parser);
    if (const std::optional<int> stop = parseArguments(parser, arguments, 0, QCoreApplication::translate("waterline-cli", "proxy takes no positional arguments")))
        return *stop;
    if (!parser.isSet(upstream))
        return printError(QCoreApplication::translate("waterline-cli", "--upstream is required")), UsageError;
    CompactionPolicy policy;
    QString policyError;
    if (!policyOptions.read(parser, &policyError) || !policyOptions.applyTo(policy, &policyError))
        return printError(policyError), UsageError;
    // Compact mode makes its summaries as the agent's last fallback does, without a model call.
    if (policyOptions.summaryModel().kind != SummaryModel::Kind::Extractive)
        return printError(QCoreApplication::translate("waterline-cli", "--summary: compact mode summarises extractively only")), UsageError;

    ProxyServer::Options options;
    if (!parseListen(parser.value(listen), &options.address, &options.port))
        return printError(QCoreApplication::translate("waterline-cli", "--listen: '%1' is not ADDRESS:PORT").arg(parser.value(listen))), UsageError;
    options.upstream = QUrl(parser.value(upstream), QUrl::StrictMode);
    ProxyServer server;
    QString error;
    if (!server.listen(options, &error))
        return printError(error), UsageError;
    QObject::connect(&server, &ProxyServer::exchangeFinished, &server, [](const ProxiedExchange &exchange) {
        // Method, path, status and timing only: never a header, never a body.
        std::fprintf(stderr, "%s %s %d %lld ms%s%s%s%s\n", exchange.method.constData(), exchange.path.constData(), exchange.status,
                     static_cast<long long>(exchange.totalMs), exchange.error.isEmpty() ? "" : ": ",
                     exchange.error.toLocal8Bit().constData(), exchange.rewriteNote.isEmpty() ? "" : "; ",
                     exchange.rewriteNote.toLocal8Bit().constData());
    });
    if (parser.isSet(compact)) {
        // Offloaded results go where the agent's own file tool can read them: an absolute path
        // under Waterline's data folder, named in each placeholder.
        server.setRequestRewriter(ProxyCompactor::rewriter(std::make_shared<ProxyCompactor>(policy, Paths::proxyOffloadRoot())));
    }
    // Each conversation becomes a session of the database, written on the recorder's own thread.
    const QString databasePath = parser.isSet(db) ? parser.value(db) : Paths::defaultDatabasePath();
    QDir().mkpath(QFileInfo(databasePath).absolutePath());
    ProxyRecorder recorder(databasePath);
    recorder.setAuditDir(Paths::auditDir());
    recorder.attach(&server);
    QObject::connect(&recorder, &ProxyRecorder::failed, &recorder, [](const QString &message) {
        printError(message);
    });
    printOut(server.baseUrl().toString());
    std::signal(SIGINT, quitOnSignal);
    std::signal(SIGTERM, quitOnSignal);
    return QCoreApplication::exec();
}

} // namespace wl::cli
