#include "TokenEstimate.h"

#include "CompactionPolicy.h"
#include "model/Message.h"
#include "model/ToolSpec.h"
#include "model/Utf8.h"

#include <algorithm>
#include <cmath>

namespace wl {

TokenEstimate::TokenEstimate(qint64 viewBytes, qint64 toolSchemaBytes, const CompactionPolicy &policy, qint64 overheadTokens,
                             double tokenScale)
    : m_viewBytes(viewBytes)
    , m_schemaBytes(toolSchemaBytes)
    , m_overhead(std::max<qint64>(0, overheadTokens))
    , m_reserved(policy.reservedOutput)
    , m_window(policy.contextWindow)
    , m_scale(tokenScale > 0.0 && std::isfinite(tokenScale) ? tokenScale : 1.0)
    , m_countSchemas(policy.countToolSchemas)
{
}

qint64 TokenEstimate::maxViewBytesFor(qint64 tokens) const
{
    if (tokens < 0)
        return -1;
    // The most rule tokens k (bytes / 4) that scale to at most `tokens`, then the most bytes of k.
    qint64 k = m_scale == 1.0 ? tokens : qint64((double(tokens) + 0.5) / m_scale);
    while (k > 0 && scaled(k) > tokens)
        --k;
    while (scaled(k + 1) <= tokens)
        ++k;
    return bytesForTokens(k) + kBytesPerToken - 1;
}

double TokenEstimate::ratio() const
{
    return ratioFor(totalTokens(), m_window);
}

double TokenEstimate::ratioFor(qint64 totalTokens, qint64 contextWindow)
{
    // One correctly rounded division: a ratio that equals a decimal threshold compares equal to it.
    return contextWindow > 0 ? double(totalTokens) / double(contextWindow) : 0.0;
}

qint64 TokenEstimate::utf8Bytes(QStringView text)
{
    return utf8ByteCount(text);
}

qint64 TokenEstimate::messageBytes(const QList<Message> &messages)
{
    qint64 sum = 0;
    for (const Message &m : messages)
        sum += m.byteCount();
    return sum;
}

qint64 TokenEstimate::toolSchemaBytes(const QList<ToolSpec> &tools)
{
    qint64 sum = 0;
    for (const ToolSpec &t : tools)
        sum += t.byteCount();
    return sum;
}

} // namespace wl
