#include "ThresholdsPanel.h"

#include "PolicyScoreView.h"

#include <QListWidget>

#include "TierStyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QStringList>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr std::array<Tier, 4> kTiers{Tier::Warn, Tier::Soft, Tier::Full, Tier::Emergency};

} // namespace

ThresholdsPanel::ThresholdsPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(u"ThresholdsPanel"_s);

    auto *tiersBox = new QGroupBox(tr("Tier thresholds (% of the context window)"), this);
    auto *tiersGrid = new QGridLayout(tiersBox);
    for (int i = 0; i < 4; ++i) {
        const Tier tier = kTiers[size_t(i)];
        auto *label = new QLabel(tierDisplayName(tier), tiersBox);
        label->setStyleSheet(u"color: %1; font-weight: bold;"_s.arg(tierColor(tier).name()));
        auto *slider = new QSlider(Qt::Horizontal, tiersBox);
        slider->setObjectName(u"ThresholdSlider_"_s + tierName(tier));
        slider->setRange(1, 1000);
        slider->setPageStep(50);
        auto *spin = new QDoubleSpinBox(tiersBox);
        spin->setObjectName(u"ThresholdSpin_"_s + tierName(tier));
        spin->setRange(0.1, 100.0);
        spin->setDecimals(1);
        spin->setSingleStep(1.0);
        spin->setSuffix(u" %"_s);
        label->setBuddy(spin);
        tiersGrid->addWidget(label, i, 0);
        tiersGrid->addWidget(slider, i, 1);
        tiersGrid->addWidget(spin, i, 2);
        m_sliders[size_t(i)] = slider;
        m_spins[size_t(i)] = spin;
        connect(slider, &QSlider::valueChanged, this, [this, i](int v) {
            if (!m_syncing)
                setThreshold(i, v / 1000.0);
        });
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, i](double v) {
            if (!m_syncing)
                setThreshold(i, v / 100.0);
        });
    }

    // What Soft, Full and Emergency do; beside the sliders because it changes what they trigger.
    auto *strategyLabel = new QLabel(tr("Strate&gy:"), tiersBox);
    m_strategy = new QComboBox(tiersBox);
    m_strategy->setObjectName(u"StrategyCombo"_s);
    for (CompactionStrategy strategy : allCompactionStrategies()) {
        m_strategy->addItem(strategyDisplayName(strategy), int(strategy));
        m_strategy->setItemData(m_strategy->count() - 1, strategyDescription(strategy), Qt::ToolTipRole);
    }
    strategyLabel->setBuddy(m_strategy);
    tiersGrid->addWidget(strategyLabel, 4, 0);
    tiersGrid->addWidget(m_strategy, 4, 1, 1, 2);
    connect(m_strategy, &QComboBox::currentIndexChanged, this, [this] {
        m_strategy->setToolTip(strategyDescription(CompactionStrategy(m_strategy->currentData().toInt())));
        if (m_syncing)
            return;
        m_policy.strategy = CompactionStrategy(m_strategy->currentData().toInt());
        emitEdited();
    });
    m_strategy->setToolTip(strategyDescription(CompactionStrategy(m_strategy->currentData().toInt())));

    auto *otherBox = new QGroupBox(tr("Window, tail and offloading"), this);
    auto *form = new QFormLayout(otherBox);
    auto spinBox = [&](const QString &name, int min, int max, int step, const QString &suffix) {
        auto *box = new QSpinBox(otherBox);
        box->setObjectName(name);
        box->setRange(min, max);
        box->setSingleStep(step);
        box->setSuffix(suffix);
        box->setGroupSeparatorShown(true);
        connect(box, &QSpinBox::valueChanged, this, [this] {
            if (m_syncing)
                return;
            m_policy.contextWindow = m_window->value();
            m_policy.tailMessages = m_tail->value();
            m_policy.offloadAtToolTime = m_gate1->value();
            m_policy.offloadAtCompaction = m_gate2->value();
            m_policy.reservedOutput = m_reserved->value();
            emitEdited();
        });
        return box;
    };
    m_window = spinBox(u"ContextWindowSpin"_s, 0, 10'000'000, 1000, tr(" tokens"));
    m_window->setSpecialValueText(tr("never compact"));
    m_tail = spinBox(u"TailSpin"_s, 1, 500, 1, tr(" messages"));
    m_gate1 = spinBox(u"Gate1Spin"_s, 0, 100'000'000, 1000, tr(" bytes"));
    m_gate2 = spinBox(u"Gate2Spin"_s, 0, 100'000'000, 500, tr(" bytes"));
    m_reserved = spinBox(u"ReservedSpin"_s, 0, 1'000'000, 256, tr(" tokens"));
    m_countSchemas = new QCheckBox(tr("Count tool schemas in the ratio"), otherBox);
    m_countSchemas->setObjectName(u"CountSchemasCheck"_s);
    connect(m_countSchemas, &QCheckBox::toggled, this, [this](bool on) {
        if (m_syncing)
            return;
        m_policy.countToolSchemas = on;
        emitEdited();
    });
    form->addRow(tr("Context &window:"), m_window);
    form->addRow(tr("&Tail kept verbatim:"), m_tail);
    form->addRow(tr("Offload at tool t&ime (gate 1):"), m_gate1);
    form->addRow(tr("Offload at com&paction (gate 2):"), m_gate2);
    form->addRow(tr("&Reserved for output:"), m_reserved);
    form->addRow(QString(), m_countSchemas);

    auto *totalsBox = new QGroupBox(tr("Recorded against what-if"), this);
    auto *totalsGrid = new QGridLayout(totalsBox);
    auto *recordedHeader = new QLabel(tr("<b>Recorded</b>"), totalsBox);
    recordedHeader->setToolTip(tr("What the session did, from its stored requests and compactions"));
    auto *whatIfHeader = new QLabel(tr("<b>What-if</b>"), totalsBox);
    whatIfHeader->setToolTip(tr("The replay of the session under the policy above"));
    totalsGrid->addWidget(recordedHeader, 0, 1, Qt::AlignRight);
    totalsGrid->addWidget(whatIfHeader, 0, 2, Qt::AlignRight);
    const std::array<std::pair<QString, QString>, TotalsRowCount> rows{{
        {tr("Context window"), tr("The window, in tokens, the peaks below are shares of")},
        {tr("Requests"), tr("Requests to the model, one per recorded request")},
        {tr("Tokens sent in requests"),
         tr("Every request's context (estimated), tool schemas when counted and any fixed overhead, summed over the requests")},
        {tr("Read by summaries"),
         tr("Tokens the Soft and Full summaries read: the input an LLM summariser is sent, besides the requests. "
            "The session does not record it.")},
        {tr("Summary calls"), tr("Soft and Full compactions that wrote a summary (an LLM call with an LLM summariser)")},
        {tr("Requests at %1").arg(tierDisplayName(Tier::Warn)), tr("Requests whose estimate before compaction reached Warn: results offloaded")},
        {tr("Requests at %1").arg(tierDisplayName(Tier::Soft)), tr("Requests whose estimate before compaction reached Soft: the older half of the head summarised "
                                                                   "(mask and hybrid: the head's tool results masked first)")},
        {tr("Requests at %1").arg(tierDisplayName(Tier::Full)), tr("Requests whose estimate before compaction reached Full: the whole head summarised "
                                                                   "(mask and hybrid: the head's tool results masked first)")},
        {tr("Requests at %1").arg(tierDisplayName(Tier::Emergency)),
         tr("Requests whose estimate before compaction reached Emergency: summarised without an LLM call and offloaded")},
        {tr("Offloads"), tr("Tool results moved to files, when the tool finished (gate 1) and at compaction (gate 2)")},
        {tr("Peak before compaction"), tr("The highest share of the window a request reached before its compaction: what chose the tier")},
        {tr("Peak after compaction"), tr("The highest share of the window a request was sent with")},
    }};
    for (int r = 0; r < TotalsRowCount; ++r) {
        auto *name = new QLabel(rows[size_t(r)].first, totalsBox);
        name->setToolTip(rows[size_t(r)].second);
        totalsGrid->addWidget(name, r + 1, 0);
        for (int c = 0; c < 2; ++c) {
            auto *value = new QLabel(u"–"_s, totalsBox);
            value->setObjectName(u"Totals_%1_%2"_s.arg(r).arg(c));
            value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            value->setToolTip(rows[size_t(r)].second);
            totalsGrid->addWidget(value, r + 1, c + 1);
            m_totals[size_t(r)][size_t(c)] = value;
        }
    }
    m_totalsNote = new QLabel(totalsBox);
    m_totalsNote->setObjectName(u"TotalsNote"_s);
    m_totalsNote->setWordWrap(true);
    m_totalsNote->hide();
    totalsGrid->addWidget(m_totalsNote, TotalsRowCount + 1, 0, 1, 3);
    m_pinsNote = new QLabel(totalsBox);
    m_pinsNote->setObjectName(u"PinsAfterRecordingNote"_s);
    m_pinsNote->setWordWrap(true);
    m_pinsNote->hide();
    totalsGrid->addWidget(m_pinsNote, TotalsRowCount + 2, 0, 1, 3);
    m_timing = new QLabel(totalsBox);
    m_timing->setEnabled(false);
    totalsGrid->addWidget(m_timing, TotalsRowCount + 3, 0, 1, 3);

    m_apply = new QPushButton(tr("&Apply to session"), this);
    m_apply->setObjectName(u"ApplyPolicyButton"_s);
    m_apply->setToolTip(tr("Make this the session's live compaction policy"));
    m_reset = new QPushButton(tr("Re&set to session policy"), this);
    m_reset->setObjectName(u"ResetPolicyButton"_s);
    connect(m_apply, &QPushButton::clicked, this, [this] {
        m_sessionPolicy = m_policy;
        m_apply->setEnabled(false);
        updateResetText();
        Q_EMIT applyRequested(m_policy);
    });
    connect(m_reset, &QPushButton::clicked, this, [this] {
        // The whole policy the session runs with, window included: every edit above is undone.
        setPolicy(m_sessionPolicy);
        emitEdited();
    });
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_reset);
    buttons->addWidget(m_apply);

    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->addWidget(tiersBox);
    layout->addWidget(otherBox);
    layout->addWidget(totalsBox);
    m_scoreView = new PolicyScoreView(content);
    layout->addWidget(m_scoreView);
    // Tab in reading order: the score's list of lost facts comes before the buttons below it.
    setTabOrder(m_countSchemas, m_scoreView->lostList());
    setTabOrder(m_scoreView->lostList(), m_reset);
    setTabOrder(m_reset, m_apply);
    layout->addLayout(buttons);
    layout->addStretch();
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setFocusPolicy(Qt::NoFocus); // no Tab stop of its own: a control that takes the focus scrolls into view
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(content);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    setPolicy(m_policy);
    updateResetText();
}

