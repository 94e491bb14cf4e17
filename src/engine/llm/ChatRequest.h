#pragma once

#include "model/Message.h"
#include "model/ToolSpec.h"

#include <QList>
#include <QString>

#include <optional>

namespace wl {

// What one LLM call sends: the view (system message first), the tools on
// offer, the model and the output limit.
struct ChatRequest
{
    QList<Message> messages;
    QList<ToolSpec> tools;
    QString model;
    int maxOutputTokens = 4096;
    std::optional<double> temperature;
    // Anthropic only: mark the tools, the system prompt and the newest message
    // as cache breakpoints, so a growing agent conversation re-reads its prefix
    // from the prompt cache. OpenAI caches prefixes without being asked.
    bool promptCaching = true;
};

} // namespace wl
