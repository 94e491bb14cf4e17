#include "RunScorer.h"

#include "compaction/Anchors.h"
#include "compaction/ContextView.h"
#include "compaction/TokenEstimate.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// The first body item (after the system prompt and the checkpoint): from there on, items are in
// history order.
qsizetype bodyStartOf(const QList<ViewItem> &items)
{
    qsizetype i = 0;
    while (i < items.size() && (items[i].kind == ViewItem::Kind::System || items[i].kind == ViewItem::Kind::Checkpoint))
        ++i;
    return i;
}

// How the view shows history message `index`: as it was, as its placeholder, or not at all.
ViewItem::Kind shownAs(const QList<ViewItem> &items, qsizetype bodyStart, qsizetype index, bool *shown)
{
    auto it = std::lower_bound(items.cbegin() + bodyStart, items.cend(), index,
                               [](const ViewItem &item, qsizetype i) { return item.sourceIndex < i; });
    for (; it != items.cend() && it->sourceIndex == index; ++it) {
        if (it->kind == ViewItem::Kind::Original || it->kind == ViewItem::Kind::Placeholder) {
            *shown = true;
            return it->kind;
        }
    }
    *shown = false;
    return ViewItem::Kind::Stub;
}

} // namespace

RunScorer::RunScorer(std::shared_ptr<const ScoreBasis> basis, CacheProtocol protocol, std::optional<Price> price)
    : m_basis(std::move(basis))
    , m_cache(protocol)
{
    m_score.priced = price.has_value();
    m_score.price = price.value_or(Price{});
    m_summarised.fill(-1, m_basis->facts.size());
}

std::function<void(const Simulator::Step &)> RunScorer::observer()
{
    return [this](const Simulator::Step &step) { observe(step); };
}

bool RunScorer::summarised(int fact, const Simulator::Step &step)
{
    const QList<Checkpoint> &checkpoints = step.overlays.checkpoints;
    if (checkpoints.isEmpty() || !step.view.hasCheckpoint())
        return false;
    const Checkpoint &cp = checkpoints.constLast();
    if (checkpoints.size() != m_checkpointCount || cp.coversUpToMessageId != m_checkpointCovers) {
        m_checkpointCount = checkpoints.size();
        m_checkpointCovers = cp.coversUpToMessageId;
        m_checkpointText = cp.text.isEmpty() ? formatAnchors(cp.anchors) + u'\n' + cp.summary : cp.text;
        m_summarised.fill(-1);
    }
    qint8 &flag = m_summarised[fact];
    if (flag < 0) {
        const QString &key = m_basis->facts[fact].key;
        // A long sentence counts when its start is there: anchors cut what they quote.
        constexpr qsizetype kQuoted = 60;
        flag = m_checkpointText.contains(key) || (key.size() > kQuoted && m_checkpointText.contains(QStringView(key).first(kQuoted)));
    }
    return flag > 0;
}

FactStatus RunScorer::statusOf(const Fact &fact, const Simulator::Step &step, qsizetype bodyStart)
{
    const QList<ViewItem> &items = step.view.items();
    const qsizetype end = step.view.historyEnd();
    const bool hasCheckpoint = step.view.hasCheckpoint() && !step.overlays.checkpoints.isEmpty();
    const qint64 coversUpTo = hasCheckpoint ? step.view.checkpointCoversUpTo() : 0;
    bool retrievable = false;
    // Newest first: the tail is where a fact most likely still is.
    auto it = std::lower_bound(fact.occurrences.cbegin(), fact.occurrences.cend(), end);
    while (it != fact.occurrences.cbegin()) {
        --it;
        const qsizetype index = *it;
        bool shown = false;
        const ViewItem::Kind kind = shownAs(items, bodyStart, index, &shown);
        if (shown && kind == ViewItem::Kind::Original)
            return FactStatus::Verbatim;
        if (shown && kind == ViewItem::Kind::Placeholder) {
            retrievable = true;
        } else if (!shown && hasCheckpoint && !retrievable) {
            // Behind the checkpoint: reachable when offloaded, since the checkpoint names the files.
            const qint64 id = step.history[index].id;
            retrievable = id <= coversUpTo && step.overlays.offloads.contains(id);
        }
    }
    if (summarised(int(&fact - m_basis->facts.constData()), step))
        return FactStatus::Summarised;
    return retrievable ? FactStatus::Retrievable : FactStatus::Lost;
}

void RunScorer::observe(const Simulator::Step &step)
{
    const int r = step.request;
    const QList<ViewItem> &items = step.view.items();
    const qsizetype bodyStart = bodyStartOf(items);

    CoverageCounts counts;
    for (int f : m_basis->needed.value(r)) {
        const Fact &fact = m_basis->facts[f];
        const FactStatus status = statusOf(fact, step, bodyStart);
        counts.add(status);
        if (status == FactStatus::Lost) {
            ++m_score.lostByKind[size_t(fact.kind)];
            m_score.lostFacts.append({r, f});
        }
    }
    m_score.coverage += counts;
    m_score.perRequest.append(counts);

    TokenCost cost = m_cache.next(items, step.fixedTokens);
    cost.output = m_basis->outputTokens.value(r);
    if (step.summaryReadTokens > 0) {
        // The summariser call that made this request's checkpoint: it read the summarised messages
        // (uncached) and wrote the checkpoint.
        TokenCost call;
        call.input = step.summaryReadTokens;
        if (bodyStart > 1 && items[1].kind == ViewItem::Kind::Checkpoint)
            call.output = TokenEstimate::tokensForBytes(items[1].bytes);
        m_score.summaries += call;
        m_score.cost += call;
        ++m_score.summaryCalls;
    }
    m_score.cost += cost;
    m_score.perRequestCost.append(cost);
}

} // namespace wl
