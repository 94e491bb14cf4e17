// Real captured streams (tests/data/llm/sse, see ATTRIBUTION.md) parsed and
// assembled, checked against what the capture contains.
#include "TestSupport.h"
#include "llm/SseParser.h"
#include "llm/StreamAssembler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using namespace wl;

namespace {

struct Outcome
{
    Message message;
    QString thinking;
    ChatUsage usage;
    QString finish;
    bool complete = false;
    bool hasError = false;
    // What the callbacks delivered.
    QString streamedText;
    QString streamedThinking;
    QStringList starts;               // "index:id:name"
    QMap<int, QString> streamedArgs;

    bool sameResult(const Outcome &o) const
    {
        return message.sameContent(o.message) && thinking == o.thinking && usage == o.usage && finish == o.finish
            && complete == o.complete && hasError == o.hasError && streamedText == o.streamedText
            && starts.size() == o.starts.size();
    }
};

std::unique_ptr<StreamAssembler> assemblerFor(const QString &protocol)
{
    if (protocol == u"anthropic")
        return std::make_unique<AnthropicStreamAssembler>();
    return std::make_unique<OpenAiStreamAssembler>();
}

Outcome run(const QString &protocol, const QList<QByteArray> &chunks)
{
    Outcome out;
    auto assembler = assemblerFor(protocol);
    StreamAssembler::Callbacks cb;
    cb.text = [&out](const QString &t) { out.streamedText += t; };
    cb.thinking = [&out](const QString &t) { out.streamedThinking += t; };
    cb.toolCallStarted = [&out](int i, const QString &id, const QString &name) {
        out.starts << u"%1:%2:%3"_s.arg(i).arg(id, name);
    };
    cb.toolCallArguments = [&out](int i, const QString &d) { out.streamedArgs[i] += d; };
    assembler->setCallbacks(cb);
    SseParser parser([&assembler](const SseEvent &e) { assembler->handleEvent(e); });
    for (const QByteArray &c : chunks)
        parser.feed(c);
    parser.finish();
    out.complete = assembler->endOfStream();
    out.hasError = assembler->hasError();
    out.message = assembler->message();
    out.thinking = assembler->thinking();
    out.usage = assembler->usage();
    out.finish = assembler->finishReason();
    return out;
}

QList<QByteArray> randomChunks(const QByteArray &bytes, quint32 seed)
{
    QRandomGenerator random(seed);
    QList<QByteArray> out;
    for (qsizetype i = 0; i < bytes.size();) {
        const qsizetype n = qMin<qsizetype>(bytes.size() - i, random.bounded(1, 64));
        out << bytes.mid(i, n);
        i += n;
    }
    return out;
}

// An independent, deliberately naive reading of a capture (LF lines, one
// "data:" line per event) that the assembled result must agree with.
struct Reference
{
    QString text;
    QString thinking;
};

Reference reference(const QString &protocol, const QByteArray &bytes)
{
    Reference ref;
    for (const QByteArray &line : bytes.split('\n')) {
        if (!line.startsWith("data:"))
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line.mid(5)).object();
        if (protocol == u"anthropic") {
            const QJsonObject d = o.value(u"delta").toObject();
            ref.text += d.value(u"text").toString();
            ref.thinking += d.value(u"thinking").toString();
            continue;
        }
        for (const QJsonValue &c : o.value(u"choices").toArray()) {
            if (c.toObject().value(u"index").toInt() != 0)
                continue;
            const QJsonObject d = c.toObject().value(u"delta").toObject();
            ref.text += d.value(u"content").toString() + d.value(u"refusal").toString();
            ref.thinking += d.value(u"reasoning_content").toString() + d.value(u"reasoning").toString();
        }
    }
    return ref;
}

ToolCall call(const QString &id, const QString &name, const QString &args, bool valid = true)
{
    return ToolCall{id, name, args, valid};
}

} // namespace

