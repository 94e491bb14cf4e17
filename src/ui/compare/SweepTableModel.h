#pragma once

#include "score/PolicySweep.h"

#include <QAbstractTableModel>

namespace wl {

// The rows of a policy sweep, one per policy (the Compare policies window's table). Display text
// is formatted; SortRole holds the number each column sorts by, so a QSortFilterProxyModel with
// that sort role orders every column by value.
class SweepTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { PolicyColumn, CoverageColumn, LostColumn, UsdColumn, InputColumn, CacheReadColumn, CacheWriteColumn, OutputColumn,
                  PeakColumn, SummariesColumn, ParetoColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, ParetoRole, CurrentRole };

    explicit SweepTableModel(QObject *parent = nullptr);

    // `current`: the row of the policy the sliders hold (-1: none).
    void setRows(QList<SweepRow> rows, int current = -1);
    const QList<SweepRow> &rows() const { return m_rows; }
    const SweepRow &row(int i) const { return m_rows.at(i); }
    int currentRow() const { return m_current; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant sortValue(const SweepRow &row, int column, int index) const;
    QString label(int index) const;

    QList<SweepRow> m_rows;
    int m_current = -1;
};

} // namespace wl
