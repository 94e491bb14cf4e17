#pragma once

#include <QSet>
#include <QSortFilterProxyModel>

namespace wl {

// The Offloads list as the dock shows it: sorted, filtered by the text typed (any column) and,
// while one is set, restricted to the results of some call ids (what one compaction offloaded).
class OffloadFilter : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit OffloadFilter(QObject *parent = nullptr);

    void setCallIds(const QSet<QString> &callIds);
    void clearCallIds();
    bool restrictsCalls() const { return m_restricted; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QSet<QString> m_callIds;
    bool m_restricted = false;
};

} // namespace wl
