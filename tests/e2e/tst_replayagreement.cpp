// `waterline-cli simulate --db` and the Thresholds dock's what-if (the loader, the panel, the
// runner and the timeline bound as the window binds them, headless) agree on a stored session
// number for number: a session the agent ran (the long task, every tier and gate 1) and an
// imported Claude Code transcript (no system prompt or tool schemas of its own).
#include "CliProcess.h"
#include "../engine/agent/LongTask.h"

#include "MainWindow.h"
#include "WhatIfBinding.h"
#include "replay/SessionImporter.h"
#include "thresholds/ThresholdsPanel.h"
#include "timeline/TimelineModel.h"
#include "workbench/LoadedSession.h"
#include "workbench/ContextGauge.h"
#include "workbench/DemoSession.h"
#include "workbench/SessionLoader.h"
#include "store/SessionStore.h"

#include <QApplication>
#include <QProcess>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {

using Cli = CliProcess;

// `waterline-cli simulate`, its output without the final newline.
Cli simulate(const QStringList &arguments, const QString &home)
{
    Cli run = runWaterlineCli(QStringList{u"simulate"_s} + arguments, home);
    run.out = run.out.trimmed();
    return run;
}

// The dock's what-if of `sessionId` under the panel's policy after `edit`, as the window wires it.
QByteArray dockWhatIf(const QString &databasePath, const QString &sessionId, const std::function<void(ThresholdsPanel &)> &edit,
                      QList<WhatIfRow> *timelineRows)
{
    LoadedSession session;
    QString error;
    if (!SessionLoader::loadNow(databasePath, sessionId, &session, &error)) {
        qWarning("load failed: %s", qPrintable(error));
        return {};
    }
    ThresholdsPanel panel;
    TimelineModel timeline;
    WhatIfBinding runner(&panel, &timeline);
    panel.setPolicy(session.policy);
    timeline.setRecorded(session.timelineRows());
    runner.setSession(session.simulatorInput());
    QSignalSpy ready(&runner, &WhatIfBinding::resultReady);
    if (edit)
        edit(panel); // emits policyEdited: the binding asks the runner
    else
        runner.request(panel.policy()); // what the window does on open
    if (!ready.wait(60000))
        return {};
    while (runner.isBusy() && ready.wait(60000)) {
    }
    const SimulationResult result = ready.constLast().at(1).value<SimulationResult>();
    timelineRows->clear();
    for (int r = 0; r < timeline.rowCount(); ++r) {
        const QVariant ratio = timeline.data(timeline.index(r, TimelineModel::WhatIfColumn), TimelineModel::RatioRole);
        const QVariant tier = timeline.data(timeline.index(r, TimelineModel::WhatIfTierColumn), TimelineModel::TierRole);
        timelineRows->append({ratio.toDouble(), Tier(tier.toInt())});
    }
    return QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact);
}

// Every total a recorded session has too, in one line a comparison can show.
QString describe(const SimulationTotals &t)
{
    return u"requests %1, summary calls %2, emergencies %3, peak %4, tokens sent %5, peak before %6, "
           "tiers %7/%8/%9/%10/%11, offloads %12, window %13"_s.arg(t.requests)
        .arg(t.summaryCalls)
        .arg(t.emergencies)
        .arg(t.peakRatio, 0, 'g', 17)
        .arg(t.tokensSent)
        .arg(t.peakRatioBefore, 0, 'g', 17)
        .arg(t.tiers[0]).arg(t.tiers[1]).arg(t.tiers[2]).arg(t.tiers[3]).arg(t.tiers[4])
        .arg(t.offloads)
        .arg(t.window);
}

} // namespace

class TestReplayAgreement : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cliAndDockAgree_data();
    void cliAndDockAgree();
    void recordedEqualsWhatIf_data();
    void recordedEqualsWhatIf();
    void gaugeDockAndCliAgree_data();
    void gaugeDockAndCliAgree();

private:
    std::unique_ptr<AgentHarness> m_h;
    QString m_importedId;
};

