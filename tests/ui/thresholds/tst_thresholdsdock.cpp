#include "WhatIfBinding.h"
#include "thresholds/ThresholdsPanel.h"
#include "compaction/TokenEstimate.h"
#include "timeline/TimelineModel.h"
#include "whatif/WhatIfSession.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
// A session that grows steadily: every request adds a user turn, a call and a 3 KB result.
Simulator::Input growingSession(int requests)
{
    Simulator::Input input;
    input.systemPrompt = u"You are a careful agent."_s;
    input.sessionId = u"s1"_s;
    qint64 id = 1;
    for (int i = 0; i < requests; ++i) {
        Message user = Message::user(u"Step %1: look at file_%1.txt"_s.arg(i));
        user.id = id++;
        const QString callId = u"call_%1"_s.arg(i);
        Message call = Message::assistant(u"Reading it."_s, {{callId, u"read_file"_s, uR"({"path":"file.txt"})"_s, true}});
        call.id = id++;
        Message result = Message::toolResult(callId, QString(3000, QChar(u'a' + i % 26)));
        result.id = id++;
        for (Message *m : {&user, &call, &result}) {
            m->cacheBytes();
            input.history.append(*m);
        }
        input.requests.append(input.history.size());
    }
    input.policy.contextWindow = 12000;
    return input;
}
} // namespace

class TestThresholdsDock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void orderIsKept_data();
    void orderIsKept();
    void spinAndSliderAgree();
    void fieldsEmitPolicy();
    void applyAndReset();
    void pushedNeighbourReturns();
    void totalsTableSaysWhatItCounts();
    void sliderDrivesWhatIf();
    void strategyComboDrivesWhatIf();
    void runnerCoalesces();
    void runnerSharesFactsAcrossRuns();
    void whatIfWindowReachesTheTimeline();
};

void TestThresholdsDock::orderIsKept_data()
{
    QTest::addColumn<int>("tier");
    QTest::addColumn<int>("perMille");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("warn-up-pushes-all") << int(Tier::Warn) << 900 << QList<double>{0.9, 0.9, 0.9, 0.95};
    QTest::newRow("emergency-down-pushes-all") << int(Tier::Emergency) << 500 << QList<double>{0.5, 0.5, 0.5, 0.5};
    QTest::newRow("soft-between") << int(Tier::Soft) << 650 << QList<double>{0.6, 0.65, 0.8, 0.95};
    QTest::newRow("full-down-past-soft") << int(Tier::Full) << 620 << QList<double>{0.6, 0.62, 0.62, 0.95};
}

void TestThresholdsDock::orderIsKept()
{
    QFETCH(int, tier);
    QFETCH(int, perMille);
    QFETCH(QList<double>, expected);
    ThresholdsPanel panel;
    QSignalSpy spy(&panel, &ThresholdsPanel::policyEdited);
    panel.thresholdSlider(Tier(tier))->setValue(perMille);
    const CompactionPolicy p = panel.policy();
    QCOMPARE((QList<double>{p.warn, p.soft, p.full, p.emergency}), expected);
    QVERIFY2(p.isValid(), qPrintable(p.validate()));
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).value<CompactionPolicy>(), p);
}

void TestThresholdsDock::spinAndSliderAgree()
{
    ThresholdsPanel panel;
    panel.thresholdSpin(Tier::Full)->setValue(85.0);
    QCOMPARE(panel.thresholdSlider(Tier::Full)->value(), 850);
    QCOMPARE(panel.policy().full, 0.85);
    panel.thresholdSlider(Tier::Soft)->setValue(725);
    QCOMPARE(panel.thresholdSpin(Tier::Soft)->value(), 72.5);
}

void TestThresholdsDock::fieldsEmitPolicy()
{
    ThresholdsPanel panel;
    QSignalSpy spy(&panel, &ThresholdsPanel::policyEdited);
    panel.findChild<QSpinBox *>(u"TailSpin"_s)->setValue(9);
    panel.findChild<QSpinBox *>(u"Gate2Spin"_s)->setValue(2500);
    panel.findChild<QSpinBox *>(u"ContextWindowSpin"_s)->setValue(32000);
    QCOMPARE(spy.size(), 3);
    QCOMPARE(panel.policy().tailMessages, 9);
    QCOMPARE(panel.policy().offloadAtCompaction, 2500);
    QCOMPARE(panel.policy().contextWindow, 32000);
    // Showing a policy does not count as an edit.
    panel.setPolicy(CompactionPolicy());
    QCOMPARE(spy.size(), 3);
    QCOMPARE(panel.findChild<QSpinBox *>(u"TailSpin"_s)->value(), 6);
}

