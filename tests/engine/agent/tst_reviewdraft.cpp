// The review's summary drafted in the background from the Warn tier (issue #22 item 7), end to end
// against the fake server: the draft request goes out before the request at which Soft fires, each
// later Warn tops it up with only what the range gained, and Soft opens its review with it after one
// small call; the agent still waits for the review. A stale draft (after an undo) and a failed one
// are not used, a rejected one is dropped, and with review off nothing is drafted.
#include "AgentHarness.h"
#include "ReviewTestData.h"
#include "LogCapture.h"

#include "compaction/SummaryReview.h"

using namespace wl;
using namespace wl::test;
using namespace wl::test::review;
using namespace Qt::StringLiterals;

namespace {

QString bodyOf(const RecordedRequest &r)
{
    return QString::fromUtf8(r.body);
}

const QString kPrevious = u"<previous-compaction>"_s;

} // namespace

class TestReviewDraft : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void draftedAtWarn_reviewOpensWithTheToppedUpDraft();
    void staleDraftAfterUndo_isNotUsed();
    void failedDraft_doesNotFailTheRun();
    void rejectedReview_dropsTheDraft();
    void emergency_neverUsesTheDraft();
    void stopAndDestroy_cancelTheDraftCall();
    void reviewOff_nothingDrafted();

private:
    // A run with a draft client of its own, after `turns` turns of 1600-byte prompts.
    void prepare(AgentHarness &h, int turns, qint64 promptBytes = 1600);
    qint64 promptBytesFor(AgentHarness &h, double targetRatio) const;
    void turn(AgentHarness &h, const QString &prompt, const QString &answer);
    QList<RecordedRequest> summaryRequests(const AgentHarness &h) const;

    std::unique_ptr<OpenAiChatClient> m_draftClient;
};

void TestReviewDraft::initTestCase()
{
    qRegisterMetaType<wl::Message>();
    qRegisterMetaType<wl::CompactionRecord>();
    qRegisterMetaType<wl::SummaryDraft>();
}

void TestReviewDraft::turn(AgentHarness &h, const QString &prompt, const QString &answer)
{
    h.server.enqueue(FakeReply::withText(answer));
    QVERIFY(h.run->submit(prompt));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
}

void TestReviewDraft::prepare(AgentHarness &h, int turns, qint64 promptBytes)
{
    QString error;
    QVERIFY2(h.store.setSystemPrompt(h.sessionId, u"You are a test agent."_s, &error), qPrintable(error));
    m_draftClient = AgentHarness::makeClient(h.server);
    AgentConfig config = h.config();
    config.draftClient = m_draftClient.get();
    h.open(config);
    for (int n = 1; n <= turns; ++n) {
        turn(h, filler(n, promptBytes), u"ok %1"_s.arg(n));
        if (QTest::currentTestFailed())
            return;
    }
}

qint64 TestReviewDraft::promptBytesFor(AgentHarness &h, double targetRatio) const
{
    const qint64 now = h.run->nextRequestEstimate().totalTokens();
    return qint64((targetRatio * kWindow - double(now)) * 4.0);
}

QList<RecordedRequest> TestReviewDraft::summaryRequests(const AgentHarness &h) const
{
    QList<RecordedRequest> out;
    for (const RecordedRequest &r : h.server.requests())
        if (r.isSummarizerCall())
            out.append(r);
    return out;
}

