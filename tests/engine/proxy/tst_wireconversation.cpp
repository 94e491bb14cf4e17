// The proxy's wire codec: client requests and provider answers of the three protocols, hostile
// bodies first.
#include "proxy/WireConversation.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
QByteArray readData(const QString &relative)
{
    QFile file(QStringLiteral(WATERLINE_TEST_DATA) + u'/' + relative);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
} // namespace

class TestWireConversation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hostileRequestBodiesGiveAClearError_data();
    void hostileRequestBodiesGiveAClearError();
    void pathsNameTheirProtocol();
    void anthropicRequest();
    void anthropicSystemMessagesInTheConversation();
    void openAiChatRequest();
    void responsesRequest();
    void hostileResponseBodiesNeverCrash();
    void anthropicStreamResponse();
    void openAiChatStreamResponse();
    void responsesStreamResponses();
    void errorStatusKeepsTheProvidersWords();
    void sameTurnIgnoresArgumentSpacingButNotContent();
};

void TestWireConversation::hostileRequestBodiesGiveAClearError_data()
{
    QTest::addColumn<int>("protocol");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("expected");
    const int a = int(WireProtocol::AnthropicMessages), o = int(WireProtocol::OpenAiChat), r = int(WireProtocol::OpenAiResponses);
    QTest::newRow("not json") << a << QByteArray("hello") << u"not JSON"_s;
    QTest::newRow("empty") << o << QByteArray() << u"not JSON"_s;
    QTest::newRow("array") << r << QByteArray("[1,2]") << u"not a JSON object"_s;
    QTest::newRow("messages missing") << a << QByteArray(R"({"model":"m"})") << u"'messages'"_s;
    QTest::newRow("messages a string") << o << QByteArray(R"({"messages":"hi"})") << u"'messages'"_s;
    QTest::newRow("model a number") << o << QByteArray(R"({"model":3,"messages":[]})") << u"'model'"_s;
    QTest::newRow("tools an object") << a << QByteArray(R"({"tools":{},"messages":[]})") << u"'tools'"_s;
    QTest::newRow("unknown role anthropic") << a << QByteArray(R"({"messages":[{"role":"developer","content":"x"}]})") << u"unknown message role 'developer'"_s;
    QTest::newRow("tool result in a system message") << a << QByteArray(R"({"messages":[{"role":"system","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}]})") << u"tool result"_s;
    QTest::newRow("tool call in a system message") << a << QByteArray(R"({"messages":[{"role":"system","content":[{"type":"tool_use","id":"t","name":"n","input":{}}]}]})") << u"tool call"_s;
    QTest::newRow("unknown role openai") << o << QByteArray(R"({"messages":[{"role":"wizard","content":"x"}]})") << u"unknown message role 'wizard'"_s;
    QTest::newRow("unknown role responses") << r << QByteArray(R"({"input":[{"type":"message","role":"robot","content":"x"}]})") << u"unknown message role 'robot'"_s;
    QTest::newRow("message a number") << o << QByteArray(R"({"messages":[7]})") << u"not an object"_s;
    QTest::newRow("content a number") << a << QByteArray(R"({"messages":[{"role":"user","content":5}]})") << u"'content'"_s;
    QTest::newRow("block a string") << a << QByteArray(R"({"messages":[{"role":"user","content":[1]}]})") << u"not an object"_s;
    QTest::newRow("tool result without id") << a << QByteArray(R"({"messages":[{"role":"user","content":[{"type":"tool_result","content":"x"}]}]})") << u"tool_use_id"_s;
    QTest::newRow("tool message without id") << o << QByteArray(R"({"messages":[{"role":"tool","content":"x"}]})") << u"tool_call_id"_s;
    QTest::newRow("call arguments an object") << r << QByteArray(R"({"input":[{"type":"function_call","call_id":"c","name":"n","arguments":{}}]})") << u"not text"_s;
    QTest::newRow("input a number") << r << QByteArray(R"({"input":4})") << u"'input'"_s;
    QTest::newRow("instructions an array") << r << QByteArray(R"({"instructions":[],"input":"x"})") << u"'instructions'"_s;
    QByteArray huge(WireConversation::kMaxBodyBytes + 1, ' ');
    QTest::newRow("huge") << o << huge << u"larger than"_s;
    QByteArray deep = QByteArray(5000, '[') + QByteArray(5000, ']');
    QTest::newRow("deeply nested") << o << deep << u"not JSON"_s;
}

void TestWireConversation::hostileRequestBodiesGiveAClearError()
{
    QFETCH(int, protocol);
    QFETCH(QByteArray, body);
    QFETCH(QString, expected);
    QString error;
    const auto request = WireConversation::parseRequest(WireProtocol(protocol), body, &error);
    QVERIFY(!request);
    QVERIFY2(error.contains(expected), qPrintable(error));
}