void TestReplayAgreement::initTestCase()
{
    QCoreApplication::setOrganizationName(u"WaterlineTest"_s);
    QCoreApplication::setApplicationName(u"tst_replayagreement"_s);
    QSettings().clear();
    qRegisterMetaType<wl::SimulationResult>();
    m_h = std::make_unique<AgentHarness>(longtask::policy());
    QCOMPARE(longtask::run(*m_h), AgentRun::State::Finished);
    SessionImporter::Options options;
    options.workspace = m_h->workspace;
    const SessionImporter::Result imported = SessionImporter::importFile(
        m_h->store, QStringLiteral(WATERLINE_TEST_DATA "/replay/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl"), options);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    m_importedId = imported.sessionId;
    // A window the import compacts in.
    CompactionPolicy policy;
    policy.contextWindow = 150000;
    QVERIFY(m_h->store.setSessionPolicy(m_importedId, policy.toJson()));
}

void TestReplayAgreement::cliAndDockAgree_data()
{
    QTest::addColumn<bool>("native");
    QTest::addColumn<QStringList>("cliOptions");
    QTest::addColumn<int>("gate1");   // the dock's "Offload at tool time", -1: as stored
    QTest::addColumn<double>("warn"); // the dock's warn threshold, 0: as stored
    QTest::newRow("agent session, stored policy") << true << QStringList() << -1 << 0.0;
    QTest::newRow("agent session, warn 0.5") << true << QStringList{u"--warn"_s, u"0.5"_s} << -1 << 0.5;
    QTest::newRow("agent session, no gate 1") << true << QStringList{u"--offload-at-tool-time"_s, u"1000000"_s} << 1000000 << 0.0;
    QTest::newRow("import, stored policy") << false << QStringList() << -1 << 0.0;
    QTest::newRow("import, warn 0.45") << false << QStringList{u"--warn"_s, u"0.45"_s} << -1 << 0.45;
}

void TestReplayAgreement::cliAndDockAgree()
{
    QFETCH(bool, native);
    QFETCH(QStringList, cliOptions);
    QFETCH(int, gate1);
    QFETCH(double, warn);
    const QString sessionId = native ? m_h->sessionId : m_importedId;
    const QString db = m_h->store.path();

    const Cli cli = simulate(QStringList{u"--db"_s, db, u"--input"_s, sessionId, u"--json"_s} + cliOptions, m_h->dir.path());
    QVERIFY2(cli.exitCode == 0, cli.err.constData());

    QList<WhatIfRow> timeline;
    std::function<void(ThresholdsPanel &)> edit;
    if (warn > 0)
        edit = [warn](ThresholdsPanel &panel) { panel.thresholdSpin(Tier::Warn)->setValue(warn * 100.0); }; // per cent
    else if (gate1 >= 0)
        edit = [gate1](ThresholdsPanel &panel) { panel.findChild<QSpinBox *>(u"Gate1Spin"_s)->setValue(gate1); };
    const QByteArray dock = dockWhatIf(db, sessionId, edit, &timeline);
    QVERIFY(!dock.isEmpty());
    QCOMPARE(dock, cli.out);

    // The timeline shows the same numbers.
    const QJsonArray rows = QJsonDocument::fromJson(cli.out).object().value(u"requests").toArray();
    QCOMPARE(timeline.size(), rows.size());
    for (qsizetype r = 0; r < rows.size(); ++r) {
        QCOMPARE(timeline[r].ratioAfter, rows[r].toObject().value(u"ratio_after").toDouble());
        QCOMPARE(tierName(timeline[r].tier), rows[r].toObject().value(u"tier").toString());
    }
    qInfo("%s: %lld requests agree", QTest::currentDataTag(), qint64(rows.size()));
}

void TestReplayAgreement::recordedEqualsWhatIf_data()
{
    QTest::addColumn<QString>("transcript"); // empty: the demo
    QTest::addColumn<qint64>("window");      // the policy the import was replayed with (CompactionBackfill)
    QTest::newRow("demo") << QString() << qint64(0);
    const QString claude = u"claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl"_s;
    const QString codex = u"codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"_s;
    QTest::newRow("claude-code, Soft and Full summaries") << claude << qint64(60000);
    QTest::newRow("claude-code, Emergency over and over") << claude << qint64(20000);
    QTest::newRow("codex, every tier") << codex << qint64(20000);
    QTest::newRow("swe-agent, one summary") << u"swe-agent/pydicom__pydicom-1458.traj"_s << qint64(20000);
}

