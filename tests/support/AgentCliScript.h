#pragma once

#include "FakeLlmServer.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QUrl>

#include <optional>

namespace wl::test {

// What the fake upstream needs to drive the real agent CLIs from npm (installed by
// scripts/npm-clients) through a task: where they are, a clean environment to run them in, and
// readers of what they sent. Used by tests/e2e/tst_agentclis and the live screenshot of
// tests/e2e/waterline_shots.

// A string as it is, an array or object as compact JSON (a tool result's content takes both forms).
QString jsonText(const QJsonValue &value);
// The request offers a tool of that name (the top-level `name` of an entry of `tools`, as
// Anthropic Messages and OpenAI Responses write it).
bool offersTool(const QJsonObject &body, const QString &name);
// Anthropic Messages: every tool_result block of the conversation, by tool_use_id.
QHash<QString, QString> anthropicToolResults(const QJsonObject &body);
// Anthropic Messages: the tool_use_id of the last tool_result block of the conversation.
QString lastAnthropicToolResult(const QJsonObject &body);
// OpenAI Responses: every function_call_output item, by call_id.
QHash<QString, QString> responsesToolResults(const QJsonObject &body);
// `reply` shaped as the request asked (a whole JSON body when it did not stream), in small
// chunks, with a usage that follows the request's size (about 4 bytes a token), as a provider's would.
FakeReply shapedReply(const RecordedRequest &request, FakeReply reply);

// The node_modules folder scripts/npm-clients installed the pinned CLIs into (it prints its folder
// with --print-dir; `cacheHome` is the XDG_CACHE_HOME it used), or empty with `error` saying how
// to install them.
QString npmClientsModules(const QString &sourceDir, const QString &cacheHome, QString *error);
// Claude Code's native binary in that folder (what its wrapper's postinstall would copy over its
// placeholder; scripts/npm-clients runs no install scripts).
QString claudeCodeBinary(const QString &nodeModules);
// The system environment without any provider key or base URL, with HOME and the XDG folders under
// `home`, so a CLI neither reads nor writes the user's own settings.
QProcessEnvironment agentCliEnvironment(const QString &home);
// agentCliEnvironment() for `claude -p` against `baseUrl` with `key`, non-essential traffic and
// the auto-updater off.
QProcessEnvironment claudeCodeEnvironment(const QString &home, const QUrl &baseUrl, const QString &key);

// A FakeLlmServer responder that makes Claude Code do a fixed series of tool calls and then
// answer. Each agent request (one that offers the Read and Bash tools) gets the step after the one
// whose result came last in the conversation (the first step when there is none), so the script
// goes on when an earlier round trip was summarised away by compact mode. A request without the
// agent's tools (a title or a summary the CLI asks for on the side) gets a short text.
class ClaudeCodeScript
{
public:
    struct Step
    {
        QString callId;
        QString tool;
        QJsonObject input;
        QString text;   // what the model says before the call
    };
    static Step read(const QString &callId, const QString &filePath, const QString &text = {});
    static Step bash(const QString &callId, const QString &command, const QString &description, const QString &text = {});

    ClaudeCodeScript(const QList<Step> &steps, const QString &answer);
    // A pause before each event of the agent's replies: a model that takes its time, so the run can
    // be watched while it goes.
    void setDelayMs(int ms) { m_delayMs = ms; }

    // Nothing for a request that is not Anthropic Messages (the server's queue and rules answer it).
    std::optional<FakeReply> respond(const RecordedRequest &request) const;

private:
    QList<Step> m_steps;
    QString m_answer;
    int m_delayMs = 0;
};

} // namespace wl::test
