// Client request bodies of the three protocols into a WireRequest (see WireConversation.h).
#include "WireConversation.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace wl::WireConversation {

namespace {

QString compactJson(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    if (value.isString())
        return value.toString();
    return {};
}

ToolCall makeCall(const QString &id, const QString &name, const QString &arguments)
{
    ToolCall call{id, name, arguments.isEmpty() ? u"{}"_s : arguments, true};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(call.arguments.toUtf8(), &parseError);
    call.argumentsValid = parseError.error == QJsonParseError::NoError && doc.isObject();
    return call;
}

// Reads one body; `m_error` holds the first problem, after which the result is dropped.
class RequestReader
{
public:
    explicit RequestReader(WireRequest *out) : m_out(out) {}

    bool anthropic(const QJsonObject &body);
    bool openAiChat(const QJsonObject &body);
    bool responses(const QJsonObject &body);
    QString error() const { return m_error; }

private:
    bool fail(const QString &text)
    {
        if (m_error.isEmpty())
            m_error = text;
        return false;
    }
    // Text of a content value: a string, or an array of parts whose text is joined. Parts that are
    // not text (images, files, audio) are named in brackets so the view shows something was there.
    std::optional<QString> contentText(const QJsonValue &content, const char *field);
    void addSystem(const QString &text);
    // A system (or developer) message of the list: leading ones are the system prompt; one later
    // in the conversation stays where it is.
    void addSystemMessage(const QString &text);
    // A message of text alone in either OpenAI protocol: system and developer ones go to
    // addSystemMessage, user and assistant ones are messages; another role is an error.
    bool addTextMessage(const QString &role, const QString &text);
    // The assistant message the next call belongs to: the last message when it is an assistant
    // message, else a new empty one.
    Message &assistantForCall();
    bool common(const QJsonObject &body);

