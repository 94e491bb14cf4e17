#include "CompactionPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr std::array kTiers{Tier::Warn, Tier::Soft, Tier::Full, Tier::Emergency};

QSpinBox *countSpin(const QString &objectName, int maximum, const QString &suffix, QWidget *parent)
{
    auto *spin = new QSpinBox(parent);
    spin->setObjectName(objectName);
    spin->setRange(0, maximum);
    spin->setGroupSeparatorShown(true);
    spin->setSuffix(suffix);
    return spin;
}

} // namespace

CompactionPage::CompactionPage(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(u"compactionPage"_s);
    auto *layout = new QVBoxLayout(this);

    auto *intro = new QLabel(tr("The policy new sessions start with. A session can change its own "
                                "policy in the Thresholds dock."), this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *thresholdsBox = new QGroupBox(tr("Thresholds (share of the context window in use)"), this);
    auto *thresholds = new QFormLayout(thresholdsBox);
    const char *const mnemonics[] = {QT_TR_NOOP("&Warn at:"), QT_TR_NOOP("&Soft compaction at:"),
                                     QT_TR_NOOP("&Full compaction at:"), QT_TR_NOOP("&Emergency at:")};
    for (size_t i = 0; i < kTiers.size(); ++i) {
        auto *spin = new QDoubleSpinBox(thresholdsBox);
        spin->setObjectName(u"threshold_"_s + tierName(kTiers[i]));
        spin->setRange(1.0, 100.0);
        spin->setDecimals(1);
        spin->setSingleStep(1.0);
        spin->setSuffix(tr(" %"));
        spin->setAccessibleName(tierDisplayName(kTiers[i]));
        m_thresholds[i] = spin;
        thresholds->addRow(tr(mnemonics[i]), spin);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, i](double value) { onThresholdChanged(int(i), value); });
    }
    auto *order = new QLabel(tr("The thresholds stay in order: raising one raises those above it."), thresholdsBox);
    order->setWordWrap(true);
    thresholds->addRow(order);
    layout->addWidget(thresholdsBox);

    auto *keepBox = new QGroupBox(tr("What a compaction keeps"), this);
    auto *keep = new QFormLayout(keepBox);
    m_tail = countSpin(u"tailSpin"_s, 10000, tr(" messages"), keepBox);
    m_tail->setMinimum(1);
    m_tail->setToolTip(tr("The newest messages are never summarised"));
    keep->addRow(tr("&Tail kept verbatim:"), m_tail);
    m_reservedOutput = countSpin(u"reservedOutputSpin"_s, 10'000'000, tr(" tokens"), keepBox);
    m_reservedOutput->setSpecialValueText(tr("None"));
    m_reservedOutput->setToolTip(tr("Room left for the model's answer when measuring how full the context is"));
    keep->addRow(tr("&Reserved for output:"), m_reservedOutput);
    m_countSchemas = new QCheckBox(tr("&Count tool schemas in the context size"), keepBox);
    m_countSchemas->setObjectName(u"countToolSchemasCheck"_s);
    keep->addRow(m_countSchemas);
    m_reviewSummaries = new QCheckBox(tr("Review su&mmaries before they commit (new sessions)"), keepBox);
    m_reviewSummaries->setObjectName(u"reviewSummariesCheck"_s);
    m_reviewSummaries->setToolTip(tr("A Soft or Full summary waits for you to read, edit and accept it; each session "
                                     "can turn it on or off in the Compactions dock"));
    keep->addRow(m_reviewSummaries);
    layout->addWidget(keepBox);

    auto *offloadBox = new QGroupBox(tr("Offloading large tool results to files"), this);
    auto *offload = new QFormLayout(offloadBox);
    m_offloadToolTime = countSpin(u"offloadAtToolTimeSpin"_s, 1'000'000'000, tr(" bytes"), offloadBox);
    offload->addRow(tr("When a tool retur&ns, above:"), m_offloadToolTime);
    m_previewToolTime = countSpin(u"previewLinesToolTimeSpin"_s, 10000, tr(" lines"), offloadBox);
    offload->addRow(tr("  keeping a &preview of:"), m_previewToolTime);
    m_offloadCompaction = countSpin(u"offloadAtCompactionSpin"_s, 1'000'000'000, tr(" bytes"), offloadBox);
    offload->addRow(tr("When compacting, a&bove:"), m_offloadCompaction);
    m_previewCompaction = countSpin(u"previewLinesCompactionSpin"_s, 10000, tr(" lines"), offloadBox);
    offload->addRow(tr("  keeping a pre&view of:"), m_previewCompaction);
    layout->addWidget(offloadBox);

    auto *summaryBox = new QGroupBox(tr("Summaries"), this);
    auto *summary = new QFormLayout(summaryBox);
    m_strategy = new QComboBox(summaryBox);
    m_strategy->setObjectName(u"strategyCombo"_s);
    for (CompactionStrategy strategy : allCompactionStrategies()) {
        m_strategy->addItem(strategyDisplayName(strategy), int(strategy));
        m_strategy->setItemData(m_strategy->count() - 1, strategyDescription(strategy), Qt::ToolTipRole);
    }
    summary->addRow(tr("Strate&gy:"), m_strategy);
    auto *strategyNote = new QLabel(summaryBox);
    strategyNote->setWordWrap(true);
    summary->addRow(strategyNote);
    connect(m_strategy, &QComboBox::currentIndexChanged, this, [this, strategyNote] {
        strategyNote->setText(strategyDescription(CompactionStrategy(m_strategy->currentData().toInt())));
        if (!m_syncing)
            Q_EMIT edited();
    });
    strategyNote->setText(strategyDescription(CompactionStrategy(m_strategy->currentData().toInt())));
    m_summaryTimeout = new QSpinBox(summaryBox);
    m_summaryTimeout->setObjectName(u"summaryTimeoutSpin"_s);
    m_summaryTimeout->setRange(1, 3600);
    m_summaryTimeout->setSuffix(tr(" s"));
    m_summaryTimeout->setToolTip(tr("After this the next fallback is used instead of waiting for the summary"));
    summary->addRow(tr("Give &up on a summary after:"), m_summaryTimeout);
    layout->addWidget(summaryBox);

    m_restore = new QPushButton(tr("Restore &defaults"), this);
    m_restore->setObjectName(u"restoreDefaultsButton"_s);
    m_restore->setAutoDefault(false);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_restore);
    layout->addLayout(buttons);
    layout->addStretch(1);

    connect(m_restore, &QPushButton::clicked, this, &CompactionPage::restoreDefaults);
    for (QSpinBox *spin : {m_tail, m_offloadToolTime, m_offloadCompaction, m_previewToolTime, m_previewCompaction,
                           m_reservedOutput, m_summaryTimeout}) {
        connect(spin, &QSpinBox::valueChanged, this, [this] {
            if (!m_syncing)
                Q_EMIT edited();
        });
    }
    connect(m_countSchemas, &QCheckBox::toggled, this, [this] {
        if (!m_syncing)
            Q_EMIT edited();
    });
    connect(m_reviewSummaries, &QCheckBox::toggled, this, [this] {
        if (!m_syncing)
            Q_EMIT edited();
    });

    setPolicy(CompactionPolicy{});
}

