#pragma once
// A real session for agent tests: a workspace in a temporary folder, a real SQLite store, the
// fake LLM server and an OpenAI client pointed at it, and helpers to check what was sent and stored.

#include "FakeLlmServer.h"

#include "agent/AgentRun.h"
#include "compaction/AuditLog.h"
#include "llm/OpenAiChatClient.h"
#include "store/SessionStore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace wl::test {

inline FakeToolCall toolCall(const QString &id, const QString &name, const QJsonObject &arguments)
{
    return FakeToolCall{id, name, QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact))};
}

inline FakeReply callReply(const QString &id, const QString &name, const QJsonObject &arguments)
{
    return FakeReply::withToolCalls({toolCall(id, name, arguments)});
}

// What the summariser answers: matched by its system prompt, before the scripted queue.
inline FakeReply summaryRule(const QString &answer, bool persistent = true)
{
    FakeReply reply = FakeReply::withText(answer);
    reply.when = [](const RecordedRequest &r) { return r.isSummarizerCall(); };
    reply.persistent = persistent;
    return reply;
}

// Problems with one OpenAI chat request body against the API's rules (docs/COMPACTION.md section 7):
// the system prompt first and only there, calls and results paired, the body never
// starting with a result. Empty when the request is valid.
inline QString viewProblem(const QJsonObject &body)
{
    const QJsonArray messages = body.value(u"messages").toArray();
    if (messages.isEmpty() || messages.at(0).toObject().value(u"role").toString() != u"system")
        return QStringLiteral("the first message is not the system prompt");
    if (messages.size() < 2)
        return QStringLiteral("no body");
    if (messages.at(1).toObject().value(u"role").toString() == u"tool")
        return QStringLiteral("the body starts with a tool result");
    QSet<QString> open;      // calls of the current group without a result yet
    QSet<QString> answered;
    for (qsizetype i = 1; i < messages.size(); ++i) {
        const QJsonObject m = messages.at(i).toObject();
        const QString role = m.value(u"role").toString();
        if (role == u"system")
            return QStringLiteral("a second system message at %1").arg(i);
        if (role == u"tool") {
            const QString id = m.value(u"tool_call_id").toString();
            if (!open.contains(id))
                return QStringLiteral("result %1 at %2 has no open call").arg(id).arg(i);
            open.remove(id);
            answered.insert(id);
            continue;
        }
        if (!open.isEmpty())
            return QStringLiteral("calls without results before message %1").arg(i);
        answered.clear();
        if (role == u"assistant") {
            for (const QJsonValue &c : m.value(u"tool_calls").toArray())
                open.insert(c.toObject().value(u"id").toString());
        }
    }
    if (!open.isEmpty())
        return QStringLiteral("the last calls have no results");
    return {};
}

inline QString fileText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(path.section(u'/', 0, -2));
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Every call in `history` has exactly one result, and every result answers a call.
inline QString pairingProblem(const QList<Message> &history)
{
    QHash<QString, int> results;
    QSet<QString> calls;
    for (const Message &m : history) {
        for (const ToolCall &c : m.toolCalls)
            calls.insert(c.id);
        if (m.isToolResult())
            ++results[m.toolCallId];
    }
    for (const QString &id : calls)
        if (results.value(id) != 1)
            return QStringLiteral("call %1 has %2 results").arg(id).arg(results.value(id));
    for (auto it = results.cbegin(); it != results.cend(); ++it)
        if (!calls.contains(it.key()))
            return QStringLiteral("result %1 answers no call").arg(it.key());
    return {};
}

class AgentHarness
{
public:
    QTemporaryDir dir;
    QString workspace;
    SessionStore store;
    FakeLlmServer server;
    std::unique_ptr<OpenAiChatClient> client;
    QString sessionId;
    std::unique_ptr<AgentRun> run;

    explicit AgentHarness(const CompactionPolicy &policy = {})
    {
        QVERIFY(dir.isValid());
        workspace = dir.filePath(QStringLiteral("ws"));
        QVERIFY(QDir().mkpath(workspace));
        QString error;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("sessions.db")), &error), qPrintable(error));
        QVERIFY(server.start());
        client = makeClient(server);
        SessionInfo fields;
        fields.title = QStringLiteral("test");
        fields.workspace = QDir(workspace).canonicalPath();
        fields.policy = policy.toJson();
        const auto created = store.createSession(fields, &error);
        QVERIFY2(created, qPrintable(error));
        sessionId = created->id;
    }

    static std::unique_ptr<OpenAiChatClient> makeClient(const FakeLlmServer &s)
    {
        auto c = std::make_unique<OpenAiChatClient>();
        c->setBaseUrl(s.openAiBaseUrl());
        RetryPolicy retry;
        retry.maxAttempts = 1;
        c->setRetryPolicy(retry);
        c->setTransferTimeoutMs(20000);
        return c;
    }

    AgentConfig config() const
    {
        AgentConfig c;
        c.store = const_cast<SessionStore *>(&store);
        c.sessionId = sessionId;
        c.client = client.get();
        c.model = QStringLiteral("fake-model");
        c.approval = ApprovalPolicy::allowAll();
        c.auditPath = auditPath();
        return c;
    }

    QString auditPath() const { return dir.filePath(QStringLiteral("audit/") + sessionId + QStringLiteral(".jsonl")); }

    AgentRun *open(const AgentConfig &c)
    {
        run.reset();
        run = std::make_unique<AgentRun>(c);
        QString error;
        if (!run->open(&error))
            qWarning("open failed: %s", qPrintable(error));
        return run.get();
    }
    AgentRun *open() { return open(config()); }

    // Waits until the run is no longer busy; returns its state.
    AgentRun::State settle(int timeoutMs = 20000)
    {
        QElapsedTimer clock;
        clock.start();
        while (run->isBusy() && clock.elapsed() < timeoutMs)
            QTest::qWait(5);
        return run->state();
    }

    QString wsPath(const QString &relative) const { return workspace + u'/' + relative; }

    // The requests the agent made (the summariser's left out).
    QList<RecordedRequest> agentRequests() const
    {
        QList<RecordedRequest> out;
        for (const RecordedRequest &r : server.requests())
            if (!r.isSummarizerCall())
                out.append(r);
        return out;
    }
};

} // namespace wl::test
