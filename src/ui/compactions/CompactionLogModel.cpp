#include "CompactionLogModel.h"

#include "TierStyle.h"

#include <QJsonDocument>
#include <QLocale>

#include <numeric>

using namespace Qt::StringLiterals;

namespace wl {

CompactionLogModel::CompactionLogModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int CompactionLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_records.size());
}

int CompactionLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

static QString summarizerLabel(const CompactionRecord &r)
{
    switch (r.summarizerStep) {
    case SummarizerStep::None: return QString();
    case SummarizerStep::Configured: return CompactionLogModel::tr("summariser model %1").arg(r.summarizerModel).trimmed();
    case SummarizerStep::MainModel: return CompactionLogModel::tr("main model %1").arg(r.summarizerModel).trimmed();
    case SummarizerStep::Extractive: return CompactionLogModel::tr("extractive (no LLM)");
    }
    return QString();
}

QVariant CompactionLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CompactionRecord &r = m_records.at(index.row());
    const QLocale locale;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn: return locale.toString(r.timestamp.toLocalTime(), QLocale::ShortFormat);
        case RequestColumn: return r.requestIndex;
        case TierColumn: return r.changed ? tierDisplayName(r.tier) : tr("%1 (no change)").arg(tierDisplayName(r.tier));
        case TokensColumn: return tr("%1 → %2").arg(locale.toString(r.tokensBefore), locale.toString(r.tokensAfter));
        case RatioColumn: return locale.toString(r.compressionRatio, 'f', 2);
        case DurationColumn: return tr("%1 ms").arg(locale.toString(r.durationMs));
        case SummarizerColumn: return summarizerLabel(r);
        case ErrorColumn: return r.error.section(u'\n', 0, 0);
        }
        break;
    case SortRole:
        switch (index.column()) {
        case TimeColumn: return r.timestamp;
        case RequestColumn: return r.requestIndex;
        case TierColumn: return int(r.tier);
        case TokensColumn: return r.tokensBefore;
        case RatioColumn: return r.compressionRatio;
        case DurationColumn: return r.durationMs;
        case SummarizerColumn: return int(r.summarizerStep);
        case ErrorColumn: return r.error;
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == ErrorColumn && !r.error.isEmpty())
            return r.error;
        return tr("%1 tier before request %2: %3 → %4 tokens, %5 → %6 messages, %7 summarised, %8 offloaded")
            .arg(tierDisplayName(r.tier)).arg(r.requestIndex).arg(r.tokensBefore).arg(r.tokensAfter)
            .arg(r.msgsBefore).arg(r.msgsAfter).arg(r.summarized).arg(r.offloaded.size());
    case Qt::DecorationRole:
        if (index.column() == TierColumn)
            return tierColor(r.tier);
        break;
    case Qt::ForegroundRole:
        if (index.column() == ErrorColumn && !r.error.isEmpty())
            return QColor(0xc5, 0x30, 0x30);
        break;
    case TierRole:
        return int(r.tier);
    case RecordIdRole:
        return r.id;
    }
    return {};
}

QVariant CompactionLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn: return tr("Time");
    case RequestColumn: return tr("Request");
    case TierColumn: return tr("Tier");
    case TokensColumn: return tr("Tokens before → after");
    case RatioColumn: return tr("After / before");
    case DurationColumn: return tr("Duration");
    case SummarizerColumn: return tr("Summariser");
    case ErrorColumn: return tr("Error");
    }
    return {};
}

void CompactionLogModel::setRecords(const QList<CompactionRecord> &records)
{
    beginResetModel();
    m_records = records;
    endResetModel();
}

void CompactionLogModel::appendRecord(const CompactionRecord &record)
{
    const int row = int(m_records.size());
    beginInsertRows({}, row, row);
    m_records.append(record);
    endInsertRows();
}

int CompactionLogModel::rowForRecord(const QString &recordId) const
{
    for (qsizetype i = 0; i < m_records.size(); ++i)
        if (m_records.at(i).id == recordId)
            return int(i);
    return -1;
}

QByteArray CompactionLogModel::toJsonl(const QList<int> &rows) const
{
    QByteArray out;
    auto add = [&](const CompactionRecord &r) { out += QJsonDocument(r.toJson()).toJson(QJsonDocument::Compact) + '\n'; };
    for (int row : rows)
        add(m_records.at(row));
    return out;
}

QList<int> CompactionLogModel::allRows() const
{
    QList<int> rows(m_records.size());
    std::iota(rows.begin(), rows.end(), 0);
    return rows;
}

QByteArray CompactionLogModel::toCsv(const QList<int> &rows) const
{
    auto quote = [](QString s) {
        if (s.contains(u',') || s.contains(u'"') || s.contains(u'\n'))
            s = u'"' + s.replace(u'"', u"\"\""_s) + u'"';
        return s;
    };
    QString out = u"id,timestamp,request_index,tier,changed,tokens_before,tokens_after,msgs_before,msgs_after,"
                                 "compression_ratio,duration_ms,summarizer,summarized,offloaded,error\n"_s;
    auto add = [&](const CompactionRecord &r) {
        out += QStringList{r.id, r.timestamp.toString(Qt::ISODateWithMs), QString::number(r.requestIndex), tierName(r.tier),
                           r.changed ? u"true"_s : u"false"_s,
                           QString::number(r.tokensBefore), QString::number(r.tokensAfter),
                           QString::number(r.msgsBefore), QString::number(r.msgsAfter),
                           QString::number(r.compressionRatio, 'f', 4), QString::number(r.durationMs),
                           summarizerStepName(r.summarizerStep), QString::number(r.summarized),
                           QString::number(r.offloaded.size()), quote(r.error)}
                   .join(u',')
            + u'\n';
    };
    for (int row : rows)
        add(m_records.at(row));
    return out.toUtf8();
}

CompactionTierFilter::CompactionTierFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(CompactionLogModel::SortRole);
}

void CompactionTierFilter::setTierVisible(Tier tier, bool visible)
{
    if (visible)
        m_mask |= 1u << int(tier);
    else
        m_mask &= ~(1u << int(tier));
    invalidateRowsFilter();
}

bool CompactionTierFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const int tier = sourceModel()->index(sourceRow, 0, sourceParent).data(CompactionLogModel::TierRole).toInt();
    return m_mask & (1u << tier);
}

} // namespace wl