    WireRequest *m_out;
    QString m_error;
};

std::optional<QString> RequestReader::contentText(const QJsonValue &content, const char *field)
{
    if (content.isString())
        return content.toString();
    if (content.isNull() || content.isUndefined())
        return QString();
    if (!content.isArray()) {
        fail(QCoreApplication::translate("WireConversation", "field '%1' is neither text nor a list of parts").arg(QLatin1StringView(field)));
        return std::nullopt;
    }
    QStringList parts;
    for (const QJsonValue &part : content.toArray()) {
        if (part.isString()) {
            parts.append(part.toString());
            continue;
        }
        if (!part.isObject()) {
            fail(QCoreApplication::translate("WireConversation", "a part of '%1' is not an object").arg(QLatin1StringView(field)));
            return std::nullopt;
        }
        const QJsonObject p = part.toObject();
        const QString type = p.value(u"type").toString();
        if (p.value(u"text").isString())
            parts.append(p.value(u"text").toString());
        else if (type == u"refusal")
            parts.append(p.value(u"refusal").toString());
        else if (type.contains(u"image"))
            parts.append(u"[image]"_s);
        else if (type.contains(u"file") || type == u"document")
            parts.append(u"[file]"_s);
        else if (type.contains(u"audio"))
            parts.append(u"[audio]"_s);
        // Anything else (thinking, cache markers, redacted reasoning) is not conversation text.
    }
    return parts.join(u'\n');
}

void RequestReader::addSystem(const QString &text)
{
    if (text.isEmpty())
        return;
    if (!m_out->systemPrompt.isEmpty())
        m_out->systemPrompt += u"\n\n"_s;
    m_out->systemPrompt += text;
}

void RequestReader::addSystemMessage(const QString &text)
{
    if (m_out->messages.isEmpty())
        addSystem(text);
    else
        m_out->messages.append(Message::system(text));
}

bool RequestReader::addTextMessage(const QString &role, const QString &text)
{
    if (role == u"system" || role == u"developer")
        addSystemMessage(text);
    else if (role == u"user")
        m_out->messages.append(Message::user(text));
    else if (role == u"assistant")
        m_out->messages.append(Message::assistant(text));
    else
        return fail(QCoreApplication::translate("WireConversation", "unknown message role '%1'").arg(role.left(40)));
    return true;
}

Message &RequestReader::assistantForCall()
{
    if (m_out->messages.isEmpty() || m_out->messages.constLast().role != Role::Assistant)
        m_out->messages.append(Message::assistant(QString()));
    return m_out->messages.last();
}

bool RequestReader::common(const QJsonObject &body)
{
    const QJsonValue model = body.value(u"model");
    if (!model.isUndefined() && !model.isString())
        return fail(QCoreApplication::translate("WireConversation", "field 'model' is not text"));
    m_out->model = model.toString();
    const QJsonValue tools = body.value(u"tools");
    if (!tools.isUndefined() && !tools.isNull() && !tools.isArray())
        return fail(QCoreApplication::translate("WireConversation", "field 'tools' is not a list"));
    m_out->tools = tools.toArray();
    m_out->stream = body.value(u"stream").toBool(false);
    for (const QJsonValue &hint : {body.value(u"metadata").toObject().value(u"user_id"), body.value(u"prompt_cache_key"),
                                   body.value(u"user")}) {
        if (hint.isString() && !hint.toString().isEmpty()) {
            m_out->conversationHint = hint.toString().left(512);
            break;
        }
    }
    return true;
}

bool RequestReader::anthropic(const QJsonObject &body)
{
    if (!common(body))
        return false;
    const std::optional<QString> system = contentText(body.value(u"system"), "system");
    if (!system)
        return false;
    addSystem(*system);
    const QJsonValue messages = body.value(u"messages");
    if (!messages.isArray())
        return fail(QCoreApplication::translate("WireConversation", "field 'messages' is missing or not a list"));
    for (const QJsonValue &value : messages.toArray()) {
        if (!value.isObject())
            return fail(QCoreApplication::translate("WireConversation", "a message is not an object"));
        const QJsonObject m = value.toObject();
        const QString role = m.value(u"role").toString();
        const QJsonValue content = m.value(u"content");
        // Claude Code sends system turns among the messages too (its environment, reminders): they
        // stay in the conversation, where the client put them.
        if (role != u"user" && role != u"assistant" && role != u"system")
            return fail(QCoreApplication::translate("WireConversation", "unknown message role '%1'").arg(role.left(40)));
        const auto textMessage = [&role](const QString &text) {
            return role == u"user" ? Message::user(text) : role == u"system" ? Message::system(text) : Message::assistant(text);
        };
        if (!content.isArray()) {
            const std::optional<QString> text = contentText(content, "content");
            if (!text)
                return false;
            m_out->messages.append(textMessage(*text));
            continue;
        }
        QStringList texts;
        QList<ToolCall> calls;
        for (const QJsonValue &blockValue : content.toArray()) {
            if (!blockValue.isObject())
                return fail(QCoreApplication::translate("WireConversation", "a content block is not an object"));
            const QJsonObject block = blockValue.toObject();
            const QString type = block.value(u"type").toString();
            if (type == u"tool_result") {
                if (role != u"user")
                    return fail(QCoreApplication::translate("WireConversation", "a tool result in a message of role %1").arg(role));
                const std::optional<QString> text = contentText(block.value(u"content"), "tool_result.content");
                if (!text)
                    return false;
                const QString id = block.value(u"tool_use_id").toString();
                if (id.isEmpty())
                    return fail(QCoreApplication::translate("WireConversation", "a tool result without 'tool_use_id'"));
                // The API puts results first in their user message; they become tool messages.
                m_out->messages.append(Message::toolResult(id, *text, block.value(u"is_error").toBool(false)));
            } else if (type == u"tool_use" || type == u"server_tool_use") {
                if (role != u"assistant")
                    return fail(QCoreApplication::translate("WireConversation", "a tool call in a message of role %1").arg(role));
                const QString id = block.value(u"id").toString();
                if (id.isEmpty())
                    return fail(QCoreApplication::translate("WireConversation", "a tool call without 'id'"));
                calls.append(makeCall(id, block.value(u"name").toString(), compactJson(block.value(u"input"))));
            } else {
                const std::optional<QString> text = contentText(QJsonArray{block}, "content");
                if (!text)
                    return false;
                if (!text->isEmpty())
                    texts.append(*text);
            }
        }
        if (role == u"assistant")
            m_out->messages.append(Message::assistant(texts.join(u'\n'), calls));
        else if (!texts.isEmpty())
            m_out->messages.append(textMessage(texts.join(u'\n')));
    }
    return true;
}

bool RequestReader::openAiChat(const QJsonObject &body)
{
    if (!common(body))
        return false;
    const QJsonValue messages = body.value(u"messages");
    if (!messages.isArray())
        return fail(QCoreApplication::translate("WireConversation", "field 'messages' is missing or not a list"));
    for (const QJsonValue &value : messages.toArray()) {
        if (!value.isObject())
            return fail(QCoreApplication::translate("WireConversation", "a message is not an object"));
        const QJsonObject m = value.toObject();
        const QString role = m.value(u"role").toString();
        const std::optional<QString> text = contentText(m.value(u"content"), "content");
        if (!text)
            return false;
        if (role == u"assistant") {
            QList<ToolCall> calls;
            const QJsonValue toolCalls = m.value(u"tool_calls");
            if (!toolCalls.isUndefined() && !toolCalls.isNull() && !toolCalls.isArray())
                return fail(QCoreApplication::translate("WireConversation", "field 'tool_calls' is not a list"));
            for (const QJsonValue &callValue : toolCalls.toArray()) {
                const QJsonObject call = callValue.toObject();
                const QJsonObject function = call.value(u"function").toObject();
                const QString id = call.value(u"id").toString();
                if (id.isEmpty())
                    return fail(QCoreApplication::translate("WireConversation", "a tool call without 'id'"));
                calls.append(makeCall(id, function.value(u"name").toString(), compactJson(function.value(u"arguments"))));
            }
            m_out->messages.append(Message::assistant(*text, calls));
        } else if (role == u"tool") {
            const QString id = m.value(u"tool_call_id").toString();
            if (id.isEmpty())
                return fail(QCoreApplication::translate("WireConversation", "a tool message without 'tool_call_id'"));
            m_out->messages.append(Message::toolResult(id, *text));
        } else if (!addTextMessage(role, *text)) {
            return false;
        }
    }
    return true;
}

bool RequestReader::responses(const QJsonObject &body)
{
    if (!common(body))
        return false;
    const QJsonValue instructions = body.value(u"instructions");
    if (!instructions.isUndefined() && !instructions.isNull() && !instructions.isString())
        return fail(QCoreApplication::translate("WireConversation", "field 'instructions' is not text"));
    addSystem(instructions.toString());
    m_out->previousResponseId = body.value(u"previous_response_id").toString().left(512);
    m_out->chained = !m_out->previousResponseId.isEmpty();
    const QJsonValue input = body.value(u"input");
    if (input.isString()) {
        m_out->messages.append(Message::user(input.toString()));
        return true;
    }
    if (!input.isArray())
        return fail(QCoreApplication::translate("WireConversation", "field 'input' is missing or neither text nor a list"));
    for (const QJsonValue &value : input.toArray()) {
        if (!value.isObject())
            return fail(QCoreApplication::translate("WireConversation", "an input item is not an object"));
        const QJsonObject item = value.toObject();
        const QString type = item.value(u"type").toString(u"message"_s);
        if (type == u"message") {
            const QString role = item.value(u"role").toString();
            const std::optional<QString> text = contentText(item.value(u"content"), "content");
            if (!text || !addTextMessage(role, *text))
                return false;
        } else if (type == u"function_call" || type == u"custom_tool_call") {
            const QString id = item.value(u"call_id").toString();
            if (id.isEmpty())
                return fail(QCoreApplication::translate("WireConversation", "a tool call without 'call_id'"));
            const QJsonValue arguments = item.value(type == u"function_call" ? u"arguments" : u"input");
            if (!arguments.isString() && !arguments.isUndefined())
                return fail(QCoreApplication::translate("WireConversation", "the arguments of call %1 are not text").arg(id.left(60)));
            ToolCall call = makeCall(id, item.value(u"name").toString(), arguments.toString());
            if (type == u"custom_tool_call") {
                call.arguments = arguments.toString(); // free text, not JSON, by design
                call.argumentsValid = true;
            }
            assistantForCall().toolCalls.append(call);
        } else if (type == u"function_call_output" || type == u"custom_tool_call_output") {
            const QString id = item.value(u"call_id").toString();
            if (id.isEmpty())
                return fail(QCoreApplication::translate("WireConversation", "a tool output without 'call_id'"));
            const std::optional<QString> text = contentText(item.value(u"output"), "output");
            if (!text)
                return false;
            m_out->messages.append(Message::toolResult(id, *text));
        }
        // reasoning, item_reference, web search and other provider-side items: not conversation
        // the client wrote, and versioned by the provider; skipped.
    }
    return true;
}

} // namespace

