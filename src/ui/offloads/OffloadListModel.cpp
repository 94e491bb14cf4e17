#include "offloads/OffloadListModel.h"

#include "UiLogging.h"

#include <QDir>
#include <QLocale>
#include <QSet>

using namespace Qt::StringLiterals;

namespace wl {

OffloadListModel::OffloadListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void OffloadListModel::setRows(const QList<OffloadRow> &input)
{
    // One row per call id: the first one wins.
    QList<OffloadRow> rows;
    QHash<QString, int> incoming;
    rows.reserve(input.size());
    for (const OffloadRow &row : input) {
        if (incoming.contains(row.entry.callId)) {
            qCWarning(lcUi) << "offloads: duplicate call id ignored:" << row.entry.callId;
            continue;
        }
        incoming.insert(row.entry.callId, int(rows.size()));
        rows.append(row);
    }

    bool overlap = false;
    for (const OffloadRow &row : std::as_const(m_rows)) {
        if (incoming.contains(row.entry.callId)) {
            overlap = true;
            break;
        }
    }
    if (!overlap) {
        beginResetModel();
        m_rows = std::move(rows);
        reindex();
        endResetModel();
        return;
    }

    // Remove the rows that are gone, from the bottom up, a contiguous run at a time.
    for (int last = int(m_rows.size()) - 1; last >= 0;) {
        if (incoming.contains(m_rows.at(last).entry.callId)) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !incoming.contains(m_rows.at(first - 1).entry.callId))
            --first;
        beginRemoveRows({}, first, last);
        m_rows.remove(first, last - first + 1);
        endRemoveRows();
        last = first - 1;
    }
    reindex();

    // Update the survivors in place.
    for (int i = 0; i < m_rows.size(); ++i) {
        const OffloadRow &fresh = rows.at(incoming.value(m_rows.at(i).entry.callId));
        if (!(fresh == m_rows.at(i))) {
            m_rows[i] = fresh;
            Q_EMIT dataChanged(index(i, 0), index(i, ColumnCount - 1));
        }
    }

    // Append the newcomers in their given order.
    QList<OffloadRow> added;
    for (const OffloadRow &row : std::as_const(rows)) {
        if (!m_rowOfCallId.contains(row.entry.callId))
            added.append(row);
    }
    if (!added.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        m_rows += added;
        reindex();
        endInsertRows();
    }
}

void OffloadListModel::addRow(const OffloadRow &row)
{
    const int existing = rowOfCallId(row.entry.callId);
    if (existing >= 0) {
        if (!(m_rows.at(existing) == row)) {
            m_rows[existing] = row;
            Q_EMIT dataChanged(index(existing, 0), index(existing, ColumnCount - 1));
        }
        return;
    }
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first);
    m_rows.append(row);
    m_rowOfCallId.insert(row.entry.callId, first);
    endInsertRows();
}

void OffloadListModel::clear()
{
    if (m_rows.isEmpty())
        return;
    beginResetModel();
    m_rows.clear();
    m_rowOfCallId.clear();
    endResetModel();
}

void OffloadListModel::updateReadBacks(const QHash<QString, int> &countsByCallId)
{
    for (auto it = countsByCallId.cbegin(); it != countsByCallId.cend(); ++it) {
        const int row = rowOfCallId(it.key());
        if (row < 0 || m_rows.at(row).readBacks == it.value())
            continue;
        m_rows[row].readBacks = it.value();
        const QModelIndex cell = index(row, ReadBacksColumn);
        Q_EMIT dataChanged(cell, cell);
    }
}

int OffloadListModel::rowOfCallId(const QString &callId) const
{
    return m_rowOfCallId.value(callId, -1);
}

int OffloadListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OffloadListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

// The raw value of a cell: what SortRole gives, and what the text columns show as they are.
QVariant rawValue(const OffloadRow &row, int column)
{
    switch (column) {
    case OffloadListModel::ToolColumn: return row.entry.toolName;
    case OffloadListModel::SourceColumn: return row.source.label;
    case OffloadListModel::CallIdColumn: return row.entry.callId;
    case OffloadListModel::GateColumn: return row.entry.gate;
    case OffloadListModel::SizeColumn: return row.entry.bytes;
    case OffloadListModel::LinesColumn: return row.entry.lines;
    case OffloadListModel::TimeColumn: return row.time;
    case OffloadListModel::ReadBacksColumn: return row.readBacks;
    }
    return {};
}

