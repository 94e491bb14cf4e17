// The JSON bodies the clients send, checked field by field against the
// OpenAI Chat Completions and Anthropic Messages API references.
#include "llm/AnthropicClient.h"
#include "llm/OpenAiChatClient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace wl;

namespace {

const QString kCompaction = u"[Context Compaction]\n## Anchors\n### User Intent\nfix the build\n## Summary\nRead two files."_s;

// system, user, assistant with two tool calls, two tool results (one an error), compaction message.
ChatRequest agentView()
{
    ChatRequest r;
    r.model = u"test-model"_s;
    r.maxOutputTokens = 2048;
    r.temperature = 0.25;
    r.messages = {
        Message::system(u"You are a coding agent."_s),
        Message::user(u"Why does the build fail?"_s),
        Message::assistant(u"Let me look."_s,
                           {ToolCall{u"call_1"_s, u"read_file"_s, uR"({"path":"CMakeLists.txt"})"_s, true},
                            ToolCall{u"call_2"_s, u"bash"_s, uR"({"command":"make"})"_s, true}}),
        Message::toolResult(u"call_1"_s, u"cmake_minimum_required(VERSION 3.25)"_s),
        Message::toolResult(u"call_2"_s, u"make: *** No targets.  Stop."_s, true),
        Message::user(kCompaction),
    };
    ToolSpec readFile{u"read_file"_s, u"Read a file"_s,
                      QJsonObject{{u"type"_s, u"object"_s},
                                  {u"properties"_s, QJsonObject{{u"path"_s, QJsonObject{{u"type"_s, u"string"_s}}}}},
                                  {u"required"_s, QJsonArray{u"path"_s}}}};
    ToolSpec bash{u"bash"_s, u"Run a command"_s,
                  QJsonObject{{u"type"_s, u"object"_s},
                              {u"properties"_s, QJsonObject{{u"command"_s, QJsonObject{{u"type"_s, u"string"_s}}}}}}};
    r.tools = {readFile, bash};
    return r;
}

QJsonObject parse(const QByteArray &body)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &e);
    if (e.error != QJsonParseError::NoError)
        qFatal("request body is not JSON: %s", qPrintable(e.errorString()));
    return doc.object();
}

QStringList keys(const QJsonObject &o)
{
    QStringList k = o.keys();
    k.sort();
    return k;
}

} // namespace

