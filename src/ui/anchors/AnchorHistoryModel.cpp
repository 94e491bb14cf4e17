#include "AnchorHistoryModel.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
QString changeLabel(AnchorChange change)
{
    switch (change) {
    case AnchorChange::New: return AnchorHistoryModel::tr("new");
    case AnchorChange::Updated: return AnchorHistoryModel::tr("updated");
    case AnchorChange::Unchanged: return AnchorHistoryModel::tr("unchanged");
    case AnchorChange::Kept: return AnchorHistoryModel::tr("kept (new value unknown)");
    }
    return {};
}
} // namespace

QColor AnchorHistoryModel::changeTint(AnchorChange change)
{
    switch (change) {
    case AnchorChange::New: return QColor(0x38, 0xa1, 0x69, 60);
    case AnchorChange::Updated: return QColor(0x31, 0x82, 0xce, 60);
    case AnchorChange::Kept: return QColor(0xa0, 0xae, 0xc0, 70);
    case AnchorChange::Unchanged: return {};
    }
    return {};
}

AnchorHistoryModel::AnchorHistoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int AnchorHistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : kAnchorCount;
}

int AnchorHistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_snapshots.size());
}

QVariant AnchorHistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AnchorSnapshot &snapshot = m_snapshots.at(index.column());
    const AnchorKind kind = kAllAnchorKinds[size_t(index.row())];
    const AnchorChange change = snapshot.changes[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: {
        // One line in the grid; the full text is in the tooltip and the diff pane.
        QString text = snapshot.anchors.value(kind).simplified();
        if (text.size() > 160)
            text = text.left(157) + u"..."_s;
        return text;
    }
    case Qt::ToolTipRole:
        return tr("%1 (%2)\n\n%3").arg(anchorHeader(kind), changeLabel(change), snapshot.anchors.value(kind));
    case Qt::BackgroundRole: {
        const QColor tint = changeTint(change);
        return tint.isValid() ? QVariant(QBrush(tint)) : QVariant();
    }
    case ChangeRole:
        return int(change);
    case PreviousValueRole:
        return index.column() > 0 ? m_snapshots.at(index.column() - 1).anchors.value(kind) : u"N/A"_s;
    case RecordIdRole:
        return snapshot.recordId;
    }
    return {};
}

QVariant AnchorHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (orientation == Qt::Vertical) {
        if (section < 0 || section >= kAnchorCount)
            return {};
        return anchorHeader(kAllAnchorKinds[size_t(section)]);
    }
    if (section < 0 || section >= m_snapshots.size())
        return {};
    const AnchorSnapshot &s = m_snapshots.at(section);
    if (role == Qt::ToolTipRole)
        return tr("Compaction %1 before request %2 (%3 tier), %4")
            .arg(section + 1).arg(s.requestIndex).arg(tierDisplayName(s.tier),
                                                       QLocale().toString(s.timestamp, QLocale::ShortFormat));
    return tr("#%1 %2 (req %3)").arg(section + 1).arg(tierDisplayName(s.tier)).arg(s.requestIndex);
}

void AnchorHistoryModel::setSnapshots(const QList<AnchorSnapshot> &snapshots)
{
    beginResetModel();
    m_snapshots = snapshots;
    endResetModel();
}

int AnchorHistoryModel::columnForRecord(const QString &recordId) const
{
    for (qsizetype i = 0; i < m_snapshots.size(); ++i)
        if (m_snapshots.at(i).recordId == recordId)
            return int(i);
    return -1;
}

} // namespace wl
