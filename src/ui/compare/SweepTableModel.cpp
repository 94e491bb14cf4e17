#include "SweepTableModel.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace wl {

SweepTableModel::SweepTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void SweepTableModel::setRows(QList<SweepRow> rows, int current)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_current = current >= 0 && current < m_rows.size() ? current : -1;
    endResetModel();
}

int SweepTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SweepTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SweepTableModel::label(int index) const
{
    const QString text = PolicyGrid::label(m_rows[index].settings);
    return index == m_current ? tr("current policy") : text.isEmpty() ? tr("base policy") : text;
}

QVariant SweepTableModel::sortValue(const SweepRow &r, int column, int index) const
{
    // Rows that did not run sort after the others by every figure (as the lowest value).
    const bool ran = r.problem.isEmpty();
    switch (column) {
    case PolicyColumn:
        return label(index);
    case CoverageColumn:
        return ran ? r.coverage.coverage() : -1.0;
    case LostColumn:
        return ran ? r.coverage.lost : -1;
    case UsdColumn:
        return ran ? r.costValue() : -1.0;
    case InputColumn:
        return ran ? r.cost.input : -1;
    case CacheReadColumn:
        return ran ? r.cost.cacheRead : -1;
    case CacheWriteColumn:
        return ran ? r.cost.cacheWrite : -1;
    case OutputColumn:
        return ran ? r.cost.output : -1;
    case PeakColumn:
        return ran ? r.peakRatio : -1.0;
    case SummariesColumn:
        return ran ? r.summaryCalls : -1;
    case ParetoColumn:
        return r.pareto ? 1 : 0;
    default:
        return {};
    }
}

QVariant SweepTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SweepRow &r = m_rows[index.row()];
    const int column = index.column();
    switch (role) {
    case SortRole:
        return sortValue(r, column, index.row());
    case ParetoRole:
        return r.pareto;
    case CurrentRole:
        return index.row() == m_current;
    case Qt::ToolTipRole:
        return r.problem.isEmpty() ? PolicyGrid::label(r.settings) : tr("Not run: %1").arg(r.problem);
    case Qt::TextAlignmentRole:
        return column == PolicyColumn ? int(Qt::AlignLeft | Qt::AlignVCenter) : int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const QLocale locale;
    if (column == PolicyColumn)
        return label(index.row());
    if (!r.problem.isEmpty())
        return column == CoverageColumn ? tr("not run") : QString();
    switch (column) {
    case CoverageColumn:
        return tr("%1 %").arg(locale.toString(r.coverage.coverage() * 100, 'f', 1));
    case LostColumn:
        return locale.toString(r.coverage.lost);
    case UsdColumn:
        return r.priced ? locale.toString(r.usd, 'f', 2) : tr("n/a");
    case InputColumn:
        return locale.toString(r.cost.input);
    case CacheReadColumn:
        return locale.toString(r.cost.cacheRead);
    case CacheWriteColumn:
        return locale.toString(r.cost.cacheWrite);
    case OutputColumn:
        return locale.toString(r.cost.output);
    case PeakColumn:
        return tr("%1 %").arg(locale.toString(r.peakRatio * 100, 'f', 1));
    case SummariesColumn:
        return locale.toString(r.summaryCalls);
    case ParetoColumn:
        return r.pareto ? tr("yes") : QString();
    default:
        return {};
    }
}

QVariant SweepTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case CoverageColumn:
            return tr("Needed facts the views kept: verbatim, summarised or retrievable");
        case UsdColumn:
            return tr("What the requests and summaries cost with prompt caching (n/a: a model has no price)");
        case PeakColumn:
            return tr("The highest share of the window a request sent, after compaction");
        case ParetoColumn:
            return tr("On the Pareto front: no other policy covers as much for less");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PolicyColumn: return tr("Policy");
    case CoverageColumn: return tr("Coverage");
    case LostColumn: return tr("Lost");
    case UsdColumn: return tr("US$");
    case InputColumn: return tr("Input");
    case CacheReadColumn: return tr("Cache read");
    case CacheWriteColumn: return tr("Cache write");
    case OutputColumn: return tr("Output");
    case PeakColumn: return tr("Peak");
    case SummariesColumn: return tr("Summaries");
    case ParetoColumn: return tr("Pareto");
    default: return {};
    }
}

} // namespace wl
