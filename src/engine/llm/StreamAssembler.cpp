#include "StreamAssembler.h"

#include "SseParser.h"
#include "model/BoundedInteger.h"
#include "model/MessageCodec.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
std::optional<QJsonObject> parseObject(QByteArrayView data, QString *problem)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(data.toByteArray(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        *problem = QCoreApplication::translate("wl::StreamAssembler", "malformed stream event (%1): %2")
                       .arg(parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                          : u"not a JSON object"_s,
                            QString::fromUtf8(data.left(200)));
        return std::nullopt;
    }
    return doc.object();
}

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// A token count from the provider; anything but a whole number in range is "not reported"
// (a double such as 1e300 must never be cast to an integer).
qint64 integer(const QJsonObject &o, QStringView key, bool *known)
{
    const std::optional<qint64> v = BoundedInteger::fromJson(o.value(key), 0, BoundedInteger::maxTokens, key.toString());
    if (!v)
        return 0;
    *known = true;
    return *v;
}
} // namespace

// ---- StreamAssembler ------------------------------------------------------

StreamAssembler::~StreamAssembler() = default;

bool StreamAssembler::endOfStream()
{
    if (m_error)
        return false;
    if (isComplete())
        return true;
    ChatError e = ChatError::network(QCoreApplication::translate(
        "wl::StreamAssembler", "the stream ended before the reply was complete"));
    e.message = QCoreApplication::translate("wl::StreamAssembler",
                                            "The connection closed before the reply was complete.");
    fail(e);
    return false;
}

Message StreamAssembler::message() const
{
    QList<ToolCall> calls;
    calls.reserve(m_calls.size());
    for (const Call &c : m_calls) {
        ToolCall call;
        call.id = c.id;
        call.name = c.name;
        call.arguments = c.arguments.trimmed().isEmpty() ? u"{}"_s : c.arguments;
        call.argumentsValid = MessageCodec::argumentsAreValid(call.arguments);
        calls.append(call);
    }
    return Message::assistant(m_text, calls);
}

QString StreamAssembler::finishReason() const
{
    const QString &r = m_finishReason;
    if (r.isEmpty())
        return m_calls.isEmpty() ? u"stop"_s : u"tool_calls"_s;
    if (r == u"end_turn" || r == u"stop_sequence")
        return u"stop"_s;
    if (r == u"max_tokens" || r == u"model_context_window_exceeded")
        return u"length"_s;
    if (r == u"tool_use" || r == u"function_call")
        return u"tool_calls"_s;
    if (r == u"refusal")
        return u"content_filter"_s;
    return r;
}

void StreamAssembler::emitText(const QString &text)
{
    if (text.isEmpty())
        return;
    m_text += text;
    m_delivered = true;
    if (m_callbacks.text)
        m_callbacks.text(text);
}

void StreamAssembler::emitThinking(const QString &text)
{
    if (text.isEmpty())
        return;
    m_thinking += text;
    m_delivered = true;
    if (m_callbacks.thinking)
        m_callbacks.thinking(text);
}

int StreamAssembler::startCall(const QString &id, const QString &name)
{
    m_calls.append(Call{id.isEmpty() ? newCallId() : id, name, {}});
    const int index = int(m_calls.size()) - 1;
    m_delivered = true;
    if (m_callbacks.toolCallStarted)
        m_callbacks.toolCallStarted(index, m_calls[index].id, name);
    return index;
}

void StreamAssembler::appendArguments(int call, const QString &delta)
{
    if (delta.isEmpty() || call < 0 || call >= m_calls.size())
        return;
    m_calls[call].arguments += delta;
    m_delivered = true;
    if (m_callbacks.toolCallArguments)
        m_callbacks.toolCallArguments(call, delta);
}

void StreamAssembler::fail(const ChatError &error)
{
    if (!m_error)
        m_error = error;
}

QString StreamAssembler::newCallId()
{
    // Servers that send no id (Ollama's native API, some llama.cpp builds) still
    // need one: tool results are paired with their call by it.
    return u"call_"_s + QUuid::createUuid().toString(QUuid::Id128).left(24);
}

// ---- OpenAI ---------------------------------------------------------------

void OpenAiStreamAssembler::handleEvent(const SseEvent &event)
{
    if (m_error || m_done)
        return;
    const QByteArrayView data = event.data.trimmed();
    if (data == "[DONE]") {
        m_done = true;
        return;
    }
    if (data.isEmpty())
        return;
    QString problem;
    const std::optional<QJsonObject> chunk = parseObject(data, &problem);
    if (!chunk) {
        fail(ChatError::protocol(problem));
        return;
    }
    handleChunk(*chunk, false);
}

void OpenAiStreamAssembler::handleWholeResponse(const QJsonObject &response)
{
    handleChunk(response, true);
    if (!m_error)
        m_done = true;
}

