#pragma once

#include "compaction/CompactionRecord.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

namespace wl {

// Every compaction record of a session, one row each, in time order.
class CompactionLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, RequestColumn, TierColumn, TokensColumn, RatioColumn, DurationColumn, SummarizerColumn, ErrorColumn, ColumnCount };
    enum Role { TierRole = Qt::UserRole + 1, RecordIdRole, SortRole };

    explicit CompactionLogModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setRecords(const QList<CompactionRecord> &records);
    void appendRecord(const CompactionRecord &record);
    const QList<CompactionRecord> &records() const { return m_records; }
    int rowForRecord(const QString &recordId) const;

    // The given source rows as JSONL (the audit format) or CSV (with a header line).
    QByteArray toJsonl(const QList<int> &rows) const;
    QByteArray toCsv(const QList<int> &rows) const;
    QList<int> allRows() const;

private:
    QList<CompactionRecord> m_records;
};

// Shows only the tiers whose bit is set in the mask (bit n = Tier n).
class CompactionTierFilter : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit CompactionTierFilter(QObject *parent = nullptr);
    void setTierVisible(Tier tier, bool visible);
    bool isTierVisible(Tier tier) const { return m_mask & (1u << int(tier)); }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    unsigned m_mask = 0x1f;
};

} // namespace wl
