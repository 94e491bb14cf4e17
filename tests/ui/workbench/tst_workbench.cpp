#include "MainWindow.h"
#include "anchors/AnchorHistoryModel.h"
#include "anchors/AnchorsPanel.h"
#include "compactions/CompactionsPanel.h"
#include "context/ContextModels.h"
#include "context/ContextPanel.h"
#include "review/CheckpointEditing.h"
#include "review/SummaryReviewDialog.h"
#include "thresholds/PolicyScoreView.h"
#include "thresholds/ThresholdsPanel.h"
#include "WhatIfBinding.h"
#include "score/PriceTable.h"
#include "score/RecordedRun.h"
#include "score/SessionScoring.h"
#include "timeline/TimelineChart.h"
#include "timeline/TimelineModel.h"
#include "timeline/TimelineToolTip.h"
#include "timeline/TimelinePanel.h"
#include "workbench/DemoSession.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLifecycle.h"
#include "workbench/SessionLoader.h"

#include "store/SessionStore.h"

#include <QFile>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

// The demo session (a real transcript replayed with Waterline's compaction) drives the whole window.
class TestWorkbench : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void demoHasEveryTier();
    void selectingARequestUpdatesTheDocks();
    void applyStoresThePolicy();
    void thresholdsDockScoresThePolicy();
    void editsADemoCheckpointAsANewVersion();

private:
    QTemporaryDir m_dir;
    DemoSession::Result m_demo;
    LoadedSession m_session;
};

void TestWorkbench::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_demo = DemoSession::ensure(m_dir.filePath(u"demo"_s));
    QVERIFY2(m_demo.ok, qPrintable(m_demo.error));
    QVERIFY(m_demo.built);
    QString error;
    QVERIFY2(SessionLoader::loadNow(m_demo.databasePath, m_demo.sessionId, &m_session, &error), qPrintable(error));
    // A second ensure reuses what is there.
    const DemoSession::Result again = DemoSession::ensure(m_dir.filePath(u"demo"_s));
    QVERIFY(again.ok);
    QVERIFY(!again.built);
    QCOMPARE(again.sessionId, m_demo.sessionId);
}

void TestWorkbench::demoHasEveryTier()
{
    QSet<Tier> tiers;
    for (const CompactionRecord &r : m_session.records)
        tiers.insert(r.tier);
    for (Tier t : {Tier::Warn, Tier::Soft, Tier::Full, Tier::Emergency})
        QVERIFY2(tiers.contains(t), qPrintable(tierName(t)));
    QVERIFY(m_session.requestCount() > 100);
    QVERIFY(!m_session.overlays.offloads.isEmpty());
    QVERIFY(!m_session.anchorSnapshots().isEmpty());
    QVERIFY(m_session.source.has_value()); // imported: the source agent's own compaction is known
    int sourceMarks = 0;
    const double window = double(m_session.policy.contextWindow);
    for (const TimelineRow &row : m_session.timelineRows()) {
        sourceMarks += row.sourceCompaction.isEmpty() ? 0 : 1;
        // The timeline gets tokens with its ratios, to measure against another window.
        QVERIFY(row.sentTokens > 0 && row.historyTokens > 0);
        QCOMPARE(row.sentRatio, double(row.sentTokens) / window);
        QCOMPARE(row.reportedTokens >= 0, !std::isnan(row.reportedRatio));
    }
    QCOMPARE(sourceMarks, 1);
}

