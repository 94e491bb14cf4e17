// Summaries reviewed before they commit (issue #22 items 7, 8), end to end against the fake
// server: the agent waits while a draft is open, an edited summary is what the next request
// sends, the stored history is unchanged and both texts are kept; Reject drafts again only at the
// next tier; Emergency never waits; a past checkpoint gets a new version and Undo goes back.
#include "AgentHarness.h"
#include "ReviewTestData.h"

#include "compaction/Checkpoint.h"
#include "compaction/SummaryReview.h"
#include "whatif/ReplayInput.h"
#include "whatif/Simulator.h"

#include <QJsonArray>

using namespace wl;
using namespace wl::test;
using namespace wl::test::review;
using namespace Qt::StringLiterals;

namespace {

QString draftSummary()
{
    return review::summaryAnswer(u"DRAFT"_s, u"wrote part one"_s);
}

bool bodyContains(const RecordedRequest &r, const QString &text)
{
    return QString::fromUtf8(r.body).contains(text);
}

} // namespace

class TestSummaryReview : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void acceptEdited_waitsAndSendsTheEdit();
    void reject_keepsHistoryAndRetriesAtTheNextTier();
    void emergency_doesNotWait();
    void reviewOff_neverWaits();
    void pastCheckpoint_newVersionAndUndo();

private:
    // A session whose next prompt of the returned size brings the ratio to `targetRatio`.
    void prepare(AgentHarness &h, int turns);
    qint64 promptBytesFor(AgentHarness &h, double targetRatio) const;
    void turn(AgentHarness &h, const QString &prompt, const QString &answer);
};

void TestSummaryReview::initTestCase()
{
    qRegisterMetaType<wl::Message>();
    qRegisterMetaType<wl::CompactionRecord>();
    qRegisterMetaType<wl::SummaryDraft>();
}

void TestSummaryReview::turn(AgentHarness &h, const QString &prompt, const QString &answer)
{
    h.server.enqueue(FakeReply::withText(answer));
    QVERIFY(h.run->submit(prompt));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
}

void TestSummaryReview::prepare(AgentHarness &h, int turns)
{
    QString error;
    QVERIFY2(h.store.setSystemPrompt(h.sessionId, u"You are a test agent."_s, &error), qPrintable(error));
    h.server.addRule(summaryRule(draftSummary()));
    h.open();
    for (int n = 1; n <= turns; ++n) {
        turn(h, filler(n, 1600), u"ok %1"_s.arg(n));
        if (QTest::currentTestFailed())
            return;
    }
}

qint64 TestSummaryReview::promptBytesFor(AgentHarness &h, double targetRatio) const
{
    const qint64 now = h.run->nextRequestEstimate().totalTokens();
    return qint64((targetRatio * kWindow - double(now)) * 4.0);
}

