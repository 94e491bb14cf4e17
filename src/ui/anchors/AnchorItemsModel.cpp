#include "AnchorItemsModel.h"

#include <QBrush>
#include <QColor>

using namespace Qt::StringLiterals;

namespace wl {

// An anchor row has internal id 0; an item row carries its anchor's number plus one.
namespace {
constexpr quintptr kAnchorRow = 0;
} // namespace

AnchorItemsModel::AnchorItemsModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

QString AnchorItemsModel::fateLabel(ItemFate fate)
{
    switch (fate) {
    case ItemFate::Absent: return {};
    case ItemFate::Added: return tr("added");
    case ItemFate::Kept: return tr("kept");
    case ItemFate::Reworded: return tr("reworded");
    case ItemFate::Dropped: return tr("dropped");
    }
    return {};
}

QColor AnchorItemsModel::fateTint(ItemFate fate)
{
    switch (fate) {
    case ItemFate::Added: return AnchorHistoryModel::changeTint(AnchorChange::New);
    case ItemFate::Reworded: return AnchorHistoryModel::changeTint(AnchorChange::Updated);
    case ItemFate::Dropped: return QColor(0xe5, 0x3e, 0x3e, 70);
    case ItemFate::Kept:
    case ItemFate::Absent: return {};
    }
    return {};
}

QModelIndex AnchorItemsModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kAnchorRow);
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex AnchorItemsModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kAnchorRow)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kAnchorRow);
}

int AnchorItemsModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return kAnchorCount;
    if (parent.internalId() != kAnchorRow || parent.column() != 0)
        return 0;
    return int(m_rows[size_t(parent.row())].size());
}

int AnchorItemsModel::columnCount(const QModelIndex &) const
{
    return 1 + int(m_snapshots.size());
}

QVariant AnchorItemsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == kAnchorRow) {
        const AnchorKind kind = kAllAnchorKinds[size_t(index.row())];
        if (role == ItemRole)
            return -1;
        if (index.column() != 0)
            return {};
        if (role == Qt::DisplayRole)
            return tr("%1 (%2)").arg(anchorHeader(kind)).arg(m_rows[size_t(index.row())].size());
        return {};
    }
    const int item = m_rows[size_t(index.internalId() - 1)].at(index.row());
    const LineageItem &it = m_items.at(item);
    if (role == ItemRole)
        return item;
    if (role == SourceMessageRole)
        return it.sourceMessageId;
    if (index.column() == 0) {
        switch (role) {
        case Qt::DisplayRole: {
            QString text = it.latestText().simplified();
            if (text.size() > 160)
                text = text.left(157) + u"..."_s;
            return text;
        }
        case Qt::ToolTipRole: return it.latestText();
        case Qt::ForegroundRole:
            return it.isDropped() ? QVariant(QBrush(QColor(0xc5, 0x30, 0x30))) : QVariant();
        }
        return {};
    }
    const int column = index.column() - 1;
    const ItemFate fate = it.fates.value(column, ItemFate::Absent);
    switch (role) {
    case Qt::DisplayRole: return fateLabel(fate);
    case Qt::ToolTipRole:
        if (fate == ItemFate::Absent)
            return {};
        return tr("%1 in compaction #%2\n\n%3").arg(fateLabel(fate)).arg(column + 1)
            .arg(fate == ItemFate::Dropped ? it.texts.value(column - 1) : it.texts.value(column));
    case Qt::BackgroundRole: {
        const QColor tint = fateTint(fate);
        return tint.isValid() ? QVariant(QBrush(tint)) : QVariant();
    }
    case FateRole: return int(fate);
    case RecordIdRole: return m_snapshots.at(column).recordId;
    }
    return {};
}

QVariant AnchorItemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    if (section == 0)
        return role == Qt::DisplayRole ? tr("Item") : tr("Each line of an anchor, in its latest wording");
    if (section < 1 || section > m_snapshots.size())
        return {};
    const AnchorSnapshot &s = m_snapshots.at(section - 1);
    if (role == Qt::ToolTipRole)
        return tr("Compaction %1 before request %2 (%3 tier)").arg(section).arg(s.requestIndex).arg(tierDisplayName(s.tier));
    return tr("#%1").arg(section);
}

void AnchorItemsModel::setLineage(const QList<LineageItem> &items, const QList<AnchorSnapshot> &snapshots)
{
    beginResetModel();
    m_items = items;
    m_snapshots = snapshots;
    // A lineage traced over other snapshots than these would index past them: keep only items that fit.
    m_items.removeIf([&](const LineageItem &item) {
        return item.fates.size() != snapshots.size() || item.texts.size() != snapshots.size();
    });
    rebuildRows();
    endResetModel();
}

void AnchorItemsModel::setOnlyDropped(bool onlyDropped)
{
    if (onlyDropped == m_onlyDropped)
        return;
    beginResetModel();
    m_onlyDropped = onlyDropped;
    rebuildRows();
    endResetModel();
}

QModelIndex AnchorItemsModel::indexOfItem(int item, int column) const
{
    if (item < 0 || item >= m_items.size())
        return {};
    const size_t anchor = size_t(m_items.at(item).kind);
    const qsizetype row = m_rows[anchor].indexOf(item);
    return row < 0 ? QModelIndex() : index(int(row), column, index(int(anchor), 0));
}

void AnchorItemsModel::rebuildRows()
{
    for (QList<int> &rows : m_rows)
        rows.clear();
    for (qsizetype i = 0; i < m_items.size(); ++i) {
        const LineageItem &item = m_items.at(i);
        if (m_onlyDropped && !item.isDropped())
            continue;
        m_rows[size_t(item.kind)].append(int(i));
    }
}

} // namespace wl