void TestThresholdsDock::applyAndReset()
{
    ThresholdsPanel panel;
    CompactionPolicy session;
    session.contextWindow = 50000;
    session.tailMessages = 8;
    session.soft = 0.75;
    panel.setPolicy(session);
    panel.setSessionPolicy(session);
    QVERIFY(!panel.applyButton()->isEnabled());
    // Reset says what it resets to.
    QVERIFY2(panel.resetButton()->text().contains(u"session"_s), qPrintable(panel.resetButton()->text()));
    QVERIFY2(panel.resetButton()->toolTip().contains(QLocale().toString(50000)), qPrintable(panel.resetButton()->toolTip()));
    QVERIFY(panel.resetButton()->toolTip().contains(QLocale().toString(75.0, 'f', 1)));

    // Edits of every kind, the window among them, are all undone by Reset.
    panel.thresholdSlider(Tier::Warn)->setValue(500);
    panel.thresholdSlider(Tier::Emergency)->setValue(400); // pushes the others down
    panel.findChild<QSpinBox *>(u"ContextWindowSpin"_s)->setValue(20000);
    panel.findChild<QSpinBox *>(u"TailSpin"_s)->setValue(3);
    QVERIFY(panel.applyButton()->isEnabled());
    QSignalSpy edited(&panel, &ThresholdsPanel::policyEdited);
    panel.resetButton()->click();
    QCOMPARE(panel.policy(), session);
    QCOMPARE(edited.size(), 1);
    QCOMPARE(edited.at(0).at(0).value<CompactionPolicy>(), session);
    QCOMPARE(panel.thresholdSlider(Tier::Soft)->value(), 750);
    QCOMPARE(panel.findChild<QSpinBox *>(u"ContextWindowSpin"_s)->value(), 50000);
    QVERIFY(!panel.applyButton()->isEnabled());
    // After a reset, moving a slider starts from the session's thresholds, not the pushed ones.
    panel.thresholdSlider(Tier::Warn)->setValue(650);
    QCOMPARE(panel.policy().soft, 0.75);

    // Applied, a policy is the session's: Reset returns to it.
    QSignalSpy apply(&panel, &ThresholdsPanel::applyRequested);
    panel.applyButton()->click();
    QCOMPARE(apply.size(), 1);
    QCOMPARE(apply.at(0).at(0).value<CompactionPolicy>().warn, 0.65);
    QVERIFY(!panel.applyButton()->isEnabled());
    QVERIFY(panel.resetButton()->toolTip().contains(QLocale().toString(65.0, 'f', 1)));
    panel.thresholdSlider(Tier::Warn)->setValue(300);
    panel.resetButton()->click();
    QCOMPARE(panel.policy().warn, 0.65);
    QCOMPARE(panel.policy().contextWindow, 50000);
}

// A threshold pushed aside by a neighbour goes back to where it was set when the neighbour
// moves back; one the user moves afterwards stays where it is put.
void TestThresholdsDock::pushedNeighbourReturns()
{
    ThresholdsPanel panel; // 60, 70, 80, 95 %
    QSlider *warn = panel.thresholdSlider(Tier::Warn);
    warn->setValue(900);
    QCOMPARE(panel.policy().soft, 0.9);
    QCOMPARE(panel.policy().full, 0.9);
    warn->setValue(750);
    QCOMPARE(panel.policy().soft, 0.75); // still in the way
    QCOMPARE(panel.policy().full, 0.8);  // back where it was
    warn->setValue(500);
    QCOMPARE((QList<double>{panel.policy().warn, panel.policy().soft, panel.policy().full, panel.policy().emergency}),
             (QList<double>{0.5, 0.7, 0.8, 0.95}));
    QCOMPARE(panel.thresholdSlider(Tier::Soft)->value(), 700);
    QCOMPARE(panel.thresholdSpin(Tier::Full)->value(), 80.0);

    // Downwards too, through the spin box.
    panel.thresholdSpin(Tier::Emergency)->setValue(40.0);
    QCOMPARE((QList<double>{panel.policy().warn, panel.policy().soft, panel.policy().full}), (QList<double>{0.4, 0.4, 0.4}));
    panel.thresholdSpin(Tier::Emergency)->setValue(99.0);
    QCOMPARE((QList<double>{panel.policy().warn, panel.policy().soft, panel.policy().full}), (QList<double>{0.5, 0.7, 0.8}));

    // Moved by hand after being pushed, a threshold keeps its new place.
    warn->setValue(900);
    panel.thresholdSlider(Tier::Soft)->setValue(920);
    warn->setValue(300);
    QCOMPARE(panel.policy().soft, 0.92);
    QVERIFY(panel.policy().isValid());
}