// Under the policy a session was recorded with, the what-if is the recorded session: request by
// request and in every total the Thresholds dock shows side by side.
void TestReplayAgreement::recordedEqualsWhatIf()
{
    QFETCH(QString, transcript);
    QFETCH(qint64, window);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString databasePath, sessionId;
    SessionStore store; // kept open while the session is read
    if (transcript.isEmpty()) {
        const DemoSession::Result demo = DemoSession::ensure(dir.path());
        QVERIFY2(demo.ok, qPrintable(demo.error));
        databasePath = demo.databasePath;
        sessionId = demo.sessionId;
    } else {
        QVERIFY(store.open(dir.filePath(u"sessions.db"_s)));
        SessionImporter::Options options;
        options.workspace = dir.path();
        options.replay = true;
        options.replayPolicy.contextWindow = window;
        const SessionImporter::Result imported =
            SessionImporter::importFile(store, QStringLiteral(WATERLINE_TEST_DATA "/replay/") + transcript, options);
        QVERIFY2(imported.ok, qPrintable(imported.error));
        databasePath = store.path();
        sessionId = imported.sessionId;
    }
    LoadedSession session;
    QString error;
    QVERIFY2(SessionLoader::loadNow(databasePath, sessionId, &session, &error), qPrintable(error));
    const SimulationResult whatIf = Simulator::simulate(session.simulatorInput());
    QCOMPARE(whatIf.rows.size(), session.requests.size());
    for (qsizetype r = 0; r < whatIf.rows.size(); ++r) {
        QCOMPARE(tierName(whatIf.rows[r].tier), tierName(session.requests[r].tier));
        QCOMPARE(whatIf.rows[r].tokensAfter, session.requests[r].estimateTokens);
    }
    const SimulationTotals recorded = session.recordedTotals();
    qInfo("recorded: %s", qPrintable(describe(recorded)));
    qInfo("what-if:  %s", qPrintable(describe(whatIf.totals)));
    QCOMPARE(describe(whatIf.totals), describe(recorded));
    // What the summaries read is the what-if's own estimate: no request carried it, the store has none.
    QCOMPARE(recorded.summaryInputTokens, qint64(-1));
    QCOMPARE(whatIf.totals.summaryInputTokens > 0, whatIf.totals.summaryCalls > 0);
}

void TestReplayAgreement::gaugeDockAndCliAgree_data()
{
    QTest::addColumn<bool>("demo"); // else a Codex import replayed as `waterline-cli import --replay` does
    QTest::newRow("demo, its stored policy") << true;
    QTest::newRow("codex import, replayed at 128,000 tokens") << false;
}