bool isNumberColumn(int column)
{
    return column == OffloadListModel::SizeColumn || column == OffloadListModel::LinesColumn
        || column == OffloadListModel::ReadBacksColumn;
}

} // namespace

QVariant OffloadListModel::displayValue(const OffloadRow &row, int column)
{
    const OffloadEntry &e = row.entry;
    switch (column) {
    case GateColumn:
        return e.gate == 1                       ? tr("Tool time")
            : e.gate == 2                        ? tr("Compaction")
            : e.gate == OffloadEntry::kCutGate ? tr("Emergency cut")
                                                 : QString::number(e.gate);
    case SizeColumn:
        return QLocale().formattedDataSize(e.bytes, 1, QLocale::DataSizeTraditionalFormat);
    case LinesColumn:
        return QLocale().toString(e.lines);
    case TimeColumn:
        return row.time.isValid() ? QLocale().toString(row.time.toLocalTime(), QLocale::ShortFormat) : QString();
    case ReadBacksColumn:
        return QLocale().toString(row.readBacks);
    }
    return rawValue(row, column); // the text columns show their value as it is
}

QString OffloadListModel::title(const OffloadRow &row)
{
    const QString &tool = row.entry.toolName;
    const QString what = row.source.label.isEmpty() ? row.entry.callId : row.source.label;
    return tool.isEmpty() ? what : tr("%1 · %2").arg(tool, what);
}

QVariant OffloadListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const OffloadRow &row = m_rows.at(index.row());
    const OffloadEntry &e = row.entry;
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(row, index.column());
    case SortRole:
        return rawValue(row, index.column());
    case Qt::ToolTipRole:
        if (index.column() == SourceColumn && !row.source.label.isEmpty())
            return QString(row.source.label + u'\n' + QDir::toNativeSeparators(row.absolutePath));
        return QDir::toNativeSeparators(row.absolutePath);
    case Qt::TextAlignmentRole:
        if (isNumberColumn(index.column()))
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case CallIdRole:
        return e.callId;
    case PathRole:
        return row.absolutePath;
    case MessageIdRole:
        return e.messageId;
    case SourceFileRole:
        return row.source.fileName;
    case TitleRole:
        return title(row);
    default:
        break;
    }
    return {};
}

QVariant OffloadListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case ToolColumn: return tr("Tool");
        case SourceColumn: return tr("Source");
        case CallIdColumn: return tr("Call ID");
        case GateColumn: return tr("Gate");
        case SizeColumn: return tr("Size");
        case LinesColumn: return tr("Lines");
        case TimeColumn: return tr("Time");
        case ReadBacksColumn: return tr("Read Back");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case ToolColumn: return tr("The tool whose result was offloaded");
        case SourceColumn: return tr("What the tool was asked for: the file it read or wrote, the command it ran");
        case CallIdColumn: return tr("The tool call the result answers");
        case GateColumn: return tr("When it was offloaded: as the tool finished (gate 1) or during a compaction (gate 2)");
        case SizeColumn: return tr("Size of the original result");
        case LinesColumn: return tr("Lines in the original result");
        case TimeColumn: return tr("When the result was offloaded");
        case ReadBacksColumn: return tr("How many times the agent read the file back");
        }
    } else if (role == Qt::TextAlignmentRole && isNumberColumn(section)) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

QHash<int, QByteArray> OffloadListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(SortRole, "sortValue");
    names.insert(CallIdRole, "callId");
    names.insert(PathRole, "path");
    names.insert(MessageIdRole, "messageId");
    names.insert(SourceFileRole, "sourceFile");
    names.insert(TitleRole, "title");
    return names;
}

void OffloadListModel::reindex()
{
    m_rowOfCallId.clear();
    m_rowOfCallId.reserve(m_rows.size());
    for (int i = 0; i < m_rows.size(); ++i)
        m_rowOfCallId.insert(m_rows.at(i).entry.callId, i);
}

} // namespace wl