void TestWorkbench::selectingARequestUpdatesTheDocks()
{
    MainWindow window;
    window.showSession(m_session);
    QCOMPARE(window.selectedRequest(), m_session.requestCount() - 1);
    QCOMPARE(window.timelinePanel()->chart()->model()->recordedWindow(), m_session.policy.contextWindow);

    // A request with a Full-tier compaction before it.
    const auto full = std::find_if(m_session.records.cbegin(), m_session.records.cend(),
                                   [](const CompactionRecord &r) { return r.tier == Tier::Full; });
    QVERIFY(full != m_session.records.cend());
    Q_EMIT window.timelinePanel()->chart()->requestSelected(full->requestIndex);

    QCOMPARE(window.selectedRequest(), full->requestIndex);
    QCOMPARE(window.timelinePanel()->chart()->selectedRequest(), full->requestIndex);
    QVERIFY(window.contextPanel()->summaryText().contains(u"Request %1:"_s.arg(full->requestIndex)));
    // The context view of that request opens with the checkpoint the compaction made.
    const ContextViewModel *view = window.contextPanel()->viewModel();
    QVERIFY(view->rowCount() > 1);
    QCOMPARE(ViewItem::Kind(view->index(1, 0).data(ContextViewModel::KindRole).toInt()), ViewItem::Kind::Checkpoint);
    const QModelIndex compaction = window.compactionsPanel()->table()->currentIndex();
    QVERIFY(compaction.isValid());
    QCOMPARE(compaction.siblingAtColumn(1).data().toInt(), full->requestIndex);
    const QModelIndex anchor = window.anchorsPanel()->table()->currentIndex();
    QVERIFY(anchor.isValid());
    QCOMPARE(window.anchorsPanel()->table()->model()->headerData(anchor.column(), Qt::Horizontal).toString().contains(
                 u"req %1"_s.arg(full->requestIndex)), true);

    // And back: picking a record in the Compactions dock moves the timeline.
    const CompactionRecord &first = m_session.records.constFirst();
    window.compactionsPanel()->table()->selectRow(0);
    QCOMPARE(window.selectedRequest(), first.requestIndex);
}

void TestWorkbench::applyStoresThePolicy()
{
    SessionStore store;
    QString error;
    QVERIFY2(store.open(m_demo.databasePath, &error), qPrintable(error));
    MainWindow window;
    window.setStore(&store, m_demo.databasePath);
    window.showSession(m_session);
    QSignalSpy applied(&window, &MainWindow::policyApplied);
    window.thresholdsPanel()->thresholdSlider(Tier::Full)->setValue(750);
    window.thresholdsPanel()->applyButton()->click();
    QVERIFY(applied.wait(10000)); // stored off the GUI thread
    CompactionPolicy stored;
    QVERIFY(CompactionPolicy::fromJson(store.session(m_demo.sessionId)->policy, &stored, &error));
    QCOMPARE(stored.full, 0.75);
    QCOMPARE(window.session().policy.full, 0.75);
}

// The dock shows coverage and cost, recorded against what-if, computed as `waterline-cli evaluate`
// computes them; a lost fact opens the request that needed it.
void TestWorkbench::thresholdsDockScoresThePolicy()
{
    MainWindow window;
    PolicyScoreView *view = window.thresholdsPanel()->scoreView();
    QVERIFY(view);
    window.showSession(m_session);
    auto *binding = window.findChild<WhatIfBinding *>();
    QVERIFY(binding);
    QTRY_VERIFY_WITH_TIMEOUT(binding->scoring() != nullptr, 30000);

    // The recorded column, as the engine scores the recorded views.
    QList<qint64> reported;
    for (const RequestRecord &r : m_session.requests)
        reported.append(r.outputTokens.value_or(-1));
    const auto expected = SessionScoring::build(m_session.replay,
        RecordedRun::fromStored(m_session.replay, m_session.requests, m_session.overlays, m_session.records), reported,
        PriceTable::builtIn());
    const QLocale locale;
    QCOMPARE(view->cell(PolicyScoreView::CoverageRow, false),
             locale.toString(100.0 * expected->recorded().coverage.coverage(), 'f', 1) + u" %"_s);
    QCOMPARE(view->cell(PolicyScoreView::NeededRow, false), locale.toString(expected->recorded().coverage.needed));
    QVERIFY(expected->recorded().coverage.needed > 0);

    // A what-if that keeps almost nothing loses facts; each one names its request.
    CompactionPolicy tight = m_session.policy;
    tight.contextWindow = 8000;
    tight.tailMessages = 2;
    QSignalSpy whatIf(binding, &WhatIfBinding::scoreReady);
    QSignalSpy results(binding, &WhatIfBinding::resultReady);
    binding->request(tight);
    // A run for the session's own policy may still be delivered first; the score comes with its result.
    QTRY_VERIFY_WITH_TIMEOUT(!results.isEmpty() && results.constLast().at(0).value<CompactionPolicy>() == tight, 30000);
    QVERIFY(!whatIf.isEmpty());
    const int lost = locale.toInt(view->cell(PolicyScoreView::LostRow, true));
    QVERIFY2(lost > 0, qPrintable(view->cell(PolicyScoreView::LostRow, true)));
    QVERIFY(locale.toInt(view->cell(PolicyScoreView::LostRow, false)) < lost);
    QCOMPARE(view->lostList()->count(), std::min(lost, 200) + (lost > 200 ? 1 : 0));
    QListWidgetItem *first = view->lostList()->item(0);
    const int request = first->data(PolicyScoreView::RequestRole).toInt();
    QVERIFY(request > 0);
    Q_EMIT view->lostList()->itemActivated(first);
    QCOMPARE(window.selectedRequest(), request);
    // The timeline marks that request on the what-if line and says why on hover.
    auto *timeline = window.findChild<TimelineModel *>();
    QVERIFY(timeline);
    QVERIFY(request < timeline->whatIf().size());
    QVERIFY(timeline->whatIf().at(request).lostFacts > 0);
    int marked = 0;
    for (const WhatIfRow &row : timeline->whatIf())
        marked += row.lostFacts > 0 ? 1 : 0;
    QVERIFY(marked > 0 && marked <= lost);
    QVERIFY(TimelineToolTip::point(*timeline, request, TimelineSeries::WhatIf).contains(u"lost from its view"_s));
}