void TestThresholdsDock::totalsTableSaysWhatItCounts()
{
    ThresholdsPanel panel;
    SimulationTotals recorded;
    recorded.window = 30000;
    recorded.requests = 152;
    recorded.tokensSent = 2267949;
    recorded.summaryInputTokens = -1;
    recorded.summaryCalls = 4;
    recorded.tiers = {118, 29, 2, 2, 1};
    recorded.emergencies = 1;
    recorded.offloads = 25;
    recorded.peakRatioBefore = 0.9791;
    recorded.peakRatio = 0.6929;
    SimulationTotals whatIf = recorded;
    whatIf.summaryInputTokens = 33891;
    panel.setRecordedTotals(recorded);
    const QLocale locale;
    QCOMPARE(panel.totalsText(ThresholdsPanel::WindowRow, false), locale.toString(30000));
    QCOMPARE(panel.totalsText(ThresholdsPanel::RequestsRow, false), locale.toString(152));
    QCOMPARE(panel.totalsText(ThresholdsPanel::TokensSentRow, false), locale.toString(2267949));
    QCOMPARE(panel.totalsText(ThresholdsPanel::SummaryCallsRow, false), locale.toString(4));
    QCOMPARE(panel.totalsText(ThresholdsPanel::WarnRow, false), locale.toString(29));
    QCOMPARE(panel.totalsText(ThresholdsPanel::SoftRow, false), locale.toString(2));
    QCOMPARE(panel.totalsText(ThresholdsPanel::FullRow, false), locale.toString(2));
    QCOMPARE(panel.totalsText(ThresholdsPanel::EmergencyRow, false), locale.toString(1));
    QCOMPARE(panel.totalsText(ThresholdsPanel::OffloadsRow, false), locale.toString(25));
    QCOMPARE(panel.totalsText(ThresholdsPanel::PeakBeforeRow, false), locale.toString(97.9, 'f', 1) + u'%');
    QCOMPARE(panel.totalsText(ThresholdsPanel::PeakAfterRow, false), locale.toString(69.3, 'f', 1) + u'%');
    // The store keeps no summariser input: the recorded column says so rather than showing a 0.
    QVERIFY(panel.totalsText(ThresholdsPanel::SummaryInputRow, false) != locale.toString(0));
    // An Emergency count next to a peak below the Emergency threshold is explained.
    QVERIFY(!panel.totalsNote().isEmpty());
    panel.setWhatIfTotals(whatIf, 12);
    QCOMPARE(panel.totalsText(ThresholdsPanel::SummaryInputRow, true), locale.toString(33891));
    for (int row = 0; row < ThresholdsPanel::TotalsRowCount; ++row) {
        if (row != ThresholdsPanel::SummaryInputRow)
            QCOMPARE(panel.totalsText(row, true), panel.totalsText(row, false));
        // Each row says what it counts.
        auto *value = panel.findChild<QLabel *>(u"Totals_%1_0"_s.arg(row));
        QVERIFY(value);
        QVERIFY(!value->toolTip().isEmpty());
    }
    // No emergency, or none that compaction brought down: no note.
    recorded.tiers[size_t(Tier::Emergency)] = recorded.emergencies = 0;
    whatIf.tiers[size_t(Tier::Emergency)] = whatIf.emergencies = 0;
    panel.setRecordedTotals(recorded);
    panel.setWhatIfTotals(whatIf, 12);
    QVERIFY(panel.totalsNote().isEmpty());
}