void TestSummaryReview::acceptEdited_waitsAndSendsTheEdit()
{
    AgentHarness h(reviewPolicy());
    prepare(h, 3);
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY(h.store.overlays(h.sessionId).checkpoints.isEmpty()); // Warn at most so far
    const QList<Message> historyBefore = h.store.history(h.sessionId);

    QSignalSpy review(h.run.get(), &AgentRun::summaryReviewRequested);
    const qint64 bytes = promptBytesFor(h, 0.74);
    QVERIFY(bytes > 100);
    h.server.enqueue(FakeReply::withText(u"ok 4"_s));
    const qsizetype requestsBefore = h.agentRequests().size();
    QVERIFY(h.run->submit(filler(4, bytes)));
    QTRY_COMPARE_WITH_TIMEOUT(int(review.size()), 1, 10000);

    // The agent waits: no request while the review is open.
    QTest::qWait(300);
    QVERIFY(h.run->isAwaitingReview());
    QVERIFY(h.run->isBusy());
    QCOMPARE(h.agentRequests().size(), requestsBefore);
    const SummaryDraft draft = review.at(0).at(0).value<SummaryDraft>();
    QCOMPARE(draft.tier, Tier::Soft);
    QVERIFY(draft.summary.contains(u"DRAFT-SUMMARY"_s));
    QVERIFY(!draft.replaced.isEmpty());
    QVERIFY(draft.replaced.constFirst().content.startsWith(u"PROMPT-1 "_s)); // next to what it replaces
    QVERIFY(draft.tokensAfter() < draft.tokensBefore);
    // Issue #31: while the review waits, the gauge shows the request being compacted, not nothing.
    QCOMPARE(h.run->nextRequestEstimate().viewTokens(), draft.tokensBefore);
    QVERIFY(h.run->nextRequestComposition().used() >= draft.tokensBefore);

    Anchors edited = draft.anchors;
    edited.setValue(AnchorKind::NextStep, u"EDITED-NEXT write part five"_s);
    const QString editedSummary = u"EDITED-SUMMARY four parts, the user checked them."_s;
    QVERIFY(draft.tokensAfter(edited, editedSummary) < draft.tokensBefore);
    QVERIFY(h.run->decideSummaryReview(ReviewDecision::accept(edited, editedSummary)));
    QVERIFY(!h.run->decideSummaryReview(ReviewDecision::reject())); // answered once
    QVERIFY(h.run->reviewCommitted()); // what lets the window say "Summary accepted"
    QCOMPARE(h.settle(), AgentRun::State::Finished);

    // The edited summary is what the next request sent, not the draft.
    const QList<RecordedRequest> sent = h.agentRequests();
    QCOMPARE(sent.size(), requestsBefore + 1);
    QVERIFY(bodyContains(sent.last(), u"EDITED-SUMMARY four parts"_s));
    QVERIFY(bodyContains(sent.last(), u"EDITED-NEXT write part five"_s));
    QVERIFY(!bodyContains(sent.last(), u"DRAFT-SUMMARY"_s));
    QVERIFY(!bodyContains(sent.last(), u"PROMPT-1 "_s)); // replaced by the checkpoint
    QVERIFY(viewProblem(sent.last().json()).isEmpty());

    // The stored history is unchanged: the four prompts and answers, nothing rewritten.
    const QList<Message> history = h.store.history(h.sessionId);
    QCOMPARE(history.size(), historyBefore.size() + 2);
    for (qsizetype i = 0; i < historyBefore.size(); ++i)
        QCOMPARE(history[i].content, historyBefore[i].content);
    for (const Message &m : history)
        QVERIFY(!isCheckpointText(m.content));

    // Both texts kept: the draft as version 1, the edit as version 2, which is current.
    const ContextOverlays overlays = h.store.overlays(h.sessionId);
    QCOMPARE(overlays.checkpoints.size(), 1);
    QCOMPARE(overlays.checkpoints.constFirst().version, 2);
    QCOMPARE(overlays.checkpoints.constFirst().summary, editedSummary);
    const QList<CheckpointVersion> versions = h.store.checkpointVersions(overlays.checkpoints.constFirst().id);
    QCOMPARE(versions.size(), 2);
    QVERIFY(versions[0].summary.contains(u"DRAFT-SUMMARY"_s));
    QVERIFY(versions[0].text.contains(u"DRAFT-NEXT"_s));
    QCOMPARE(versions[1].summary, editedSummary);
    QVERIFY(versions[1].text.contains(u"EDITED-NEXT"_s));
    QCOMPARE(versions[0].fromRequestIndex, versions[1].fromRequestIndex);
    // The record says what committed.
    const QList<CompactionRecord> records = h.store.records(h.sessionId);
    QVERIFY(!records.isEmpty());
    QCOMPARE(records.constLast().summaryText, editedSummary);
}

