// Provider answers (a stream as the proxy recorded it, or one JSON body) into a WireResponse.
// Anthropic and Chat Completions go through the assemblers the agent's own clients use; the
// Responses API carries the whole response in its final event, which is read like a JSON answer.
#include "WireConversation.h"

#include "llm/ChatError.h"
#include "llm/SseParser.h"
#include "llm/StreamAssembler.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <memory>

using namespace Qt::StringLiterals;

namespace wl::WireConversation {

namespace {

bool looksLikeStream(const QByteArray &contentType, const QByteArray &body)
{
    if (contentType.toLower().contains("text/event-stream"))
        return true;
    const QByteArray start = body.left(64).trimmed();
    return !contentType.toLower().contains("json") && (start.startsWith("event:") || start.startsWith("data:"));
}

QString errorMessageOf(const QJsonObject &object)
{
    const QJsonValue error = object.value(u"error");
    if (error.isObject()) {
        const QJsonObject e = error.toObject();
        const QString message = e.value(u"message").toString();
        return message.isEmpty() ? e.value(u"type").toString(e.value(u"code").toString()) : message;
    }
    if (error.isString())
        return error.toString();
    return object.value(u"message").toString();
}

void setKnown(qint64 *field, bool *known, const QJsonValue &value)
{
    if (!value.isDouble())
        return;
    const double v = value.toDouble();
    if (v < 0 || v > 1e15 || v != double(qint64(v)))
        return; // not a count: read as "not reported"
    *field = qint64(v);
    *known = true;
}

// A Responses API response object (the whole answer, or the `response` of its final event).
WireResponse fromResponsesObject(const QJsonObject &response)
{
    WireResponse out;
    QStringList texts;
    QList<ToolCall> calls;
    for (const QJsonValue &value : response.value(u"output").toArray()) {
        const QJsonObject item = value.toObject();
        const QString type = item.value(u"type").toString();
        if (type == u"message") {
            for (const QJsonValue &part : item.value(u"content").toArray()) {
                const QJsonObject p = part.toObject();
                if (p.value(u"type").toString() == u"output_text")
                    texts.append(p.value(u"text").toString());
                else if (p.value(u"type").toString() == u"refusal")
                    texts.append(p.value(u"refusal").toString());
            }
        } else if (type == u"function_call" || type == u"custom_tool_call") {
            ToolCall call;
            call.id = item.value(u"call_id").toString();
            call.name = item.value(u"name").toString();
            call.arguments = item.value(type == u"function_call" ? u"arguments" : u"input").toString();
            if (type == u"function_call") {
                if (call.arguments.isEmpty())
                    call.arguments = u"{}"_s;
                call.argumentsValid = QJsonDocument::fromJson(call.arguments.toUtf8()).isObject();
            }
            calls.append(call);
        }
    }
    out.assistant = Message::assistant(texts.join(QString()), calls);
    out.hasAssistant = !texts.isEmpty() || !calls.isEmpty();
    out.responseId = response.value(u"id").toString().left(512);
    const QJsonObject usage = response.value(u"usage").toObject();
    setKnown(&out.usage.input, &out.usage.inputKnown, usage.value(u"input_tokens"));
    setKnown(&out.usage.output, &out.usage.outputKnown, usage.value(u"output_tokens"));
    setKnown(&out.usage.cacheRead, &out.usage.cacheReadKnown,
             usage.value(u"input_tokens_details").toObject().value(u"cached_tokens"));
    if (response.value(u"status").toString() == u"failed" || response.value(u"error").isObject())
        out.error = errorMessageOf(response);
    return out;
}

std::optional<WireResponse> responsesStream(const QByteArray &body, QString *error)
{
    std::optional<QJsonObject> final;
    QString streamError;
    SseParser parser([&](const SseEvent &event) {
        const QJsonObject object = QJsonDocument::fromJson(event.data.toByteArray()).object();
        const QString type = object.value(u"type").toString();
        if (type == u"response.completed" || type == u"response.incomplete" || type == u"response.failed")
            final = object.value(u"response").toObject();
        else if (type == u"error" && streamError.isEmpty())
            streamError = errorMessageOf(object);
    });
    parser.setMaxEventBytes(kMaxBodyBytes);
    parser.feed(body);
    parser.finish();
    if (!final) {
        if (!streamError.isEmpty()) {
            WireResponse out;
            out.error = streamError;
            return out;
        }
        if (error)
            *error = QCoreApplication::translate("WireConversation", "the stream ended before its final event");
        return std::nullopt;
    }
    WireResponse out = fromResponsesObject(*final);
    if (out.error.isEmpty())
        out.error = streamError;
    return out;
}

std::optional<WireResponse> assembled(WireProtocol protocol, bool stream, const QByteArray &body, QString *error)
{
    std::unique_ptr<StreamAssembler> assembler;
    if (protocol == WireProtocol::AnthropicMessages)
        assembler = std::make_unique<AnthropicStreamAssembler>();
    else
        assembler = std::make_unique<OpenAiStreamAssembler>();
    if (stream) {
        SseParser parser([&](const SseEvent &event) { assembler->handleEvent(event); });
        parser.setMaxEventBytes(kMaxBodyBytes);
        parser.feed(body);
        parser.finish();
    } else {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
        if (!doc.isObject()) {
            if (error)
                *error = QCoreApplication::translate("WireConversation", "the response body is not a JSON object");
            return std::nullopt;
        }
        assembler->handleWholeResponse(doc.object());
    }
    WireResponse out;
    const bool complete = assembler->endOfStream();
    out.usage = assembler->usage();
    if (!complete || assembler->hasError()) {
        const ChatError e = assembler->error();
        out.error = e.providerMessage.isEmpty() ? e.message : e.providerMessage;
        if (out.error.isEmpty())
            out.error = QCoreApplication::translate("WireConversation", "the response ended early");
    }
    out.assistant = assembler->message();
    out.hasAssistant = complete && (!out.assistant.content.isEmpty() || out.assistant.hasToolCalls());
    return out;
}

} // namespace

std::optional<WireResponse> parseResponse(WireProtocol protocol, int status, const QByteArray &contentType,
                                          const QByteArray &body, QString *error)
{
    if (protocol == WireProtocol::None) {
        if (error)
            *error = QCoreApplication::translate("WireConversation", "not a conversation request");
        return std::nullopt;
    }
    if (body.size() > kMaxBodyBytes) {
        if (error)
            *error = QCoreApplication::translate("WireConversation", "the response body is larger than %1 MB").arg(kMaxBodyBytes / (1024 * 1024));
        return std::nullopt;
    }
    if (status < 200 || status >= 300) {
        // The provider's own words when it gave a JSON error, else the status.
        WireResponse out;
        out.error = errorMessageOf(QJsonDocument::fromJson(body).object());
        if (out.error.isEmpty())
            out.error = QCoreApplication::translate("WireConversation", "HTTP status %1").arg(status);
        return out;
    }
    const bool stream = looksLikeStream(contentType, body);
    if (protocol == WireProtocol::OpenAiResponses) {
        if (stream)
            return responsesStream(body, error);
        const QJsonDocument doc = QJsonDocument::fromJson(body);
        if (!doc.isObject()) {
            if (error)
                *error = QCoreApplication::translate("WireConversation", "the response body is not a JSON object");
            return std::nullopt;
        }
        return fromResponsesObject(doc.object());
    }
    return assembled(protocol, stream, body, error);
}

} // namespace wl::WireConversation
