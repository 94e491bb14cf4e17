#pragma once

#include "ChatClient.h"

#include <QJsonObject>

namespace wl {

// OpenAI Chat Completions, `POST {base}/chat/completions` with `stream: true`
// and `stream_options.include_usage`; also the OpenAI-compatible servers
// (Ollama /v1, llama.cpp server, vLLM, LM Studio, OpenRouter).
//
// Messages map one to one: system, user, assistant (`content` null when it
// only calls tools, `tool_calls` of type function with the arguments text as
// the model wrote it; empty arguments are sent as "{}"), tool
// (`tool_call_id`, `content`). OpenAI has no error flag on tool messages, so
// a failed tool result is sent as its text alone (the tool layer words it as
// an error). Tools are `{"type": "function", "function": {name, description,
// parameters}}`.
//
// The output limit is `max_completion_tokens` for api.openai.com and Azure
// OpenAI (reasoning models reject `max_tokens`), `max_tokens` for every other
// server (local servers do not all know the newer name).
class OpenAiChatClient : public ChatClient
{
    Q_OBJECT

public:
    using ChatClient::ChatClient;

    QString protocolName() const override;
    QByteArray requestBody(const ChatRequest &request) const override;
    QUrl endpoint() const override;

    // The body as a JSON object; requestBody() writes the same bytes QJsonDocument would write
    // for it, without building it.
    static QJsonObject requestJson(const ChatRequest &request, bool useMaxCompletionTokens);
    static bool usesMaxCompletionTokens(const QUrl &baseUrl);

protected:
    void addHeaders(QNetworkRequest &request) const override;
    std::unique_ptr<StreamAssembler> createAssembler() const override;
};

} // namespace wl