void TestThresholdsDock::sliderDrivesWhatIf()
{
    const Simulator::Input input = growingSession(60);
    ThresholdsPanel panel;
    TimelineModel timeline;
    QList<TimelineRow> recorded(60);
    timeline.setRecorded(recorded);
    panel.setPolicy(input.policy);
    WhatIfBinding binding(&panel, &timeline);
    binding.setSession(input);

    QSignalSpy results(&binding, &WhatIfBinding::resultReady);
    panel.thresholdSlider(Tier::Full)->setValue(700);
    QVERIFY(results.wait(5000));
    QCOMPARE(timeline.thresholds().full, 0.7);

    Simulator::Input direct = input;
    direct.policy = panel.policy();
    const SimulationResult expected = Simulator::simulate(direct);
    QCOMPARE(timeline.whatIf().size(), expected.rows.size());
    for (qsizetype i = 0; i < expected.rows.size(); ++i) {
        QCOMPARE(timeline.whatIf().at(i).ratioAfter, expected.rows.at(i).ratioAfter);
        QCOMPARE(timeline.whatIf().at(i).tier, expected.rows.at(i).tier);
    }
    QVERIFY(expected.totals.summaryCalls > 0);
    QCOMPARE(panel.totalsText(ThresholdsPanel::SummaryCallsRow, true), QLocale().toString(expected.totals.summaryCalls));
    QCOMPARE(panel.totalsText(ThresholdsPanel::TokensSentRow, true), QLocale().toString(expected.totals.tokensSent));

    // A lower full threshold changes the outcome: the what-if follows the slider.
    panel.thresholdSlider(Tier::Full)->setValue(900);
    QVERIFY(results.wait(5000));
    direct.policy = panel.policy();
    const SimulationResult moved = Simulator::simulate(direct);
    QCOMPARE(panel.totalsText(ThresholdsPanel::SummaryCallsRow, true), QLocale().toString(moved.totals.summaryCalls));
    QVERIFY(moved.totals.tokensSent != expected.totals.tokensSent);
}

void TestThresholdsDock::strategyComboDrivesWhatIf()
{
    const Simulator::Input input = growingSession(60);
    ThresholdsPanel panel;
    QComboBox *combo = panel.strategyCombo();
    QVERIFY(combo);
    QCOMPARE(combo->count(), 3);

    // Showing a policy moves the combo without reporting an edit.
    QSignalSpy edits(&panel, &ThresholdsPanel::policyEdited);
    CompactionPolicy hybrid = input.policy;
    hybrid.strategy = CompactionStrategy::Hybrid;
    panel.setPolicy(hybrid);
    QCOMPARE(CompactionStrategy(combo->currentData().toInt()), CompactionStrategy::Hybrid);
    QCOMPARE(edits.size(), 0);
    panel.setPolicy(input.policy);
    panel.setSessionPolicy(input.policy);
    QCOMPARE(CompactionStrategy(combo->currentData().toInt()), CompactionStrategy::Summarise);
    QVERIFY(!panel.applyButton()->isEnabled());

    TimelineModel timeline;
    timeline.setRecorded(QList<TimelineRow>(60));
    WhatIfBinding binding(&panel, &timeline);
    binding.setSession(input);
    QSignalSpy results(&binding, &WhatIfBinding::resultReady);

    Simulator::Input direct = input;
    const SimulationResult summarised = Simulator::simulate(direct);
    QVERIFY(summarised.totals.summaryCalls > 0);
    for (CompactionStrategy strategy : {CompactionStrategy::Mask, CompactionStrategy::Hybrid}) {
        combo->setCurrentIndex(combo->findData(int(strategy)));
        QCOMPARE(edits.last().at(0).value<CompactionPolicy>().strategy, strategy);
        QVERIFY(results.wait(5000));
        QCOMPARE(results.last().at(0).value<CompactionPolicy>().strategy, strategy);
        direct.policy = panel.policy();
        const SimulationResult expected = Simulator::simulate(direct);
        QCOMPARE(panel.totalsText(ThresholdsPanel::SummaryCallsRow, true), QLocale().toString(expected.totals.summaryCalls));
        QCOMPARE(panel.totalsText(ThresholdsPanel::OffloadsRow, true), QLocale().toString(expected.totals.offloads));
        QCOMPARE(panel.totalsText(ThresholdsPanel::TokensSentRow, true), QLocale().toString(expected.totals.tokensSent));
        QVERIFY(expected.totals.offloads > summarised.totals.offloads);
        QVERIFY(expected.totals.tokensSent != summarised.totals.tokensSent);
        for (qsizetype i = 0; i < expected.rows.size(); ++i)
            QCOMPARE(timeline.whatIf().at(i).ratioAfter, expected.rows.at(i).ratioAfter);
        if (strategy == CompactionStrategy::Mask)
            QCOMPARE(expected.totals.summaryCalls, 0);
    }
    QVERIFY(panel.applyButton()->isEnabled()); // the session still runs summarise
}

