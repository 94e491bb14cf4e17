#pragma once

#include "llm/ChatUsage.h"
#include "model/Message.h"

#include <QByteArray>
#include <QJsonArray>
#include <QList>
#include <QString>

#include <optional>

namespace wl {

// The wire protocols the proxy understands well enough to record a conversation from.
enum class WireProtocol {
    None,              // not an LLM call (model listing, token counting, anything else)
    AnthropicMessages, // POST /v1/messages
    OpenAiChat,        // POST /v1/chat/completions
    OpenAiResponses,   // POST /v1/responses
};

// What a client's request body says, in Waterline's terms. Every request of these protocols
// carries the whole conversation (Responses with previous_response_id aside, see `chained`).
struct WireRequest
{
    WireProtocol protocol = WireProtocol::None;
    QString model;
    QString systemPrompt;          // Anthropic `system`, OpenAI system/developer messages, Responses `instructions`
    QJsonArray tools;              // the tool schemas exactly as the client sent them
    QList<Message> messages;       // the conversation without the system prompt
    bool stream = false;
    bool chained = false;          // Responses: previous_response_id set, the body holds only the new turn
    QString previousResponseId;
    // What the client says names its session, when it says it: Anthropic metadata.user_id (Claude
    // Code puts its session id there), OpenAI prompt_cache_key (Codex: its conversation id) or
    // `user`. It survives the client compacting its history, when nothing else does.
    QString conversationHint;
};

// What came back for one request.
struct WireResponse
{
    Message assistant;             // text and tool calls; empty content and no calls when there was none
    bool hasAssistant = false;
    ChatUsage usage;
    QString responseId;            // Responses: the id a later request may continue from
    QString error;                 // the provider's error message (HTTP status or in-stream), empty on success
};

// Parsing of the three protocols, both ways of the wire. Bodies come from the client and the
// provider, so nothing is trusted: a body that is not JSON, too large, of the wrong shape or with
// a role the protocol does not have gives a clear, translated error and no result, never a crash.
namespace WireConversation {

inline constexpr qsizetype kMaxBodyBytes = 64 * 1024 * 1024;

// The protocol a request path (query string allowed, proxy token already removed) speaks, for the
// method POST; anything else is WireProtocol::None.
WireProtocol protocolFor(QByteArrayView method, QByteArrayView path);
QString protocolName(WireProtocol protocol);

std::optional<WireRequest> parseRequest(WireProtocol protocol, const QByteArray &body, QString *error = nullptr);

// `status` is the HTTP status the client received; a stream (text/event-stream) and a whole
// JSON body are both understood.
std::optional<WireResponse> parseResponse(WireProtocol protocol, int status, const QByteArray &contentType,
                                          const QByteArray &body, QString *error = nullptr);

// Two messages are the same turn of a conversation: what a client sends back may differ from
// what the provider streamed in spacing and key order of tool arguments, and in text the client
// trims; roles, call ids, names, results and the argument JSON must agree.
bool sameTurn(const Message &a, const Message &b);
// The same tool call: ids and names equal, arguments equal as JSON.
bool sameCall(const ToolCall &a, const ToolCall &b);

} // namespace WireConversation
} // namespace wl
