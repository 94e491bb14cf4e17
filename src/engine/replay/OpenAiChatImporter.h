#pragma once

#include "TranscriptImporter.h"

namespace wl {

// OpenAI Chat Completions messages: a JSON array of messages, an object with `messages`
// (and optional `tools`; a LiteLLM request/response log also gets its `response` appended as
// the last assistant turn, with usage), or JSON Lines with one message per line.
// "developer" messages become system messages. One request per assistant message.
class OpenAiChatImporter : public TranscriptImporter
{
public:
    OpenAiChatImporter();
    int canRead(const TranscriptSample &sample) const override;

protected:
    bool read(ImportContext &context) const override;
};

} // namespace wl