// Issue #22 item 8 on a session no agent runs (the demo, an import): the Compactions dock's Edit
// opens the checkpoint, the commit stores version 2 for the requests after the last one, the window
// shows it, and Undo goes back to what the compaction made. The history never changes.
void TestWorkbench::editsADemoCheckpointAsANewVersion()
{
    const QString copy = m_dir.filePath(u"edit.db"_s);
    QVERIFY(QFile::copy(m_demo.databasePath, copy));
    SessionStore store;
    QString error;
    QVERIFY2(store.open(copy, &error), qPrintable(error));
    const qint64 messages = store.messageCount(m_demo.sessionId);
    MainWindow window;
    window.setStore(&store, copy);
    window.showSession(m_session);
    CompactionsPanel *panel = window.compactionsPanel();
    int row = -1;
    for (int r = 0; r < panel->table()->model()->rowCount() && row < 0; ++r) {
        panel->table()->selectRow(r);
        if (panel->editButton()->isEnabled())
            row = r;
    }
    QVERIFY2(row >= 0, "no compaction of the demo has a checkpoint");
    QVERIFY(!panel->undoEditButton()->isEnabled()); // version 1: nothing to go back to
    panel->editButton()->click();
    SummaryReviewDialog *dialog = window.checkpointEditing()->dialog();
    QVERIFY(dialog);
    QVERIFY(dialog->isRevision());
    const qint64 id = dialog->checkpointId();
    const auto shown = [&window, id]() -> Checkpoint {
        for (const Checkpoint &cp : window.session().overlays.checkpoints)
            if (cp.id == id)
                return cp;
        return {};
    };
    const Checkpoint before = shown();
    dialog->summaryEdit()->setPlainText(u"EDITED IN THE DEMO"_s);
    QSignalSpy refreshed(window.sessions(), &SessionLifecycle::refreshed);
    dialog->acceptButton()->click();
    QVERIFY(refreshed.wait(10000));
    QCOMPARE(shown().version, 2);
    QCOMPARE(shown().summary, u"EDITED IN THE DEMO"_s);
    const QList<CheckpointVersion> versions = store.checkpointVersions(id, &error);
    QCOMPARE(versions.size(), 2);
    QCOMPARE(versions[1].fromRequestIndex, m_session.requests.constLast().index + 1);
    // Every recorded request still shows the text it sent.
    const ContextSnapshot last = window.session().contextSnapshot(window.session().requestCount() - 1);
    for (const Checkpoint &cp : last.overlays.checkpoints)
        if (cp.id == id)
            QCOMPARE(cp.summary, before.summary);

    panel->table()->selectRow(row);
    QVERIFY(panel->undoEditButton()->isEnabled());
    panel->undoEditButton()->click();
    QVERIFY(refreshed.wait(10000));
    QCOMPARE(shown().version, 1);
    QCOMPARE(shown().summary, before.summary);
    QCOMPARE(store.messageCount(m_demo.sessionId), messages);
}

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
