#include "CliRun.h"

#include "CliCommands.h"

#include "settings/AppSettings.h"

#include "agent/AgentRun.h"
#include "llm/ApiKeyStore.h"
#include "llm/ChatClient.h"
#include "llm/ProviderProfile.h"
#include "model/BoundedInteger.h"
#include "store/SessionStore.h"
#include "tools/ApprovalGate.h"
#include "tools/Workspace.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocale>

#include <cstdio>
#include <optional>

using namespace Qt::StringLiterals;

namespace wl::cli {

namespace {

// Prints what the run does as it happens: streamed text as it arrives, activity on lines of its own.
class HeadlessPrinter
{
public:
    HeadlessPrinter(AgentRun *run, QEventLoop *loop)
        : m_run(run)
    {
        QObject *const self = &m_context;
        QObject::connect(run, &AgentRun::textDelta, self, [this](const QString &text) { write(text); });
        QObject::connect(run, &AgentRun::toolStarted, self, [this](const ToolCall &call) {
            QString arguments = call.arguments.simplified();
            if (arguments.size() > 200)
                arguments = arguments.left(200) + u"\u2026"_s;
            line(QCoreApplication::translate("waterline-cli", "[tool] %1 %2").arg(call.name, arguments));
        });
        QObject::connect(run, &AgentRun::toolFinished, self, [this](const ToolCall &call, const ToolResult &result, qint64 ms) {
            const QString first = result.content.section(u'\n', 0, 0).left(200);
            if (result.isError)
                line(QCoreApplication::translate("waterline-cli", "[tool] %1 failed after %2 ms: %3").arg(call.name).arg(ms).arg(first));
            else
                line(QCoreApplication::translate("waterline-cli", "[tool] %1 done in %2 ms (exit %3, %4 bytes)")
                         .arg(call.name)
                         .arg(ms)
                         .arg(result.exitCode)
                         .arg(result.content.toUtf8().size()));
        });
        QObject::connect(run, &AgentRun::approvalRequested, self, [this](const ApprovalRequest &request) {
            line(QCoreApplication::translate("waterline-cli", "[approval] denied %1: a headless run cannot ask; pass --auto-approve to allow write and "
                                                              "execute calls")
                     .arg(request.summary.isEmpty() ? request.toolName : request.summary));
            m_run->approve(request.callId, ApprovalDecision::Deny);
        });
        QObject::connect(run, &AgentRun::compactionStarted, self, [this](Tier tier, int messages, const QDateTime &) {
            line(QCoreApplication::translate("waterline-cli", "[compaction] %1: summarising %2 messages\u2026").arg(tierName(tier)).arg(messages));
        });
        QObject::connect(run, &AgentRun::compactionRecorded, self, [this](const CompactionRecord &r) {
            const QLocale locale = QLocale::c();
            QString text = QCoreApplication::translate("waterline-cli", "[compaction] %1: %2 -> %3 tokens, %4 -> %5 messages, %6 offloaded")
                               .arg(tierName(r.tier), locale.toString(r.tokensBefore), locale.toString(r.tokensAfter))
                               .arg(r.msgsBefore)
                               .arg(r.msgsAfter)
                               .arg(r.offloaded.size());
            if (r.summarizerStep != SummarizerStep::None)
                text += QCoreApplication::translate("waterline-cli", ", summary by %1").arg(summarizerStepName(r.summarizerStep));
            if (!r.error.isEmpty())
                text += QCoreApplication::translate("waterline-cli", " (%1)").arg(r.error);
            line(text);
        });
        QObject::connect(run, &AgentRun::retrying, self, [this](int attempt, int delayMs, const QString &error) {
            line(QCoreApplication::translate("waterline-cli", "[retry] attempt %1 in %2 ms: %3").arg(attempt).arg(delayMs).arg(error));
        });
        QObject::connect(run, &AgentRun::finished, self, [this, loop] {
            endLine();
            loop->exit(Ok);
        });
        QObject::connect(run, &AgentRun::failed, self, [this, loop](const QString &error) {
            endLine();
            printError(error);
            loop->exit(Failure);
        });
        QObject::connect(run, &AgentRun::stopped, self, [this, loop] {
            endLine();
            printError(QCoreApplication::translate("waterline-cli", "stopped"));
            loop->exit(Failure);
        });
    }

private:
    void write(const QString &text)
    {
        if (text.isEmpty())
            return;
        const QByteArray bytes = text.toUtf8();
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
        std::fflush(stdout);
        m_atLineStart = text.endsWith(u'\n');
    }
    void endLine()
    {
        if (!m_atLineStart)
            write(u"\n"_s);
    }
    void line(const QString &text)
    {
        endLine();
        write(text + u'\n');
    }

