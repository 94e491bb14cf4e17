#pragma once

#include "compaction/CompactionPolicy.h"
#include "compaction/Tier.h"

#include <QWidget>

#include <array>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace wl {

// The Compaction page: the default policy new sessions start with. The four
// thresholds stay in order (raising one raises those above it, lowering one
// lowers those below); the context window is not edited here, it comes from
// the provider profile, and is kept as it was.
class CompactionPage : public QWidget
{
    Q_OBJECT

public:
    explicit CompactionPage(QWidget *parent = nullptr);

    CompactionPolicy policy() const;
    void setPolicy(const CompactionPolicy &policy);
    void restoreDefaults();

    // Test hooks; the widgets also carry object names.
    QDoubleSpinBox *thresholdSpin(Tier tier) const;   // percent of the context window
    QSpinBox *tailSpin() const { return m_tail; }
    QSpinBox *offloadAtToolTimeSpin() const { return m_offloadToolTime; }
    QSpinBox *offloadAtCompactionSpin() const { return m_offloadCompaction; }
    QSpinBox *reservedOutputSpin() const { return m_reservedOutput; }
    QSpinBox *summaryTimeoutSpin() const { return m_summaryTimeout; }
    QCheckBox *countToolSchemasCheck() const { return m_countSchemas; }
    QCheckBox *reviewSummariesCheck() const { return m_reviewSummaries; }
    QComboBox *strategyCombo() const { return m_strategy; }
    QPushButton *restoreDefaultsButton() const { return m_restore; }

Q_SIGNALS:
    void edited();

private:
    void onThresholdChanged(int which, double percent);

    CompactionPolicy m_base;      // fields the page does not show (context window)
    bool m_syncing = false;
    std::array<QDoubleSpinBox *, 4> m_thresholds{};
    ThresholdOrder m_order; // where the user last set each threshold (a push is undone towards it)
    QSpinBox *m_tail = nullptr;
    QSpinBox *m_offloadToolTime = nullptr;
    QSpinBox *m_offloadCompaction = nullptr;
    QSpinBox *m_previewToolTime = nullptr;
    QSpinBox *m_previewCompaction = nullptr;
    QSpinBox *m_reservedOutput = nullptr;
    QSpinBox *m_summaryTimeout = nullptr;
    QComboBox *m_strategy = nullptr;
    QCheckBox *m_countSchemas = nullptr;
    QCheckBox *m_reviewSummaries = nullptr;
    QPushButton *m_restore = nullptr;
};

} // namespace wl
