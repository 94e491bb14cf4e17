#pragma once

#include <QString>

namespace wl {

// One tool call requested by an assistant message. `arguments` is the JSON
// text exactly as the model sent it, even when it does not parse.
struct ToolCall
{
    QString id;
    QString name;
    QString arguments;
    bool argumentsValid = true; // false when `arguments` is not a JSON object

    friend bool operator==(const ToolCall &, const ToolCall &) = default;
};

} // namespace wl
