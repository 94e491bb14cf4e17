#pragma once

#include <QtGlobal>

namespace wl {

// Token usage reported by the provider for one request. Providers count
// differently; the clients normalise to these meanings:
//  - input: every prompt token the model read, cached or not
//    (OpenAI `prompt_tokens`; Anthropic `input_tokens + cache_creation_input_tokens
//    + cache_read_input_tokens`), so it is comparable with the context window;
//  - cacheRead: prompt tokens served from the provider's cache
//    (OpenAI `prompt_tokens_details.cached_tokens`; Anthropic `cache_read_input_tokens`);
//  - cacheWrite: prompt tokens written to the cache (Anthropic
//    `cache_creation_input_tokens`; OpenAI does not report it);
//  - output: generated tokens, reasoning included.
// A flag says whether each number was reported at all: many local servers
// send no usage, and zero is a real value.
struct ChatUsage
{
    qint64 input = 0;
    qint64 output = 0;
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0;
    bool inputKnown = false;
    bool outputKnown = false;
    bool cacheReadKnown = false;
    bool cacheWriteKnown = false;

    bool isKnown() const { return inputKnown || outputKnown; }
    qint64 uncachedInput() const { return input - cacheRead - cacheWrite; }

    friend bool operator==(const ChatUsage &, const ChatUsage &) = default;
};

} // namespace wl
