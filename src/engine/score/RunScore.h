#pragma once

#include "CostModel.h"
#include "Fact.h"

#include <QJsonObject>
#include <QList>

#include <array>
#include <memory>

namespace wl {

struct Message;

// What scoring needs of one recorded session, worked out once and shared by every run over it
// (the recorded run and each replay): its facts, the facts each request needed, each answer's
// output tokens.
struct ScoreBasis
{
    QList<Fact> facts;
    QList<QList<int>> needed;    // per request: fact indexes its answer used
    QList<qint64> outputTokens;  // per request: reported output tokens, else the estimate of its answer
    QList<int> requestIndexes;   // per request: the index it is shown by

    // `reportedOutput[r] < 0` (or missing): not reported.
    static std::shared_ptr<const ScoreBasis> build(const QList<Message> &history, const QList<qsizetype> &requestEnds,
                                                   const QList<int> &requestIndexes, const QList<qint64> &reportedOutput);
};

// Where a needed fact stood in the view of the request that needed it.
enum class FactStatus { Verbatim, Summarised, Retrievable, Lost };

struct CoverageCounts
{
    int needed = 0;
    int verbatim = 0;
    int summarised = 0;
    int retrievable = 0;
    int lost = 0;

    // (verbatim + summarised + retrievable) / needed; 1 when nothing was needed.
    double coverage() const { return needed > 0 ? double(needed - lost) / needed : 1.0; }
    void add(FactStatus status);
    CoverageCounts &operator+=(const CoverageCounts &other);
};

struct LostFact
{
    int request = 0; // position in the run (ScoreBasis::requestIndexes names it)
    int fact = 0;    // index in ScoreBasis::facts
};

// The score of one run (recorded or replayed): coverage of the needed facts and the cost.
struct RunScore
{
    CoverageCounts coverage;
    std::array<int, kFactKindCount> lostByKind{};
    QList<LostFact> lostFacts;
    QList<CoverageCounts> perRequest;
    TokenCost cost;               // requests and summariser calls
    QList<TokenCost> perRequestCost;
    TokenCost summaries;          // the summariser calls alone (part of `cost`)
    int summaryCalls = 0;
    Price price;
    bool priced = false;          // false: the model has no price (usd is 0)

    // {"coverage", "needed", "verbatim", "summarised", "retrievable", "lost",
    //  "lost_by_kind": {...}, "lost_facts": [{"request", "kind", "text"}], "cost": {...}}
    QJsonObject toJson(const ScoreBasis &basis) const;
};

} // namespace wl
