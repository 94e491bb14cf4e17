#include "RunScore.h"

#include "FactExtractor.h"
#include "NeededFacts.h"
#include "compaction/TokenEstimate.h"
#include "model/Message.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace wl {

std::shared_ptr<const ScoreBasis> ScoreBasis::build(const QList<Message> &history, const QList<qsizetype> &requestEnds,
                                                    const QList<int> &requestIndexes, const QList<qint64> &reportedOutput)
{
    auto basis = std::make_shared<ScoreBasis>();
    basis->facts = FactExtractor::extract(history);
    basis->needed = NeededFacts::compute(history, basis->facts, requestEnds);
    for (qsizetype r = 0; r < requestEnds.size(); ++r) {
        qint64 output = reportedOutput.value(r, -1);
        if (output < 0) {
            qint64 bytes = 0;
            for (qsizetype i : NeededFacts::answerMessages(history, requestEnds, r))
                bytes += history[i].byteCount();
            output = TokenEstimate::tokensForBytes(bytes);
        }
        basis->outputTokens.append(output);
        basis->requestIndexes.append(requestIndexes.value(r, int(r)));
    }
    return basis;
}

void CoverageCounts::add(FactStatus status)
{
    ++needed;
    switch (status) {
    case FactStatus::Verbatim:
        ++verbatim;
        break;
    case FactStatus::Summarised:
        ++summarised;
        break;
    case FactStatus::Retrievable:
        ++retrievable;
        break;
    case FactStatus::Lost:
        ++lost;
        break;
    }
}

CoverageCounts &CoverageCounts::operator+=(const CoverageCounts &other)
{
    needed += other.needed;
    verbatim += other.verbatim;
    summarised += other.summarised;
    retrievable += other.retrievable;
    lost += other.lost;
    return *this;
}

QJsonObject RunScore::toJson(const ScoreBasis &basis) const
{
    QJsonArray lost;
    for (const LostFact &l : lostFacts) {
        const Fact &f = basis.facts[l.fact];
        lost.append(QJsonObject{{u"request"_s, basis.requestIndexes.value(l.request, l.request)},
                                {u"kind"_s, factKindName(f.kind)},
                                {u"text"_s, f.text}});
    }
    QJsonObject byKind;
    for (int k = 0; k < kFactKindCount; ++k)
        byKind.insert(factKindName(Fact::Kind(k)), lostByKind[size_t(k)]);
    QJsonObject costJson = cost.toJson(price);
    costJson.insert(u"priced"_s, priced);
    costJson.insert(u"summary_calls"_s, summaryCalls);
    return QJsonObject{
        {u"coverage"_s, coverage.coverage()},
        {u"needed"_s, coverage.needed},
        {u"verbatim"_s, coverage.verbatim},
        {u"summarised"_s, coverage.summarised},
        {u"retrievable"_s, coverage.retrievable},
        {u"lost"_s, coverage.lost},
        {u"lost_by_kind"_s, byKind},
        {u"lost_facts"_s, lost},
        {u"cost"_s, costJson},
    };
}

} // namespace wl
