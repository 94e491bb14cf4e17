#include "OpenAiChatClient.h"

#include "JsonBodyWriter.h"
#include "StreamAssembler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkRequest>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
QJsonObject messageJson(const Message &m)
{
    QJsonObject o;
    switch (m.role) {
    case Role::System:
        o.insert(u"role", u"system"_s);
        o.insert(u"content", m.content);
        break;
    case Role::User:
        o.insert(u"role", u"user"_s);
        o.insert(u"content", m.content);
        break;
    case Role::Assistant: {
        o.insert(u"role", u"assistant"_s);
        if (m.content.isEmpty() && m.hasToolCalls())
            o.insert(u"content", QJsonValue::Null);
        else
            o.insert(u"content", m.content);
        if (m.hasToolCalls()) {
            QJsonArray calls;
            for (const ToolCall &call : m.toolCalls) {
                calls.append(QJsonObject{
                    {u"id"_s, call.id},
                    {u"type"_s, u"function"_s},
                    {u"function"_s, QJsonObject{{u"name"_s, call.name},
                                                {u"arguments"_s, call.arguments.trimmed().isEmpty() ? u"{}"_s : call.arguments}}},
                });
            }
            o.insert(u"tool_calls", calls);
        }
        break;
    }
    case Role::Tool:
        o.insert(u"role", u"tool"_s);
        o.insert(u"tool_call_id", m.toolCallId);
        o.insert(u"content", m.content);
        break;
    }
    return o;
}

QJsonObject toolJson(const ToolSpec &spec)
{
    QJsonObject parameters = spec.inputSchema;
    if (parameters.isEmpty())
        parameters = QJsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, QJsonObject{}}};
    QJsonObject function{{u"name"_s, spec.name}, {u"parameters"_s, parameters}};
    if (!spec.description.isEmpty())
        function.insert(u"description", spec.description);
    return QJsonObject{{u"type"_s, u"function"_s}, {u"function"_s, function}};
}

// messageJson() written directly, keys in QJsonObject's order.
void writeMessage(JsonBodyWriter &out, const Message &m)
{
    out.raw("{\"content\":");
    switch (m.role) {
    case Role::System:
        out.string(m.content);
        out.raw(",\"role\":\"system\"}");
        break;
    case Role::User:
        out.string(m.content);
        out.raw(",\"role\":\"user\"}");
        break;
    case Role::Assistant:
        if (m.content.isEmpty() && m.hasToolCalls())
            out.raw("null");
        else
            out.string(m.content);
        out.raw(",\"role\":\"assistant\"");
        if (m.hasToolCalls()) {
            out.raw(",\"tool_calls\":[");
            for (qsizetype i = 0; i < m.toolCalls.size(); ++i) {
                const ToolCall &call = m.toolCalls[i];
                out.raw(i ? ",{\"function\":{\"arguments\":" : "{\"function\":{\"arguments\":");
                out.string(QStringView(call.arguments).trimmed().isEmpty() ? QStringView(u"{}") : QStringView(call.arguments));
                out.raw(",\"name\":");
                out.string(call.name);
                out.raw("},\"id\":");
                out.string(call.id);
                out.raw(",\"type\":\"function\"}");
            }
            out.raw(']');
        }
        out.raw('}');
        break;
    case Role::Tool:
        out.string(m.content);
        out.raw(",\"role\":\"tool\",\"tool_call_id\":");
        out.string(m.toolCallId);
        out.raw('}');
        break;
    }
}
} // namespace

QString OpenAiChatClient::protocolName() const
{
    return u"openai-chat"_s;
}

QUrl OpenAiChatClient::endpoint() const
{
    return joinUrl(baseUrl(), u"/chat/completions");
}

bool OpenAiChatClient::usesMaxCompletionTokens(const QUrl &baseUrl)
{
    const QString host = baseUrl.host().toLower();
    return host == u"api.openai.com" || host.endsWith(u".openai.azure.com");
}

QJsonObject OpenAiChatClient::requestJson(const ChatRequest &request, bool useMaxCompletionTokens)
{
    QJsonArray messages;
    for (const Message &m : request.messages)
        messages.append(messageJson(m));
    QJsonObject body{
        {u"model"_s, request.model},
        {u"messages"_s, messages},
        {u"stream"_s, true},
        {u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}},
    };
    if (request.maxOutputTokens > 0)
        body.insert(useMaxCompletionTokens ? u"max_completion_tokens" : u"max_tokens", request.maxOutputTokens);
    if (request.temperature)
        body.insert(u"temperature", *request.temperature);
    if (!request.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolSpec &spec : request.tools)
            tools.append(toolJson(spec));
        body.insert(u"tools", tools);
    }
    return body;
}

QByteArray OpenAiChatClient::requestBody(const ChatRequest &request) const
{
    // requestJson() through QJsonDocument, written without building it (tst_summaryrequest).
    JsonBodyWriter out(bodySizeHint(request));
    out.raw('{');
    if (request.maxOutputTokens > 0) {
        out.raw(usesMaxCompletionTokens(baseUrl()) ? QByteArrayView("\"max_completion_tokens\":")
                                                   : QByteArrayView("\"max_tokens\":"));
        out.number(request.maxOutputTokens);
        out.raw(',');
    }
    out.raw("\"messages\":[");
    for (qsizetype i = 0; i < request.messages.size(); ++i) {
        if (i)
            out.raw(',');
        writeMessage(out, request.messages[i]);
    }
    out.raw("],\"model\":");
    out.string(request.model);
    out.raw(",\"stream\":true,\"stream_options\":{\"include_usage\":true}");
    if (request.temperature) {
        out.raw(",\"temperature\":");
        out.value(QJsonValue(*request.temperature));
    }
    if (!request.tools.isEmpty()) {
        out.raw(",\"tools\":[");
        for (qsizetype i = 0; i < request.tools.size(); ++i) {
            if (i)
                out.raw(',');
            out.value(toolJson(request.tools[i]));
        }
        out.raw(']');
    }
    out.raw('}');
    return out.take();
}

void OpenAiChatClient::addHeaders(QNetworkRequest &request) const
{
    if (hasApiKey())
        request.setRawHeader(QByteArrayLiteral("Authorization"), "Bearer " + apiKey().toUtf8());
}

std::unique_ptr<StreamAssembler> OpenAiChatClient::createAssembler() const
{
    return std::make_unique<OpenAiStreamAssembler>();
}

} // namespace wl
