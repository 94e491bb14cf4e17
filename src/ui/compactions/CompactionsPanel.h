#pragma once

#include <QWidget>

class QTableView;

namespace wl {

class CompactionLogModel;
class CompactionTierFilter;

// The Compactions dock: every record, filter by tier, export to JSONL and CSV.
class CompactionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit CompactionsPanel(CompactionLogModel *model, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    CompactionTierFilter *filter() const { return m_filter; }

    void showRecord(const QString &recordId);
    // Writes the rows the filter shows; false with `error` set on failure.
    bool exportVisible(const QString &path, bool csv, QString *error = nullptr) const;

Q_SIGNALS:
    void recordSelected(const QString &recordId, int requestIndex);

private:
    void exportTo(bool csv);

    CompactionLogModel *m_model;
    CompactionTierFilter *m_filter;
    QTableView *m_table;
};

} // namespace wl
