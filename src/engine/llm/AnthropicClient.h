#pragma once

#include "ChatClient.h"

#include <QJsonObject>

namespace wl {

// Anthropic Messages, `POST {base}/v1/messages` with `stream: true`,
// `x-api-key` and `anthropic-version: 2023-06-01`.
//
// How a Waterline view becomes a Messages request:
//  - every system message is lifted into the top-level `system` (joined by a
//    blank line, in order); Anthropic has one system prompt;
//  - assistant tool calls become `tool_use` blocks whose `input` is the parsed
//    arguments object. Empty arguments are `{}`. Arguments that are not a JSON
//    object (the model wrote broken JSON) are sent as
//    `{"_raw_arguments": "<text as written>"}`: the API needs an object, and
//    the model should see what it actually sent next to the tool's error;
//  - tool results become `tool_result` blocks in a user message
//    (`tool_use_id`, `content`, `is_error: true` for failures);
//  - messages with no content are dropped, and consecutive messages of one
//    role are merged into one message so roles alternate; in a merged user
//    message the tool_result blocks come first, as the API requires;
//  - a conversation that would start with the assistant gets a user message
//    "[Conversation start]" in front (the API requires a user turn first);
//  - with promptCaching, the last tool, the system prompt and the last block
//    of the last message carry `cache_control: {"type": "ephemeral"}`;
//  - `max_tokens` is always sent (the API requires it).
class AnthropicClient : public ChatClient
{
    Q_OBJECT

public:
    using ChatClient::ChatClient;

    static constexpr QLatin1StringView kApiVersion{"2023-06-01"};

    QString protocolName() const override;
    QByteArray requestBody(const ChatRequest &request) const override;
    QUrl endpoint() const override;

    // The body as a JSON object; requestBody() writes the same bytes QJsonDocument would write
    // for it, without building it.
    static QJsonObject requestJson(const ChatRequest &request);
    // "{base}/v1/<path>", or "{base}/<path>" when the base already ends in /v1.
    static QUrl apiUrl(const QUrl &base, QStringView path);

protected:
    void addHeaders(QNetworkRequest &request) const override;
    std::unique_ptr<StreamAssembler> createAssembler() const override;
};

} // namespace wl
