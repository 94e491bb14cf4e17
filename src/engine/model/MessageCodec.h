#pragma once

#include "Message.h"
#include "ToolSpec.h"

#include <QJsonArray>
#include <QJsonObject>

#include <optional>

namespace wl {

// JSON codec for messages in the OpenAI Chat Completions shape:
//   {"role", "content", "tool_calls": [{"id", "type": "function",
//    "function": {"name", "arguments"}}], "tool_call_id"}
// plus Waterline's "is_error" on failed tool results. Unknown fields are
// ignored; arguments that are not a JSON object are kept as text and flagged.
namespace MessageCodec {

QJsonObject toJson(const Message &message);
QJsonArray toJson(const QList<Message> &messages);

// Returns nothing and sets `error` (naming the field) when the object is not a message.
std::optional<Message> fromJson(const QJsonObject &object, QString *error = nullptr);
std::optional<QList<Message>> fromJson(const QJsonArray &array, QString *error = nullptr);

// Content may be a string, null, or an array of parts ({"type": "text", "text": ...});
// text parts are joined with newlines. Returns false for any other type.
bool contentText(const QJsonValue &value, QString *text);

// True when `arguments` parses to a JSON object (what tool calls must carry).
bool argumentsAreValid(const QString &arguments);

QJsonObject toJson(const ToolSpec &spec);   // {"name", "description", "parameters"}
std::optional<ToolSpec> toolSpecFromJson(const QJsonObject &object, QString *error = nullptr);

} // namespace MessageCodec
} // namespace wl
