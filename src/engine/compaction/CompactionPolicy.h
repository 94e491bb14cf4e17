#pragma once

#include "CompactionStrategy.h"
#include "Tier.h"

#include <QJsonObject>
#include <QString>

#include <array>

namespace wl {

// Every live-tunable compaction setting (docs/COMPACTION.md section 3), with the spec's defaults.
struct CompactionPolicy
{
    qint64 contextWindow = 128000;   // <= 0 means "never compact"
    double warn = 0.60;
    double soft = 0.70;
    double full = 0.80;
    double emergency = 0.95;
    int tailMessages = 6;
    qint64 offloadAtToolTime = 10000;    // gate 1, bytes
    qint64 offloadAtCompaction = 4000;   // gate 2, bytes
    int previewLinesToolTime = 20;
    int previewLinesCompaction = 10;
    int summaryTimeoutMs = 60000;
    qint64 reservedOutput = 0;           // tokens
    bool countToolSchemas = true;
    // A Soft or Full summary waits for the user's review before it commits (issue #22 item 7).
    // Not a rule of the replay: the what-if replay never waits.
    bool reviewSummaries = false;
    CompactionStrategy strategy = CompactionStrategy::Summarise;

    // Empty when valid, else a translated message naming the first bad field.
    QString validate() const;
    bool isValid() const { return validate().isEmpty(); }

    // From the most urgent tier down; a ratio equal to a threshold falls in the higher tier.
    Tier tierFor(double ratio) const;
    double threshold(Tier tier) const; // 0 for None
    // The four thresholds by index: 0 warn, 1 soft, 2 full, 3 emergency (any other: emergency).
    double &thresholdAt(int which);
    double thresholdAt(int which) const { return const_cast<CompactionPolicy *>(this)->thresholdAt(which); }
    // The ratio a tier's masking must get below for no summary to follow (docs/COMPACTION.md
    // section 4): Soft and Full their own threshold, Emergency `full` (as its offloads aim); 0 otherwise.
    double maskTarget(Tier tier) const;

    QJsonObject toJson() const;
    // Missing keys keep their defaults; a key of the wrong type or an invalid result is an error naming the field.
    static bool fromJson(const QJsonObject &object, CompactionPolicy *policy, QString *error = nullptr);

    friend bool operator==(const CompactionPolicy &, const CompactionPolicy &) = default;
};

// The one rule both policy forms (Settings > Compaction and the Thresholds dock) keep a policy's
// thresholds in order by, 0 < warn <= soft <= full <= emergency <= 1, with where the user last set
// each one: a neighbour in the way is pushed along, and one pushed before goes back towards where
// it was set as far as the order allows.
class ThresholdOrder
{
public:
    // Each threshold as `policy` has it is where it was set.
    void reset(const CompactionPolicy &policy);
    // Threshold `which` (CompactionPolicy::thresholdAt) of `policy` set to `value`, clamped to
    // [0.001, 1], and the others put in order as above.
    void set(CompactionPolicy &policy, int which, double value);

private:
    std::array<double, 4> m_wanted{0.60, 0.70, 0.80, 0.95};
};

} // namespace wl
