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

TokenCost PromptCache::next(const QList<ViewItem> &items, qint64 fixedTokens, qint64 itemBytes)
{
    if (itemBytes < 0) {
        itemBytes = 0;
        for (const ViewItem &item : items)
            itemBytes += item.bytes;
    }
    const qint64 total = fixedTokens + TokenEstimate::tokensForBytes(itemBytes);

    // The shared prefix, item by item, when the fixed part is the same.
    const bool samePrefix = !m_previous.isEmpty() && fixedTokens == m_previousFixed;
    const qsizetype previous = m_previous.size();
    qsizetype common = 0;
    qint64 commonBytes = 0;
    if (samePrefix) {
        // Most requests only add messages: the same first and last items and the same bytes up to
        // there say so without comparing every item (a placeholder or a checkpoint shrinks the bytes).
        bool grew = false;
        if (items.size() >= previous && items[previous - 1] == m_previous.constLast()
            && (previous < 2 || items[1] == m_previous[1])) {
            qint64 added = 0;
            for (qsizetype i = previous; i < items.size(); ++i)
                added += items[i].bytes;
            grew = itemBytes - added == m_previousBytes;
        }
        if (grew) {
            common = previous;
            commonBytes = m_previousBytes;
        } else {
            const qsizetype n = std::min(items.size(), previous);
            while (common < n && items[common] == m_previous[common]) {
                commonBytes += items[common].bytes;
                ++common;
            }
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

    // A copy of its own (sharing the caller's list would make the caller copy it on its next change).
    if (!samePrefix)
        common = 0;
    m_previous.resize(common);
    m_previous.reserve(items.size());
    for (qsizetype i = common; i < items.size(); ++i)
        m_previous.append(items[i]);
    m_previousBytes = itemBytes;
    m_previousFixed = fixedTokens;
    m_previousTotal = total;
    return cost;
}

} // namespace wl