void TestReviewDraft::draftedAtWarn_reviewOpensWithTheToppedUpDraft()
{
    AgentHarness h(reviewPolicy());
    // Each summary call gets its own answer, in order: the draft, its top-up, the tier's top-up.
    h.server.addRule(summaryRule(summaryAnswer(u"FIRST"_s), false));
    h.server.addRule(summaryRule(summaryAnswer(u"SECOND"_s), false));
    h.server.addRule(summaryRule(summaryAnswer(u"THIRD"_s), false));
    h.server.addRule(summaryRule(summaryAnswer(u"EXTRA"_s)));
    prepare(h, 2);
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY(summaryRequests(h).isEmpty()); // below Warn: nothing drafted
    QSignalSpy drafted(h.run.get(), &AgentRun::summaryDraftedAhead);
    QSignalSpy review(h.run.get(), &AgentRun::summaryReviewRequested);

    // Warn: the oldest half of the head (PROMPT-1 and its answer) is drafted while the agent goes on.
    turn(h, filler(3, promptBytesFor(h, 0.64)), u"ok 3"_s);
    QCOMPARE(h.store.records(h.sessionId).constLast().tier, Tier::Warn);
    QTRY_COMPARE_WITH_TIMEOUT(int(drafted.size()), 1, 10000);
    QList<RecordedRequest> summaries = summaryRequests(h);
    QCOMPARE(summaries.size(), 1);
    QVERIFY(bodyOf(summaries[0]).contains(u"PROMPT-1 "_s));
    QVERIFY(!bodyOf(summaries[0]).contains(u"PROMPT-2 "_s));
    QVERIFY(!bodyOf(summaries[0]).contains(kPrevious));
    QVERIFY(review.isEmpty());
    QVERIFY(h.store.overlays(h.sessionId).checkpoints.isEmpty()); // nothing committed

    // Still Warn, the range grew by PROMPT-2: the top-up sends only that, with the draft as previous.
    turn(h, filler(4, promptBytesFor(h, 0.66)), u"ok 4"_s);
    QCOMPARE(h.store.records(h.sessionId).constLast().tier, Tier::Warn);
    QTRY_COMPARE_WITH_TIMEOUT(int(drafted.size()), 2, 10000);
    summaries = summaryRequests(h);
    QCOMPARE(summaries.size(), 2);
    QVERIFY(bodyOf(summaries[1]).contains(u"PROMPT-2 "_s));
    QVERIFY(!bodyOf(summaries[1]).contains(u"PROMPT-1 "_s));
    QVERIFY(bodyOf(summaries[1]).contains(kPrevious));
    QVERIFY(bodyOf(summaries[1]).contains(u"FIRST-SUMMARY"_s));
    const int draftedAt = drafted.at(1).at(0).toInt();

    // Soft: the review opens with the draft after one small call for the answer it lacks ("ok 2").
    h.server.enqueue(FakeReply::withText(u"ok 5"_s));
    const qsizetype agentBefore = h.agentRequests().size();
    QVERIFY(h.run->submit(filler(5, promptBytesFor(h, 0.74))));
    QTRY_COMPARE_WITH_TIMEOUT(int(review.size()), 1, 10000);
    summaries = summaryRequests(h);
    QCOMPARE(summaries.size(), 3);
    const QString topUp = bodyOf(summaries[2]);
    QVERIFY(topUp.contains(u"ok 2"_s));
    QVERIFY(topUp.contains(kPrevious));
    QVERIFY(topUp.contains(u"SECOND-SUMMARY"_s));
    for (const QString &earlier : {u"PROMPT-1 "_s, u"PROMPT-2 "_s, u"PROMPT-3 "_s, u"ok 1"_s})
        QVERIFY2(!topUp.contains(earlier), qPrintable(earlier));
    const SummaryDraft draft = review.at(0).at(0).value<SummaryDraft>();
    QCOMPARE(draft.tier, Tier::Soft);
    QVERIFY(draft.draftedAhead());
    QCOMPARE(draft.draftedAtRequest, draftedAt);
    QCOMPARE(draft.summarisedAtTier, 1);
    QVERIFY(draft.summary.contains(u"THIRD-SUMMARY"_s));
    QCOMPARE(draft.replaced.size(), 4); // PROMPT-1, ok 1, PROMPT-2, ok 2: all of Soft's range is shown
    QVERIFY(draft.replaced.constFirst().content.startsWith(u"PROMPT-1 "_s));

    // The agent waits while the review is open.
    QVERIFY(h.run->isAwaitingReview());
    QVERIFY(h.run->isBusy());
    QVERIFY(!QTest::qWaitFor([&] { return h.agentRequests().size() > agentBefore; }, 300));

    // The accepted (edited) text is what the next request sends; no further summary call.
    const QString edited = u"EDITED-SUMMARY checked by the user."_s;
    QVERIFY(h.run->decideSummaryReview(ReviewDecision::accept(draft.anchors, edited)));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
    const QList<RecordedRequest> sent = h.agentRequests();
    QCOMPARE(sent.size(), agentBefore + 1);
    QVERIFY(bodyOf(sent.last()).contains(edited));
    QVERIFY(!bodyOf(sent.last()).contains(u"THIRD-SUMMARY"_s));
    QVERIFY(!bodyOf(sent.last()).contains(u"PROMPT-1 "_s));
    QVERIFY(viewProblem(sent.last().json()).isEmpty());
    QCOMPARE(summaryRequests(h).size(), 3);
    // Every draft request went out before the request at which Soft fired.
    QVERIFY(summaries[1].number < sent.last().number);
    const ContextOverlays overlays = h.store.overlays(h.sessionId);
    QCOMPARE(overlays.checkpoints.size(), 1);
    QCOMPARE(overlays.checkpoints.constFirst().summary, edited);
    QCOMPARE(h.store.records(h.sessionId).constLast().summarizerStep, SummarizerStep::MainModel);
}