void TestSummaryReview::reject_keepsHistoryAndRetriesAtTheNextTier()
{
    AgentHarness h(reviewPolicy());
    prepare(h, 3);
    QVERIFY(!QTest::currentTestFailed());
    QSignalSpy review(h.run.get(), &AgentRun::summaryReviewRequested);

    h.server.enqueue(FakeReply::withText(u"ok 4"_s));
    QVERIFY(h.run->submit(filler(4, promptBytesFor(h, 0.72))));
    QTRY_COMPARE_WITH_TIMEOUT(int(review.size()), 1, 10000);
    QCOMPARE(review.at(0).at(0).value<SummaryDraft>().tier, Tier::Soft);
    QVERIFY(h.run->decideSummaryReview(ReviewDecision::reject()));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
    QVERIFY(h.store.overlays(h.sessionId).checkpoints.isEmpty());
    QVERIFY(bodyContains(h.agentRequests().last(), u"PROMPT-1 "_s)); // the history stays in the view
    QVERIFY(h.store.records(h.sessionId).constLast().error.contains(u"rejected"_s));

    // Still at Soft: no new draft, no checkpoint.
    turn(h, filler(5, 40), u"ok 5"_s);
    QCOMPARE(review.size(), 1);
    QVERIFY(h.store.overlays(h.sessionId).checkpoints.isEmpty());

    // The next tier (Full) drafts again; accepted as drafted, it commits version 1 only.
    h.server.enqueue(FakeReply::withText(u"ok 6"_s));
    QVERIFY(h.run->submit(filler(6, promptBytesFor(h, 0.85))));
    QTRY_COMPARE_WITH_TIMEOUT(int(review.size()), 2, 10000);
    const SummaryDraft draft = review.at(1).at(0).value<SummaryDraft>();
    QCOMPARE(draft.tier, Tier::Full);
    QVERIFY(h.run->decideSummaryReview(ReviewDecision::accept(draft.anchors, draft.summary)));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
    const ContextOverlays overlays = h.store.overlays(h.sessionId);
    QCOMPARE(overlays.checkpoints.size(), 1);
    QCOMPARE(overlays.checkpoints.constFirst().version, 1);
    QCOMPARE(h.store.checkpointVersions(overlays.checkpoints.constFirst().id).size(), 1);
    QVERIFY(bodyContains(h.agentRequests().last(), u"DRAFT-SUMMARY"_s));
}

void TestSummaryReview::emergency_doesNotWait()
{
    AgentHarness h(reviewPolicy());
    prepare(h, 3);
    QVERIFY(!QTest::currentTestFailed());
    QSignalSpy review(h.run.get(), &AgentRun::summaryReviewRequested);
    turn(h, filler(4, promptBytesFor(h, 0.97)), u"ok 4"_s);
    QCOMPARE(review.size(), 0);
    const ContextOverlays overlays = h.store.overlays(h.sessionId);
    QCOMPARE(overlays.checkpoints.size(), 1);
    QCOMPARE(overlays.checkpoints.constFirst().tier, Tier::Emergency);
    const CompactionRecord record = h.store.records(h.sessionId).constLast();
    QCOMPARE(record.tier, Tier::Emergency);
    QCOMPARE(record.summarizerStep, SummarizerStep::Extractive);
    QVERIFY2(record.error.contains(u"not reviewed"_s), qPrintable(record.error)); // says so
}

void TestSummaryReview::reviewOff_neverWaits()
{
    CompactionPolicy policy = reviewPolicy();
    policy.reviewSummaries = false;
    AgentHarness h(policy);
    prepare(h, 3);
    QVERIFY(!QTest::currentTestFailed());
    QSignalSpy review(h.run.get(), &AgentRun::summaryReviewRequested);
    turn(h, filler(4, promptBytesFor(h, 0.74)), u"ok 4"_s);
    QCOMPARE(review.size(), 0);
    QCOMPARE(h.store.overlays(h.sessionId).checkpoints.size(), 1);
    QVERIFY(bodyContains(h.agentRequests().last(), u"DRAFT-SUMMARY"_s));
}

