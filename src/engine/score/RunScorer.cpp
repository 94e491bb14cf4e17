#include "RunScorer.h"

#include "compaction/ContextView.h"
#include "compaction/TokenEstimate.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// The first body item (after the system prompt, the pinned section and the checkpoint): from there
// on, items are in history order.
qsizetype bodyStartOf(const QList<ViewItem> &items)
{
    qsizetype i = 0;
    while (i < items.size()
           && (items[i].kind == ViewItem::Kind::System || items[i].kind == ViewItem::Kind::Checkpoint
               || items[i].kind == ViewItem::Kind::Pinned))
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

// The 4-character runs of a text, hashed to kGramBits bits (false positives only cost a search).
constexpr int kGramBits = 18;
constexpr quint32 kGramMask = (1u << kGramBits) - 1;

inline quint32 gramHash(const QChar *c)
{
    return ((quint32(c[0].unicode()) * 0x9E3779B1u) ^ (quint32(c[1].unicode()) * 0x85EBCA77u) ^ (quint32(c[2].unicode()) * 0xC2B2AE3Du)
            ^ (quint32(c[3].unicode()) * 0x27D4EB2Fu))
        >> (32 - kGramBits);
}

void addGrams(QStringView text, std::vector<quint64> &bits)
{
    const QChar *c = text.data();
    for (qsizetype i = 0; i + 4 <= text.size(); ++i) {
        const quint32 h = gramHash(c + i) & kGramMask;
        bits[h >> 6] |= quint64(1) << (h & 63);
    }
}

// False when some 4-character run of `needle` is not among `bits`: then the text does not hold it.
bool mayHold(const std::vector<quint64> &bits, QStringView needle)
{
    const QChar *c = needle.data();
    for (qsizetype i = 0; i + 4 <= needle.size(); ++i) {
        const quint32 h = gramHash(c + i) & kGramMask;
        if (!(bits[h >> 6] & (quint64(1) << (h & 63))))
            return false;
    }
    return true;
}

} // namespace

RunScorer::RunScorer(std::shared_ptr<const ScoreBasis> basis, CacheProtocol protocol, std::optional<Price> price)
    : m_basis(std::move(basis))
    , m_cache(protocol)
{
    m_score.priced = price.has_value();
    m_score.price = price.value_or(Price{});
    m_summarised.fill(-1, m_basis->facts.size());
    m_behind.resize(m_basis->facts.size());
    m_absentAfter.fill(-1, m_basis->facts.size());
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
        m_summarised.fill(-1);
        m_textBuilt = false;
    }
    qint8 &flag = m_summarised[fact];
    if (flag >= 0)
        return flag > 0;
    // A summary holds only what it read: the previous summary and messages of the view it was made
    // from. A token fact (whose occurrences list every message naming it) that an earlier summary
    // did not hold, and that no message after that summary's range names, is not in this one
    // either: no search. (A phrase may recur in messages its occurrences do not list.)
    const Fact &f = m_basis->facts[fact];
    qint64 &absent = m_absentAfter[fact];
    const qint64 covers = cp.coversUpToMessageId;
    const bool token = f.kind == Fact::Kind::Artifact || f.kind == Fact::Kind::Identifier;
    if (token && absent >= 0 && absent <= covers) {
        const QList<Message> &history = step.history;
        const auto next = std::upper_bound(f.occurrences.cbegin(), f.occurrences.cend(), absent,
                                           [&history](qint64 id, qsizetype i) { return id < history[i].id; });
        if (next == f.occurrences.cend() || *next >= step.view.historyEnd()) {
            absent = covers;
            flag = 0;
            return false;
        }
    }
    // Searched in the text a recorded checkpoint came with, its anchors and its summary (the
    // replay makes the text itself only on demand), in one string: one long search is much cheaper
    // than seven short ones.
    const QString &key = f.key;
    const QStringView needle = key.size() > kQuoted ? QStringView(key).first(kQuoted) : QStringView(key);
    if (!m_textBuilt) {
        qsizetype size = cp.text.size() + cp.summary.size() + 2;
        for (const QString &value : cp.anchors.values)
            size += value.size() + 1;
        m_text.clear();
        m_text.reserve(size);
        m_text += cp.text;
        m_text += u'\n';
        m_text += cp.summary;
        for (const QString &value : cp.anchors.values) {
            m_text += u'\n';
            m_text += value;
        }
        m_grams.assign(size_t(1) << (kGramBits - 6), 0);
        addGrams(m_text, m_grams);
        m_textBuilt = true;
    }
    flag = mayHold(m_grams, needle) && m_text.contains(needle);
    absent = flag ? -1 : covers;
    return flag > 0;
}

