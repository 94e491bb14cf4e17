#include "PriceTableModel.h"

#include <QFont>
#include <QLocale>

#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
const char *const kFieldNames[] = {"", "input", "cached_input", "cache_write", "output"};
} // namespace

PriceTableModel::PriceTableModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_builtIn(PriceTable::builtIn())
{
    m_rows = m_builtIn.entries();
}

double &PriceTableModel::field(Price &price, int column)
{
    switch (column) {
    case CachedInputColumn: return price.cachedInput;
    case CacheWriteColumn: return price.cacheWrite;
    case OutputColumn: return price.output;
    default: return price.input;
    }
}

double PriceTableModel::field(const Price &price, int column)
{
    Price copy = price;
    return field(copy, column);
}

void PriceTableModel::setOverrides(const QJsonObject &overrides)
{
    beginResetModel();
    PriceTable table = m_builtIn;
    table.applyOverrides(overrides);
    m_rows = table.entries();
    endResetModel();
}

QJsonObject PriceTableModel::overrides() const
{
    QJsonObject out;
    const QList<PriceTable::Entry> &builtIn = m_builtIn.entries();
    for (const PriceTable::Entry &row : m_rows) {
        const auto it = std::find_if(builtIn.cbegin(), builtIn.cend(), [&](const PriceTable::Entry &e) { return e.prefix == row.prefix; });
        QJsonObject changed;
        for (int c = InputColumn; c <= OutputColumn; ++c)
            if (it == builtIn.cend() || field(it->price, c) != field(row.price, c))
                changed.insert(QString::fromLatin1(kFieldNames[c]), field(row.price, c));
        if (!changed.isEmpty())
            out.insert(row.prefix, changed);
    }
    return out;
}

void PriceTableModel::resetAll()
{
    beginResetModel();
    m_rows = m_builtIn.entries();
    endResetModel();
}

int PriceTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PriceTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PriceTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const PriceTable::Entry &row = m_rows.at(index.row());
    const auto builtIn = m_builtIn.lookup(row.prefix);
    const bool edited = index.column() != ModelColumn && (!builtIn || field(builtIn->price, index.column()) != field(row.price, index.column()));
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == ModelColumn)
            return row.prefix;
        return QLocale().toString(field(row.price, index.column()), 'f', 2);
    case Qt::EditRole:
        if (index.column() == ModelColumn)
            return row.prefix;
        return field(row.price, index.column());
    case Qt::TextAlignmentRole:
        return index.column() == ModelColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::FontRole:
        if (edited) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole:
        if (edited && builtIn)
            return tr("Changed; the published price is %1").arg(QLocale().toString(field(builtIn->price, index.column()), 'f', 2));
        return {};
    case EditedRole:
        return edited;
    default:
        return {};
    }
}

bool PriceTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid) || index.column() == ModelColumn)
        return false;
    bool ok = false;
    const double price = value.toDouble(&ok);
    if (!ok || !std::isfinite(price) || price < 0 || price > 1e6)
        return false; // a price is a number of dollars per million tokens, never below 0
    double &cell = field(m_rows[index.row()].price, index.column());
    if (cell == price)
        return true;
    cell = price;
    Q_EMIT dataChanged(index, index);
    return true;
}

Qt::ItemFlags PriceTableModel::flags(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return Qt::NoItemFlags;
    const Qt::ItemFlags base = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    return index.column() == ModelColumn ? base : base | Qt::ItemIsEditable;
}

QVariant PriceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ModelColumn: return tr("Model (prefix)");
    case InputColumn: return tr("Input");
    case CachedInputColumn: return tr("Cached input");
    case CacheWriteColumn: return tr("Cache write");
    case OutputColumn: return tr("Output");
    default: return {};
    }
}

} // namespace wl
