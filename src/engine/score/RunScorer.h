#pragma once

#include "RunScore.h"

#include "whatif/Simulator.h"

#include <QList>
#include <QString>

#include <memory>
#include <vector>

namespace wl {

// Scores one run request by request, in the same pass that makes its views: hand observe() every
// request's step (Simulator::Input::observer for a replay, RecordedRun for the recorded views).
// Each needed fact of the request is verbatim (a message of the view that holds it is shown as
// it was), summarised (the view's checkpoint holds it in its anchors or summary), retrievable (a
// message that holds it is offloaded and its placeholder, or the checkpoint listing the offloads,
// is in the view) or lost.
class RunScorer
{
public:
    // A long key (an instruction) counts as summarised when its first kQuoted characters are there:
    // anchors cut what they quote.
    static constexpr qsizetype kQuoted = 60;

    RunScorer(std::shared_ptr<const ScoreBasis> basis, CacheProtocol protocol, std::optional<Price> price);

    void observe(const Simulator::Step &step);
    // A callable for Simulator::Input::observer that feeds this scorer (which must outlive the run).
    std::function<void(const Simulator::Step &)> observer();

    const RunScore &score() const { return m_score; }
    const ScoreBasis &basis() const { return *m_basis; }

private:
    FactStatus statusOf(int fact, const Simulator::Step &step, qsizetype bodyStart);
    bool summarised(int fact, const Simulator::Step &step);
    bool offloadedBehind(int fact, qsizetype behind, const Simulator::Step &step);

    std::shared_ptr<const ScoreBasis> m_basis;
    PromptCache m_cache;
    RunScore m_score;
    // The checkpoint the summarised flags are for, and the flags (-1 not yet looked at).
    qsizetype m_checkpointCount = -1;
    qint64 m_checkpointCovers = -1;
    QList<qint8> m_summarised;
    // Per fact: the range (last message id) of a checkpoint known not to hold it, -1 for none.
    QList<qint64> m_absentAfter;
    QString m_text; // the checkpoint's text, anchors and summary in one, made on its first search
    bool m_textBuilt = false;
    // Every 4-character run of m_text, hashed into a bit set: a key with a run that is not there is
    // not in the text, with no search (most keys a checkpoint does not hold are turned away so).
    std::vector<quint64> m_grams;
    // Per fact: how many of its occurrences behind the checkpoint were looked at, and whether one
    // of them is offloaded.
    struct BehindScan
    {
        qsizetype scanned = 0;
        bool offloaded = false;
    };
    QList<BehindScan> m_behind;
};

} // namespace wl