    QObject m_context; // receiver of the run's signals: disconnected when the printer goes
    AgentRun *m_run;
    bool m_atLineStart = true;
};

std::optional<ProviderProfile> profileNamed(const QString &name, const std::optional<SessionInfo> &session, QString *error)
{
    if (name == u"local" || name == u"default")
        return ProviderProfile::defaultProfile();
    // The profiles saved by the application's Settings dialog (no secrets: keys are referenced by name).
    const AppSettings settings;
    if (const std::optional<ProviderProfile> saved = settings.profile(name))
        return saved;
    if (session && session->providerName == name && !session->providerProfile.isEmpty())
        return ProviderProfile::fromJson(session->providerProfile, error);
    QStringList known{u"local"_s};
    for (const ProviderProfile &p : settings.profiles())
        known.append(p.name);
    *error = QCoreApplication::translate("waterline-cli", "unknown profile \"%1\" (known: %2, and the session's own)").arg(name, known.join(u", "_s));
    return std::nullopt;
}

bool positiveNumber(const QString &option, const QString &text, qint64 maximum, qint64 *out, QString *error)
{
    const auto value = BoundedInteger::fromString(text, 1, maximum, option, error);
    if (!value)
        return false;
    *out = *value;
    return true;
}

} // namespace

int runAgent(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("waterline-cli", "Run the agent loop headless in a workspace: stream the answer and the tool activity to stdout.\n"
                                                     "Exit code 0 on a finished answer, 1 on a failure, 2 on a usage error."));
    parser.addHelpOption();
    const QCommandLineOption dbOption(u"db"_s, QCoreApplication::translate("waterline-cli", "Session database (created if missing)."), QCoreApplication::translate("waterline-cli", "path"));
    const QCommandLineOption workspaceOption(u"workspace"_s, QCoreApplication::translate("waterline-cli", "Folder the agent works in."), QCoreApplication::translate("waterline-cli", "dir"));
    const QCommandLineOption promptOption(u"prompt"_s, QCoreApplication::translate("waterline-cli", "The user's prompt."), QCoreApplication::translate("waterline-cli", "text"));
    const QCommandLineOption profileOption(u"profile"_s, QCoreApplication::translate("waterline-cli", "Provider profile: local, or a saved profile name."),
                                           QCoreApplication::translate("waterline-cli", "name"));
    const QCommandLineOption providerOption(u"provider"_s, QCoreApplication::translate("waterline-cli", "Protocol: openai-chat or anthropic."), QCoreApplication::translate("waterline-cli", "protocol"));
    const QCommandLineOption baseUrlOption(u"base-url"_s, QCoreApplication::translate("waterline-cli", "Provider base URL."), QCoreApplication::translate("waterline-cli", "url"));
    const QCommandLineOption modelOption(u"model"_s, QCoreApplication::translate("waterline-cli", "Model name."), QCoreApplication::translate("waterline-cli", "name"));
    const QCommandLineOption summarizerOption(u"summarizer-model"_s,
                                              QCoreApplication::translate("waterline-cli", "Model that writes compaction summaries (same provider)."), QCoreApplication::translate("waterline-cli", "name"));
    const QCommandLineOption sessionOption(u"session"_s, QCoreApplication::translate("waterline-cli", "Continue this session instead of creating one; an imported session also needs --workspace."), QCoreApplication::translate("waterline-cli", "id"));
    const QCommandLineOption autoApproveOption(u"auto-approve"_s, QCoreApplication::translate("waterline-cli", "Allow write and execute tool calls."));
    const QCommandLineOption noNetworkOption(u"no-network"_s, QCoreApplication::translate("waterline-cli", "Commands run without network access."));
    const QCommandLineOption unsandboxedOption(u"allow-unsandboxed"_s,
                                               QCoreApplication::translate("waterline-cli", "Run commands without a sandbox where bubblewrap is unavailable."));
    const QCommandLineOption windowOption(u"window"_s, QCoreApplication::translate("waterline-cli", "Context window in tokens."), QCoreApplication::translate("waterline-cli", "tokens"));
    const QCommandLineOption maxTurnsOption(u"max-turns"_s, QCoreApplication::translate("waterline-cli", "LLM requests before giving up (default 100)."), QCoreApplication::translate("waterline-cli", "n"));
    const QCommandLineOption broadWorkspaceOption(u"allow-broad-workspace"_s, QCoreApplication::translate("waterline-cli", "Let the agent work in / or in your home folder itself, where it can reach every file (your keys included)."));
    parser.addOptions({dbOption, workspaceOption, promptOption, profileOption, providerOption, baseUrlOption,
                       modelOption, summarizerOption, sessionOption, autoApproveOption, noNetworkOption, unsandboxedOption,
                       windowOption, maxTurnsOption, broadWorkspaceOption});
    if (const std::optional<int> stop = parseArguments(parser, arguments))
        return *stop;
    if (!parser.positionalArguments().isEmpty())
        return usageError(QCoreApplication::translate("waterline-cli", "unexpected argument \"%1\"").arg(parser.positionalArguments().constFirst()));
    if (!parser.isSet(dbOption))
        return usageError(QCoreApplication::translate("waterline-cli", "--db is required"));
    const QString prompt = parser.value(promptOption);
    if (prompt.trimmed().isEmpty())
        return usageError(QCoreApplication::translate("waterline-cli", "--prompt is required and must not be empty"));
    if (parser.isSet(profileOption) && parser.isSet(providerOption))
        return usageError(QCoreApplication::translate("waterline-cli", "--profile and --provider exclude each other"));
    if (!parser.isSet(sessionOption) && !parser.isSet(workspaceOption))
        return usageError(QCoreApplication::translate("waterline-cli", "--workspace is required for a new session"));
    qint64 window = 0;
    QString numberError;
    if (parser.isSet(windowOption) && !positiveNumber(u"--window"_s, parser.value(windowOption), BoundedInteger::maxTokens, &window, &numberError))
        return usageError(numberError);
    qint64 maxTurns = 100;
    if (parser.isSet(maxTurnsOption) && !positiveNumber(u"--max-turns"_s, parser.value(maxTurnsOption), 100000, &maxTurns, &numberError))
        return usageError(numberError);

