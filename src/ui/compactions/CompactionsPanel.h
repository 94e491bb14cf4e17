#pragma once

#include "compaction/Checkpoint.h"

#include <QHash>
#include <QWidget>

class QTableView;
class QTextBrowser;

namespace wl {

class CompactionLogModel;
class CompactionTierFilter;

// The Compactions dock: every record, filter by tier, export to JSONL and CSV, and what the
// selected one did (detail pane). Columns no record fills are hidden.
class CompactionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit CompactionsPanel(CompactionLogModel *model, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    CompactionTierFilter *filter() const { return m_filter; }
    QTextBrowser *detail() const { return m_detail; }
    QString detailText() const;

    // The session's checkpoints, whose text the detail pane shows for the record that wrote each.
    void setCheckpoints(const QList<Checkpoint> &checkpoints);
    // Selects the record's row and shows its detail, without emitting recordSelected.
    void showRecord(const QString &recordId);
    // Writes the rows the filter shows; false with `error` set on failure.
    bool exportVisible(const QString &path, bool csv, QString *error = nullptr) const;

Q_SIGNALS:
    // The user chose a record (its row became the current one).
    void recordSelected(const QString &recordId, int requestIndex);

private:
    void exportTo(bool csv);
    void showDetail(const QModelIndex &current);
    void hideEmptyColumns();

    CompactionLogModel *m_model;
    CompactionTierFilter *m_filter;
    QTableView *m_table;
    QTextBrowser *m_detail;
    QHash<QString, Checkpoint> m_checkpoints; // by record id
};

} // namespace wl