void TestWireConversation::pathsNameTheirProtocol()
{
    using WireConversation::protocolFor;
    QCOMPARE(protocolFor("POST", "/v1/messages?beta=true"), WireProtocol::AnthropicMessages);
    QCOMPARE(protocolFor("POST", "/v1/messages/count_tokens?beta=true"), WireProtocol::None);
    QCOMPARE(protocolFor("POST", "/v1/chat/completions"), WireProtocol::OpenAiChat);
    QCOMPARE(protocolFor("POST", "/openai/v1/responses"), WireProtocol::OpenAiResponses);
    QCOMPARE(protocolFor("GET", "/v1/models"), WireProtocol::None);
    QCOMPARE(protocolFor("GET", "/v1/messages"), WireProtocol::None);
    QCOMPARE(protocolFor("POST", "/v1/embeddings"), WireProtocol::None);
}

void TestWireConversation::anthropicRequest()
{
    const QByteArray body = R"({"model":"claude-x","stream":true,"metadata":{"user_id":"user_1_account__session_9"},
        "system":[{"type":"text","text":"You are Claude Code."},{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral"}}],
        "tools":[{"name":"Read","description":"read a file","input_schema":{"type":"object"}}],
        "messages":[
          {"role":"user","content":"fix the bug"},
          {"role":"assistant","content":[{"type":"thinking","thinking":"hmm","signature":"s"},{"type":"text","text":"Reading."},
                                         {"type":"tool_use","id":"toolu_1","name":"Read","input":{"path":"a.c"}}]},
          {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"int main;"}],"is_error":true},
                                    {"type":"text","text":"go on"}]}]})";
    QString error;
    const auto request = WireConversation::parseRequest(WireProtocol::AnthropicMessages, body, &error);
    QVERIFY2(request, qPrintable(error));
    QCOMPARE(request->model, u"claude-x"_s);
    QCOMPARE(request->conversationHint, u"user_1_account__session_9"_s);
    QVERIFY(request->stream);
    QCOMPARE(request->systemPrompt, u"You are Claude Code.\nBe brief."_s);
    QCOMPARE(request->tools.size(), 1);
    QCOMPARE(request->tools[0].toObject().value(u"name").toString(), u"Read"_s);
    QCOMPARE(request->messages.size(), 4);
    QCOMPARE(request->messages[0].role, Role::User);
    QCOMPARE(request->messages[1].content, u"Reading."_s);
    QCOMPARE(request->messages[1].toolCalls.size(), 1);
    QCOMPARE(request->messages[1].toolCalls[0].id, u"toolu_1"_s);
    QCOMPARE(request->messages[1].toolCalls[0].arguments, uR"({"path":"a.c"})"_s);
    QCOMPARE(request->messages[2].role, Role::Tool);
    QCOMPARE(request->messages[2].toolCallId, u"toolu_1"_s);
    QCOMPARE(request->messages[2].content, u"int main;"_s);
    QVERIFY(request->messages[2].isError);
    QCOMPARE(request->messages[3].content, u"go on"_s);
}

// Claude Code (2.1.332) sends system turns among the messages (its environment, reminders): they
// are part of the conversation, not of the system prompt.
void TestWireConversation::anthropicSystemMessagesInTheConversation()
{
    const QByteArray body = R"({"model":"claude-x","system":"You are Claude Code.",
        "messages":[
          {"role":"user","content":[{"type":"text","text":"hi"}]},
          {"role":"system","content":[{"type":"text","text":"# Environment"},{"type":"text","text":"Platform: linux"}]},
          {"role":"system","content":"Be careful."},
          {"role":"assistant","content":"Hello."}]})";
    QString error;
    const auto request = WireConversation::parseRequest(WireProtocol::AnthropicMessages, body, &error);
    QVERIFY2(request, qPrintable(error));
    QCOMPARE(request->systemPrompt, u"You are Claude Code."_s);
    QCOMPARE(request->messages.size(), 4);
    QCOMPARE(request->messages[1].role, Role::System);
    QCOMPARE(request->messages[1].content, u"# Environment\nPlatform: linux"_s);
    QCOMPARE(request->messages[2].role, Role::System);
    QCOMPARE(request->messages[2].content, u"Be careful."_s);
    QCOMPARE(request->messages[3].role, Role::Assistant);
}