class TestRequestBodies : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void openAiAgentView()
    {
        OpenAiChatClient client;
        client.setBaseUrl(QUrl(u"http://127.0.0.1:11434/v1"_s));
        QCOMPARE(client.endpoint(), QUrl(u"http://127.0.0.1:11434/v1/chat/completions"_s));
        const QJsonObject body = parse(client.requestBody(agentView()));

        QCOMPARE(keys(body), (QStringList{u"max_tokens"_s, u"messages"_s, u"model"_s, u"stream"_s, u"stream_options"_s,
                                          u"temperature"_s, u"tools"_s}));
        QCOMPARE(body[u"model"].toString(), u"test-model"_s);
        QCOMPARE(body[u"stream"].toBool(), true);
        QCOMPARE(body[u"stream_options"].toObject(), (QJsonObject{{u"include_usage"_s, true}}));
        QCOMPARE(body[u"max_tokens"].toInt(), 2048);
        QCOMPARE(body[u"temperature"].toDouble(), 0.25);

        const QJsonArray messages = body[u"messages"].toArray();
        QCOMPARE(messages.size(), 6);
        QCOMPARE(messages[0].toObject(), (QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"You are a coding agent."_s}}));
        QCOMPARE(messages[1].toObject(), (QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Why does the build fail?"_s}}));

        const QJsonObject assistant = messages[2].toObject();
        QCOMPARE(keys(assistant), (QStringList{u"content"_s, u"role"_s, u"tool_calls"_s}));
        QCOMPARE(assistant[u"role"].toString(), u"assistant"_s);
        QCOMPARE(assistant[u"content"].toString(), u"Let me look."_s);
        const QJsonArray calls = assistant[u"tool_calls"].toArray();
        QCOMPARE(calls.size(), 2);
        QCOMPARE(calls[0].toObject(), (QJsonObject{
            {u"id"_s, u"call_1"_s}, {u"type"_s, u"function"_s},
            {u"function"_s, QJsonObject{{u"name"_s, u"read_file"_s}, {u"arguments"_s, uR"({"path":"CMakeLists.txt"})"_s}}}}));
        QCOMPARE(calls[1].toObject()[u"function"].toObject()[u"name"].toString(), u"bash"_s);
        QCOMPARE(calls[1].toObject()[u"function"].toObject()[u"arguments"].toString(), uR"({"command":"make"})"_s);

        // Tool results: role tool with tool_call_id; no error flag exists in this API.
        QCOMPARE(messages[3].toObject(), (QJsonObject{{u"role"_s, u"tool"_s}, {u"tool_call_id"_s, u"call_1"_s},
                                                      {u"content"_s, u"cmake_minimum_required(VERSION 3.25)"_s}}));
        QCOMPARE(messages[4].toObject(), (QJsonObject{{u"role"_s, u"tool"_s}, {u"tool_call_id"_s, u"call_2"_s},
                                                      {u"content"_s, u"make: *** No targets.  Stop."_s}}));
        QCOMPARE(messages[5].toObject(), (QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, kCompaction}}));

        const QJsonArray tools = body[u"tools"].toArray();
        QCOMPARE(tools.size(), 2);
        const QJsonObject tool = tools[0].toObject();
        QCOMPARE(keys(tool), (QStringList{u"function"_s, u"type"_s}));
        QCOMPARE(tool[u"type"].toString(), u"function"_s);
        const QJsonObject function = tool[u"function"].toObject();
        QCOMPARE(keys(function), (QStringList{u"description"_s, u"name"_s, u"parameters"_s}));
        QCOMPARE(function[u"name"].toString(), u"read_file"_s);
        QCOMPARE(function[u"description"].toString(), u"Read a file"_s);
        QCOMPARE(function[u"parameters"].toObject()[u"required"].toArray(), QJsonArray{u"path"_s});
    }

    void openAiOutputLimitField_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("field");
        QTest::newRow("openai") << u"https://api.openai.com/v1"_s << u"max_completion_tokens"_s;
        QTest::newRow("azure") << u"https://me.openai.azure.com/openai"_s << u"max_completion_tokens"_s;
        QTest::newRow("ollama") << u"http://127.0.0.1:11434/v1"_s << u"max_tokens"_s;
        QTest::newRow("vllm") << u"http://gpu-box:8000/v1/"_s << u"max_tokens"_s;
    }
    void openAiOutputLimitField()
    {
        QFETCH(QString, base);
        QFETCH(QString, field);
        OpenAiChatClient client;
        client.setBaseUrl(QUrl(base));
        const QJsonObject body = parse(client.requestBody(agentView()));
        QCOMPARE(body[field].toInt(), 2048);
        QCOMPARE(body.contains(u"max_tokens"), field == u"max_tokens");
        QVERIFY(!client.endpoint().path().contains(u"//"));
    }

    void openAiToolOnlyAssistantHasNullContent()
    {
        ChatRequest r;
        r.model = u"m"_s;
        r.messages = {Message::user(u"go"_s), Message::assistant(QString(), {ToolCall{u"c"_s, u"t"_s, QString(), true}})};
        const QJsonObject a = parse(OpenAiChatClient().requestBody(r))[u"messages"].toArray()[1].toObject();
        QVERIFY(a[u"content"].isNull());
        // Empty arguments go out as an empty object, which every server parses.
        QCOMPARE(a[u"tool_calls"].toArray()[0].toObject()[u"function"].toObject()[u"arguments"].toString(), u"{}"_s);
        QVERIFY(!parse(OpenAiChatClient().requestBody(r)).contains(u"tools"));
        QVERIFY(!parse(OpenAiChatClient().requestBody(r)).contains(u"temperature"));
    }

    void anthropicAgentView()
    {
        AnthropicClient client;
        client.setBaseUrl(QUrl(u"https://api.anthropic.com"_s));
        QCOMPARE(client.endpoint(), QUrl(u"https://api.anthropic.com/v1/messages"_s));
        const QJsonObject body = parse(client.requestBody(agentView()));

        QCOMPARE(keys(body), (QStringList{u"max_tokens"_s, u"messages"_s, u"model"_s, u"stream"_s, u"system"_s,
                                          u"temperature"_s, u"tools"_s}));
        QCOMPARE(body[u"model"].toString(), u"test-model"_s);
        QCOMPARE(body[u"max_tokens"].toInt(), 2048);
        QCOMPARE(body[u"stream"].toBool(), true);
        QCOMPARE(body[u"temperature"].toDouble(), 0.25);
        // System lifted to the top level, as a cacheable text block.
        QCOMPARE(body[u"system"].toArray(), (QJsonArray{QJsonObject{
            {u"type"_s, u"text"_s}, {u"text"_s, u"You are a coding agent."_s},
            {u"cache_control"_s, QJsonObject{{u"type"_s, u"ephemeral"_s}}}}}));

        const QJsonArray messages = body[u"messages"].toArray();
        // user / assistant / user(tool results + compaction): roles alternate, no system role inside.
        QCOMPARE(messages.size(), 3);
        QCOMPARE(messages[0].toObject()[u"role"].toString(), u"user"_s);
        QCOMPARE(messages[0].toObject()[u"content"].toArray(),
                 (QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"Why does the build fail?"_s}}}));

        const QJsonObject assistant = messages[1].toObject();
        QCOMPARE(assistant[u"role"].toString(), u"assistant"_s);
        const QJsonArray blocks = assistant[u"content"].toArray();
        QCOMPARE(blocks.size(), 3);
        QCOMPARE(blocks[0].toObject(), (QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"Let me look."_s}}));
        QCOMPARE(blocks[1].toObject(), (QJsonObject{{u"type"_s, u"tool_use"_s}, {u"id"_s, u"call_1"_s},
                                                    {u"name"_s, u"read_file"_s},
                                                    {u"input"_s, QJsonObject{{u"path"_s, u"CMakeLists.txt"_s}}}}));
        QCOMPARE(blocks[2].toObject(), (QJsonObject{{u"type"_s, u"tool_use"_s}, {u"id"_s, u"call_2"_s},
                                                    {u"name"_s, u"bash"_s},
                                                    {u"input"_s, QJsonObject{{u"command"_s, u"make"_s}}}}));

        const QJsonObject results = messages[2].toObject();
        QCOMPARE(results[u"role"].toString(), u"user"_s);
        const QJsonArray rb = results[u"content"].toArray();
        QCOMPARE(rb.size(), 3);
        QCOMPARE(rb[0].toObject(), (QJsonObject{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, u"call_1"_s},
                                                {u"content"_s, u"cmake_minimum_required(VERSION 3.25)"_s}}));
        QCOMPARE(rb[1].toObject(), (QJsonObject{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, u"call_2"_s},
                                                {u"content"_s, u"make: *** No targets.  Stop."_s}, {u"is_error"_s, true}}));
        // The compaction message follows the results in the same user turn and is the cache breakpoint.
        QCOMPARE(rb[2].toObject(), (QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, kCompaction},
                                                {u"cache_control"_s, QJsonObject{{u"type"_s, u"ephemeral"_s}}}}));

        const QJsonArray tools = body[u"tools"].toArray();
        QCOMPARE(tools.size(), 2);
        QCOMPARE(keys(tools[0].toObject()), (QStringList{u"description"_s, u"input_schema"_s, u"name"_s}));
        QCOMPARE(tools[0].toObject()[u"input_schema"].toObject()[u"required"].toArray(), QJsonArray{u"path"_s});
        QCOMPARE(tools[1].toObject()[u"cache_control"].toObject(), (QJsonObject{{u"type"_s, u"ephemeral"_s}}));
    }

    void anthropicWithoutCaching()
    {
        ChatRequest r = agentView();
        r.promptCaching = false;
        const QJsonObject body = parse(AnthropicClient().requestBody(r));
        QCOMPARE(body[u"system"].toString(), u"You are a coding agent."_s);
        QVERIFY(!QJsonDocument(body).toJson().contains("cache_control"));
    }

    // Anthropic needs user first, alternating roles and JSON objects as tool input.
    void anthropicRepairsShape()
    {
        ChatRequest r;
        r.model = u"m"_s;
        r.maxOutputTokens = 0; // max_tokens is required: a default goes out
        r.messages = {
            Message::system(u"one"_s),
            Message::assistant(u"I start."_s, {ToolCall{u"c1"_s, u"t"_s, u"{not json"_s, false},
                                               ToolCall{u"c2"_s, u"t"_s, QString(), true}}),
            Message::toolResult(u"c1"_s, QString(), true),
            Message::user(u"first"_s),
            Message::user(u"second"_s),
            Message::assistant(QString()),          // empty: dropped
            Message::system(u"two"_s),
            Message::user(u"third"_s),
        };
        const QJsonObject body = parse(AnthropicClient().requestBody(r));
        QVERIFY(body[u"max_tokens"].toInt() > 0);
        QCOMPARE(body[u"system"].toArray()[0].toObject()[u"text"].toString(), u"one\n\ntwo"_s);
        const QJsonArray m = body[u"messages"].toArray();
        QCOMPARE(m.size(), 3);
        QCOMPARE(m[0].toObject()[u"role"].toString(), u"user"_s);
        QCOMPARE(m[0].toObject()[u"content"].toArray()[0].toObject()[u"text"].toString(), u"[Conversation start]"_s);
        const QJsonArray toolUses = m[1].toObject()[u"content"].toArray();
        QCOMPARE(toolUses[1].toObject()[u"input"].toObject(), (QJsonObject{{u"_raw_arguments"_s, u"{not json"_s}}));
        QCOMPARE(toolUses[2].toObject()[u"input"].toObject(), QJsonObject());
        const QJsonArray last = m[2].toObject()[u"content"].toArray();
        QCOMPARE(last.size(), 4);
        QCOMPARE(last[0].toObject()[u"type"].toString(), u"tool_result"_s);
        QVERIFY(!last[0].toObject().contains(u"content")); // empty result: content omitted
        QCOMPARE(last[1].toObject()[u"text"].toString(), u"first"_s);
        QCOMPARE(last[2].toObject()[u"text"].toString(), u"second"_s);
        QCOMPARE(last[3].toObject()[u"text"].toString(), u"third"_s);
    }

    // A user text that precedes tool results in one merged turn is moved behind them.
    void anthropicToolResultsLeadMergedTurn()
    {
        ChatRequest r;
        r.model = u"m"_s;
        r.messages = {Message::user(u"q"_s), Message::assistant(QString(), {ToolCall{u"c"_s, u"t"_s, u"{}"_s, true}}),
                      Message::user(u"interjection"_s), Message::toolResult(u"c"_s, u"out"_s)};
        const QJsonArray last = parse(AnthropicClient().requestBody(r))[u"messages"].toArray()[2].toObject()[u"content"].toArray();
        QCOMPARE(last[0].toObject()[u"type"].toString(), u"tool_result"_s);
        QCOMPARE(last[1].toObject()[u"text"].toString(), u"interjection"_s);
    }

    void anthropicUrls_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("endpoint");
        QTest::newRow("host") << u"https://api.anthropic.com"_s << u"https://api.anthropic.com/v1/messages"_s;
        QTest::newRow("host slash") << u"https://api.anthropic.com/"_s << u"https://api.anthropic.com/v1/messages"_s;
        QTest::newRow("with v1") << u"http://proxy:8080/anthropic/v1"_s << u"http://proxy:8080/anthropic/v1/messages"_s;
    }
    void anthropicUrls()
    {
        QFETCH(QString, base);
        QFETCH(QString, endpoint);
        AnthropicClient client;
        client.setBaseUrl(QUrl(base));
        QCOMPARE(client.endpoint(), QUrl(endpoint));
    }
};

QTEST_GUILESS_MAIN(TestRequestBodies)
#include "tst_requestbodies.moc"
