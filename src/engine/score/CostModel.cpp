#include "CostModel.h"

#include "compaction/TokenEstimate.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

double TokenCost::usd(const Price &price) const
{
    return (double(input) * price.input + double(cacheRead) * price.cachedInput + double(cacheWrite) * price.cacheWrite
            + double(output) * price.output)
        / 1e6;
}

TokenCost &TokenCost::operator+=(const TokenCost &other)
{
    input += other.input;
    cacheRead += other.cacheRead;
    cacheWrite += other.cacheWrite;
    output += other.output;
    return *this;
}

QJsonObject TokenCost::toJson(const Price &price) const
{
    return QJsonObject{
        {u"input_tokens"_s, double(input)},
        {u"cache_read_tokens"_s, double(cacheRead)},
        {u"cache_write_tokens"_s, double(cacheWrite)},
        {u"output_tokens"_s, double(output)},
        {u"usd"_s, usd(price)},
    };
}

TokenCost PromptCache::next(const QList<ViewItem> &items, qint64 fixedTokens)
{
    qint64 totalBytes = 0;
    for (const ViewItem &item : items)
        totalBytes += item.bytes;
    const qint64 total = fixedTokens + TokenEstimate::tokensForBytes(totalBytes);

    // The shared prefix, item by item, when the fixed part is the same.
    const bool samePrefix = !m_previous.isEmpty() && fixedTokens == m_previousFixed;
    qsizetype common = 0;
    qint64 commonBytes = 0;
    if (samePrefix) {
        const qsizetype n = std::min(items.size(), m_previous.size());
        while (common < n && items[common] == m_previous[common]) {
            commonBytes += items[common].bytes;
            ++common;
        }
    }

    TokenCost cost;
    if (m_protocol == CacheProtocol::Anthropic) {
        qint64 read = 0;
        if (samePrefix && common == m_previous.size())
            read = m_previousTotal; // the last breakpoint of the previous request
        else if (samePrefix && common >= 1 && items[0].kind == ViewItem::Kind::System)
            read = fixedTokens + TokenEstimate::tokensForBytes(items[0].bytes); // the system breakpoint
        if (read < kMinimumPrefix)
            read = 0;
        cost.cacheRead = read;
        if (total >= kMinimumPrefix)
            cost.cacheWrite = total - read;
        cost.input = total - cost.cacheRead - cost.cacheWrite;
    } else {
        const qint64 shared = samePrefix ? std::min(total, fixedTokens + TokenEstimate::tokensForBytes(commonBytes)) : 0;
        if (shared >= kMinimumPrefix)
            cost.cacheRead = kMinimumPrefix + (shared - kMinimumPrefix) / kOpenAiStep * kOpenAiStep;
        cost.input = total - cost.cacheRead;
    }

    m_previous = items;
    m_previousFixed = fixedTokens;
    m_previousTotal = total;
    return cost;
}

} // namespace wl