void OpenAiStreamAssembler::handleChunk(const QJsonObject &chunk, bool whole)
{
    const QJsonValue error = chunk.value(u"error");
    if (error.isObject() || error.isString()) {
        const QJsonObject e = error.toObject();
        const QString type = e.value(u"type").toString(e.value(u"code").toString());
        fail(ChatError::fromStreamError(type, error.isString() ? error.toString() : e.value(u"message").toString()));
        return;
    }
    const QJsonValue usage = chunk.value(u"usage");
    if (usage.isObject())
        readUsage(usage.toObject());

    const QJsonArray choices = chunk.value(u"choices").toArray();
    for (const QJsonValue &value : choices) {
        const QJsonObject choice = value.toObject();
        if (choice.value(u"index").toInt(0) != 0)
            continue; // n > 1 is never requested; other choices are ignored
        const QJsonValue delta = choice.value(whole ? u"message" : u"delta");
        if (delta.isObject())
            handleDelta(delta.toObject());
        const QJsonValue finish = choice.value(u"finish_reason");
        if (finish.isString() && !finish.toString().isEmpty())
            m_finishReason = finish.toString();
    }
}

void OpenAiStreamAssembler::handleDelta(const QJsonObject &delta)
{
    // Reasoning: llama.cpp, vLLM and DeepSeek say reasoning_content; Ollama says reasoning.
    emitThinking(delta.value(u"reasoning_content").toString());
    emitThinking(delta.value(u"reasoning").toString());
    emitText(delta.value(u"content").toString());
    emitText(delta.value(u"refusal").toString());
    const QJsonArray toolCalls = delta.value(u"tool_calls").toArray();
    for (const QJsonValue &tc : toolCalls)
        handleToolCallDelta(tc.toObject());
}

void OpenAiStreamAssembler::handleToolCallDelta(const QJsonObject &toolCall)
{
    const QJsonObject function = toolCall.value(u"function").toObject();
    const QString id = toolCall.value(u"id").toString();
    const QString name = function.value(u"name").toString();
    const QJsonValue argsValue = function.value(u"arguments");
    // Arguments are a JSON string on the wire; Ollama's native shape sends an object.
    const QString args = argsValue.isObject() ? compactJson(argsValue.toObject()) : argsValue.toString();
    const int providerIndex = toolCall.value(u"index").toInt(-1);

    int call = -1;
    if (providerIndex >= 0 && providerIndex < m_callForIndex.size())
        call = m_callForIndex[providerIndex];
    else if (providerIndex < 0 && !id.isEmpty()) {
        for (int i = 0; i < m_calls.size(); ++i) {
            if (m_calls[i].id == id)
                call = i;
        }
    } else if (providerIndex < 0 && !m_calls.isEmpty() && id.isEmpty() && name.isEmpty()) {
        call = int(m_calls.size()) - 1; // a bare continuation
    }
    // A different id at a known index is a new call (servers that send every call as index 0).
    if (call >= 0 && !id.isEmpty() && m_calls[call].id != id)
        call = -1;

    if (call < 0) {
        call = startCall(id, name);
        if (providerIndex >= 0) {
            while (m_callForIndex.size() <= providerIndex)
                m_callForIndex.append(-1);
            m_callForIndex[providerIndex] = call;
        }
        appendArguments(call, args);
        return;
    }

    Call &c = m_calls[call];
    // Names arrive whole; a repeated header (OpenRouter resends id and name) must not double them.
    if (!name.isEmpty() && c.name != name)
        c.name = c.name.isEmpty() ? name : c.name + name;
    // A repeated header whose arguments are a complete object restates them rather than continuing.
    if (!id.isEmpty() && !args.isEmpty() && MessageCodec::argumentsAreValid(c.arguments)
        && MessageCodec::argumentsAreValid(args)) {
        c.arguments = args;
        return;
    }
    appendArguments(call, args);
}

void OpenAiStreamAssembler::readUsage(const QJsonObject &usage)
{
    bool inKnown = false, outKnown = false, cacheKnown = false;
    const qint64 in = integer(usage, u"prompt_tokens", &inKnown);
    const qint64 out = integer(usage, u"completion_tokens", &outKnown);
    const qint64 cached = integer(usage.value(u"prompt_tokens_details").toObject(), u"cached_tokens", &cacheKnown);
    if (inKnown) {
        m_usage.input = in;
        m_usage.inputKnown = true;
    }
    if (outKnown) {
        m_usage.output = out;
        m_usage.outputKnown = true;
    }
    if (cacheKnown) {
        m_usage.cacheRead = cached;
        m_usage.cacheReadKnown = true;
    }
}

// ---- Anthropic ------------------------------------------------------------

void AnthropicStreamAssembler::handleEvent(const SseEvent &event)
{
    if (m_error || m_done)
        return;
    const QByteArrayView data = event.data.trimmed();
    if (data.isEmpty())
        return;
    QString problem;
    const std::optional<QJsonObject> object = parseObject(data, &problem);
    if (!object) {
        fail(ChatError::protocol(problem));
        return;
    }
    handleObject(*object);
}

