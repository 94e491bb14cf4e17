#include "proxy/ProxyTrafficModel.h"

#include "common/PaletteColors.h"

#include <QBrush>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
// A path is whatever a local client sent: keep the table's cells short.
constexpr qsizetype kMaxPathChars = 300;
} // namespace

ProxyTrafficModel::ProxyTrafficModel(QObject *parent, int capacity)
    : QAbstractTableModel(parent)
    , m_capacity(qMax(1, capacity))
{
}

int ProxyTrafficModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ProxyTrafficModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProxyTrafficModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const auto milliseconds = [](qint64 ms) -> QVariant {
        return ms < 0 ? QVariant(u"–"_s) : QVariant(QLocale().toString(ms));
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Time: return QLocale().toString(row.startedAt.toLocalTime().time(), u"HH:mm:ss.zzz"_s);
        case Method: return row.method;
        case Path: return row.path;
        case Status: return row.status > 0 ? QVariant(row.status) : QVariant(u"–"_s);
        case FirstByte: return milliseconds(row.firstByteMs);
        case Total: return milliseconds(row.totalMs);
        default: return {};
        }
    case Qt::ToolTipRole:
        if (!row.error.isEmpty())
            return row.error;
        return index.column() == Path ? QVariant(row.path) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() >= Status ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant(int(Qt::AlignLeft | Qt::AlignVCenter));
    case Qt::ForegroundRole:
        // A failed exchange (an error status, or the upstream or client gone) stands out.
        if (index.column() == Status && (row.status >= 400 || !row.error.isEmpty()))
            return QBrush(isDarkPalette(QGuiApplication::palette()) ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x20, 0x20));
        return {};
    case ErrorRole:
        return row.error;
    default:
        return {};
    }
}

QVariant ProxyTrafficModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case FirstByte: return tr("From the whole request read to the first byte of the answer sent back");
        case Total: return tr("From the whole request read to the last byte of the answer sent back");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time: return tr("Time");
    case Method: return tr("Method");
    case Path: return tr("Path");
    case Status: return tr("Status");
    case FirstByte: return tr("First byte (ms)");
    case Total: return tr("Total (ms)");
    default: return {};
    }
}

void ProxyTrafficModel::addExchange(const ProxiedExchange &exchange)
{
    if (m_rows.size() >= m_capacity) {
        const int drop = int(m_rows.size()) - m_capacity + 1;
        beginRemoveRows({}, 0, drop - 1);
        m_rows.remove(0, drop);
        endRemoveRows();
    }
    Row row;
    row.startedAt = exchange.startedAt;
    row.method = QString::fromLatin1(exchange.method.left(16));
    row.path = QString::fromUtf8(exchange.path.left(kMaxPathChars));
    row.status = exchange.status;
    row.firstByteMs = exchange.firstByteMs;
    row.totalMs = exchange.totalMs;
    row.error = exchange.error;
    const int at = int(m_rows.size());
    beginInsertRows({}, at, at);
    m_rows.append(row);
    endInsertRows();
}

void ProxyTrafficModel::clear()
{
    if (m_rows.isEmpty())
        return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

} // namespace wl
