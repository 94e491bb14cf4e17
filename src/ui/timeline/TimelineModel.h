#pragma once

#include "TimelineScale.h"
#include "compaction/Tier.h"
#include "compaction/ViewComposition.h"

#include <QAbstractTableModel>
#include <QList>

#include <cmath>
#include <limits>

namespace wl {

// One LLM request of a session as the timeline draws it. Ratios are fractions of the session's
// context window (TimelineModel::recordedWindow()); the token counts are what the ratios divide by it.
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
    // The same three counts in tokens; -1 when not given (then the ratio times the window).
    qint64 historyTokens = -1;
    qint64 sentTokens = -1;
    qint64 reportedTokens = -1;
    ViewComposition composition; // what filled the window of the view sent, by category
};

// The what-if replay's outcome for one request.
struct WhatIfRow
{
    double ratioAfter = 0;     // of the what-if's own window (TimelineModel::whatIfWindow())
    Tier tier = Tier::None;
    qint64 tokens = -1;        // what the ratio counts, in tokens; -1 when not given (then ratio times window)
    // What the compaction did to the view (when tier is not None), as a record counts it.
    qint64 viewTokensBefore = 0;
    qint64 viewTokensAfter = 0;
    int summarized = 0;
    int offloaded = 0;
    int lostFacts = -1;        // facts this request's answer used that its view had lost; -1: not scored
    ViewComposition composition; // what filled the what-if's window, by category
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

    void setRecorded(const QList<TimelineRow> &rows);   // at the window set before
    // `window`: the session's context window in tokens, which the rows' ratios are fractions of
    // (<= 0: none, the ratios are then 0 and only tokens mean something).
    void setRecorded(const QList<TimelineRow> &rows, qint64 window);
    // What-if rows align with recorded rows by position; an empty list clears the what-if curve.
    // Without a window, the replay ran at the recorded one.
    void setWhatIf(const QList<WhatIfRow> &rows);
    void setWhatIf(const QList<WhatIfRow> &rows, qint64 window);
    void setThresholds(const TimelineThresholds &thresholds);

    const QList<TimelineRow> &recorded() const { return m_rows; }
    const QList<WhatIfRow> &whatIf() const { return m_whatIf; }
    const TimelineThresholds &thresholds() const { return m_thresholds; }

    // Rows set without a window: their ratios are drawn as they are and nothing is rescaled.
    static constexpr qint64 kUnknownWindow = -1;
    qint64 recordedWindow() const { return m_recordedWindow; }
    qint64 whatIfWindow() const { return m_whatIfWindow; }
    // The one window every line is measured against in percent: the what-if's while a what-if
    // with a window is shown (its thresholds are the ones drawn), else the session's.
    qint64 referenceWindow() const;
    // A what-if is shown at a window other than the recorded one: in percent, the recorded lines
    // are rescaled to the what-if's window.
    bool whatIfAtOtherWindow() const;
    // Percent needs a window: with none (0) every line is in tokens.
    TimelineScale effectiveScale(TimelineScale wanted) const;

    // A line's point at `row` in tokens, -1 where the line has none.
    qint64 tokens(TimelineSeries series, int row) const;
    // A line's point at `row` on `scale` (percent of referenceWindow(), or tokens); NaN where the
    // line has none.
    double value(TimelineSeries series, int row, TimelineScale scale) const;
    // The composition view draws the what-if's requests while a what-if is shown, else the recorded ones.
    bool compositionIsWhatIf() const { return !m_whatIf.isEmpty(); }
    // What filled the window of the request at `row` as the composition view draws it.
    ViewComposition composition(int row) const;
    // The top of `part` in the stack at `row` (the parts below it and itself) on `scale`: percent
    // of referenceWindow(), or tokens. NaN where the row has no composition.
    double compositionTop(int row, ViewComposition::Part part, TimelineScale scale) const;

    // Where a threshold (a fraction of the reference window) lies on `scale`.
    double thresholdValue(double fraction, TimelineScale scale) const;

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
    qint64 m_recordedWindow = kUnknownWindow;
    qint64 m_whatIfWindow = kUnknownWindow;
};

} // namespace wl