void AnthropicStreamAssembler::handleWholeResponse(const QJsonObject &response)
{
    if (response.value(u"type").toString() == u"error") {
        handleObject(response);
        return;
    }
    readUsage(response.value(u"usage").toObject());
    const QJsonArray content = response.value(u"content").toArray();
    for (const QJsonValue &value : content) {
        const QJsonObject block = value.toObject();
        const QString type = block.value(u"type").toString();
        if (type == u"text") {
            emitText(block.value(u"text").toString());
        } else if (type == u"thinking") {
            emitThinking(block.value(u"thinking").toString());
        } else if (type == u"tool_use") {
            const int call = startCall(block.value(u"id").toString(), block.value(u"name").toString());
            appendArguments(call, compactJson(block.value(u"input").toObject()));
        }
    }
    m_finishReason = response.value(u"stop_reason").toString();
    m_done = true;
}

void AnthropicStreamAssembler::handleObject(const QJsonObject &object)
{
    const QString type = object.value(u"type").toString();
    if (type == u"content_block_delta") {
        const int index = object.value(u"index").toInt(-1);
        if (index < 0 || index >= m_blocks.size())
            return;
        Block &block = m_blocks[index];
        const QJsonObject delta = object.value(u"delta").toObject();
        const QString deltaType = delta.value(u"type").toString();
        if (deltaType == u"text_delta") {
            emitText(delta.value(u"text").toString());
        } else if (deltaType == u"thinking_delta") {
            emitThinking(delta.value(u"thinking").toString());
        } else if (deltaType == u"signature_delta") {
            m_signature += delta.value(u"signature").toString();
        } else if (deltaType == u"input_json_delta" && block.call >= 0) {
            const QString partial = delta.value(u"partial_json").toString();
            if (!partial.isEmpty() && !block.initialInput.isEmpty()) {
                m_calls[block.call].arguments.clear(); // the deltas restate the input in full
                block.initialInput.clear();
            }
            appendArguments(block.call, partial);
        }
    } else if (type == u"content_block_start") {
        blockStart(object.value(u"index").toInt(-1), object.value(u"content_block").toObject());
    } else if (type == u"message_start") {
        readUsage(object.value(u"message").toObject().value(u"usage").toObject());
    } else if (type == u"message_delta") {
        const QJsonValue stop = object.value(u"delta").toObject().value(u"stop_reason");
        if (stop.isString())
            m_finishReason = stop.toString();
        readUsage(object.value(u"usage").toObject());
    } else if (type == u"message_stop") {
        m_done = true;
    } else if (type == u"error") {
        const QJsonObject e = object.value(u"error").toObject();
        fail(ChatError::fromStreamError(e.value(u"type").toString(), e.value(u"message").toString()));
    }
    // ping, content_block_stop and unknown future events need nothing.
}

void AnthropicStreamAssembler::blockStart(int index, const QJsonObject &content)
{
    if (index < 0 || index > 100000)
        return;
    while (m_blocks.size() <= index)
        m_blocks.append(Block{});
    Block &block = m_blocks[index];
    const QString type = content.value(u"type").toString();
    if (type == u"text") {
        block.kind = BlockKind::Text;
        emitText(content.value(u"text").toString());
    } else if (type == u"thinking") {
        block.kind = BlockKind::Thinking;
        emitThinking(content.value(u"thinking").toString());
    } else if (type == u"tool_use") {
        block.kind = BlockKind::ToolUse;
        block.call = startCall(content.value(u"id").toString(), content.value(u"name").toString());
        const QJsonObject input = content.value(u"input").toObject();
        if (!input.isEmpty()) {
            block.initialInput = compactJson(input);
            m_calls[block.call].arguments = block.initialInput;
        }
    }
}

void AnthropicStreamAssembler::readUsage(const QJsonObject &usage)
{
    if (usage.isEmpty())
        return;
    bool inKnown = false, outKnown = false, readKnown = false, writeKnown = false;
    const qint64 in = integer(usage, u"input_tokens", &inKnown);
    const qint64 out = integer(usage, u"output_tokens", &outKnown);
    const qint64 read = integer(usage, u"cache_read_input_tokens", &readKnown);
    const qint64 write = integer(usage, u"cache_creation_input_tokens", &writeKnown);
    if (inKnown)
        m_rawInput = in;
    if (readKnown) {
        m_cacheRead = read;
        m_usage.cacheRead = read;
        m_usage.cacheReadKnown = true;
    }
    if (writeKnown) {
        m_cacheWrite = write;
        m_usage.cacheWrite = write;
        m_usage.cacheWriteKnown = true;
    }
    if (inKnown || readKnown || writeKnown) {
        m_usage.input = m_rawInput + m_cacheRead + m_cacheWrite;
        m_usage.inputKnown = m_usage.inputKnown || inKnown;
    }
    if (outKnown) {
        m_usage.output = out; // cumulative in message_delta
        m_usage.outputKnown = true;
    }
}

} // namespace wl