class TestStreamAssembly : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void captures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<QList<ToolCall>>("calls");
        QTest::addColumn<qint64>("input");      // -1: no usage reported
        QTest::addColumn<qint64>("output");
        QTest::addColumn<qint64>("cacheRead");  // -1: not reported
        QTest::addColumn<QString>("finish");
        QTest::addColumn<QString>("textStart");
        QTest::addColumn<int>("thinkingChars");

        const QString oa = u"openai-chat"_s, an = u"anthropic"_s;
        QTest::newRow("gpt-4o text") << u"openai-chat/gpt-4o-text-include-usage.sse"_s << oa << QList<ToolCall>{}
                                     << 14LL << 30LL << -1LL << u"stop"_s << u"I'm unable to provide real-time weather"_s << 0;
        QTest::newRow("gpt-4o one tool call")
            << u"openai-chat/gpt-4o-tool-call-single-include-usage.sse"_s << oa
            << QList<ToolCall>{call(u"call_c91SqDXlYFuETYv8mUHzz6pp"_s, u"GetWeatherArgs"_s,
                                    uR"({"city":"Edinburgh","country":"UK","units":"c"})"_s)}
            << 76LL << 24LL << -1LL << u"tool_calls"_s << QString() << 0;
        QTest::newRow("gpt-4o parallel tool calls")
            << u"openai-chat/gpt-4o-tool-calls-parallel-include-usage.sse"_s << oa
            << QList<ToolCall>{call(u"call_JMW1whyEaYG438VE1OIflxA2"_s, u"GetWeatherArgs"_s,
                                    uR"({"city": "Edinburgh", "country": "GB", "units": "c"})"_s),
                               call(u"call_DNYTawLBoN8fj3KN6qU9N1Ou"_s, u"get_stock_price"_s,
                                    uR"({"ticker": "AAPL", "exchange": "NASDAQ"})"_s)}
            << 149LL << 60LL << -1LL << u"tool_calls"_s << QString() << 0;
        QTest::newRow("gpt-4o length") << u"openai-chat/gpt-4o-finish-length-include-usage.sse"_s << oa
                                       << QList<ToolCall>{} << 79LL << 1LL << -1LL << u"length"_s << u"{\""_s << 0;
        QTest::newRow("gpt-4o n=3, choice 0 only")
            << u"openai-chat/gpt-4o-n3-multiple-choices-include-usage.sse"_s << oa << QList<ToolCall>{} << 79LL << 42LL
            << -1LL << u"stop"_s << u"{\"city\":\"San Francisco\""_s << 0;
        QTest::newRow("gpt-4o refusal") << u"openai-chat/gpt-4o-refusal-include-usage.sse"_s << oa << QList<ToolCall>{}
                                        << 79LL << 11LL << -1LL << u"stop"_s
                                        << u"I'm sorry, I can't assist with that request."_s << 0;
        QTest::newRow("gpt-4o-mini usage null per chunk")
            << u"openai-chat/gpt-4o-mini-tool-call-usage-null-per-chunk.sse"_s << oa
            << QList<ToolCall>{call(u"call_1EYWDzueHEp8OsB8jJSEp7WB"_s, u"multiply"_s, uR"({"a":1231,"b":2331})"_s)}
            << 54LL << 20LL << 0LL << u"tool_calls"_s << QString() << 0;
        QTest::newRow("openrouter repeated tool header, no finish_reason")
            << u"openai-compat/openrouter-kimi-k2-tool-call-empty-then-braces.sse"_s << oa
            << QList<ToolCall>{call(u"0"_s, u"llm_version"_s, u"{}"_s)} << 57LL << 17LL << 0LL << u"tool_calls"_s
            << QString() << 0;
        QTest::newRow("ollama cloud: reasoning, whole tool call")
            << u"ollama/v1-gpt-oss-120b-cloud-reasoning-tool-call-include-usage.sse"_s << oa
            << QList<ToolCall>{call(u"call_x7rn5sl5"_s, u"weather"_s, uR"({"latitude":"52.5200","longitude":"13.4050"})"_s)}
            << 169LL << 55LL << -1LL << u"tool_calls"_s << QString() << 81;
        QTest::newRow("ollama local: role in every delta")
            << u"ollama/v1-qwen3-local-reasoning-tool-call-include-usage.sse"_s << oa
            << QList<ToolCall>{call(u"call_blqyt530"_s, u"weather"_s, uR"({"latitude":"52.5200","longitude":"13.4050"})"_s)}
            << 195LL << 140LL << -1LL << u"tool_calls"_s << QString() << 439;
        QTest::newRow("llama-box: no [DONE], usage on finish chunk")
            << u"llamacpp/llama-box-gpustack-qwen3-reasoning-no-done.sse"_s << oa << QList<ToolCall>{} << 15LL << 171LL
            << 0LL << u"stop"_s << u"\n\n1, 2, 3."_s << 674;
        QTest::newRow("vLLM/NIM: no usage") << u"vllm/nim-mixtral-8x22b-text-role-null-stop-reason.sse"_s << oa
                                            << QList<ToolCall>{} << -1LL << -1LL << -1LL << u"stop"_s
                                            << u"A GPU so swift and so clever,"_s << 0;
        QTest::newRow("anthropic thinking + signature")
            << u"anthropic/haiku45-thinking-signature-padded.sse"_s << an << QList<ToolCall>{} << 46LL << 133LL << 0LL
            << u"stop"_s << u"1. **Pouch** - references their iconic bill pouch"_s << 289;
        QTest::newRow("anthropic parallel tool use, empty input")
            << u"anthropic/haiku45-parallel-tool-use-empty-input-padded.sse"_s << an
            << QList<ToolCall>{call(u"toolu_01LtHJmixrs9NcWQkK8hu8hj"_s, u"pelican_name_generator"_s, u"{}"_s),
                               call(u"toolu_01N8a4jWyf116qKTMqKKmjyt"_s, u"pelican_name_generator"_s, u"{}"_s)}
            << 542LL << 62LL << 0LL << u"tool_calls"_s << QString() << 0;
        QTest::newRow("anthropic stop sequence")
            << u"anthropic/haiku45-stop-sequence-padded.sse"_s << an << QList<ToolCall>{} << 16LL << 28LL << 0LL
            << u"stop"_s << u"\ndef pelican():"_s << 0;
        QTest::newRow("anthropic text then tool use, no final newline")
            << u"anthropic/sdkpy-text-then-tool-use.sse"_s << an
            << QList<ToolCall>{call(u"toolu_01NRLabsLyVHZPKxbKvkfSMn"_s, u"get_weather"_s, uR"({"location": "Paris"})"_s)}
            << 377LL << 65LL << 0LL << u"tool_calls"_s << u"I'll check the current weather in Paris for you."_s << 0;
        QTest::newRow("anthropic max_tokens inside tool input")
            << u"anthropic/sdkpy-tool-use-max-tokens-truncated-padded.sse"_s << an
            << QList<ToolCall>{call(u"toolu_01EKqbqmZrGRXy18eN7m9kvY"_s, u"make_file"_s,
                                    u"{\"filename\": \"taxes.txt\", \"lines_of_text\": [\n\"# COMPREHENSIVE TAX GUIDE FOR "
                                    "INDIVIDUALS WITH MULTIPLE W-2s\",\n\"\",\n\"## INTRODUCTION\",\n\"\",\n\"Filing taxes"_s,
                                    false)}
            << 450LL << 124LL << 0LL << u"length"_s << u"I'll create a comprehensive tax guide"_s << 0;
    }

    void captures()
    {
        QFETCH(QString, file);
        QFETCH(QString, protocol);
        QFETCH(QList<ToolCall>, calls);
        QFETCH(qint64, input);
        QFETCH(qint64, output);
        QFETCH(qint64, cacheRead);
        QFETCH(QString, finish);
        QFETCH(QString, textStart);
        QFETCH(int, thinkingChars);

        const QByteArray bytes = test::readData(u"llm/sse/"_s + file);
        const Outcome whole = run(protocol, {bytes});
        const Reference ref = reference(protocol, bytes);

        QVERIFY2(whole.complete, "the capture is a complete reply");
        QVERIFY(!whole.hasError);
        QCOMPARE(whole.message.role, Role::Assistant);
        QCOMPARE(whole.message.content, ref.text);
        QVERIFY(whole.message.content.startsWith(textStart));
        QCOMPARE(whole.thinking, ref.thinking);
        QCOMPARE(whole.thinking.size(), thinkingChars);
        QCOMPARE(whole.message.toolCalls, calls);
        QCOMPARE(whole.usage.inputKnown, input >= 0);
        QCOMPARE(whole.usage.outputKnown, output >= 0);
        QCOMPARE(whole.usage.input, qMax<qint64>(input, 0));
        QCOMPARE(whole.usage.output, qMax<qint64>(output, 0));
        QCOMPARE(whole.usage.cacheReadKnown, cacheRead >= 0);
        QCOMPARE(whole.usage.cacheRead, qMax<qint64>(cacheRead, 0));
        QCOMPARE(whole.finish, finish);

        // What the callbacks delivered adds up to the final message.
        QCOMPARE(whole.streamedText, whole.message.content);
        QCOMPARE(whole.streamedThinking, whole.thinking);
        QCOMPARE(whole.starts.size(), calls.size());
        for (int i = 0; i < calls.size(); ++i) {
            QCOMPARE(whole.starts[i], u"%1:%2:%3"_s.arg(i).arg(calls[i].id, calls[i].name));
            const QString streamed = whole.streamedArgs.value(i);
            QCOMPARE(streamed.isEmpty() ? u"{}"_s : streamed, calls[i].arguments);
        }

        // Any split of the bytes gives the same result.
        QList<QByteArray> bytewise;
        for (char c : bytes)
            bytewise << QByteArray(1, c);
        QVERIFY(run(protocol, bytewise).sameResult(whole));
        for (quint32 seed = 1; seed <= 5; ++seed)
            QVERIFY2(run(protocol, randomChunks(bytes, seed)).sameResult(whole), qPrintable(u"seed %1"_s.arg(seed)));
        // CRLF line ends, as some proxies rewrite them, change nothing either.
        QVERIFY(run(protocol, {QByteArray(bytes).replace("\n", "\r\n")}).sameResult(whole));
    }

    void wholeResponses_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<QString>("text");
        QTest::addColumn<ToolCall>("call");
        QTest::addColumn<qint64>("input");
        QTest::addColumn<qint64>("output");
        QTest::newRow("openai") << u"openai-chat/gpt-4o-mini-nonstream-tool-call.json"_s << u"openai-chat"_s << QString()
                                << call(u"call_TTY8UFNo7rNCaOBUNtlRSvMG"_s, u"lookup_population"_s,
                                        uR"({"country":"Crumpet"})"_s)
                                << 92LL << 17LL;
        QTest::newRow("anthropic") << u"anthropic/haiku45-nonstream-text-and-tool-use.json"_s << u"anthropic"_s
                                   << u"I'll get the weather for each of those cities. Let me start by checking San Francisco."_s
                                   << call(u"toolu_01LRanfq6DmHn1yDTB4d1SAh"_s, u"get_weather"_s,
                                           uR"({"location":"San Francisco, CA","units":"f"})"_s)
                                   << 701LL << 93LL;
    }
    void wholeResponses()
    {
        QFETCH(QString, file);
        QFETCH(QString, protocol);
        QFETCH(QString, text);
        QFETCH(ToolCall, call);
        QFETCH(qint64, input);
        QFETCH(qint64, output);
        auto assembler = assemblerFor(protocol);
        assembler->handleWholeResponse(QJsonDocument::fromJson(test::readData(u"llm/sse/"_s + file)).object());
        QVERIFY(assembler->endOfStream());
        const Message m = assembler->message();
        QCOMPARE(m.content, text);
        QCOMPARE(m.toolCalls.size(), 1);
        QCOMPARE(m.toolCalls.first().id, call.id);
        QCOMPARE(m.toolCalls.first().name, call.name);
        QCOMPARE(QJsonDocument::fromJson(m.toolCalls.first().arguments.toUtf8()),
                 QJsonDocument::fromJson(call.arguments.toUtf8()));
        QCOMPARE(assembler->usage().input, input);
        QCOMPARE(assembler->usage().output, output);
        QCOMPARE(assembler->finishReason(), u"tool_calls"_s);
    }

    // Anthropic's usage: input counts every prompt token, cache reads and writes included.
    void anthropicCacheUsage()
    {
        AnthropicStreamAssembler a;
        const QByteArray stream =
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":10,"
            "\"cache_creation_input_tokens\":200,\"cache_read_input_tokens\":3000,\"output_tokens\":1}}}\n\n"
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
            "\"usage\":{\"output_tokens\":42}}\n\n"
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        SseParser parser([&a](const SseEvent &e) { a.handleEvent(e); });
        parser.feed(stream);
        QVERIFY(a.endOfStream());
        QCOMPARE(a.usage().input, 3210);
        QCOMPARE(a.usage().uncachedInput(), 10);
        QCOMPARE(a.usage().cacheRead, 3000);
        QCOMPARE(a.usage().cacheWrite, 200);
        QVERIFY(a.usage().cacheWriteKnown);
        QCOMPARE(a.usage().output, 42);
    }

    // Usage figures no integer holds (1e300, 2^63 - 1, negative) from a provider are not
    // reported rather than converted (undefined behaviour) or summed into a wrapped total.
    void hostileUsageNumbers()
    {
        AnthropicStreamAssembler a;
        const QByteArray stream =
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1e300,"
            "\"cache_creation_input_tokens\":200,\"cache_read_input_tokens\":9223372036854775807,\"output_tokens\":-5}}}\n\n"
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
            "\"usage\":{\"output_tokens\":2.5}}\n\n"
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        SseParser parser([&a](const SseEvent &e) { a.handleEvent(e); });
        parser.feed(stream);
        QVERIFY(a.endOfStream());
        QCOMPARE(a.usage().input, 200);
        QVERIFY(!a.usage().cacheReadKnown);
        QVERIFY(!a.usage().outputKnown);

        OpenAiStreamAssembler o;
        SseParser openAi([&o](const SseEvent &e) { o.handleEvent(e); });
        openAi.feed("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
                    "\"usage\":{\"prompt_tokens\":1e300,\"completion_tokens\":3}}\n\ndata: [DONE]\n\n");
        QVERIFY(o.endOfStream());
        QVERIFY(!o.usage().inputKnown);
        QCOMPARE(o.usage().output, 3);
    }

    // Streams that stop early or carry errors.
    void incompleteAndFailingStreams_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<bool>("delivered");
        QTest::newRow("openai cut before finish") << u"openai-chat"_s
            << QByteArray("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n")
            << int(ChatError::Kind::Network) << true << true;
        QTest::newRow("openai malformed json") << u"openai-chat"_s << QByteArray("data: {\"choices\":[{\"ind\n\n")
            << int(ChatError::Kind::Protocol) << false << false;
        QTest::newRow("openai in-stream error") << u"openai-chat"_s
            << QByteArray("data: {\"error\":{\"message\":\"upstream overloaded\",\"type\":\"overloaded_error\"}}\n\n")
            << int(ChatError::Kind::Overloaded) << true << false;
        QTest::newRow("anthropic cut before message_stop") << u"anthropic"_s
            << QByteArray("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                          "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
            << int(ChatError::Kind::Network) << true << false;
        // The corpus' overloaded error event (its payload, padding and details:null), framed as the API does.
        QTest::newRow("anthropic overloaded event") << u"anthropic"_s
            << QByteArray("event: error\ndata: {\"type\":\"error\",\"error\":{\"details\":null,\"type\":\"overloaded_error\","
                          "\"message\":\"Overloaded\"} }\n\n")
            << int(ChatError::Kind::Overloaded) << true << false;
        QTest::newRow("anthropic not json") << u"anthropic"_s << QByteArray("event: ping\ndata: <html>\n\n")
            << int(ChatError::Kind::Protocol) << false << false;
    }
    void incompleteAndFailingStreams()
    {
        QFETCH(QString, protocol);
        QFETCH(QByteArray, stream);
        QFETCH(int, kind);
        QFETCH(bool, retryable);
        QFETCH(bool, delivered);
        auto assembler = assemblerFor(protocol);
        SseParser parser([&assembler](const SseEvent &e) { assembler->handleEvent(e); });
        parser.feed(stream);
        parser.finish();
        QVERIFY(!assembler->endOfStream());
        QVERIFY(assembler->hasError());
        QCOMPARE(int(assembler->error().kind), kind);
        QCOMPARE(assembler->error().retryable, retryable);
        QCOMPARE(assembler->deliveredContent(), delivered);
        QVERIFY(!assembler->error().message.isEmpty());
    }

    // Servers that send every call at index 0 with distinct ids, and calls with no id at all.
    void openAiToolCallQuirks()
    {
        OpenAiStreamAssembler a;
        SseParser parser([&a](const SseEvent &e) { a.handleEvent(e); });
        parser.feed("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":"
                    "{\"name\":\"one\",\"arguments\":\"{\\\"x\\\":1}\"}}]}}]}\n\n"
                    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"b\",\"function\":"
                    "{\"name\":\"two\",\"arguments\":\"{}\"}}]}}]}\n\n"
                    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"function\":{\"name\":\"three\","
                    "\"arguments\":{\"y\":2}}}]}}]}\n\n"
                    "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n");
        QVERIFY(a.endOfStream());
        const Message m = a.message();
        QCOMPARE(m.toolCalls.size(), 3);
        QCOMPARE(m.toolCalls[0], call(u"a"_s, u"one"_s, uR"({"x":1})"_s));
        QCOMPARE(m.toolCalls[1], call(u"b"_s, u"two"_s, u"{}"_s));
        // No index and no id, but a name: a new call (Ollama's native shape), with an id made up for it.
        QCOMPARE(m.toolCalls[2].name, u"three"_s);
        QVERIFY(m.toolCalls[2].id.startsWith(u"call_"));
        QCOMPARE(m.toolCalls[2].arguments, uR"({"y":2})"_s);
        QVERIFY(m.toolCalls[2].argumentsValid);
    }
};

QTEST_GUILESS_MAIN(TestStreamAssembly)
#include "tst_streamassembly.moc"
