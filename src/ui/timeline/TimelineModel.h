#pragma once

#include "compaction/Tier.h"

#include <QAbstractTableModel>
#include <QList>

#include <cmath>
#include <limits>

namespace wl {

// One LLM request of a session as the timeline draws it. Ratios are fractions of the context window.
struct TimelineRow
{
    int requestIndex = 0;
    double historyRatio = 0;   // the whole history, had nothing been compacted
    double sentRatio = 0;      // the view actually sent
    double reportedRatio = std::numeric_limits<double>::quiet_NaN(); // provider-reported input, NaN when unknown
    Tier tier = Tier::None;    // the compaction that ran before this request
    QString recordId;          // empty when no record
    QString recordSummary;     // tooltip text: tier, before -> after, anchors, offloads, duration, error
    QString sourceCompaction;  // the SOURCE agent compacted before this request (imports): what it said, else empty
};

// The what-if replay's outcome for one request.
struct WhatIfRow
{
    double ratioAfter = 0;
    Tier tier = Tier::None;
};

struct TimelineThresholds
{
    double warn = 0.60, soft = 0.70, full = 0.80, emergency = 0.95;
    friend bool operator==(const TimelineThresholds &, const TimelineThresholds &) = default;
};

// Rows are requests; the chart observes this model (painting stays in the view).
class TimelineModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { RequestColumn, HistoryColumn, SentColumn, ReportedColumn, TierColumn, WhatIfColumn, WhatIfTierColumn, ColumnCount };
    enum Role { RatioRole = Qt::UserRole + 1, TierRole, RecordIdRole, SummaryRole };

    explicit TimelineModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setRecorded(const QList<TimelineRow> &rows);
    // What-if rows align with recorded rows by position; an empty list clears the what-if curve.
    void setWhatIf(const QList<WhatIfRow> &rows);
    void setThresholds(const TimelineThresholds &thresholds);

    const QList<TimelineRow> &recorded() const { return m_rows; }
    const QList<WhatIfRow> &whatIf() const { return m_whatIf; }
    const TimelineThresholds &thresholds() const { return m_thresholds; }

    // Comma-separated, one line per request, header first; ratios as fractions.
    QString toCsv() const;

Q_SIGNALS:
    void thresholdsChanged();
    // A what-if replay's rows arrived (after the columns' dataChanged): one per replay at most.
    void whatIfChanged();

private:
    QList<TimelineRow> m_rows;
    QList<WhatIfRow> m_whatIf;
    TimelineThresholds m_thresholds;
};

} // namespace wl
