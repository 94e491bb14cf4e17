#pragma once

#include "PriceTable.h"

#include "compaction/ViewItem.h"

#include <QJsonObject>
#include <QList>

namespace wl {

// Tokens a provider bills, by how it bills them, and what they cost. `input` is the uncached
// input only: the whole prompt is input + cacheRead + cacheWrite.
struct TokenCost
{
    qint64 input = 0;
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0;
    qint64 output = 0;

    qint64 prompt() const { return input + cacheRead + cacheWrite; }
    double usd(const Price &price) const;
    TokenCost &operator+=(const TokenCost &other);
    // {"input_tokens", "cache_read_tokens", "cache_write_tokens", "output_tokens", "usd"}
    QJsonObject toJson(const Price &price) const;
    friend bool operator==(const TokenCost &, const TokenCost &) = default;
};

// Prompt caching across the requests of one run (issue 21): each request's prompt is the fixed part
// (tool schemas, overhead) and the view's items; what it shares with the previous request's prompt,
// from the start, may be read from the cache.
//  - Anthropic: breakpoints after the system prompt and after the last message (as AnthropicClient
//    sends them). A request reads the previous request's whole prompt when that is a prefix of its
//    own, else only the tools and system prompt when those are unchanged; everything after what it
//    reads is written. A prefix under 1,024 tokens is neither read nor written (the minimum
//    cacheable length of Sonnet and Opus).
//  - OpenAI: automatic; a request reads the longest prefix it shares with the previous one, when
//    that is 1,024 tokens or more, in steps of 128 tokens after the first 1,024. Nothing is written.
// A new checkpoint replaces the front of the view, so it breaks everything after the system prompt.
class PromptCache
{
public:
    static constexpr qint64 kMinimumPrefix = 1024;
    static constexpr qint64 kOpenAiStep = 128;

    explicit PromptCache(CacheProtocol protocol) : m_protocol(protocol) {}

    // The next request's prompt: `fixedTokens` then `items` (the view, system prompt first), whose
    // bytes add up to `itemBytes` (< 0: added up here). Fills input, cacheRead and cacheWrite
    // (output is the caller's).
    TokenCost next(const QList<ViewItem> &items, qint64 fixedTokens, qint64 itemBytes = -1);

private:
    CacheProtocol m_protocol;
    QList<ViewItem> m_previous;
    qint64 m_previousBytes = 0;
    qint64 m_previousFixed = -1;
    qint64 m_previousTotal = 0;
};

} // namespace wl