QSlider *ThresholdsPanel::thresholdSlider(Tier tier) const
{
    const int i = int(tier) - 1;
    return i >= 0 && i < 4 ? m_sliders[size_t(i)] : nullptr;
}

QDoubleSpinBox *ThresholdsPanel::thresholdSpin(Tier tier) const
{
    const int i = int(tier) - 1;
    return i >= 0 && i < 4 ? m_spins[size_t(i)] : nullptr;
}

QString ThresholdsPanel::totalsText(int row, bool whatIf) const
{
    return m_totals[size_t(row)][whatIf ? 1 : 0]->text();
}

QString ThresholdsPanel::totalsNote() const
{
    return m_totalsNote->isHidden() ? QString() : m_totalsNote->text();
}

void ThresholdsPanel::setPolicy(const CompactionPolicy &policy)
{
    m_policy = policy;
    m_order.reset(m_policy);
    syncControls();
}

void ThresholdsPanel::editPolicy(const CompactionPolicy &policy)
{
    setPolicy(policy);
    emitEdited();
}

void ThresholdsPanel::setSessionPolicy(const CompactionPolicy &policy)
{
    m_sessionPolicy = policy;
    // Not a threshold: the Compactions dock sets it, and Apply here keeps what the session has.
    m_policy.reviewSummaries = policy.reviewSummaries;
    m_apply->setEnabled(!(m_policy == m_sessionPolicy));
    updateResetText();
}