void TestSummaryReview::pastCheckpoint_newVersionAndUndo()
{
    CompactionPolicy policy = reviewPolicy();
    policy.reviewSummaries = false;
    AgentHarness h(policy);
    prepare(h, 3);
    QVERIFY(!QTest::currentTestFailed());
    turn(h, filler(4, promptBytesFor(h, 0.74)), u"ok 4"_s);
    const Checkpoint cp = h.store.overlays(h.sessionId).checkpoints.value(0);
    QVERIFY(cp.id > 0);

    QSignalSpy revised(h.run.get(), &AgentRun::checkpointRevised);
    Anchors anchors = cp.anchors;
    anchors.setValue(AnchorKind::KeyDecision, u"REVISED-DECISION keep parts short"_s);
    QVERIFY(h.run->reviseCheckpoint(cp.id, anchors, u"REVISED-SUMMARY"_s));
    QTRY_COMPARE(revised.size(), 1); // stored off this thread
    QCOMPARE(revised.at(0).at(1).toInt(), 2);
    turn(h, u"next"_s, u"ok 5"_s);
    QVERIFY(bodyContains(h.agentRequests().last(), u"REVISED-SUMMARY"_s));
    QVERIFY(bodyContains(h.agentRequests().last(), u"REVISED-DECISION"_s));
    QVERIFY(!bodyContains(h.agentRequests().last(), u"DRAFT-SUMMARY"_s));

    // Undo goes back a version: the next request sends the original again, and both texts stay.
    QVERIFY(h.run->undoCheckpointRevision(cp.id));
    QTRY_COMPARE(revised.size(), 2);
    QCOMPARE(revised.at(1).at(1).toInt(), 1);
    QVERIFY(!h.run->undoCheckpointRevision(cp.id)); // version 1 is the compaction itself
    turn(h, u"again"_s, u"ok 6"_s);
    QVERIFY(bodyContains(h.agentRequests().last(), u"DRAFT-SUMMARY"_s));
    QVERIFY(!bodyContains(h.agentRequests().last(), u"REVISED-SUMMARY"_s));
    const QList<CheckpointVersion> versions = h.store.checkpointVersions(cp.id);
    QCOMPARE(versions.size(), 2);
    QVERIFY(versions[1].undoneAt.isValid());
    QCOMPARE(versions[1].summary, u"REVISED-SUMMARY"_s);

    // A reopened run reads the current version too.
    QVERIFY(h.run->reviseCheckpoint(cp.id, anchors, u"THIRD-SUMMARY"_s));
    QTRY_COMPARE(revised.size(), 3);
    QCOMPARE(revised.constLast().at(1).toInt(), 3); // numbers are never reused
    h.open();
    turn(h, u"after reopening"_s, u"ok 7"_s);
    QVERIFY(bodyContains(h.agentRequests().last(), u"THIRD-SUMMARY"_s));

    // The what-if under the policy the agent ran with is the agent: each request's view, the
    // checkpoint version it sent included (the original, the edit, the original after the undo,
    // the third), is what went to the model.
    QString error;
    const std::optional<ReplayInput> input = ReplayInput::fromStore(h.store, h.sessionId, &error);
    QVERIFY2(input, qPrintable(error));
    const SimulationResult result = Simulator::simulate(input->simulatorInput(h.run->policy(), SummaryModel::extractive()));
    const QList<RecordedRequest> sent = h.agentRequests();
    QCOMPARE(result.rows.size(), sent.size());
    QStringList versionsSent;
    for (qsizetype r = 0; r < sent.size(); ++r) {
        const QJsonArray messages = sent[r].json().value(u"messages").toArray();
        const QList<Message> view = result.viewAt(int(r));
        QCOMPARE(view.size(), messages.size());
        for (qsizetype m = 0; m < view.size(); ++m)
            QCOMPARE(view[m].content, messages[m].toObject().value(u"content").toString());
        for (const QString &mark : {u"DRAFT-SUMMARY"_s, u"REVISED-SUMMARY"_s, u"THIRD-SUMMARY"_s})
            if (view.size() > 1 && view[1].content.contains(mark) && (versionsSent.isEmpty() || versionsSent.constLast() != mark))
                versionsSent << mark;
        QCOMPARE(result.rows[r].tokensAfter, h.store.requests(h.sessionId).at(r).estimateTokens);
    }
    QCOMPARE(versionsSent, QStringList({u"DRAFT-SUMMARY"_s, u"REVISED-SUMMARY"_s, u"DRAFT-SUMMARY"_s, u"THIRD-SUMMARY"_s}));
}

QTEST_GUILESS_MAIN(TestSummaryReview)
#include "tst_summaryreview.moc"