void TestThresholdsDock::runnerCoalesces()
{
    WhatIfBinding runner(nullptr, nullptr);
    runner.setSession(growingSession(400));
    QSignalSpy results(&runner, &WhatIfBinding::resultReady);
    CompactionPolicy policy;
    policy.contextWindow = 12000;
    for (int i = 0; i < 30; ++i) {
        policy.full = 0.70 + i * 0.005;
        runner.request(policy);
    }
    QTRY_VERIFY(!runner.isBusy() && results.size() >= 1);
    // The first request runs at once; the 29 that arrived meanwhile collapse into the newest.
    QVERIFY2(runner.runsStarted() <= 2, qPrintable(QString::number(runner.runsStarted())));
    QCOMPARE(results.last().at(0).value<CompactionPolicy>().full, policy.full);
}

void TestThresholdsDock::runnerSharesFactsAcrossRuns()
{
    // Slider steps over one session reuse the per-message facts of the extractive summariser, and a
    // run served from the cache gives the same what-if as a run without one.
    const Simulator::Input input = growingSession(200);
    WhatIfBinding runner(nullptr, nullptr);
    runner.setSession(input);
    const std::shared_ptr<const WhatIfSession> session = runner.session();
    QVERIFY(session);
    QCOMPARE(session->cachedFacts(), 0);
    QSignalSpy results(&runner, &WhatIfBinding::resultReady);
    CompactionPolicy policy = input.policy;
    policy.full = 0.75;
    runner.request(policy);
    QTRY_COMPARE(results.size(), 1);
    const qsizetype filled = session->cachedFacts();
    QVERIFY(filled > 0);
    policy.full = 0.72;
    runner.request(policy);
    QTRY_COMPARE(results.size(), 2);
    QCOMPARE(runner.session(), session);
    QVERIFY(session->cachedFacts() >= filled);

    Simulator::Input uncached = input;
    uncached.policy = policy;
    const SimulationResult expected = Simulator::simulate(uncached);
    const auto got = results.at(1).at(1).value<SimulationResult>();
    QCOMPARE(got.totals.summaryCalls, expected.totals.summaryCalls);
    QCOMPARE(got.totals.tokensSent, expected.totals.tokensSent);
    QCOMPARE(got.rows.size(), expected.rows.size());
    for (qsizetype i = 0; i < expected.rows.size(); ++i)
        QCOMPARE(got.rows.at(i).ratioAfter, expected.rows.at(i).ratioAfter);
    QVERIFY(expected.totals.summaryCalls > 0);

    runner.setSession(input); // a new session starts new caches
    QVERIFY(runner.session() != session);
    QCOMPARE(runner.session()->cachedFacts(), 0);
}

QTEST_MAIN(TestThresholdsDock)
// A what-if at another window: the timeline gets the replay's window and every row's tokens, so
// it can measure all its lines against one window.
void TestThresholdsDock::whatIfWindowReachesTheTimeline()
{
    const Simulator::Input input = growingSession(60);
    ThresholdsPanel panel;
    TimelineModel timeline;
    timeline.setRecorded(QList<TimelineRow>(60), input.policy.contextWindow);
    panel.setPolicy(input.policy);
    WhatIfBinding binding(&panel, &timeline);
    binding.setSession(input);
    QSignalSpy results(&binding, &WhatIfBinding::resultReady);
    const qint64 half = input.policy.contextWindow / 2;
    auto *window = panel.findChild<QSpinBox *>(u"ContextWindowSpin"_s);
    QVERIFY(window);
    window->setValue(int(half));
    QVERIFY(results.wait(5000));
    QCOMPARE(timeline.whatIfWindow(), half);
    QVERIFY(timeline.whatIfAtOtherWindow());
    QCOMPARE(timeline.referenceWindow(), half);

    Simulator::Input direct = input;
    direct.policy = panel.policy();
    const SimulationResult expected = Simulator::simulate(direct);
    QCOMPARE(timeline.whatIf().size(), expected.rows.size());
    bool compacted = false;
    for (qsizetype i = 0; i < expected.rows.size(); ++i) {
        const SimulationRow &row = expected.rows.at(i);
        const WhatIfRow &w = timeline.whatIf().at(i);
        QCOMPARE(w.tokens, row.totalTokensAfter);
        QCOMPARE(TokenEstimate::ratioFor(w.tokens, half), w.ratioAfter); // the tokens the ratio counts
        QCOMPARE(w.viewTokensBefore, row.tokensBefore);
        QCOMPARE(w.viewTokensAfter, row.tokensAfter);
        QCOMPARE(w.summarized, row.summarized);
        QCOMPARE(w.offloaded, row.offloaded);
        compacted = compacted || w.tier != Tier::None;
    }
    QVERIFY(compacted);
}

#include "tst_thresholdsdock.moc"