void TestReviewDraft::staleDraftAfterUndo_isNotUsed()
{
    AgentHarness h(reviewPolicy());
    h.server.addRule(summaryRule(summaryAnswer(u"ANY"_s)));
    prepare(h, 2, 1200);
    QVERIFY(!QTest::currentTestFailed());
    QSignalSpy drafted(h.run.get(), &AgentRun::summaryDraftedAhead);
    QSignalSpy review(h.run.get(), &AgentRun::summaryReviewRequested);
    QSignalSpy undone(h.run.get(), &AgentRun::compactionUndone);

    // A checkpoint first ("/compact force"), accepted as drafted.
    QVERIFY(h.run->compactNow(true));
    QTRY_COMPARE_WITH_TIMEOUT(int(review.size()), 1, 10000);
    const SummaryDraft first = review.at(0).at(0).value<SummaryDraft>();
    QVERIFY(!first.draftedAhead());
    QVERIFY(h.run->decideSummaryReview(ReviewDecision::accept(first.anchors, first.summary)));
    QCOMPARE(h.settle(), AgentRun::State::Idle);
    QCOMPARE(h.store.overlays(h.sessionId).checkpoints.size(), 1);

    // Warn: a draft that extends that checkpoint.
    turn(h, filler(3, promptBytesFor(h, 0.64)), u"ok 3"_s);
    QCOMPARE(h.store.records(h.sessionId).constLast().tier, Tier::Warn);
    QTRY_COMPARE_WITH_TIMEOUT(int(drafted.size()), 1, 10000);
    QCOMPARE(summaryRequests(h).size(), 2);
    QVERIFY(bodyOf(summaryRequests(h).constLast()).contains(kPrevious));

    // The checkpoint is undone: the draft extends nothing that exists, so Full summarises it all.
    QVERIFY(h.run->undoLastCompaction());
    QTRY_COMPARE(undone.size(), 1);
    QVERIFY(h.run->compactNow(true));
    QTRY_COMPARE_WITH_TIMEOUT(int(review.size()), 2, 10000);
    const SummaryDraft second = review.at(1).at(0).value<SummaryDraft>();
    QCOMPARE(second.tier, Tier::Full);
    QVERIFY(!second.draftedAhead());
    const QList<RecordedRequest> summaries = summaryRequests(h);
    QCOMPARE(summaries.size(), 3);
    QVERIFY(bodyOf(summaries[2]).contains(u"PROMPT-1 "_s));
    QVERIFY(bodyOf(summaries[2]).contains(u"PROMPT-2 "_s));
    QVERIFY(!bodyOf(summaries[2]).contains(kPrevious));
    QVERIFY(h.run->decideSummaryReview(ReviewDecision::accept(second.anchors, second.summary)));
    QCOMPARE(h.settle(), AgentRun::State::Idle);
}