void ThresholdsPanel::updateResetText()
{
    const QLocale locale;
    const CompactionPolicy &p = m_sessionPolicy;
    auto percent = [&locale](double v) { return locale.toString(v * 100.0, 'f', 1) + u" %"_s; };
    const QString window = p.contextWindow > 0 ? tr("%1 tokens").arg(locale.toString(p.contextWindow)) : tr("never compact");
    m_reset->setToolTip(tr("Restore the whole policy the session runs with: window %1; Warn %2, Soft %3, Full %4, Emergency %5; "
                           "tail %6 messages; offload at tool time above %7 bytes, at compaction above %8 bytes; "
                           "%9 tokens reserved for output; tool schemas %10; strategy %11")
                            .arg(window, percent(p.warn), percent(p.soft), percent(p.full), percent(p.emergency))
                            .arg(p.tailMessages)
                            .arg(locale.toString(p.offloadAtToolTime), locale.toString(p.offloadAtCompaction),
                                 locale.toString(p.reservedOutput),
                                 p.countToolSchemas ? tr("counted") : tr("not counted"))
                            .arg(strategyDisplayName(p.strategy)));
}

void ThresholdsPanel::setThreshold(int which, double value)
{
    m_order.set(m_policy, which, value);
    syncControls();
    emitEdited();
}

