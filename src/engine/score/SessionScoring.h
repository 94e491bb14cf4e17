#pragma once

#include "CostModel.h"
#include "RunScore.h"
#include "RunScorer.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace wl {

class PriceTable;
struct RecordedRun;
struct ReplayInput;

// What scoring any run over one session needs and no policy changes: the facts and the ones each
// request needed, the recorded run's own score, and the price of the model. Built once per
// session (seconds on a long one: a worker thread); then every replay gets a scorer() to feed as
// the simulator's observer, on any thread.
class SessionScoring
{
public:
    // `recorded`: the views the session really sent (RecordedRun::fromStored or fromImport);
    // `reportedOutput`: per request the output tokens the provider reported (-1: not reported);
    // `model`: priced as this model (empty: the session's own).
    static std::shared_ptr<const SessionScoring> build(const ReplayInput &replay, const RecordedRun &recorded,
                                                       const QList<qint64> &reportedOutput, const PriceTable &prices,
                                                       const QString &model = {});

    const ScoreBasis &basis() const { return *m_basis; }
    const RunScore &recorded() const { return m_recorded; }
    const QString &model() const { return m_model; }
    CacheProtocol protocol() const { return m_protocol; }
    const std::optional<Price> &price() const { return m_price; }

    // A fresh scorer for one replay of this session.
    RunScorer scorer() const { return RunScorer(m_basis, m_protocol, m_price); }

private:
    std::shared_ptr<const ScoreBasis> m_basis;
    RunScore m_recorded;
    QString m_model;
    CacheProtocol m_protocol = CacheProtocol::OpenAi;
    std::optional<Price> m_price;
};

} // namespace wl