void TestReviewDraft::failedDraft_doesNotFailTheRun()
{
    AgentHarness h(reviewPolicy());
    FakeReply broken = FakeReply::withStatus(500, R"({"error":{"message":"draft server error"}})");
    broken.when = [](const RecordedRequest &r) { return r.isSummarizerCall(); };
    h.server.addRule(broken); // the first summary call, the draft's
    h.server.addRule(summaryRule(summaryAnswer(u"TIER"_s)));
    prepare(h, 2);
    QVERIFY(!QTest::currentTestFailed());
    QSignalSpy drafted(h.run.get(), &AgentRun::summaryDraftedAhead);
    QSignalSpy review(h.run.get(), &AgentRun::summaryReviewRequested);
    QSignalSpy failed(h.run.get(), &AgentRun::failed);

    LogCapture log;
    turn(h, filler(3, promptBytesFor(h, 0.64)), u"ok 3"_s); // the turn finishes whatever the draft does
    QTRY_VERIFY_WITH_TIMEOUT(!h.run->isDraftingAhead(), 10000);
    QCOMPARE(summaryRequests(h).size(), 1);
    QVERIFY(drafted.isEmpty());
    QVERIFY2(log.contains(u"background draft failed"_s), qPrintable(log.text()));

    // Soft makes its own whole summary call.
    h.server.enqueue(FakeReply::withText(u"ok 4"_s));
    QVERIFY(h.run->submit(filler(4, promptBytesFor(h, 0.74))));
    QTRY_COMPARE_WITH_TIMEOUT(int(review.size()), 1, 10000);
    const SummaryDraft draft = review.at(0).at(0).value<SummaryDraft>();
    QVERIFY(!draft.draftedAhead());
    QVERIFY(draft.summary.contains(u"TIER-SUMMARY"_s));
    const QList<RecordedRequest> summaries = summaryRequests(h);
    QCOMPARE(summaries.size(), 2);
    QVERIFY(bodyOf(summaries[1]).contains(u"PROMPT-1 "_s));
    QVERIFY(!bodyOf(summaries[1]).contains(kPrevious));
    QVERIFY(h.run->decideSummaryReview(ReviewDecision::accept(draft.anchors, draft.summary)));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
    QVERIFY(failed.isEmpty());
}

void TestReviewDraft::rejectedReview_dropsTheDraft()
{
    AgentHarness h(reviewPolicy());
    h.server.addRule(summaryRule(summaryAnswer(u"ANY"_s)));
    prepare(h, 2);
    QVERIFY(!QTest::currentTestFailed());
    QSignalSpy drafted(h.run.get(), &AgentRun::summaryDraftedAhead);
    QSignalSpy review(h.run.get(), &AgentRun::summaryReviewRequested);

    turn(h, filler(3, promptBytesFor(h, 0.64)), u"ok 3"_s);
    QTRY_COMPARE_WITH_TIMEOUT(int(drafted.size()), 1, 10000);
    h.server.enqueue(FakeReply::withText(u"ok 4"_s));
    QVERIFY(h.run->submit(filler(4, promptBytesFor(h, 0.72))));
    QTRY_COMPARE_WITH_TIMEOUT(int(review.size()), 1, 10000);
    QVERIFY(review.at(0).at(0).value<SummaryDraft>().draftedAhead());
    QVERIFY(h.run->decideSummaryReview(ReviewDecision::reject()));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
    const int summariesAfterReject = int(summaryRequests(h).size());

    // Full drafts again from scratch: the whole head in one call, no previous draft.
    h.server.enqueue(FakeReply::withText(u"ok 5"_s));
    QVERIFY(h.run->submit(filler(5, promptBytesFor(h, 0.85))));
    QTRY_COMPARE_WITH_TIMEOUT(int(review.size()), 2, 10000);
    const SummaryDraft full = review.at(1).at(0).value<SummaryDraft>();
    QCOMPARE(full.tier, Tier::Full);
    QVERIFY(!full.draftedAhead());
    const QList<RecordedRequest> summaries = summaryRequests(h);
    QCOMPARE(int(summaries.size()), summariesAfterReject + 1);
    QVERIFY(bodyOf(summaries.constLast()).contains(u"PROMPT-1 "_s));
    QVERIFY(!bodyOf(summaries.constLast()).contains(kPrevious));
    QVERIFY(h.run->decideSummaryReview(ReviewDecision::accept(full.anchors, full.summary)));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
}

