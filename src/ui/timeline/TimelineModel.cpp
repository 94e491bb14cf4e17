#include "TimelineModel.h"

#include "compaction/TokenEstimate.h"

#include <QLocale>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

TimelineModel::TimelineModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int TimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TimelineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

static QString percent(double ratio)
{
    if (std::isnan(ratio))
        return QString();
    return QLocale().toString(ratio * 100.0, 'f', 1) + u'%';
}

QVariant TimelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TimelineRow &row = m_rows.at(index.row());
    const WhatIfRow *whatIf = index.row() < m_whatIf.size() ? &m_whatIf.at(index.row()) : nullptr;

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case RequestColumn: return row.requestIndex;
        case HistoryColumn: return percent(row.historyRatio);
        case SentColumn: return percent(row.sentRatio);
        case ReportedColumn: return percent(row.reportedRatio);
        case TierColumn: return row.tier == Tier::None ? QString() : tierDisplayName(row.tier);
        case WhatIfColumn: return whatIf ? percent(whatIf->ratioAfter) : QString();
        case WhatIfTierColumn: return whatIf && whatIf->tier != Tier::None ? tierDisplayName(whatIf->tier) : QString();
        }
        break;
    case RatioRole:
        switch (index.column()) {
        case HistoryColumn: return row.historyRatio;
        case SentColumn: return row.sentRatio;
        case ReportedColumn: return std::isnan(row.reportedRatio) ? QVariant() : QVariant(row.reportedRatio);
        case WhatIfColumn: return whatIf ? QVariant(whatIf->ratioAfter) : QVariant();
        }
        break;
    case TierRole:
        if (index.column() == WhatIfTierColumn)
            return whatIf ? QVariant(int(whatIf->tier)) : QVariant();
        return int(row.tier);
    case RecordIdRole:
        return row.recordId;
    case SummaryRole:
    case Qt::ToolTipRole: {
        QString text = row.recordSummary;
        if (!row.sourceCompaction.isEmpty())
            text += (text.isEmpty() ? QString() : u"\n"_s) + row.sourceCompaction;
        return text.isEmpty() ? QVariant() : QVariant(text);
    }
    case Qt::TextAlignmentRole:
        return index.column() == TierColumn || index.column() == WhatIfTierColumn
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case RequestColumn: return tr("Request");
    case HistoryColumn: return tr("Full history");
    case SentColumn: return tr("Sent");
    case ReportedColumn: return tr("Reported");
    case TierColumn: return tr("Tier");
    case WhatIfColumn: return tr("What-if");
    case WhatIfTierColumn: return tr("What-if tier");
    }
    return {};
}

void TimelineModel::setRecorded(const QList<TimelineRow> &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

void TimelineModel::setRecorded(const QList<TimelineRow> &rows, qint64 window)
{
    m_recordedWindow = std::max<qint64>(window, 0);
    setRecorded(rows);
}

void TimelineModel::setWhatIf(const QList<WhatIfRow> &rows)
{
    setWhatIf(rows, m_recordedWindow);
}

void TimelineModel::setWhatIf(const QList<WhatIfRow> &rows, qint64 window)
{
    m_whatIf = rows;
    m_whatIfWindow = window == kUnknownWindow ? window : std::max<qint64>(window, 0);
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, WhatIfColumn), index(int(m_rows.size()) - 1, WhatIfTierColumn));
    Q_EMIT whatIfChanged();
}

void TimelineModel::setThresholds(const TimelineThresholds &thresholds)
{
    if (m_thresholds == thresholds)
        return;
    m_thresholds = thresholds;
    Q_EMIT thresholdsChanged();
}

qint64 TimelineModel::referenceWindow() const
{
    return !m_whatIf.isEmpty() && m_whatIfWindow > 0 ? m_whatIfWindow : m_recordedWindow;
}

bool TimelineModel::whatIfAtOtherWindow() const
{
    return !m_whatIf.isEmpty() && m_whatIfWindow != m_recordedWindow && m_whatIfWindow != kUnknownWindow
        && m_recordedWindow != kUnknownWindow;
}

TimelineScale TimelineModel::effectiveScale(TimelineScale wanted) const
{
    return referenceWindow() == 0 ? TimelineScale::Tokens : wanted;
}