void ThresholdsPanel::syncControls()
{
    m_syncing = true;
    for (int i = 0; i < 4; ++i) {
        const double v = m_policy.thresholdAt(i);
        m_sliders[size_t(i)]->setValue(int(std::lround(v * 1000.0)));
        m_spins[size_t(i)]->setValue(v * 100.0);
    }
    m_window->setValue(int(std::min<qint64>(m_policy.contextWindow, m_window->maximum())));
    m_tail->setValue(m_policy.tailMessages);
    m_gate1->setValue(int(std::min<qint64>(m_policy.offloadAtToolTime, m_gate1->maximum())));
    m_gate2->setValue(int(std::min<qint64>(m_policy.offloadAtCompaction, m_gate2->maximum())));
    m_reserved->setValue(int(std::min<qint64>(m_policy.reservedOutput, m_reserved->maximum())));
    m_countSchemas->setChecked(m_policy.countToolSchemas);
    m_strategy->setCurrentIndex(m_strategy->findData(int(m_policy.strategy)));
    m_syncing = false;
    m_apply->setEnabled(!(m_policy == m_sessionPolicy));
}

void ThresholdsPanel::emitEdited()
{
    m_apply->setEnabled(!(m_policy == m_sessionPolicy));
    Q_EMIT policyEdited(m_policy);
}

