#pragma once

#include "compaction/Checkpoint.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QTableView;
class QTextBrowser;
class QToolButton;

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
    // The open session's "Review summaries" setting, shown without emitting reviewSummariesToggled.
    void setReviewSummaries(bool on);
    QCheckBox *reviewCheck() const { return m_review; }
    QToolButton *editButton() const { return m_edit; }
    QToolButton *undoEditButton() const { return m_undoEdit; }
    // The checkpoint the selected record wrote, if any.
    const Checkpoint *selectedCheckpoint() const;
    // Writes the rows the filter shows; false with `error` set on failure.
    bool exportVisible(const QString &path, bool csv, QString *error = nullptr) const;

Q_SIGNALS:
    // The user chose a record (its row became the current one).
    void recordSelected(const QString &recordId, int requestIndex);
    // The user turned "Review summaries" on or off for the open session.
    void reviewSummariesToggled(bool on);
    // Edit the selected record's checkpoint (a new version), or go back one version.
    void editCheckpointRequested(const wl::Checkpoint &checkpoint);
    void undoCheckpointEditRequested(qint64 checkpointId);

private:
    void exportTo(bool csv);
    void showDetail(const QModelIndex &current);
    void hideEmptyColumns();
    void updateButtons();

    CompactionLogModel *m_model;
    CompactionTierFilter *m_filter;
    QTableView *m_table;
    QTextBrowser *m_detail;
    QCheckBox *m_review;
    QToolButton *m_edit;
    QToolButton *m_undoEdit;
    QHash<QString, Checkpoint> m_checkpoints; // by record id
};

} // namespace wl