namespace {
// A count given only as a ratio, back in tokens: the ratio was tokens divided by the window.
qint64 tokensOf(qint64 given, double ratio, qint64 window)
{
    if (given >= 0)
        return given;
    return window > 0 && !std::isnan(ratio) ? std::llround(ratio * double(window)) : -1;
}
} // namespace

qint64 TimelineModel::tokens(TimelineSeries series, int row) const
{
    if (row < 0 || row >= m_rows.size())
        return -1;
    const TimelineRow &r = m_rows.at(row);
    switch (series) {
    case TimelineSeries::History: return tokensOf(r.historyTokens, r.historyRatio, m_recordedWindow);
    case TimelineSeries::Sent: return tokensOf(r.sentTokens, r.sentRatio, m_recordedWindow);
    case TimelineSeries::Reported: return tokensOf(r.reportedTokens, r.reportedRatio, m_recordedWindow);
    case TimelineSeries::WhatIf:
        if (row >= m_whatIf.size())
            return -1;
        return tokensOf(m_whatIf.at(row).tokens, m_whatIf.at(row).ratioAfter, m_whatIfWindow);
    }
    return -1;
}

double TimelineModel::value(TimelineSeries series, int row, TimelineScale scale) const
{
    constexpr double none = std::numeric_limits<double>::quiet_NaN();
    if (row < 0 || row >= m_rows.size())
        return none;
    if (effectiveScale(scale) == TimelineScale::Tokens) {
        const qint64 count = tokens(series, row);
        return count >= 0 ? double(count) : none;
    }
    const TimelineRow &r = m_rows.at(row);
    double ratio = none;
    qint64 window = m_recordedWindow;
    switch (series) {
    case TimelineSeries::History: ratio = r.historyRatio; break;
    case TimelineSeries::Sent: ratio = r.sentRatio; break;
    case TimelineSeries::Reported: ratio = r.reportedRatio; break;
    case TimelineSeries::WhatIf:
        if (row >= m_whatIf.size())
            return none;
        ratio = m_whatIf.at(row).ratioAfter;
        window = m_whatIfWindow;
        break;
    }
    // A ratio of another window is rescaled through its tokens, with the engine's one division.
    const qint64 reference = referenceWindow();
    if (window != reference && reference > 0) {
        const qint64 count = tokens(series, row);
        if (count >= 0)
            return TokenEstimate::ratioFor(count, reference) * 100.0;
    }
    return std::isnan(ratio) ? none : ratio * 100.0;
}

ViewComposition TimelineModel::composition(int row) const
{
    if (row < 0 || row >= m_rows.size())
        return {};
    if (compositionIsWhatIf())
        return row < m_whatIf.size() ? m_whatIf.at(row).composition : ViewComposition();
    return m_rows.at(row).composition;
}

double TimelineModel::compositionTop(int row, ViewComposition::Part part, TimelineScale scale) const
{
    const ViewComposition c = composition(row);
    if (c.isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    qint64 top = 0;
    for (ViewComposition::Part p : ViewComposition::kParts) {
        top += c.tokens(p);
        if (p == part)
            break;
    }
    if (effectiveScale(scale) == TimelineScale::Tokens)
        return double(top);
    return TokenEstimate::ratioFor(top, referenceWindow()) * 100.0;
}

double TimelineModel::thresholdValue(double fraction, TimelineScale scale) const
{
    if (effectiveScale(scale) == TimelineScale::Percent)
        return fraction * 100.0;
    const qint64 reference = referenceWindow();
    return reference > 0 ? fraction * double(reference) : std::numeric_limits<double>::quiet_NaN();
}

QString TimelineModel::toCsv() const
{
    auto num = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'f', 6); };
    QString out = u"request,history_ratio,sent_ratio,reported_ratio,tier,record_id,whatif_ratio,whatif_tier\n"_s;
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        const TimelineRow &r = m_rows.at(i);
        const bool hasWhatIf = i < m_whatIf.size();
        out += QString::number(r.requestIndex) + u',' + num(r.historyRatio) + u',' + num(r.sentRatio) + u','
            + num(r.reportedRatio) + u',' + tierName(r.tier) + u',' + r.recordId + u','
            + (hasWhatIf ? num(m_whatIf.at(i).ratioAfter) : QString()) + u','
            + (hasWhatIf ? tierName(m_whatIf.at(i).tier) : QString()) + u'\n';
    }
    return out;
}

} // namespace wl