WireProtocol protocolFor(QByteArrayView method, QByteArrayView path)
{
    if (method != "POST")
        return WireProtocol::None;
    QByteArrayView p = path;
    if (const qsizetype query = p.indexOf('?'); query >= 0)
        p = p.first(query);
    while (p.endsWith('/'))
        p.chop(1);
    if (p.endsWith("/v1/messages")) // not /v1/messages/count_tokens: counting is no turn
        return WireProtocol::AnthropicMessages;
    if (p.endsWith("/chat/completions"))
        return WireProtocol::OpenAiChat;
    if (p.endsWith("/responses"))
        return WireProtocol::OpenAiResponses;
    return WireProtocol::None;
}

QString protocolName(WireProtocol protocol)
{
    switch (protocol) {
    case WireProtocol::AnthropicMessages: return u"anthropic-messages"_s;
    case WireProtocol::OpenAiChat: return u"openai-chat"_s;
    case WireProtocol::OpenAiResponses: return u"openai-responses"_s;
    case WireProtocol::None: break;
    }
    return {};
}

std::optional<WireRequest> parseRequest(WireProtocol protocol, const QByteArray &body, QString *error)
{
    const auto failWith = [error](const QString &text) -> std::optional<WireRequest> {
        if (error)
            *error = text;
        return std::nullopt;
    };
    if (protocol == WireProtocol::None)
        return failWith(QCoreApplication::translate("WireConversation", "not a conversation request"));
    if (body.size() > kMaxBodyBytes)
        return failWith(QCoreApplication::translate("WireConversation", "the request body is larger than %1 MB").arg(kMaxBodyBytes / (1024 * 1024)));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return failWith(QCoreApplication::translate("WireConversation", "the request body is not JSON: %1 at byte %2").arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return failWith(QCoreApplication::translate("WireConversation", "the request body is not a JSON object"));
    WireRequest request;
    request.protocol = protocol;
    RequestReader reader(&request);
    const QJsonObject object = doc.object();
    bool ok = false;
    switch (protocol) {
    case WireProtocol::AnthropicMessages: ok = reader.anthropic(object); break;
    case WireProtocol::OpenAiChat: ok = reader.openAiChat(object); break;
    case WireProtocol::OpenAiResponses: ok = reader.responses(object); break;
    case WireProtocol::None: break;
    }
    if (!ok)
        return failWith(reader.error());
    return request;
}

bool sameCall(const ToolCall &x, const ToolCall &y)
{
    if (x.id != y.id || x.name != y.name)
        return false;
    if (x.arguments == y.arguments)
        return true;
    const QJsonDocument dx = QJsonDocument::fromJson(x.arguments.toUtf8());
    const QJsonDocument dy = QJsonDocument::fromJson(y.arguments.toUtf8());
    return !dx.isNull() && dx == dy;
}

bool sameTurn(const Message &a, const Message &b)
{
    if (a.role != b.role || a.toolCallId != b.toolCallId || a.toolCalls.size() != b.toolCalls.size())
        return false;
    if (a.content.trimmed() != b.content.trimmed())
        return false;
    for (qsizetype i = 0; i < a.toolCalls.size(); ++i) {
        if (!sameCall(a.toolCalls[i], b.toolCalls[i]))
            return false;
    }
    return true;
}

} // namespace wl::WireConversation
