#pragma once

#include "compaction/Anchors.h"
#include "compaction/Tier.h"

#include <QAbstractTableModel>
#include <QDateTime>

class QColor;

namespace wl {

// The anchors after one compaction, and how each changed in that merge.
struct AnchorSnapshot
{
    QString recordId;
    int requestIndex = 0;
    QDateTime timestamp;
    Tier tier = Tier::None;
    Anchors anchors;
    std::array<AnchorChange, kAnchorCount> changes{};
};

// Rows: the five anchors in fixed order. Columns: compactions in time order.
class AnchorHistoryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role { ChangeRole = Qt::UserRole + 1, PreviousValueRole, RecordIdRole };

    explicit AnchorHistoryModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setSnapshots(const QList<AnchorSnapshot> &snapshots);
    const QList<AnchorSnapshot> &snapshots() const { return m_snapshots; }
    int columnForRecord(const QString &recordId) const; // -1 when absent

    // The translucent tint a cell of that change is drawn with over the view's Base (invalid: none).
    static QColor changeTint(AnchorChange change);

private:
    QList<AnchorSnapshot> m_snapshots;
};

} // namespace wl