    QString workspace;
    if (parser.isSet(workspaceOption)) {
        const QFileInfo info(parser.value(workspaceOption));
        if (!info.isDir())
            return usageError(QCoreApplication::translate("waterline-cli", "the workspace %1 is not a folder").arg(parser.value(workspaceOption)));
        workspace = info.canonicalFilePath();
    }

    const bool allowBroad = parser.isSet(broadWorkspaceOption);
    if (!workspace.isEmpty() && !allowBroad && Workspace::isBroadRoot(workspace))
        return usageError(QCoreApplication::translate("waterline-cli", "the workspace %1 is the whole file system or your home folder; pass --allow-broad-workspace to let the agent work there").arg(workspace));

    SessionStore store;
    QString why;
    if (!store.open(parser.value(dbOption), &why))
        return printError(QCoreApplication::translate("waterline-cli", "cannot open the database %1: %2").arg(parser.value(dbOption), why));

    std::optional<SessionInfo> session;
    if (parser.isSet(sessionOption)) {
        session = store.session(parser.value(sessionOption), &why);
        if (!session)
            return printError(why);
        if (session->readOnly && workspace.isEmpty())
            return usageError(QCoreApplication::translate("waterline-cli", "session %1 was imported and is read-only: pass --workspace DIR "
                                                                           "(and --profile or --provider) to continue it there").arg(session->id));
        if (!session->readOnly && !workspace.isEmpty() && QFileInfo(session->workspace).canonicalFilePath() != workspace)
            return usageError(QCoreApplication::translate("waterline-cli", "session %1 works in %2, not in %3").arg(session->id, session->workspace, workspace));
        if (!session->readOnly && !allowBroad && Workspace::isBroadRoot(session->workspace))
            return usageError(QCoreApplication::translate("waterline-cli", "session %1 works in %2, the whole file system or your home folder; pass --allow-broad-workspace to let the agent work there").arg(session->id, session->workspace));
    }

