#pragma once

#include "compaction/CompactionPolicy.h"
#include "whatif/Simulator.h"
#include "whatif/WhatIfSession.h"

#include <QWidget>

#include <array>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace wl {

class PolicyScoreView;

// The Thresholds dock: every live-tunable policy setting, the strategy beside the thresholds. Each edit emits
// policyEdited() at once (the what-if runner coalesces); the four thresholds are
// kept in order by pushing neighbours along, and a neighbour pushed aside goes back
// to where it was set when the slider moves back (one threshold can be swept over the
// whole range without losing the others). Below, the recorded session's totals and the
// what-if's, row for row (SimulationTotals).
class ThresholdsPanel : public QWidget
{
    Q_OBJECT
public:
    // The rows of the totals table.
    enum TotalsRow {
        WindowRow,
        RequestsRow,
        TokensSentRow,
        SummaryInputRow,
        SummaryCallsRow,
        WarnRow,
        SoftRow,
        FullRow,
        EmergencyRow,
        OffloadsRow,
        PeakBeforeRow,
        PeakAfterRow,
        TotalsRowCount
    };

    explicit ThresholdsPanel(QWidget *parent = nullptr);

    CompactionPolicy policy() const { return m_policy; }
    // The session's stored policy, which Apply compares with.
    const CompactionPolicy &sessionPolicy() const { return m_sessionPolicy; }
    // Shows `policy` without emitting policyEdited (e.g. the session's policy on open).
    void setPolicy(const CompactionPolicy &policy);
    void setSessionPolicy(const CompactionPolicy &policy); // what Apply compares against
    // Shows `policy` as if the user had set it there: policyEdited is emitted (Compare policies' Apply).
    void editPolicy(const wl::CompactionPolicy &policy);

    void setRecordedTotals(const SimulationTotals &totals);
    void setWhatIfTotals(const SimulationTotals &totals, qint64 elapsedMs);
    // Coverage and cost, recorded against what-if (fed by the what-if binding).
    PolicyScoreView *scoreView() const { return m_scoreView; }

    // Test hooks: the four threshold sliders (per mille) in tier order.
    QSlider *thresholdSlider(Tier tier) const;
    QDoubleSpinBox *thresholdSpin(Tier tier) const;
    QComboBox *strategyCombo() const { return m_strategy; }
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *resetButton() const { return m_reset; }
    QString totalsText(int row, bool whatIf) const;
    // The note under the table (empty when hidden): why a peak after compaction may be below the
    // threshold of a tier the table counts.
    QString totalsNote() const;
    // The note on pins made after the recording (empty when hidden): they are in every what-if
    // request and were in none of the recorded ones, and what they change (tokens sent, tiers).
    void setPinsAfterRecording(const WhatIfSession::PinsAfterRecording &effect);
    QString pinsNote() const;

Q_SIGNALS:
    void policyEdited(const wl::CompactionPolicy &policy);
    void applyRequested(const wl::CompactionPolicy &policy);

private:
    void setThreshold(int which, double value);
    void syncControls();
    void emitEdited();
    void showTotals(int column, const SimulationTotals &totals);
    void updateResetText();

    CompactionPolicy m_policy;
    CompactionPolicy m_sessionPolicy;
    ThresholdOrder m_order; // each threshold as last set by the user (pushes are undone towards it)
    std::array<SimulationTotals, 2> m_shown{}; // recorded, what-if
    std::array<bool, 2> m_hasTotals{};
    bool m_syncing = false;
    std::array<QSlider *, 4> m_sliders{};
    std::array<QDoubleSpinBox *, 4> m_spins{};
    QComboBox *m_strategy = nullptr;
    QSpinBox *m_window = nullptr;
    QSpinBox *m_tail = nullptr;
    QSpinBox *m_gate1 = nullptr;
    QSpinBox *m_gate2 = nullptr;
    QSpinBox *m_reserved = nullptr;
    QCheckBox *m_countSchemas = nullptr;
    QPushButton *m_apply = nullptr;
    QPushButton *m_reset = nullptr;
    std::array<std::array<QLabel *, 2>, TotalsRowCount> m_totals{}; // columns: recorded, what-if
    QLabel *m_totalsNote = nullptr;
    QLabel *m_pinsNote = nullptr;
    QLabel *m_timing = nullptr;
    PolicyScoreView *m_scoreView = nullptr;
};

} // namespace wl
