#pragma once

#include "compaction/CompactionPolicy.h"
#include "score/PolicySweep.h"

#include <QJsonObject>
#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace wl {

class BackgroundRunner;
class SessionScoring;
class SweepChart;
class SweepTableModel;
class WhatIfSession;

// Tools > Compare Policies: a policy sweep (issue 21 item 9) of the open session, or of every
// transcript in a folder, off the GUI thread with progress and Cancel; the policies as a scatter
// of cost against coverage (Pareto front drawn, current policy marked) and as a sortable table,
// one selection for both; Apply hands the selected policy to the Thresholds dock.
class ComparePoliciesWindow : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePoliciesWindow(QWidget *parent = nullptr);
    ~ComparePoliciesWindow() override;

    // The open session's what-if and scoring (null: none open, or its scoring is not ready).
    void setOpenSession(const QString &name, std::shared_ptr<const WhatIfSession> session, std::shared_ptr<const SessionScoring> scoring);
    // The sliders' policy: the base every grid changes, and the row marked as current.
    void setCurrentPolicy(const CompactionPolicy &policy);
    void setPriceOverrides(const QJsonObject &overrides) { m_priceOverrides = overrides; }
    // Sweeps a folder of transcripts instead of the open session (empty: the open session).
    void setFolder(const QString &folder);

    // The grid suggested on first use: 4 full thresholds x 2 tails x 2 compaction gates.
    static QByteArray defaultGrid();

    void run();
    void cancel();
    bool isRunning() const;

    // Test hooks.
    SweepTableModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    SweepChart *chart() const { return m_chart; }
    QPlainTextEdit *gridEdit() const { return m_grid; }
    QPushButton *applyButton() const { return m_apply; }
    QString statusText() const;
    // The source row selected in the table, -1 for none.
    int selectedRow() const;

Q_SIGNALS:
    // The selected policy, put over the current one (Apply).
    void applyRequested(const wl::CompactionPolicy &policy);
    void finished();

private:
    struct Outcome
    {
        QList<SweepRow> rows;
        bool cancelled = false;
        QStringList skipped;
        int sessions = 0;
    };
    void showOutcome(const Outcome &outcome, const QString &error);
    void selectRow(int sourceRow);
    void onTableSelection();
    void updateSource();

    QComboBox *m_source = nullptr;
    QPushButton *m_chooseFolder = nullptr;
    QPlainTextEdit *m_grid = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    SweepChart *m_chart = nullptr;
    SweepTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QPushButton *m_apply = nullptr;
    BackgroundRunner *m_runner = nullptr;

    QString m_sessionName;
    std::shared_ptr<const WhatIfSession> m_session;
    std::shared_ptr<const SessionScoring> m_scoring;
    CompactionPolicy m_current;
    CompactionPolicy m_ranWith; // the base of the rows shown
    QJsonObject m_priceOverrides;
    QString m_folder;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    bool m_syncing = false;
};

} // namespace wl
