#pragma once

#include "AnchorHistoryModel.h"
#include "compaction/AnchorLineage.h"

#include <QAbstractItemModel>

class QColor;

namespace wl {

// The anchors' items as a tree: the five anchors at the top, their items under them. Column 0 is
// the item (its latest wording), then one column per compaction with the item's fate in it.
// With onlyDropped set, an anchor lists only the items a compaction dropped.
class AnchorItemsModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Role {
        FateRole = Qt::UserRole + 1, // int(ItemFate) in a compaction column
        ItemRole,                    // the item's index in items(), -1 on an anchor row
        RecordIdRole,                // the compaction of a column
        SourceMessageRole,           // the history message the item came from (0: unknown)
    };

    explicit AnchorItemsModel(QObject *parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // `items` has one fate per snapshot (traceAnchorLineage over them).
    void setLineage(const QList<LineageItem> &items, const QList<AnchorSnapshot> &snapshots);
    const QList<LineageItem> &items() const { return m_items; }
    const QList<AnchorSnapshot> &snapshots() const { return m_snapshots; }

    void setOnlyDropped(bool onlyDropped);
    bool onlyDropped() const { return m_onlyDropped; }

    // The row of item `item` (an index into items()), invalid when it is filtered out.
    QModelIndex indexOfItem(int item, int column = 0) const;

    static QString fateLabel(ItemFate fate);
    // The translucent tint a cell of that fate is drawn with (invalid: none).
    static QColor fateTint(ItemFate fate);

private:
    void rebuildRows();

    QList<LineageItem> m_items;
    QList<AnchorSnapshot> m_snapshots;
    std::array<QList<int>, kAnchorCount> m_rows; // per anchor, the shown items (indexes into m_items)
    bool m_onlyDropped = false;
};

} // namespace wl
