#include "SessionScoring.h"

#include "PriceTable.h"
#include "RecordedRun.h"

#include "whatif/ReplayInput.h"

namespace wl {

std::shared_ptr<const SessionScoring> SessionScoring::build(const ReplayInput &replay, const RecordedRun &recorded,
                                                            const QList<qint64> &reportedOutput, const PriceTable &prices,
                                                            const QString &model)
{
    auto scoring = std::make_shared<SessionScoring>();
    scoring->m_model = model.isEmpty() ? replay.model : model;
    const std::optional<PriceTable::Entry> entry = prices.lookup(scoring->m_model);
    scoring->m_protocol = entry ? entry->protocol : PriceTable::protocolFor(scoring->m_model);
    if (entry)
        scoring->m_price = entry->price;
    scoring->m_basis = ScoreBasis::build(replay.history, replay.requestEnds, replay.requestIndexes, reportedOutput);
    RunScorer scorer = scoring->scorer();
    recorded.replay(replay, scorer.observer());
    scoring->m_recorded = scorer.score();
    return scoring;
}

} // namespace wl