void TestWireConversation::openAiChatRequest()
{
    const QByteArray body = R"({"model":"gpt-4o","messages":[
        {"role":"developer","content":"Be kind."},
        {"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"data:"}}]},
        {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"ls","arguments":"{\"dir\": \".\"}"}}]},
        {"role":"tool","tool_call_id":"call_1","content":"a b"},
        {"role":"system","content":"Late note."}],
        "tools":[{"type":"function","function":{"name":"ls","parameters":{}}}]})";
    QString error;
    const auto request = WireConversation::parseRequest(WireProtocol::OpenAiChat, body, &error);
    QVERIFY2(request, qPrintable(error));
    QCOMPARE(request->systemPrompt, u"Be kind."_s);
    QCOMPARE(request->messages.size(), 4);
    QCOMPARE(request->messages[0].content, u"look\n[image]"_s);
    QCOMPARE(request->messages[1].toolCalls[0].arguments, uR"({"dir": "."})"_s);
    QVERIFY(request->messages[1].toolCalls[0].argumentsValid);
    QCOMPARE(request->messages[2].role, Role::Tool);
    QCOMPARE(request->messages[3].role, Role::System);
    QCOMPARE(request->tools.size(), 1);
    QVERIFY(!request->stream);
}

void TestWireConversation::responsesRequest()
{
    // The fields Codex sends: instructions, developer and user messages, reasoning items (kept
    // out), function_call and function_call_output, custom tool calls.
    const QByteArray body = R"({"model":"gpt-5.5","instructions":"You are Codex.","stream":true,"prompt_cache_key":"conv-7",
        "tools":[{"type":"function","name":"shell","parameters":{"type":"object"}}],
        "input":[
          {"type":"message","role":"developer","content":[{"type":"input_text","text":"sandbox: on"}]},
          {"type":"message","role":"user","content":[{"type":"input_text","text":"list files"}]},
          {"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAA"},
          {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Listing."}]},
          {"type":"function_call","call_id":"call_a","name":"shell","arguments":"{\"command\":[\"ls\"]}"},
          {"type":"function_call","call_id":"call_b","name":"shell","arguments":"{\"command\":[\"pwd\"]}"},
          {"type":"function_call_output","call_id":"call_a","output":"a.txt"},
          {"type":"function_call_output","call_id":"call_b","output":"/w"},
          {"type":"custom_tool_call","call_id":"call_c","name":"apply_patch","input":"*** Begin Patch"},
          {"type":"custom_tool_call_output","call_id":"call_c","output":"done"},
          {"role":"user","content":"thanks"}]})";
    QString error;
    const auto request = WireConversation::parseRequest(WireProtocol::OpenAiResponses, body, &error);
    QVERIFY2(request, qPrintable(error));
    QCOMPARE(request->systemPrompt, u"You are Codex.\n\nsandbox: on"_s);
    QCOMPARE(request->conversationHint, u"conv-7"_s);
    QCOMPARE(request->messages.size(), 7);
    QCOMPARE(request->messages[0].content, u"list files"_s);
    QCOMPARE(request->messages[1].content, u"Listing."_s);
    QCOMPARE(request->messages[1].toolCalls.size(), 2);
    QCOMPARE(request->messages[1].toolCalls[1].id, u"call_b"_s);
    QCOMPARE(request->messages[2].toolCallId, u"call_a"_s);
    QCOMPARE(request->messages[3].content, u"/w"_s);
    QCOMPARE(request->messages[4].role, Role::Assistant);
    QCOMPARE(request->messages[4].toolCalls[0].arguments, u"*** Begin Patch"_s);
    QCOMPARE(request->messages[5].toolCallId, u"call_c"_s);
    QCOMPARE(request->messages[6].content, u"thanks"_s);
    QVERIFY(!request->chained);

    const auto plain = WireConversation::parseRequest(WireProtocol::OpenAiResponses,
                                                      R"({"input":"hi","previous_response_id":"resp_1"})");
    QVERIFY(plain);
    QCOMPARE(plain->messages.size(), 1);
    QVERIFY(plain->chained);
}

void TestWireConversation::hostileResponseBodiesNeverCrash()
{
    const QList<QByteArray> bodies{QByteArray(), "not json", "[]", "{\"output\":7}", "data: {\"type\":\"response.completed\",\"response\":5}\n\n",
                                   "event: message_start\ndata: {\"message\":[]}\n\n", "data: [DONE]\n\n",
                                   QByteArray(1000, '\0'), "{\"choices\":[{\"message\":{\"tool_calls\":\"x\"}}]}"};
    for (const WireProtocol protocol : {WireProtocol::AnthropicMessages, WireProtocol::OpenAiChat, WireProtocol::OpenAiResponses}) {
        for (const QByteArray &body : bodies) {
            for (const QByteArray &type : {QByteArray("text/event-stream"), QByteArray("application/json")}) {
                QString error;
                const auto response = WireConversation::parseResponse(protocol, 200, type, body, &error);
                // Either a clear error, or a response that says it is not a complete answer.
                QVERIFY(!response ? !error.isEmpty() : (!response->hasAssistant || !response->error.isEmpty()
                                                         || response->assistant.content.isEmpty()));
            }
        }
    }
}

