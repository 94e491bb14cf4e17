#include "AgentCliScript.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl::test {

QString jsonText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    return QString::fromUtf8(value.isArray() ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                             : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
}

bool offersTool(const QJsonObject &body, const QString &name)
{
    const QJsonArray tools = body.value(u"tools").toArray();
    return std::any_of(tools.cbegin(), tools.cend(), [&name](const QJsonValue &tool) {
        return tool.toObject().value(u"name").toString() == name;
    });
}

QHash<QString, QString> anthropicToolResults(const QJsonObject &body)
{
    QHash<QString, QString> results;
    for (const QJsonValue &message : body.value(u"messages").toArray()) {
        for (const QJsonValue &block : message.toObject().value(u"content").toArray()) {
            const QJsonObject b = block.toObject();
            if (b.value(u"type").toString() == u"tool_result")
                results.insert(b.value(u"tool_use_id").toString(), jsonText(b.value(u"content")));
        }
    }
    return results;
}

QString lastAnthropicToolResult(const QJsonObject &body)
{
    QString last;
    for (const QJsonValue &message : body.value(u"messages").toArray()) {
        for (const QJsonValue &block : message.toObject().value(u"content").toArray()) {
            const QJsonObject b = block.toObject();
            if (b.value(u"type").toString() == u"tool_result")
                last = b.value(u"tool_use_id").toString();
        }
    }
    return last;
}

QHash<QString, QString> responsesToolResults(const QJsonObject &body)
{
    QHash<QString, QString> results;
    for (const QJsonValue &item : body.value(u"input").toArray()) {
        const QJsonObject i = item.toObject();
        if (i.value(u"type").toString() == u"function_call_output")
            results.insert(i.value(u"call_id").toString(), jsonText(i.value(u"output")));
    }
    return results;
}

FakeReply shapedReply(const RecordedRequest &request, FakeReply reply)
{
    reply.wholeJson = !request.json().value(u"stream").toBool(false);
    reply.chunkChars = 24;
    reply.inputTokens = std::max<qint64>(1, request.body.size() / 4);
    reply.cacheReadTokens = reply.inputTokens / 2;
    reply.outputTokens = 40;
    return reply;
}

QString npmClientsModules(const QString &sourceDir, const QString &cacheHome, QString *error)
{
    QProcess locate;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CACHE_HOME"_s, cacheHome);
    locate.setProcessEnvironment(env);
    locate.start(u"bash"_s, {sourceDir + u"/scripts/npm-clients"_s, u"--print-dir"_s});
    if (!locate.waitForFinished(30000) || locate.exitStatus() != QProcess::NormalExit || locate.exitCode() != 0) {
        *error = u"The agent CLIs from npm are not installed (%1). Install them once with `scripts/npm-clients` "
                 "(from the checkout, on the host; it needs the npm registry) and run this again."_s
                     .arg(QString::fromLocal8Bit(locate.readAllStandardError()).trimmed());
        return {};
    }
    return QString::fromLocal8Bit(locate.readAllStandardOutput()).trimmed() + u"/node_modules"_s;
}

QString claudeCodeBinary(const QString &nodeModules)
{
    return nodeModules + u"/@anthropic-ai/claude-code-linux-x64/claude"_s;
}

QProcessEnvironment agentCliEnvironment(const QString &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &name : {u"ANTHROPIC_API_KEY"_s, u"ANTHROPIC_AUTH_TOKEN"_s, u"ANTHROPIC_BASE_URL"_s,
                                u"OPENAI_API_KEY"_s, u"OPENAI_BASE_URL"_s, u"CODEX_HOME"_s})
        env.remove(name);
    env.insert(u"HOME"_s, home);
    env.insert(u"XDG_CONFIG_HOME"_s, home + u"/.config"_s);
    env.insert(u"XDG_CACHE_HOME"_s, home + u"/.cache"_s);
    env.insert(u"XDG_DATA_HOME"_s, home + u"/.local/share"_s);
    return env;
}

QProcessEnvironment claudeCodeEnvironment(const QString &home, const QUrl &baseUrl, const QString &key)
{
    QProcessEnvironment env = agentCliEnvironment(home);
    env.insert(u"ANTHROPIC_BASE_URL"_s, baseUrl.toString());
    env.insert(u"ANTHROPIC_API_KEY"_s, key);
    env.insert(u"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"_s, u"1"_s);
    env.insert(u"DISABLE_AUTOUPDATER"_s, u"1"_s);
    return env;
}

ClaudeCodeScript::Step ClaudeCodeScript::read(const QString &callId, const QString &filePath, const QString &text)
{
    return {callId, u"Read"_s, QJsonObject{{u"file_path"_s, filePath}}, text};
}

ClaudeCodeScript::Step ClaudeCodeScript::bash(const QString &callId, const QString &command, const QString &description,
                                              const QString &text)
{
    return {callId, u"Bash"_s, QJsonObject{{u"command"_s, command}, {u"description"_s, description}}, text};
}

ClaudeCodeScript::ClaudeCodeScript(const QList<Step> &steps, const QString &answer)
    : m_steps(steps)
    , m_answer(answer)
{
}

std::optional<FakeReply> ClaudeCodeScript::respond(const RecordedRequest &request) const
{
    if (request.protocol() != u"anthropic")
        return std::nullopt;
    const QJsonObject body = request.json();
    if (!offersTool(body, u"Read"_s) || !offersTool(body, u"Bash"_s))
        return shapedReply(request, FakeReply::withText(u"Side answer."_s));
    const QString last = lastAnthropicToolResult(body);
    qsizetype next = 0;
    if (!last.isEmpty()) {
        const auto done = std::find_if(m_steps.cbegin(), m_steps.cend(), [&last](const Step &s) { return s.callId == last; });
        next = done == m_steps.cend() ? m_steps.size() : (done - m_steps.cbegin()) + 1;
    }
    FakeReply reply = next < m_steps.size()
        ? FakeReply::withToolCalls({{m_steps[next].callId, m_steps[next].tool,
                                     QString::fromUtf8(QJsonDocument(m_steps[next].input).toJson(QJsonDocument::Compact))}},
                                   m_steps[next].text)
        : FakeReply::withText(m_answer);
    reply = shapedReply(request, reply);
    reply.delayMs = m_delayMs;
    return reply;
}

} // namespace wl::test