// The acceptance test of "numbers that agree": the window, the gauge and every total of the open
// session are the same in the status bar, the Thresholds dock (recorded and what-if columns) and
// `waterline-cli simulate --db`, under the policy the session was recorded with.
void TestReplayAgreement::gaugeDockAndCliAgree()
{
    QFETCH(bool, demo);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString databasePath, sessionId;
    if (demo) {
        const DemoSession::Result built = DemoSession::ensure(dir.filePath(u"demo"_s));
        QVERIFY2(built.ok, qPrintable(built.error));
        databasePath = built.databasePath;
        sessionId = built.sessionId;
    } else {
        SessionStore importing;
        QVERIFY(importing.open(dir.filePath(u"sessions.db"_s)));
        SessionImporter::Options options;
        options.workspace = dir.path();
        options.replay = true;
        options.replayPolicy.contextWindow = 128000;
        const SessionImporter::Result imported = SessionImporter::importFile(
            importing, QStringLiteral(WATERLINE_TEST_DATA "/replay/codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"),
            options);
        QVERIFY2(imported.ok, qPrintable(imported.error));
        databasePath = importing.path();
        sessionId = imported.sessionId;
    }

    const Cli cli = simulate(QStringList{u"--db"_s, databasePath, u"--input"_s, sessionId, u"--json"_s}, dir.path());
    QVERIFY2(cli.exitCode == 0, cli.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(cli.out).object();
    const QJsonObject totals = json.value(u"totals"_s).toObject();
    const QJsonArray rows = json.value(u"requests"_s).toArray();
    QVERIFY(!rows.isEmpty());
    const qint64 window = totals.value(u"window"_s).toInteger();
    QVERIFY(window > 0);

    SessionStore store;
    QVERIFY(store.open(databasePath));
    MainWindow main;
    main.setStore(&store, databasePath);
    QSignalSpy shown(&main, &MainWindow::sessionShown);
    main.openSession(sessionId);
    QVERIFY(shown.wait(60000));
    ThresholdsPanel *panel = main.thresholdsPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->totalsText(ThresholdsPanel::RequestsRow, true) != u"\u2013"_s, 60000);

    // One window: the gauge's, the dock's policy, the CLI's.
    auto *gauge = main.findChild<ContextGauge *>(u"ContextGauge"_s);
    QVERIFY(gauge);
    QCOMPARE(gauge->window(), window);
    QCOMPARE(qint64(panel->findChild<QSpinBox *>(u"ContextWindowSpin"_s)->value()), window);
    // The gauge shows the last recorded request (no agent runs on an import) as the CLI replays it.
    QCOMPARE(gauge->source(), ContextGauge::Source::LastRecorded);
    QCOMPARE(gauge->ratio(), rows.last().toObject().value(u"ratio_after"_s).toDouble());
    QVERIFY2(gauge->toolTip().contains(QLocale().toString(window)), qPrintable(gauge->toolTip()));

    // Every total, in both columns of the dock, is the CLI's.
    const QLocale locale;
    auto percent = [&locale](double ratio) { return locale.toString(ratio * 100.0, 'f', 1) + u'%'; };
    const QJsonObject tiers = totals.value(u"tiers"_s).toObject();
    const QList<std::pair<ThresholdsPanel::TotalsRow, QString>> expected{
        {ThresholdsPanel::WindowRow, locale.toString(window)},
        {ThresholdsPanel::RequestsRow, locale.toString(totals.value(u"requests"_s).toInt())},
        {ThresholdsPanel::TokensSentRow, locale.toString(totals.value(u"tokens_sent"_s).toInteger())},
        {ThresholdsPanel::SummaryCallsRow, locale.toString(totals.value(u"summary_calls"_s).toInt())},
        {ThresholdsPanel::WarnRow, locale.toString(tiers.value(u"warn"_s).toInt())},
        {ThresholdsPanel::SoftRow, locale.toString(tiers.value(u"soft"_s).toInt())},
        {ThresholdsPanel::FullRow, locale.toString(tiers.value(u"full"_s).toInt())},
        {ThresholdsPanel::EmergencyRow, locale.toString(totals.value(u"emergencies"_s).toInt())},
        {ThresholdsPanel::OffloadsRow, locale.toString(totals.value(u"offloads"_s).toInt())},
        {ThresholdsPanel::PeakBeforeRow, percent(totals.value(u"peak_ratio_before"_s).toDouble())},
        {ThresholdsPanel::PeakAfterRow, percent(totals.value(u"peak_ratio"_s).toDouble())},
    };
    for (const auto &[row, text] : expected) {
        QCOMPARE(panel->totalsText(row, false), text);
        QCOMPARE(panel->totalsText(row, true), text);
    }
    QCOMPARE(panel->totalsText(ThresholdsPanel::SummaryInputRow, true),
             locale.toString(totals.value(u"summary_input_tokens"_s).toInteger()));
    qInfo("%s: window %lld, %d requests, %lld tokens sent, gauge %.1f%%", QTest::currentDataTag(), window,
          totals.value(u"requests"_s).toInt(), totals.value(u"tokens_sent"_s).toInteger(), gauge->ratio() * 100);
}

QTEST_MAIN(TestReplayAgreement)
#include "tst_replayagreement.moc"
