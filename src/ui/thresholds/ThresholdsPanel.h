#pragma once

#include "compaction/CompactionPolicy.h"
#include "whatif/Simulator.h"

#include <QWidget>

#include <array>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace wl {

// The Thresholds dock: every live-tunable policy setting. Each edit emits
// policyEdited() at once (the what-if runner coalesces); the four thresholds are
// kept in order by pushing neighbours along.
class ThresholdsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ThresholdsPanel(QWidget *parent = nullptr);

    CompactionPolicy policy() const { return m_policy; }
    // The session's stored policy, which Apply compares with.
    const CompactionPolicy &sessionPolicy() const { return m_sessionPolicy; }
    // Shows `policy` without emitting policyEdited (e.g. the session's policy on open).
    void setPolicy(const CompactionPolicy &policy);
    void setSessionPolicy(const CompactionPolicy &policy); // what Apply compares against

    void setRecordedTotals(const SimulationTotals &totals);
    void setWhatIfTotals(const SimulationTotals &totals, qint64 elapsedMs);

    // Test hooks: the four threshold sliders (per mille) in tier order.
    QSlider *thresholdSlider(Tier tier) const;
    QDoubleSpinBox *thresholdSpin(Tier tier) const;
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *resetButton() const { return m_reset; }
    QString totalsText(int row, bool whatIf) const;

Q_SIGNALS:
    void policyEdited(const wl::CompactionPolicy &policy);
    void applyRequested(const wl::CompactionPolicy &policy);

private:
    void setThreshold(int which, double value);
    void syncControls();
    void emitEdited();

    CompactionPolicy m_policy;
    CompactionPolicy m_sessionPolicy;
    bool m_syncing = false;
    std::array<QSlider *, 4> m_sliders{};
    std::array<QDoubleSpinBox *, 4> m_spins{};
    QSpinBox *m_window = nullptr;
    QSpinBox *m_tail = nullptr;
    QSpinBox *m_gate1 = nullptr;
    QSpinBox *m_gate2 = nullptr;
    QSpinBox *m_reserved = nullptr;
    QCheckBox *m_countSchemas = nullptr;
    QPushButton *m_apply = nullptr;
    QPushButton *m_reset = nullptr;
    std::array<std::array<QLabel *, 2>, 4> m_totals{}; // rows: calls, peak, emergencies, tokens; columns: recorded, what-if
    QLabel *m_timing = nullptr;
};

} // namespace wl
