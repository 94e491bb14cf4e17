#include "OpenAiChatClient.h"

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
    return QJsonDocument(requestJson(request, usesMaxCompletionTokens(baseUrl()))).toJson(QJsonDocument::Compact);
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
