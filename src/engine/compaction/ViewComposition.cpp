#include "ViewComposition.h"

#include "ContextView.h"
#include "TokenEstimate.h"

#include <algorithm>

namespace wl {

qint64 ViewComposition::ViewBytes::total() const
{
    qint64 sum = 0;
    for (qint64 b : bytes)
        sum += b;
    return sum;
}

ViewComposition::Part ViewComposition::partOf(const ViewItem &item)
{
    switch (item.kind) {
    case ViewItem::Kind::System: return Part::SystemPrompt;
    case ViewItem::Kind::Checkpoint: return Part::Checkpoint;
    case ViewItem::Kind::Placeholder: return Part::Offloaded;
    case ViewItem::Kind::Pinned: return Part::Pinned;
    case ViewItem::Kind::Original:
    case ViewItem::Kind::Stub: return Part::History;
    }
    return Part::History;
}

ViewComposition::ViewBytes ViewComposition::bytesOf(const ContextView &view)
{
    ViewBytes out;
    for (const ViewItem &item : view.items())
        out.add(partOf(item), item.bytes);
    return out;
}

ViewComposition ViewComposition::of(const ViewBytes &view, const TokenEstimate &estimate)
{
    ViewComposition c;
    // The view's parts: the running sum divided once per step, so the parts add up to
    // tokensForBytes(total) as the estimate counts the view.
    qint64 bytesSoFar = 0;
    qint64 tokensSoFar = 0;
    for (Part part : kParts) {
        const qint64 b = view.bytes[size_t(part)];
        if (b == 0)
            continue;
        bytesSoFar += b;
        const qint64 t = TokenEstimate::tokensForBytes(bytesSoFar);
        c.m_tokens[size_t(part)] = t - tokensSoFar;
        tokensSoFar = t;
    }
    c.m_tokens[size_t(Part::SystemPrompt)] += estimate.overheadTokens();
    c.m_tokens[size_t(Part::ToolSchemas)] += estimate.toolSchemaTokens();
    c.m_tokens[size_t(Part::Reserved)] += estimate.reservedOutput();
    c.m_window = std::max<qint64>(0, estimate.contextWindow());
    c.m_tokens[size_t(Part::Free)] = std::max<qint64>(0, c.m_window - c.used());
    return c;
}

ViewComposition ViewComposition::of(const ContextView &view, const TokenEstimate &estimate)
{
    return of(bytesOf(view), estimate);
}

qint64 ViewComposition::used() const
{
    qint64 sum = 0;
    for (Part part : kParts)
        if (part != Part::Free)
            sum += tokens(part);
    return sum;
}

qint64 ViewComposition::overflow() const
{
    return m_window > 0 ? std::max<qint64>(0, used() - m_window) : 0;
}

double ViewComposition::share(Part part) const
{
    return m_window > 0 ? double(tokens(part)) / double(m_window) : 0.0;
}

} // namespace wl