FactStatus RunScorer::statusOf(int f, const Simulator::Step &step, qsizetype bodyStart)
{
    const Fact &fact = m_basis->facts[f];
    const QList<ViewItem> &items = step.view.items();
    const qsizetype end = step.view.historyEnd();
    // History messages before the first body item are behind the checkpoint (or not shown at all).
    const qsizetype firstShown = bodyStart < items.size() ? items[bodyStart].sourceIndex : end;
    const QList<qsizetype> &occ = fact.occurrences;
    const qsizetype upTo = std::lower_bound(occ.cbegin(), occ.cend(), end) - occ.cbegin();
    const qsizetype behind = std::lower_bound(occ.cbegin(), occ.cbegin() + upTo, firstShown) - occ.cbegin();
    bool retrievable = false;
    // Newest first: the tail is where a fact most likely still is.
    for (qsizetype i = upTo - 1; i >= behind; --i) {
        bool shown = false;
        const ViewItem::Kind kind = shownAs(items, bodyStart, occ[i], &shown);
        if (shown && kind == ViewItem::Kind::Original)
            return FactStatus::Verbatim;
        retrievable = retrievable || (shown && kind == ViewItem::Kind::Placeholder);
    }
    if (summarised(f, step))
        return FactStatus::Summarised;
    if (!retrievable && behind > 0 && step.view.hasCheckpoint())
        retrievable = offloadedBehind(f, behind, step);
    return retrievable ? FactStatus::Retrievable : FactStatus::Lost;
}

bool RunScorer::offloadedBehind(int f, qsizetype behind, const Simulator::Step &step)
{
    // The first `behind` occurrences are behind the checkpoint, where offloads never change again:
    // each is looked at once per run, however many requests need the fact.
    BehindScan &scan = m_behind[f];
    if (behind < scan.scanned)
        scan = {}; // the view went back (a recorded run after an undo): look again
    const QList<qsizetype> &occ = m_basis->facts[f].occurrences;
    for (; !scan.offloaded && scan.scanned < behind; ++scan.scanned)
        scan.offloaded = step.overlays.offloads.contains(step.history[occ[scan.scanned]].id);
    return scan.offloaded;
}

void RunScorer::observe(const Simulator::Step &step)
{
    const int r = step.request;
    const QList<ViewItem> &items = step.view.items();
    const qsizetype bodyStart = bodyStartOf(items);

    CoverageCounts counts;
    for (int f : m_basis->needed.value(r)) {
        const Fact &fact = m_basis->facts[f];
        const FactStatus status = statusOf(f, step, bodyStart);
        counts.add(status);
        if (status == FactStatus::Lost) {
            ++m_score.lostByKind[size_t(fact.kind)];
            m_score.lostFacts.append({r, f});
        }
    }
    m_score.coverage += counts;
    m_score.perRequest.append(counts);

    TokenCost cost = m_cache.next(items, step.fixedTokens, step.view.bytes());
    cost.output = m_basis->outputTokens.value(r);
    if (step.summaryReadTokens > 0) {
        // The summariser call that made this request's checkpoint: it read the summarised messages
        // (uncached) and wrote the checkpoint.
        TokenCost call;
        call.input = step.summaryReadTokens;
        if (bodyStart > 1 && items[bodyStart - 1].kind == ViewItem::Kind::Checkpoint)
            call.output = TokenEstimate::tokensForBytes(items[bodyStart - 1].bytes);
        m_score.summaries += call;
        m_score.cost += call;
        ++m_score.summaryCalls;
    }
    m_score.cost += cost;
    m_score.perRequestCost.append(cost);
}

} // namespace wl