void TestReviewDraft::emergency_neverUsesTheDraft()
{
    AgentHarness h(reviewPolicy());
    h.server.addRule(summaryRule(summaryAnswer(u"ANY"_s)));
    prepare(h, 2);
    QVERIFY(!QTest::currentTestFailed());
    QSignalSpy drafted(h.run.get(), &AgentRun::summaryDraftedAhead);
    QSignalSpy review(h.run.get(), &AgentRun::summaryReviewRequested);
    turn(h, filler(3, promptBytesFor(h, 0.64)), u"ok 3"_s);
    QTRY_COMPARE_WITH_TIMEOUT(int(drafted.size()), 1, 10000);

    turn(h, filler(4, promptBytesFor(h, 0.97)), u"ok 4"_s); // no wait, no summary call
    QVERIFY(review.isEmpty());
    QCOMPARE(summaryRequests(h).size(), 1);
    const CompactionRecord record = h.store.records(h.sessionId).constLast();
    QCOMPARE(record.tier, Tier::Emergency);
    QCOMPARE(record.summarizerStep, SummarizerStep::Extractive);
    QVERIFY(!record.summaryText.contains(u"ANY-SUMMARY"_s));
    QVERIFY(!bodyOf(h.agentRequests().constLast()).contains(u"ANY-SUMMARY"_s));
}

void TestReviewDraft::stopAndDestroy_cancelTheDraftCall()
{
    AgentHarness h(reviewPolicy());
    FakeReply hang = FakeReply::withFault(FakeReply::Fault::Hang);
    hang.when = [](const RecordedRequest &r) { return r.isSummarizerCall(); };
    hang.persistent = true;
    h.server.addRule(hang);
    prepare(h, 2);
    QVERIFY(!QTest::currentTestFailed());

    // Stop while the agent waits for its answer: the draft call goes too.
    h.server.enqueue(FakeReply::withFault(FakeReply::Fault::Hang));
    QVERIFY(h.run->submit(filler(3, promptBytesFor(h, 0.64))));
    QTRY_COMPARE_WITH_TIMEOUT(h.run->state(), AgentRun::State::WaitingForModel, 10000);
    QVERIFY(h.run->isDraftingAhead());
    QVERIFY(m_draftClient->isBusy());
    h.run->stop();
    QVERIFY(!h.run->isDraftingAhead());
    QVERIFY(!m_draftClient->isBusy());
    QCOMPARE(h.settle(), AgentRun::State::Stopped);

    // The next Warn drafts again; closing the run cancels it.
    turn(h, u"go on"_s, u"ok 4"_s);
    QVERIFY(h.run->isDraftingAhead());
    QVERIFY(m_draftClient->isBusy());
    h.run.reset();
    QVERIFY(!m_draftClient->isBusy());
}

void TestReviewDraft::reviewOff_nothingDrafted()
{
    CompactionPolicy policy = reviewPolicy();
    policy.reviewSummaries = false;
    AgentHarness h(policy);
    h.server.addRule(summaryRule(summaryAnswer(u"ANY"_s)));
    prepare(h, 2);
    QVERIFY(!QTest::currentTestFailed());
    QSignalSpy drafted(h.run.get(), &AgentRun::summaryDraftedAhead);

    turn(h, filler(3, promptBytesFor(h, 0.64)), u"ok 3"_s);
    QCOMPARE(h.store.records(h.sessionId).constLast().tier, Tier::Warn);
    QVERIFY(!h.run->isDraftingAhead());
    turn(h, filler(4, promptBytesFor(h, 0.66)), u"ok 4"_s);
    QVERIFY(!h.run->isDraftingAhead());
    QVERIFY(summaryRequests(h).isEmpty());

    // Soft commits its summary at once, with the one call it makes itself.
    turn(h, filler(5, promptBytesFor(h, 0.74)), u"ok 5"_s);
    QCOMPARE(summaryRequests(h).size(), 1);
    QCOMPARE(h.store.overlays(h.sessionId).checkpoints.size(), 1);
    QVERIFY(drafted.isEmpty());
}

QTEST_GUILESS_MAIN(TestReviewDraft)
#include "tst_reviewdraft.moc"
