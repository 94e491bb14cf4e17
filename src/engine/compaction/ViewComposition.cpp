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

const char *ViewComposition::partKey(Part part)
{
    switch (part) {
    case Part::SystemPrompt: return "system_prompt";
    case Part::ToolSchemas: return "tool_schemas";
    case Part::Overhead: return "overhead";
    case Part::Checkpoint: return "checkpoint";
    case Part::Pinned: return "pinned";
    case Part::History: return "history";
    case Part::Offloaded: return "offloaded";
    case Part::Calibration: return "calibration";
    case Part::Reserved: return "reserved";
    case Part::Free: return "free";
    }
    return "history";
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
    for (const ViewItem &item : view.items()) {
        out.add(partOf(item), item.bytes);
        if (item.kind == ViewItem::Kind::Original || item.kind == ViewItem::Kind::Placeholder)
            ++out.viewMessages;
    }
    out.historyMessages = view.historyEnd();
    return out;
}

namespace {
// The parts a view has at most one item of: each takes exactly its item's tokens.
bool isOneItem(ViewComposition::Part part)
{
    using Part = ViewComposition::Part;
    return part == Part::SystemPrompt || part == Part::Checkpoint || part == Part::Pinned;
}
} // namespace

ViewComposition ViewComposition::of(const ViewBytes &view, const TokenEstimate &estimate)
{
    ViewComposition c;
    // The one-item parts first, each divided on its own; then the parts of many items share what
    // the whole view's division leaves (a running sum), so the view's parts add up to
    // tokensForBytes(total), as the estimate counts the view before its calibration.
    qint64 bytesSoFar = 0;
    qint64 tokensSoFar = 0;
    Part largestOneItem = Part::SystemPrompt;
    for (Part part : kParts) {
        const qint64 b = view.bytes[size_t(part)];
        if (b == 0 || !isOneItem(part))
            continue;
        bytesSoFar += b;
        c.m_tokens[size_t(part)] = TokenEstimate::tokensForBytes(b);
        tokensSoFar += c.m_tokens[size_t(part)];
        if (b > view.bytes[size_t(largestOneItem)])
            largestOneItem = part;
    }
    bool anyMany = false;
    for (Part part : kParts) {
        const qint64 b = view.bytes[size_t(part)];
        if (b == 0 || isOneItem(part))
            continue;
        anyMany = true;
        bytesSoFar += b;
        const qint64 t = TokenEstimate::tokensForBytes(bytesSoFar);
        c.m_tokens[size_t(part)] = t - tokensSoFar;
        tokensSoFar = t;
    }
    // A view of one-item parts only: what their separate divisions left goes to the largest.
    if (!anyMany)
        c.m_tokens[size_t(largestOneItem)] += TokenEstimate::tokensForBytes(bytesSoFar) - tokensSoFar;
    const qint64 ruleTokens = TokenEstimate::tokensForBytes(view.total());
    c.m_tokens[size_t(Part::Calibration)] = estimate.scaled(ruleTokens) - ruleTokens;
    c.m_tokens[size_t(Part::Overhead)] = estimate.overheadTokens();
    c.m_tokens[size_t(Part::ToolSchemas)] = estimate.toolSchemaTokens();
    c.m_tokens[size_t(Part::Reserved)] = estimate.reservedOutput();
    c.m_window = std::max<qint64>(0, estimate.contextWindow());
    c.m_tokens[size_t(Part::Free)] = std::max<qint64>(0, c.m_window - c.used());
    c.m_viewMessages = view.viewMessages;
    c.m_historyMessages = view.historyMessages;
    return c;
}

ViewComposition ViewComposition::of(const ContextView &view, const TokenEstimate &estimate)
{
    return of(bytesOf(view), estimate);
}

double ViewComposition::ratio() const
{
    return TokenEstimate::ratioFor(used(), m_window);
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