void TestWireConversation::anthropicStreamResponse()
{
    const auto response = WireConversation::parseResponse(WireProtocol::AnthropicMessages, 200, "text/event-stream",
                                                          readData(u"llm/sse/anthropic/sdkpy-text-then-tool-use.sse"_s));
    QVERIFY(response);
    QVERIFY(response->error.isEmpty());
    QVERIFY(response->hasAssistant);
    QCOMPARE(response->assistant.content, u"I'll check the current weather in Paris for you."_s);
    QCOMPARE(response->assistant.toolCalls.size(), 1);
    QCOMPARE(response->assistant.toolCalls[0].id, u"toolu_01NRLabsLyVHZPKxbKvkfSMn"_s);
    QCOMPARE(response->usage.input, 377);
    QCOMPARE(response->usage.output, 65);
}

void TestWireConversation::openAiChatStreamResponse()
{
    const auto response = WireConversation::parseResponse(WireProtocol::OpenAiChat, 200, "text/event-stream",
                                                          readData(u"llm/sse/openai-chat/gpt-4o-tool-call-single-include-usage.sse"_s));
    QVERIFY(response);
    QVERIFY(response->error.isEmpty());
    QCOMPARE(response->assistant.toolCalls.size(), 1);
    QCOMPARE(response->assistant.toolCalls[0].name, u"GetWeatherArgs"_s);
    QCOMPARE(response->usage.input, 76);
    QCOMPARE(response->usage.output, 24);
}

void TestWireConversation::responsesStreamResponses()
{
    const auto text = WireConversation::parseResponse(WireProtocol::OpenAiResponses, 200, "text/event-stream; charset=utf-8",
                                                      readData(u"llm/sse/openai-responses/gpt-5.5-text-streaming.sse"_s));
    QVERIFY(text);
    QVERIFY(text->error.isEmpty());
    QCOMPARE(text->assistant.content, u"pong"_s);

    const auto call = WireConversation::parseResponse(WireProtocol::OpenAiResponses, 200, "text/event-stream",
                                                      readData(u"llm/sse/openai-responses/gpt-5.5-function-call-streaming.sse"_s));
    QVERIFY(call);
    QCOMPARE(call->assistant.toolCalls.size(), 1);
    QCOMPARE(call->assistant.toolCalls[0].id, u"call_sVidsfFJ6zlzRpelrPkTPlpd"_s);
    QCOMPARE(call->assistant.toolCalls[0].arguments, uR"({"a":1231,"b":2331})"_s);
    QCOMPARE(call->usage.input, 58);
    QCOMPARE(call->usage.output, 23);
    QVERIFY(call->usage.cacheReadKnown);
    QCOMPARE(call->usage.cacheRead, 0);

    const auto failed = WireConversation::parseResponse(WireProtocol::OpenAiResponses, 200, "text/event-stream",
                                                        readData(u"llm/sse/openai-responses/gpt-5-nano-insufficient-quota-error-event.sse"_s));
    QVERIFY(failed);
    QVERIFY(!failed->hasAssistant);
    QVERIFY2(failed->error.contains(u"quota"), qPrintable(failed->error));
}

void TestWireConversation::errorStatusKeepsTheProvidersWords()
{
    const auto response = WireConversation::parseResponse(WireProtocol::AnthropicMessages, 400, "application/json",
                                                          R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long"}})");
    QVERIFY(response);
    QVERIFY(!response->hasAssistant);
    QCOMPARE(response->error, u"prompt is too long"_s);
    const auto bare = WireConversation::parseResponse(WireProtocol::OpenAiChat, 503, "text/html", "<html>");
    QVERIFY(bare);
    QVERIFY(bare->error.contains(u"503"));
}

void TestWireConversation::sameTurnIgnoresArgumentSpacingButNotContent()
{
    const Message streamed = Message::assistant(u"Reading. "_s, {ToolCall{u"c1"_s, u"Read"_s, uR"({"b": 2, "a": "x"})"_s, true}});
    const Message resent = Message::assistant(u"Reading."_s, {ToolCall{u"c1"_s, u"Read"_s, uR"({"a":"x","b":2})"_s, true}});
    QVERIFY(WireConversation::sameTurn(streamed, resent));
    Message other = resent;
    other.toolCalls[0].arguments = uR"({"a":"y","b":2})"_s;
    QVERIFY(!WireConversation::sameTurn(streamed, other));
    QVERIFY(!WireConversation::sameTurn(Message::user(u"a"_s), Message::assistant(u"a"_s)));
    QVERIFY(!WireConversation::sameTurn(Message::toolResult(u"c1"_s, u"x"_s), Message::toolResult(u"c2"_s, u"x"_s)));
}

QTEST_GUILESS_MAIN(TestWireConversation)
#include "tst_wireconversation.moc"