    // The provider: --provider, else --profile, else the session's own, else the local default.
    ProviderProfile profile;
    if (parser.isSet(providerOption)) {
        const auto protocol = ProviderProfile::protocolFromName(parser.value(providerOption));
        if (!protocol)
            return usageError(QCoreApplication::translate("waterline-cli", "unknown provider \"%1\" (expected openai-chat or anthropic)").arg(parser.value(providerOption)));
        if (!parser.isSet(modelOption))
            return usageError(QCoreApplication::translate("waterline-cli", "--provider needs --model"));
        profile.name = parser.value(providerOption);
        profile.protocol = *protocol;
        profile.baseUrl = QUrl(*protocol == ProviderProfile::Protocol::Anthropic ? u"https://api.anthropic.com"_s
                                                                                : u"https://api.openai.com/v1"_s);
        profile.keyRef = ProviderProfile::defaultKeyEnvVar(*protocol);
    } else if (parser.isSet(profileOption)) {
        const auto named = profileNamed(parser.value(profileOption), session, &why);
        if (!named)
            return usageError(why);
        profile = *named;
    } else if (session && !session->providerProfile.isEmpty()) {
        const auto stored = ProviderProfile::fromJson(session->providerProfile, &why);
        if (!stored)
            return printError(QCoreApplication::translate("waterline-cli", "the session's provider profile is unusable: %1").arg(why));
        profile = *stored;
    } else {
        profile = ProviderProfile::defaultProfile();
    }
    if (parser.isSet(baseUrlOption)) {
        const QUrl url(parser.value(baseUrlOption), QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https") || url.host().isEmpty())
            return usageError(QCoreApplication::translate("waterline-cli", "--base-url \"%1\" is not an http(s) URL").arg(parser.value(baseUrlOption)));
        profile.baseUrl = url;
    }
    if (parser.isSet(modelOption))
        profile.model = parser.value(modelOption);
    if (profile.model.trimmed().isEmpty())
        return usageError(QCoreApplication::translate("waterline-cli", "no model: pass --model"));

    CompactionPolicy policy;
    if (session && !session->policy.isEmpty() && !CompactionPolicy::fromJson(session->policy, &policy, &why))
        return printError(QCoreApplication::translate("waterline-cli", "the session's compaction policy is invalid: %1").arg(why));
    if (window > 0)
        policy.contextWindow = window;
    else if (!session || session->policy.isEmpty())
        policy.contextWindow = profile.effectiveContextWindow();

    ApprovalPolicy approval = parser.isSet(autoApproveOption) ? ApprovalPolicy::allowAll() : ApprovalPolicy();
    SandboxPolicy sandbox;
    sandbox.network = !parser.isSet(noNetworkOption);
    sandbox.allowUnsandboxed = parser.isSet(unsandboxedOption);
    approval.setSandbox(sandbox);
    const QString summarizerModel = parser.value(summarizerOption);

    if (!session) {
        SessionInfo fields;
        fields.title = prompt.simplified().left(80);
        fields.workspace = workspace;
        fields.policy = policy.toJson();
        fields.providerName = profile.name;
        fields.providerProfile = profile.toJson();
        if (!summarizerModel.isEmpty())
            fields.summarizerProfile = QJsonObject{{u"model"_s, summarizerModel}};
        fields.approvalPolicy = QString::fromUtf8(QJsonDocument(approval.toJson()).toJson(QJsonDocument::Compact));
        session = store.createSession(fields, &why);
        if (!session)
            return printError(why);
    } else {
        if (session->readOnly) {
            // The user's flags choose where and with whom an import continues, never the file.
            SessionStore::Continuation choice;
            choice.workspace = workspace;
            choice.providerName = profile.name;
            choice.providerProfile = profile.toJson();
            if (!store.continueSession(session->id, choice, &why))
                return printError(why);
            std::fprintf(stderr, "continued the imported session in %s\n", workspace.toUtf8().constData());
        }
        if (window > 0 && !store.setSessionPolicy(session->id, policy.toJson(), &why))
            return printError(why);
    }
    std::fprintf(stderr, "session: %s\n", session->id.toUtf8().constData());
    std::fflush(stderr);

    // Keys come from the environment only; they are held in memory by the client.
    const QString key = profile.keyRef.isEmpty() ? QString()
                                                 : qEnvironmentVariable(ApiKeyStore::environmentVariableFor(profile).toUtf8().constData());
    ChatClient *client = ChatClient::create(profile, key);
    const std::unique_ptr<ChatClient> clientOwner(client);

    AgentConfig config;
    config.store = &store;
    config.sessionId = session->id;
    config.client = client;
    config.model = profile.model;
    config.maxOutputTokens = profile.effectiveMaxOutputTokens();
    config.summarizerModel = summarizerModel;
    config.policy = policy;
    config.approval = approval;
    config.maxTurns = int(maxTurns);
    config.allowBroadWorkspace = allowBroad;

    QEventLoop loop;
    AgentRun run(config);
    if (!run.open(&why))
        return printError(why);
    HeadlessPrinter printer(&run, &loop);
    if (!run.submit(prompt))
        return printError(QCoreApplication::translate("waterline-cli", "the prompt could not be submitted"));
    if (run.state() == AgentRun::State::Failed)
        return Failure; // the printer has shown why
    return loop.exec();
}

} // namespace wl::cli
