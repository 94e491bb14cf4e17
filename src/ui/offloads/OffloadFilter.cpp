#include "offloads/OffloadFilter.h"

#include "offloads/OffloadListModel.h"

namespace wl {

OffloadFilter::OffloadFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
}

void OffloadFilter::setCallIds(const QSet<QString> &callIds)
{
    m_callIds = callIds;
    m_restricted = true;
    invalidateRowsFilter();
}

void OffloadFilter::clearCallIds()
{
    if (!m_restricted)
        return;
    m_callIds.clear();
    m_restricted = false;
    invalidateRowsFilter();
}

bool OffloadFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_restricted) {
        const QString callId = sourceModel()->index(sourceRow, 0, sourceParent).data(OffloadListModel::CallIdRole).toString();
        if (!m_callIds.contains(callId))
            return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace wl