QDoubleSpinBox *CompactionPage::thresholdSpin(Tier tier) const
{
    for (size_t i = 0; i < kTiers.size(); ++i) {
        if (kTiers[i] == tier)
            return m_thresholds[i];
    }
    return nullptr;
}

void CompactionPage::onThresholdChanged(int which, double percent)
{
    if (m_syncing)
        return;
    m_syncing = true;
    // The policy's one ordering rule (ThresholdOrder), as the Thresholds dock keeps it.
    CompactionPolicy p;
    for (int i = 0; i < int(m_thresholds.size()); ++i)
        p.thresholdAt(i) = m_thresholds[size_t(i)]->value() / 100.0;
    m_order.set(p, which, percent / 100.0);
    for (int i = 0; i < int(m_thresholds.size()); ++i)
        m_thresholds[size_t(i)]->setValue(p.thresholdAt(i) * 100.0);
    m_syncing = false;
    Q_EMIT edited();
}

CompactionPolicy CompactionPage::policy() const
{
    CompactionPolicy p = m_base;
    for (size_t i = 0; i < m_thresholds.size(); ++i)
        p.thresholdAt(int(i)) = std::round(m_thresholds[i]->value() * 10.0) / 1000.0;
    p.tailMessages = m_tail->value();
    p.offloadAtToolTime = m_offloadToolTime->value();
    p.offloadAtCompaction = m_offloadCompaction->value();
    p.previewLinesToolTime = m_previewToolTime->value();
    p.previewLinesCompaction = m_previewCompaction->value();
    p.reservedOutput = m_reservedOutput->value();
    p.countToolSchemas = m_countSchemas->isChecked();
    p.reviewSummaries = m_reviewSummaries->isChecked();
    p.strategy = CompactionStrategy(m_strategy->currentData().toInt());
    // Whole seconds shown; a stored value that is not whole is kept while untouched.
    if (m_summaryTimeout->value() != (m_base.summaryTimeoutMs + 999) / 1000)
        p.summaryTimeoutMs = m_summaryTimeout->value() * 1000;
    return p;
}

void CompactionPage::setPolicy(const CompactionPolicy &policy)
{
    m_syncing = true;
    m_base = policy;
    m_order.reset(policy);
    for (size_t i = 0; i < m_thresholds.size(); ++i)
        m_thresholds[i]->setValue(policy.thresholdAt(int(i)) * 100.0);
    m_tail->setValue(policy.tailMessages);
    m_offloadToolTime->setValue(int(std::min<qint64>(policy.offloadAtToolTime, m_offloadToolTime->maximum())));
    m_offloadCompaction->setValue(int(std::min<qint64>(policy.offloadAtCompaction, m_offloadCompaction->maximum())));
    m_previewToolTime->setValue(policy.previewLinesToolTime);
    m_previewCompaction->setValue(policy.previewLinesCompaction);
    m_reservedOutput->setValue(int(std::min<qint64>(policy.reservedOutput, m_reservedOutput->maximum())));
    m_countSchemas->setChecked(policy.countToolSchemas);
    m_reviewSummaries->setChecked(policy.reviewSummaries);
    m_strategy->setCurrentIndex(m_strategy->findData(int(policy.strategy)));
    m_summaryTimeout->setValue((policy.summaryTimeoutMs + 999) / 1000);
    m_syncing = false;
}

void CompactionPage::restoreDefaults()
{
    CompactionPolicy defaults;
    defaults.contextWindow = m_base.contextWindow;
    setPolicy(defaults);
    Q_EMIT edited();
}

} // namespace wl