void ThresholdsPanel::showTotals(int column, const SimulationTotals &t)
{
    const QLocale locale;
    auto set = [&](TotalsRow row, const QString &text) { m_totals[size_t(row)][size_t(column)]->setText(text); };
    auto percent = [&locale](double ratio) { return locale.toString(ratio * 100.0, 'f', 1) + u'%'; };
    set(WindowRow, t.window > 0 ? locale.toString(t.window) : tr("never compact"));
    set(RequestsRow, locale.toString(t.requests));
    set(TokensSentRow, locale.toString(t.tokensSent));
    set(SummaryInputRow, t.summaryInputTokens >= 0 ? locale.toString(t.summaryInputTokens) : tr("not recorded"));
    set(SummaryCallsRow, locale.toString(t.summaryCalls));
    set(WarnRow, locale.toString(t.tiers[size_t(Tier::Warn)]));
    set(SoftRow, locale.toString(t.tiers[size_t(Tier::Soft)]));
    set(FullRow, locale.toString(t.tiers[size_t(Tier::Full)]));
    set(EmergencyRow, locale.toString(t.tiers[size_t(Tier::Emergency)]));
    set(OffloadsRow, locale.toString(t.offloads));
    set(PeakBeforeRow, percent(t.peakRatioBefore));
    set(PeakAfterRow, percent(t.peakRatio));
    m_shown[size_t(column)] = t;
    m_hasTotals[size_t(column)] = true;

    // A count of Emergency requests next to a peak below the Emergency threshold says why.
    bool explain = false;
    for (int c = 0; c < 2; ++c) {
        const SimulationTotals &shown = m_shown[size_t(c)];
        explain = explain || (m_hasTotals[size_t(c)] && shown.emergencies > 0 && shown.peakRatio < shown.peakRatioBefore);
    }
    m_totalsNote->setText(tr("A tier is chosen on a request's estimate before compaction; the compaction then brings it down, "
                             "so the peak after compaction can stay below the Emergency threshold."));
    m_totalsNote->setVisible(explain);
}

QString ThresholdsPanel::pinsNote() const
{
    return m_pinsNote->isHidden() ? QString() : m_pinsNote->text();
}

void ThresholdsPanel::setPinsAfterRecording(const WhatIfSession::PinsAfterRecording &effect)
{
    if (effect.pins <= 0) {
        m_pinsNote->clear();
        m_pinsNote->hide();
        return;
    }
    const QLocale locale;
    // Pins can bring compactions forward: the run with them may send fewer tokens, not more.
    const qint64 added = effect.tokensSentAdded();
    QString text = added >= 0
        ? tr("Pins made after the recording: %n, %1 tokens, in every what-if request and in none of the "
             "recorded ones. They add %2 tokens sent (%3 without them).", nullptr, effect.pins)
              .arg(locale.toString(effect.pinnedTokens), locale.toString(added), locale.toString(effect.without.tokensSent))
        : tr("Pins made after the recording: %n, %1 tokens, in every what-if request and in none of the "
             "recorded ones. With the compactions they bring forward, %2 fewer tokens are sent (%3 without them).",
             nullptr, effect.pins)
              .arg(locale.toString(effect.pinnedTokens), locale.toString(-added), locale.toString(effect.without.tokensSent));
    if (effect.changesTiers()) {
        QStringList changes;
        for (Tier tier : {Tier::Warn, Tier::Soft, Tier::Full, Tier::Emergency}) {
            const int before = effect.without.tiers[size_t(tier)];
            const int after = effect.with.tiers[size_t(tier)];
            if (before != after)
                changes << tr("%1 %2 → %3").arg(tierDisplayName(tier)).arg(before).arg(after);
        }
        text += u' ' + tr("Requests per tier: %1.").arg(changes.join(u", "_s));
    } else {
        text += u' ' + tr("The tiers are the same.");
    }
    m_pinsNote->setText(text);
    m_pinsNote->show();
}

void ThresholdsPanel::setRecordedTotals(const SimulationTotals &totals)
{
    showTotals(0, totals);
}

void ThresholdsPanel::setWhatIfTotals(const SimulationTotals &totals, qint64 elapsedMs)
{
    showTotals(1, totals);
    m_timing->setText(tr("Replayed %n request(s) in %1 ms", nullptr, totals.requests).arg(elapsedMs));
}

} // namespace wl
