// The reference scenarios of spec/reference-tests.md for the pipeline (1-11, 22, 25),
// plus the record and "once per distinct state" rules.
#include "CompactionFixtures.h"
#include "PreflightRunner.h"
#include "ScriptedSummarizer.h"

#include "compaction/AuditLog.h"
#include "compaction/ContextView.h"
#include "compaction/EmergencyCut.h"
#include "compaction/OffloadStore.h"
#include "compaction/PairRepair.h"
#include "compaction/TokenEstimate.h"

#include "tools/ToolContext.h"
#include "tools/ToolRegistry.h"
#include "tools/ToolResult.h"
#include "tools/ToolRun.h"
#include "tools/Workspace.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUuid>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
const QString kSystem = u"You are a coding agent."_s;

QString fileText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString joinedBody(const QList<Message> &view)
{
    QString s;
    for (qsizetype i = 1; i < view.size(); ++i)
        s += view[i].content;
    return s;
}

// Scenario 5's session: 4 messages of 2,000 bytes + 2 short.
QList<Message> fullSession(HistoryBuilder &h, QChar fill = QLatin1Char('a'))
{
    h.user(big(2000, fill)).assistant(big(2000, fill)).user(big(2000, fill)).assistant(big(2000, fill))
        .user(u"short one"_s).assistant(u"short two"_s);
    return h;
}

// Scenario 8's start: a Full compaction whose anchors say "Build a parser" and "- Use recursive
// descent", then the session fills up again to Full; the next summary answers `intent` and `decisions`.
PreflightResult compactedOnceAndFullAgain(ScriptedSummarizer &s, const QString &intent, const QString &decisions,
                                          HistoryBuilder &h, CompactionPolicy *p)
{
    s.addAnswer(ScriptedSummarizer::answer(u"Build a parser"_s, u"- Use recursive descent"_s, u"FIRST-SUMMARY-TEXT"_s));
    s.addAnswer(ScriptedSummarizer::answer(intent, decisions, u"SECOND-SUMMARY-TEXT"_s));
    p->contextWindow = 2500;
    p->tailMessages = 2;
    fullSession(h);
    PreflightResult first = runPreflight(preflightInput(kSystem, h, *p), &s);
    fullSession(h, QLatin1Char('b')); // the session goes on and fills up again
    return first;
}

// Scenario 6's session, with the head's half-way cut inside a tool-call group.
QList<Message> softSession()
{
    HistoryBuilder h;
    h.user(u"FIRST build the parser"_s + big(600))
        .call(u"c1"_s, u"bash"_s, u"{\"command\":\"make\"}"_s)
        .result(u"c1"_s, u"RESULT-ONE "_s + big(900))
        .calls({{u"c2"_s, u"bash"_s, u"{}"_s, true}, {u"c3"_s, u"grep"_s, u"{}"_s, true}})
        .result(u"c2"_s, u"RESULT-TWO "_s + big(900))
        .result(u"c3"_s, u"RESULT-THREE "_s + big(900))
        .user(u"SECOND-HALF please also add tests"_s + big(600))
        .assistant(u"KEPT-ASSISTANT working on it"_s + big(600))
        .user(u"TAIL-USER status?"_s)
        .assistant(u"TAIL-ASSISTANT nearly done"_s);
    return h;
}

// Runs one call of a real tool in `workspace` to its result.
ToolResult runTool(const QString &workspace, const QString &name, const QJsonObject &arguments)
{
    Workspace ws(workspace);
    const std::unique_ptr<ToolRegistry> registry = ToolRegistry::createDefault();
    const ToolCall call{u"probe"_s, name, QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact)), true};
    std::unique_ptr<ToolRun> run(registry->start(call, ToolContext{&ws, u"s1"_s, u"probe"_s}));
    QSignalSpy spy(run.get(), &ToolRun::finished);
    if (!run->isFinished())
        spy.wait(20000);
    return run->isFinished() ? run->result() : ToolResult::error(u"TIMEOUT"_s);
}

CompactionPolicy policyAtRatio(const QList<Message> &history, double ratio, int tail)
{
    CompactionPolicy p;
    p.tailMessages = tail;
    const qint64 tokens = ContextView::build(kSystem, history, {}).tokens();
    p.contextWindow = qint64(double(tokens) / ratio);
    return p;
}
} // namespace

class TestPreflight : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void scenario1_none();
    void scenario2_windowNotPositive_data();
    void scenario2_windowNotPositive();
    void scenario3_warnOffloadOnly();
    void scenario4_warnTwice();
    void scenario5_fullWithAnchors();
    void summariserSeesPlaceholdersAndStubs();
    void scenario6_soft();
    void scenario7_emergency();
    void readyDraft_data();
    void readyDraft();
    void scenario8_incremental();
    void earlierIntentSurvivesFollowUp_data();
    void earlierIntentSurvivesFollowUp();
    void offloadNeverGrowsAMessage_data();
    void offloadNeverGrowsAMessage();
    void resultsGetDistinctFiles_data();
    void resultsGetDistinctFiles();
    void toolTimeOffloadsAreNoNewState();
    void earlyOffloadStaysReachable();
    void scenario9_fallbackAtFull_data();
    void scenario9_fallbackAtFull();
    void scenario10_failureAtSoftStillShrinks();
    void scenario11_timeout();
    void skipSummaryMovesToNextStep();
    void scenario22_emergencyKeepsBudget();
    void emergencyCutsAPasteInTheTail();
    void summaryNamesMessagesByPosition();
    void reviewCommitsTheAnchorsAsShown();
    void reviewCannotAcceptALargerCheckpoint();
    void emergencyCutsToolCallArguments();
    void emergencyCollapsesWhatItCannotCut();
    void emergencyDoesNotSendWhatCannotFit_data();
    void emergencyDoesNotSendWhatCannotFit();
    void scenario25_nonDestructive();
    void headEmptyRecordsNoChange();
    void warnRecordedOncePerState();
    void forceAndUserRequested();
    void recordFields();
    void callerViewIsUsed();
    void tierAtThresholds_data();
    void tierAtThresholds();
};

void TestPreflight::scenario1_none()
{
    ScriptedSummarizer s;
    CompactionPolicy p;
    p.contextWindow = 100000;
    const QList<Message> history = HistoryBuilder().user(u"hello"_s);
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &s);
    QCOMPARE(r.record.tier, Tier::None);
    QCOMPARE(s.callCount(), 0);
    QVERIFY(!r.record.changed);
    QVERIFY(!r.shouldRecord);
    const QList<Message> view = r.messages(history);
    QCOMPARE(view.size(), 2);
    QCOMPARE(view[0].content, kSystem);
    QVERIFY(identical(view[1], history[0]));
}

void TestPreflight::scenario2_windowNotPositive_data()
{
    QTest::addColumn<qint64>("window");
    QTest::newRow("zero") << qint64(0);
    QTest::newRow("negative") << qint64(-1);
}

void TestPreflight::scenario2_windowNotPositive()
{
    QFETCH(qint64, window);
    CompactionPolicy p;
    p.contextWindow = window;
    const QList<Message> history = HistoryBuilder().user(big(10000));
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p));
    QCOMPARE(r.record.tier, Tier::None);
    QVERIFY(identical(r.messages(history)[1], history[0]));
    QCOMPARE(r.record.tokensAfter, r.record.tokensBefore);
}

void TestPreflight::scenario3_warnOffloadOnly()
{
    QTemporaryDir workspace;
    QVERIFY(workspace.isValid());
    ScriptedSummarizer s;
    CompactionPolicy p;
    p.contextWindow = 2000;
    HistoryBuilder h;
    Message importedResult = Message::user(big(5000));
    importedResult.toolCallId = u"call_big"_s; // "a user message of 5,000 bytes as a tool result"
    h.user(u"look at the log"_s).call(u"call_big"_s, u"bash"_s).add(importedResult);
    for (int i = 0; i < 7; ++i)
        h.add(i % 2 ? Message::assistant(u"ok %1"_s.arg(i)) : Message::user(u"more %1"_s.arg(i)));
    const QList<Message> history = h;
    const QList<Message> before = history;

    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p, workspace.path()), &s);
    QCOMPARE(r.record.tier, Tier::Warn);
    QCOMPARE(s.callCount(), 0);
    QVERIFY(r.record.changed);
    QCOMPARE(r.newOffloads.size(), 1);
    QCOMPARE(r.record.offloaded.size(), 1);
    const QList<Message> view = r.messages(history);
    QVERIFY(view[3].content.startsWith(u"[offloaded:"_s));
    QCOMPARE(view[3].toolCallId, u"call_big"_s);
    const QString file = QDir(workspace.path()).filePath(r.newOffloads[0].entry.relativePath);
    QCOMPARE(fileText(file), big(5000));
    QVERIFY(identical(history, before));
    QVERIFY(r.record.tokensAfter < r.record.tokensBefore);
    QVERIFY(r.ratioAfter < r.ratioBefore);
}

void TestPreflight::scenario4_warnTwice()
{
    QTemporaryDir workspace;
    CompactionPolicy p;
    p.contextWindow = 2000;
    HistoryBuilder h;
    h.user(u"look"_s).call(u"c1"_s, u"bash"_s).result(u"c1"_s, big(5000));
    for (int i = 0; i < 7; ++i)
        h.user(u"short %1"_s.arg(i));
    const QList<Message> history = h;

    const PreflightResult first = runPreflight(preflightInput(kSystem, history, p, workspace.path()));
    QCOMPARE(first.record.tier, Tier::Warn);
    QCOMPARE(first.newOffloads.size(), 1);
    const QString path = QDir(workspace.path()).filePath(first.newOffloads[0].entry.relativePath);
    // Mark the file: a second write would replace it.
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        f.write("MARK");
    }
    // The same, unchanged input again.
    const PreflightResult second = runPreflight(preflightInput(kSystem, history, p, workspace.path()));
    QCOMPARE(second.record.tier, Tier::Warn);
    QCOMPARE(second.newOffloads.size(), 1);
    QCOMPARE(second.newOffloads[0].entry.relativePath, first.newOffloads[0].entry.relativePath);
    QVERIFY(fileText(path).endsWith(u"MARK"_s));
    QCOMPARE(QDir(QFileInfo(path).path()).entryList(QDir::Files).size(), 1);

    // With the overlays of the first run the view is small again: nothing to do.
    PreflightInput in = preflightInput(kSystem, history, p, workspace.path());
    in.overlays = first.overlays;
    const PreflightResult third = runPreflight(in);
    QCOMPARE(third.record.tier, Tier::None);
    QCOMPARE(third.ratioBefore, first.ratioAfter);
    QVERIFY(!third.record.changed);
    QVERIFY(third.newOffloads.isEmpty());
}

void TestPreflight::scenario5_fullWithAnchors()
{
    ScriptedSummarizer s;
    s.addAnswer(ScriptedSummarizer::answer(u"Build a parser"_s, u"- Use a recursive descent parser"_s, u"SUMMARY-ONE"_s));
    CompactionPolicy p;
    p.contextWindow = 2500;
    p.tailMessages = 2;
    HistoryBuilder h;
    const QList<Message> history = fullSession(h);
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &s);
    QCOMPARE(r.record.tier, Tier::Full);
    QCOMPARE(s.callCount(), 1);
    QVERIFY(r.record.changed);
    for (AnchorKind kind : kAllAnchorKinds)
        QVERIFY2(!isUnknownAnchorValue(r.record.anchors.value(kind)), qPrintable(anchorKey(kind)));
    QVERIFY(r.record.anchors.value(AnchorKind::UserIntent).contains(u"Build a parser"_s));
    QVERIFY(r.record.tokensAfter < r.record.tokensBefore);
    const QList<Message> view = r.messages(history);
    QCOMPARE(view[0].role, Role::System);
    QVERIFY(view[1].content.startsWith(u"[Context Compaction]"_s));
    QVERIFY(view[1].content.contains(u"SUMMARY-ONE"_s));
    QCOMPARE(view.size(), 4);
    QVERIFY(identical(view[2], history[4]));
    QVERIFY(identical(view[3], history[5]));
    QCOMPARE(r.record.summarized, 4);
    QCOMPARE(r.record.preservedTail, 2);
    QCOMPARE(r.record.summarizerStep, SummarizerStep::Configured);
    QCOMPARE(r.record.summarizerModel, s.modelName());
    QCOMPARE(r.newCheckpoints.size(), 1);
    QCOMPARE(r.newCheckpoints[0].coversUpToMessageId, 4);
    QCOMPARE(r.newCheckpoints[0].recordId, r.record.id);
    // The prompt: a context compaction engine, the first-compaction shape, the rendered conversation.
    QVERIFY(s.prompts()[0].system.contains(u"context compaction engine"_s));
    const QString &user = s.prompts()[0].user;
    QVERIFY(!user.contains(u"<previous-compaction>"_s));
    for (const QString &header : {u"## Anchors"_s, u"### User Intent"_s, u"### Execution Progress"_s, u"### Key Decisions"_s,
                                  u"### Tried Solutions"_s, u"### Next Steps"_s, u"## Summary"_s})
        QVERIFY2(user.contains(header), qPrintable(header));
    QVERIFY(user.contains(u"[user]: "_s + big(2000)));
    QVERIFY(user.contains(u"[assistant]: "_s + big(2000)));
    QVERIFY(!user.contains(u"short one"_s)); // the tail is not summarised
}

// Full offloads the part it summarises first (gate 2), and the head is read where it is: the
// prompt shows history messages as they are, placeholders and stubs as the view has them.
void TestPreflight::summariserSeesPlaceholdersAndStubs()
{
    ScriptedSummarizer s;
    s.addAnswer(ScriptedSummarizer::answer(u"Read the log"_s, u"N/A"_s, u"SUMMARY"_s));
    HistoryBuilder h;
    h.user(u"HEAD-USER read the build log"_s + big(600))
        .call(u"c1"_s, u"bash"_s, u"{\"command\":\"cat build.log\"}"_s)
        .result(u"c1"_s, big(6000, QLatin1Char('r')))
        .call(u"c2"_s, u"bash"_s, u"{\"command\":\"make\"}"_s) // never answered: a stub stands in
        .user(u"HEAD-LATER keep going"_s + big(600))
        .assistant(u"HEAD-ASSISTANT on it"_s + big(600))
        .user(u"TAIL-USER status?"_s)
        .assistant(u"TAIL-ASSISTANT nearly done"_s);
    const QList<Message> history = h;
    const CompactionPolicy p = policyAtRatio(history, 0.85, 2);
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &s);
    QCOMPARE(r.record.tier, Tier::Full);
    QCOMPARE(s.callCount(), 1);
    const QString &prompt = s.prompts()[0].user;
    QVERIFY(prompt.contains(u"[user]: HEAD-USER read the build log"_s + big(600) + u'\n'));
    QVERIFY(prompt.contains(u"[tool_call bash(c1)]: {\"command\":\"cat build.log\"}"_s));
    QVERIFY(prompt.contains(u"[tool_result c1]: [offloaded: .waterline/tool_results/"_s));
    QVERIFY(!prompt.contains(big(600, QLatin1Char('r')))); // the preview is cut to 500 bytes
    QVERIFY(prompt.contains(u"[tool_result c2]: "_s + PairRepair::stubText() + u'\n'));
    QVERIFY(prompt.contains(u"[assistant]: HEAD-ASSISTANT on it"_s));
    QVERIFY(!prompt.contains(u"TAIL-USER"_s));
    QCOMPARE(r.record.offloaded.size(), 1);
    QCOMPARE(r.record.summarized, 7); // user, call, result, call, stub, user, assistant: all before the tail
}

void TestPreflight::scenario6_soft()
{
    ScriptedSummarizer s;
    s.addAnswer(ScriptedSummarizer::answer(u"Build the parser"_s, u"N/A"_s, u"SOFT-SUMMARY"_s));
    const QList<Message> history = softSession();
    const CompactionPolicy p = policyAtRatio(history, 0.75, 2);
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &s);
    QCOMPARE(r.record.tier, Tier::Soft);
    QCOMPARE(s.callCount(), 1);
    // The head is items 1..8; half-way (item 5) is inside the c2/c3 group, so the cut moves to item 7.
    const QString &prompt = s.prompts()[0].user;
    QVERIFY(prompt.contains(u"FIRST build the parser"_s));
    QVERIFY(prompt.contains(u"[tool_result c3]: RESULT-THREE"_s));
    QVERIFY(prompt.contains(u"[tool_call bash(c1)]: {\"command\":\"make\"}"_s));
    QVERIFY(!prompt.contains(u"SECOND-HALF"_s));
    QVERIFY(!prompt.contains(u"TAIL-USER"_s));
    QCOMPARE(r.record.summarized, 6);
    const QList<Message> view = r.messages(history);
    QCOMPARE(view.size(), 6);
    QVERIFY(view[1].content.startsWith(u"[Context Compaction]"_s));
    // The newer half of the head and the tail: verbatim and in order.
    for (int i = 0; i < 4; ++i)
        QVERIFY2(identical(view[2 + i], history[6 + i]), qPrintable(QString::number(i)));
    QCOMPARE(r.newCheckpoints[0].coversUpToMessageId, history[5].id);
}

void TestPreflight::readyDraft_data()
{
    // Soft's range in softSession() is history[0..5]. The draft: its last covered index (-1: none
    // drafted), whether it extends another checkpoint; then what the tier summarises.
    QTest::addColumn<int>("coversUpToIndex");
    QTest::addColumn<bool>("otherPrevious");
    QTest::addColumn<bool>("review");
    QTest::addColumn<int>("calls");
    QTest::addColumn<bool>("used");
    QTest::addColumn<int>("summarisedAtTier");
    QTest::newRow("covers the range: no call") << 5 << false << true << 0 << true << 0;
    QTest::newRow("a prefix: only the rest") << 2 << false << true << 1 << true << 3;
    QTest::newRow("another checkpoint: stale") << 5 << true << true << 1 << false << 0;
    QTest::newRow("beyond the range: stale") << 7 << false << true << 1 << false << 0;
    QTest::newRow("review off: not used") << 5 << false << false << 1 << false << 0;
}

void TestPreflight::readyDraft()
{
    QFETCH(int, coversUpToIndex);
    QFETCH(bool, otherPrevious);
    QFETCH(bool, review);
    QFETCH(int, calls);
    QFETCH(bool, used);
    QFETCH(int, summarisedAtTier);
    ScriptedSummarizer s;
    s.addAnswer(ScriptedSummarizer::answer(u"Build the parser"_s, u"N/A"_s, u"TIER-SUMMARY"_s));
    const QList<Message> history = softSession();
    CompactionPolicy p = policyAtRatio(history, 0.75, 2);
    p.reviewSummaries = review;
    PreflightInput in = preflightInput(kSystem, history, p);
    ReadyDraft draft;
    draft.parsed = parseAnchorsAndSummary(ScriptedSummarizer::answer(u"Build the parser"_s, u"N/A"_s, u"AHEAD-SUMMARY"_s));
    draft.coversFrom = history[0].id;
    draft.coversUpTo = history[coversUpToIndex].id;
    draft.requestIndex = 7;
    draft.step = SummarizerStep::MainModel;
    draft.model = u"draft-model"_s;
    if (otherPrevious) {
        Checkpoint gone;
        gone.id = 99;
        gone.coversUpToMessageId = history[0].id;
        draft.previous = gone;
    }
    in.draft = draft;

    Preflight preflight(std::move(in));
    preflight.setSummarizers(&s, nullptr);
    QSignalSpy reviewed(&preflight, &Preflight::reviewRequested);
    QSignalSpy finished(&preflight, &Preflight::finished);
    QSignalSpy starting(&preflight, &Preflight::summaryStarting);
    preflight.start();
    if (review)
        QTRY_COMPARE(reviewed.size(), 1);
    else
        QTRY_VERIFY(preflight.isFinished());
    QCOMPARE(starting.size(), 1);
    QCOMPARE(s.callCount(), calls);
    if (!review) {
        QVERIFY(preflight.result().record.summaryText.contains(u"TIER-SUMMARY"_s));
        return;
    }
    const SummaryDraft shown = preflight.draft();
    QCOMPARE(shown.draftedAhead(), used);
    QCOMPARE(shown.draftedAtRequest, used ? 7 : -1);
    QCOMPARE(shown.summarisedAtTier, summarisedAtTier);
    QCOMPARE(shown.replaced.size(), 6); // all of Soft's range, whatever was drafted ahead
    if (calls == 0) {
        QVERIFY(shown.summary.contains(u"AHEAD-SUMMARY"_s));
        QCOMPARE(shown.step, SummarizerStep::MainModel);
        QCOMPARE(shown.model, u"draft-model"_s);
    } else {
        QVERIFY(shown.summary.contains(u"TIER-SUMMARY"_s));
        const QString &prompt = s.prompts()[0].user;
        // A top-up reads only what the draft lacks, with the draft as the previous checkpoint.
        QCOMPARE(prompt.contains(u"FIRST build the parser"_s), !used);
        QCOMPARE(prompt.contains(u"<previous-compaction>"_s), used);
        QCOMPARE(prompt.contains(u"AHEAD-SUMMARY"_s), used);
        QVERIFY(prompt.contains(u"RESULT-THREE"_s));
    }
    preflight.decideReview(ReviewDecision::accept(shown.anchors, shown.summary));
    QVERIFY(preflight.isFinished());
    QCOMPARE(preflight.result().newCheckpoints.size(), 1);
    QCOMPARE(preflight.result().newCheckpoints[0].coversUpToMessageId, history[5].id);
}

void TestPreflight::scenario7_emergency()
{
    ScriptedSummarizer s;
    CompactionPolicy p;
    p.contextWindow = 1000;
    p.tailMessages = 1;
    const QList<Message> history = HistoryBuilder().user(big(4000)).assistant(big(4000)).user(u"tail"_s);
    const QList<Message> before = history;
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &s);
    QCOMPARE(r.record.tier, Tier::Emergency);
    QCOMPARE(s.callCount(), 0);
    // The record says what happened (the tier always notes it), and only that: it got below Full.
    const QString note = u"emergency: the context was at %1% of the window; compacted without an LLM call"_s
                             .arg(QString::number(r.record.reason.ratio * 100, 'f', 1));
    QCOMPARE(r.record.error, note);
    QVERIFY(r.record.reason.ratio >= p.emergency);
    QCOMPARE(r.record.summarizerStep, SummarizerStep::Extractive);
    const QList<Message> view = r.messages(history);
    QCOMPARE(view[0].role, Role::System);
    QVERIFY(view[1].content.startsWith(u"[Context Compaction]"_s));
    QVERIFY(identical(view.last(), history.last()));
    QCOMPARE(view.size(), 3);
    QVERIFY2(r.ratioAfter < p.full, qPrintable(QString::number(r.ratioAfter))); // here the checkpoint is small enough
    QVERIFY(identical(history, before));
}

void TestPreflight::scenario8_incremental()
{
    ScriptedSummarizer s;
    CompactionPolicy p;
    HistoryBuilder h;
    const PreflightResult first = compactedOnceAndFullAgain(s, u"- N/A"_s, u"none"_s, h, &p);
    QCOMPARE(first.record.tier, Tier::Full);
    PreflightInput in = preflightInput(kSystem, h, p);
    in.overlays = first.overlays;
    const PreflightResult second = runPreflight(in, &s);
    QCOMPARE(second.record.tier, Tier::Full);
    QCOMPARE(s.callCount(), 2);
    const QString &prompt = s.prompts()[1].user;
    QVERIFY(prompt.contains(u"<previous-compaction>"_s));
    QVERIFY(prompt.contains(u"</previous-compaction>"_s));
    QVERIFY(prompt.contains(u"FIRST-SUMMARY-TEXT"_s));
    QVERIFY(prompt.contains(u"Use recursive descent"_s));
    QVERIFY(!prompt.contains(u"[Context Compaction]"_s)); // the old checkpoint is not rendered as a message
    QVERIFY(!prompt.contains(big(2000))); // the first part is not summarised twice
    // Unknown new anchors keep the known old ones.
    QVERIFY(second.record.anchors.value(AnchorKind::UserIntent).contains(u"Build a parser"_s));
    QCOMPARE(second.record.anchorChanges[size_t(AnchorKind::UserIntent)], AnchorChange::Kept);
    QVERIFY(second.record.anchors.value(AnchorKind::KeyDecision).contains(u"recursive descent"_s));
    const QList<Message> view = second.messages(h);
    QCOMPARE(view.size(), 4);
    QVERIFY(view[1].content.contains(u"SECOND-SUMMARY-TEXT"_s));
    QCOMPARE(second.overlays.checkpoints.size(), 2);
    QCOMPARE(second.newCheckpoints[0].coversFromMessageId, 1);
}

void TestPreflight::earlierIntentSurvivesFollowUp_data()
{
    QTest::addColumn<bool>("emergency"); // the second compaction: Emergency (extractive) or Full (LLM)
    QTest::newRow("extractive, emergency tier") << true;
    QTest::newRow("llm answers 'continue'") << false;
}

void TestPreflight::earlierIntentSurvivesFollowUp()
{
    QFETCH(bool, emergency);
    const QString goal = u"Build a REST API in Go with chi"_s;
    ScriptedSummarizer s;
    s.addAnswer(ScriptedSummarizer::answer(goal, u"- chi router"_s, u"FIRST-SUMMARY-TEXT"_s));
    s.addAnswer(ScriptedSummarizer::answer(u"continue"_s, u"N/A"_s, u"SECOND-SUMMARY-TEXT"_s));
    CompactionPolicy p;
    p.contextWindow = 2500;
    p.tailMessages = 2;
    HistoryBuilder h;
    fullSession(h);
    const PreflightResult first = runPreflight(preflightInput(kSystem, h, p), &s);
    QCOMPARE(first.record.tier, Tier::Full);
    QCOMPARE(first.record.anchors.value(AnchorKind::UserIntent), goal);

    // The user only says "continue"; the head after the checkpoint starts with it.
    h.user(u"continue"_s).assistant(big(4000, QLatin1Char('b'))).user(big(4000, QLatin1Char('c')))
        .assistant(u"working"_s).user(u"tail one"_s).assistant(u"tail two"_s);
    if (emergency)
        p.contextWindow = 1200;
    PreflightInput in = preflightInput(kSystem, h, p);
    in.overlays = first.overlays;
    const PreflightResult second = runPreflight(in, &s);
    QCOMPARE(second.record.tier, emergency ? Tier::Emergency : Tier::Full);
    QCOMPARE(second.newCheckpoints.size(), 1);
    const QString intent = second.record.anchors.value(AnchorKind::UserIntent);
    QVERIFY2(intent.startsWith(goal), qPrintable(intent));
    QVERIFY2(second.newCheckpoints[0].text.contains(u"### User Intent\n"_s + goal), qPrintable(second.newCheckpoints[0].text));
    QCOMPARE(second.record.anchors.value(AnchorKind::KeyDecision), u"- chi router"_s);
}

void TestPreflight::offloadNeverGrowsAMessage_data()
{
    QTest::addColumn<QList<Message>>("history");
    QTest::addColumn<double>("ratio");     // where the policy puts the view
    QTest::addColumn<int>("tail");
    QTest::addColumn<int>("offloads");     // how many results are offloaded

    // Emergency offloads the tail's results whatever their size: not a 2-byte "ok".
    QTest::newRow("ok in the emergency tail")
        << QList<Message>(HistoryBuilder().user(big(4000)).assistant(big(4000)).user(u"go"_s)
                              .call(u"c1"_s, u"bash"_s, u"{\"command\":\"true\"}"_s).result(u"c1"_s, u"ok"_s).assistant(u"done"_s))
        << 40.0 << 3 << 0;
    // Nine 450-character lines (4,059 bytes, over gate 2): a preview of 10 lines holds them all.
    QString lines;
    for (int i = 0; i < 9; ++i)
        lines += QString(450, QChar(u'a' + char16_t(i))) + u'\n';
    QTest::newRow("nine long lines at warn")
        << QList<Message>(HistoryBuilder().user(u"list"_s).call(u"c1"_s, u"bash"_s).result(u"c1"_s, lines)
                              .assistant(u"listed"_s).user(u"tail"_s).assistant(u"tail answer"_s))
        << 0.65 << 2 << 0;
    // CJK lines of 200 characters (600 bytes): previews cut in bytes keep the placeholder smaller.
    QString cjk;
    for (int i = 0; i < 9; ++i)
        cjk += QString(200, QChar(0x4E00 + i)) + u'\n';
    QTest::newRow("cjk result at warn")
        << QList<Message>(HistoryBuilder().user(u"list"_s).call(u"c1"_s, u"bash"_s).result(u"c1"_s, cjk)
                              .assistant(u"listed"_s).user(u"tail"_s).assistant(u"tail answer"_s))
        << 0.65 << 2 << 1;
}

void TestPreflight::offloadNeverGrowsAMessage()
{
    QFETCH(QList<Message>, history);
    QFETCH(double, ratio);
    QFETCH(int, tail);
    QFETCH(int, offloads);
    const CompactionPolicy p = policyAtRatio(history, ratio, tail);
    const qint64 before = ContextView::build(kSystem, history, {}).bytes();
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p));
    QVERIFY(r.record.tier != Tier::None);
    for (const OffloadOverlay &o : r.newOffloads) {
        const auto source = std::find_if(history.cbegin(), history.cend(), [&](const Message &m) { return m.id == o.messageId; });
        QVERIFY(source != history.cend());
        QVERIFY2(TokenEstimate::utf8Bytes(o.placeholder) < TokenEstimate::utf8Bytes(source->content),
                 qPrintable(u"%1 -> %2"_s.arg(TokenEstimate::utf8Bytes(source->content)).arg(TokenEstimate::utf8Bytes(o.placeholder))));
    }
    QCOMPARE(r.newOffloads.size(), offloads);
    QVERIFY2(r.view.bytes() <= before, qPrintable(u"%1 -> %2"_s.arg(before).arg(r.view.bytes())));
}

void TestPreflight::resultsGetDistinctFiles_data()
{
    QTest::addColumn<QString>("firstId");
    QTest::addColumn<QString>("secondId");
    QTest::newRow("same call id twice") << u"call_0"_s << u"call_0"_s;          // servers that number per response
    QTest::newRow("ids that differ in case") << u"Call_A"_s << u"call_a"_s;  // one name where case is ignored
}

void TestPreflight::resultsGetDistinctFiles()
{
    QFETCH(QString, firstId);
    QFETCH(QString, secondId);
    QString first, second;
    for (int i = 0; i < 300; ++i) {
        first += u"FIRST-RESULT line %1\n"_s.arg(i);
        second += u"SECOND-RESULT line %1\n"_s.arg(i);
    }
    HistoryBuilder h;
    h.user(u"run it"_s).call(firstId, u"bash"_s).result(firstId, first).assistant(u"once"_s)
        .user(u"again"_s).call(secondId, u"bash"_s).result(secondId, second).assistant(u"twice"_s)
        .user(u"tail"_s).assistant(u"tail answer"_s);
    const QList<Message> history = h;
    const CompactionPolicy p = policyAtRatio(history, 0.65, 2);
    QTemporaryDir workspace;
    QVERIFY(workspace.isValid());
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p, workspace.path()));
    QCOMPARE(r.record.tier, Tier::Warn);
    QCOMPARE(r.newOffloads.size(), 2);
    const OffloadOverlay &a = r.newOffloads[0];
    const OffloadOverlay &b = r.newOffloads[1];
    QVERIFY2(a.entry.relativePath.compare(b.entry.relativePath, Qt::CaseInsensitive) != 0, qPrintable(a.entry.relativePath));
    // Each file holds its own result; the second never previews the first's.
    QCOMPARE(fileText(workspace.filePath(a.entry.relativePath)), first);
    QCOMPARE(fileText(workspace.filePath(b.entry.relativePath)), second);
    QVERIFY(b.placeholder.contains(u"SECOND-RESULT line 0"_s));
    QVERIFY(!b.placeholder.contains(u"FIRST-RESULT"_s));
    QCOMPARE(b.entry.bytes, TokenEstimate::utf8Bytes(second));

    // The what-if replay's simulated offloads name the same files.
    const PreflightResult simulated = runPreflight(preflightInput(kSystem, history, p));
    QCOMPARE(simulated.newOffloads.size(), 2);
    QCOMPARE(simulated.newOffloads[0].entry, a.entry);
    QCOMPARE(simulated.newOffloads[1].entry, b.entry);
    QCOMPARE(simulated.newOffloads[1].placeholder, b.placeholder);
}

void TestPreflight::toolTimeOffloadsAreNoNewState()
{
    // Between Warn and Soft with nothing left to offload in the head, a turn whose large result was
    // offloaded at tool time (gate 1) is the same compaction state: no second record.
    HistoryBuilder h;
    h.user(u"start "_s + big(3000)).assistant(u"ok"_s).user(u"run"_s).call(u"t1"_s, u"bash"_s).result(u"t1"_s, big(12000))
        .assistant(u"ran"_s);
    ContextOverlays overlays;
    auto gate1 = [&](const Message &m) {
        OffloadOverlay o;
        o.messageId = m.id;
        o.entry.callId = m.toolCallId;
        o.entry.toolName = u"bash"_s;
        o.entry.relativePath = u".waterline/tool_results/s1/"_s + m.toolCallId + u".txt"_s;
        o.entry.bytes = m.content.size();
        o.entry.lines = 1;
        o.entry.gate = 1;
        o.entry.messageId = m.id;
        o.placeholder = u"[offloaded: "_s + o.entry.relativePath + u" | 1 lines, 12000 bytes]\nPreview (first 0 lines):\n"_s;
        overlays.offloads.insert(m.id, o);
    };
    gate1(h.messages()[4]);
    CompactionPolicy p;
    p.tailMessages = 2;
    p.contextWindow = ContextView::build(kSystem, h, overlays).tokens() * 100 / 64; // 64 %: Warn
    PreflightInput in = preflightInput(kSystem, h, p);
    in.overlays = overlays;
    const PreflightResult first = runPreflight(in);
    QCOMPARE(first.record.tier, Tier::Warn);
    QVERIFY(!first.record.changed);
    QVERIFY(first.shouldRecord); // a state not recorded before

    h.user(u"again"_s).call(u"t2"_s, u"bash"_s).result(u"t2"_s, big(12000)).assistant(u"ran again"_s);
    gate1(h.messages()[8]);
    PreflightInput next = preflightInput(kSystem, h, p);
    next.overlays = overlays;
    next.lastStateKey = first.stateKey;
    const PreflightResult second = runPreflight(next);
    QCOMPARE(second.record.tier, Tier::Warn);
    QVERIFY(!second.record.changed);
    QCOMPARE(second.stateKey, first.stateKey);
    QVERIFY(!second.shouldRecord);
}

void TestPreflight::earlyOffloadStaysReachable()
{
    // A secret in an early result, then 60 later results offloaded through 61 compactions: the model
    // must still be able to find the early file from its context and read it back.
    const QString secret = u"SECRET-7731-ALPHA"_s;
    QTemporaryDir workspace;
    QVERIFY(workspace.isValid());
    CompactionPolicy p;
    p.tailMessages = 2;
    HistoryBuilder h;
    h.user(u"Collect the results."_s);
    ContextOverlays overlays;
    QString firstPath;
    PreflightResult last;
    for (int k = 0; k <= 60; ++k) {
        QString content;
        for (int line = 0; line < 300; ++line)
            content += (k == 0 && line == 150 ? secret : u"RESULT-%1 line %2"_s.arg(k).arg(line)) + u'\n';
        const QString id = u"call_%1"_s.arg(k);
        h.call(id, u"bash"_s).result(id, content).assistant(u"step %1 done"_s.arg(k)).user(u"next"_s);
        PreflightInput in = preflightInput(kSystem, h, p, workspace.path());
        in.overlays = overlays;
        in.force = true; // a Full compaction each step, as "/compact force"
        last = runPreflight(in);
        QCOMPARE(last.record.tier, Tier::Full);
        overlays = last.overlays;
        if (k == 0) {
            QCOMPARE(last.newOffloads.size(), 1);
            firstPath = last.newOffloads.first().entry.relativePath;
        }
    }
    QCOMPARE(overlays.offloads.size(), 61);
    QString context;
    for (const Message &m : last.messages(h))
        context += m.content + u'\n';
    QVERIFY(!context.contains(secret));
    // Either the early file is named, or a folder that holds it is.
    QString found;
    if (context.contains(firstPath)) {
        found = firstPath;
    } else {
        static const QRegularExpression folderLine(u"^- (\\S+)/ holds the (\\d+) offloaded results"_s, QRegularExpression::MultilineOption);
        const QRegularExpressionMatch folder = folderLine.match(context);
        QVERIFY2(folder.hasMatch(), qPrintable(context.left(4000)));
        // The model's grep on that folder finds the file ("<file>:<line>: <text>").
        const ToolResult grep = runTool(workspace.path(), u"grep"_s,
                                        QJsonObject{{u"pattern"_s, u"SECRET-\\d+"_s}, {u"path"_s, folder.captured(1)}});
        QVERIFY2(!grep.isError, qPrintable(grep.content));
        found = grep.content.section(u':', 0, 0);
    }
    QCOMPARE(found, firstPath);
    // ...and read_file gives the secret back.
    const ToolResult read = runTool(workspace.path(), u"read_file"_s, QJsonObject{{u"path"_s, found}});
    QVERIFY2(!read.isError && read.content.contains(secret), qPrintable(read.content.left(300)));
    // The references stay bounded: one checkpoint does not list every file.
    QVERIFY2(context.size() < 16000, qPrintable(QString::number(context.size())));
}

void TestPreflight::scenario9_fallbackAtFull_data()
{
    QTest::addColumn<QString>("configured"); // fail | empty | garbage
    QTest::addColumn<bool>("withMain");
    QTest::addColumn<int>("step");
    QTest::newRow("error, main model answers") << u"fail"_s << true << int(SummarizerStep::MainModel);
    QTest::newRow("error, no main model") << u"fail"_s << false << int(SummarizerStep::Extractive);
    QTest::newRow("empty answer") << u"empty"_s << true << int(SummarizerStep::MainModel);
    QTest::newRow("unparseable answer") << u"garbage"_s << false << int(SummarizerStep::Extractive);
}

void TestPreflight::scenario9_fallbackAtFull()
{
    QFETCH(QString, configured);
    QFETCH(bool, withMain);
    QFETCH(int, step);
    ScriptedSummarizer conf(u"small-model"_s);
    ScriptedSummarizer main(u"main-model"_s);
    if (configured == u"fail")
        conf.addFailure(u"HTTP 500"_s);
    else if (configured == u"empty")
        conf.addAnswer(u"   \n"_s);
    else
        conf.addAnswer(u"Sure! Here is a summary of what happened."_s);
    main.addAnswer(ScriptedSummarizer::answer(u"Build a parser"_s, u"N/A"_s, u"MAIN-MODEL-SUMMARY"_s));
    CompactionPolicy p;
    p.contextWindow = 2500;
    p.tailMessages = 2;
    HistoryBuilder h;
    const QList<Message> history = fullSession(h);
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &conf, withMain ? &main : nullptr);
    QCOMPARE(r.record.tier, Tier::Full);
    QVERIFY2(r.record.error.contains(u"summary failed"_s), qPrintable(r.record.error));
    QCOMPARE(int(r.record.summarizerStep), step);
    QCOMPARE(main.callCount(), withMain ? 1 : 0);
    const QList<Message> view = r.messages(history);
    QCOMPARE(view[0].role, Role::System);
    QVERIFY(view.size() < history.size() + 1);
    QVERIFY(r.record.tokensAfter < r.record.tokensBefore);
    QVERIFY(view[1].content.startsWith(u"[Context Compaction]"_s));
}

void TestPreflight::scenario10_failureAtSoftStillShrinks()
{
    ScriptedSummarizer s;
    s.addFailure(u"connection refused"_s);
    const QList<Message> history = softSession();
    const CompactionPolicy p = policyAtRatio(history, 0.75, 2);
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p), &s);
    QCOMPARE(r.record.tier, Tier::Soft);
    QVERIFY(r.record.error.contains(u"summary failed"_s));
    QVERIFY(r.record.error.contains(u"connection refused"_s));
    QCOMPARE(r.record.summarizerStep, SummarizerStep::Extractive);
    QVERIFY(r.record.changed);
    QVERIFY(r.record.tokensAfter < r.record.tokensBefore);
    QVERIFY(r.messages(history).size() < history.size() + 1);
}

void TestPreflight::scenario11_timeout()
{
    ScriptedSummarizer s;
    s.addHang();
    CompactionPolicy p;
    p.contextWindow = 2500;
    p.tailMessages = 2;
    p.summaryTimeoutMs = 200;
    HistoryBuilder h;
    const QList<Message> history = fullSession(h);

    Preflight preflight(preflightInput(kSystem, history, p));
    preflight.setSummarizers(&s, nullptr);
    int ticks = 0;
    QTimer ticker; // the rest of the application, which must keep running
    ticker.setInterval(20);
    connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
    ticker.start();
    QSignalSpy spy(&preflight, &Preflight::finished);
    preflight.start();
    QVERIFY(!preflight.isFinished()); // it waits without blocking
    QVERIFY(spy.wait(5000));
    QVERIFY2(ticks >= 3, qPrintable(QString::number(ticks)));
    const PreflightResult &r = preflight.result();
    QVERIFY(r.record.error.contains(u"summary failed"_s));
    QVERIFY(r.record.error.contains(u"timeout"_s));
    QCOMPARE(r.record.summarizerStep, SummarizerStep::Extractive);
    QVERIFY(r.record.tokensAfter < r.record.tokensBefore);
    QCOMPARE(s.cancelled().size(), 1);
    QCOMPARE(s.cancelled().first(), s.prompts().first().requestId);
}

void TestPreflight::skipSummaryMovesToNextStep()
{
    // The configured summariser hangs; the user skips it, the main model answers.
    ScriptedSummarizer conf(u"small-model"_s);
    ScriptedSummarizer main(u"main-model"_s);
    conf.addHang();
    main.addAnswer(ScriptedSummarizer::answer(u"Build a parser"_s, u"N/A"_s, u"AFTER-SKIP"_s));
    CompactionPolicy p;
    p.contextWindow = 2500;
    p.tailMessages = 2;
    HistoryBuilder h;
    const QList<Message> history = fullSession(h);

    Preflight preflight(preflightInput(kSystem, history, p));
    preflight.setSummarizers(&conf, &main);
    QSignalSpy spy(&preflight, &Preflight::finished);
    preflight.start();
    QVERIFY(!preflight.isFinished());
    QCOMPARE(preflight.pendingSummaryCount(), preflight.result().record.msgsBefore - 1 - 2);
    preflight.skipSummary();
    QVERIFY(spy.wait(5000));
    const PreflightResult &r = preflight.result();
    QCOMPARE(r.record.summarizerStep, SummarizerStep::MainModel);
    QCOMPARE(r.record.summaryText, u"AFTER-SKIP"_s);
    QVERIFY(r.record.error.contains(u"skipped by the user"_s));
    QCOMPARE(conf.cancelled(), QList<quint64>{conf.prompts().first().requestId});
    QCOMPARE(preflight.pendingSummaryCount(), 0);
    preflight.skipSummary(); // finished: no effect
    QCOMPARE(spy.size(), 1);
}

void TestPreflight::scenario22_emergencyKeepsBudget()
{
    // The reference trimmed to a token budget; here Emergency does the trimming.
    HistoryBuilder h;
    h.user(u"Start."_s);
    for (int i = 0; i < 6; ++i)
        h.assistant(big(2000)).user(u"Go on."_s);
    h.call(u"c9"_s, u"bash"_s).result(u"c9"_s, big(3000)).user(u"Next?"_s).assistant(u"Done."_s);
    const QList<Message> history = h;

    CompactionPolicy p;
    p.contextWindow = 100;
    p.tailMessages = 2;
    PreflightResult r = runPreflight(preflightInput(kSystem, history, p));
    QCOMPARE(r.record.tier, Tier::Emergency);
    QList<Message> view = r.messages(history);
    QCOMPARE(pairingProblem(view), QString());
    QVERIFY2(joinedBody(view).toUtf8().size() < 800, qPrintable(QString::number(joinedBody(view).toUtf8().size())));
    QVERIFY(identical(view.last(), history.last()));

    // A budget of 1 token: system, checkpoint and the tail group survive, paired.
    p.contextWindow = 1;
    p.tailMessages = 3;
    r = runPreflight(preflightInput(kSystem, history, p));
    view = r.messages(history);
    QCOMPARE(pairingProblem(view), QString());
    QCOMPARE(view[0].content, kSystem);
    QVERIFY(view[1].content.startsWith(u"[Context Compaction]"_s));
    QCOMPARE(view.size(), 2 + 4); // the tail moved back to the c9 group: call, result, user, assistant
    QCOMPARE(view[2].toolCalls.first().id, u"c9"_s);
    QVERIFY(view[3].content.startsWith(u"[offloaded:"_s)); // offloaded whatever its size
    QVERIFY2(r.record.error.startsWith(u"emergency: the context was at "_s), qPrintable(r.record.error));
    QVERIFY2(r.record.error.contains(u"; still at or above the full threshold: only the tail is left"_s), qPrintable(r.record.error));
    // Over the window even so: not sent, and the record says which part is too large.
    QVERIFY2(r.notSent.startsWith(u"not sent: the request needs "_s), qPrintable(r.notSent));
    QVERIFY2(r.notSent.endsWith(u" tokens and the context window holds 1, even after the emergency compaction; the system "
                                "prompt is too large (5 tokens)"_s),
             qPrintable(r.notSent));
    QVERIFY(r.record.error.endsWith(r.notSent));
}

void TestPreflight::emergencyCutsAPasteInTheTail()
{
    // Issue #31: a 60 KB paste in the tail at an 8,000-token window was sent at 1.91x the window.
    QTemporaryDir workspace;
    CompactionPolicy p;
    p.contextWindow = 8000;
    const QString paste = u"PASTE-HEAD\n"_s + big(60'000, QLatin1Char('p')) + u"\nPASTE-END"_s;
    HistoryBuilder h;
    h.user(u"Here is the log:\n"_s + paste).assistant(u"The parser overflows its stack."_s).user(u"Fix it, please."_s);
    const QList<Message> history = h;
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p, workspace.path()));
    QCOMPARE(r.record.tier, Tier::Emergency);
    QVERIFY2(r.record.reason.ratio > 1.8, qPrintable(QString::number(r.record.reason.ratio)));
    QVERIFY2(r.notSent.isEmpty(), qPrintable(r.notSent));
    QVERIFY2(r.ratioAfter < p.full, qPrintable(QString::number(r.ratioAfter)));

    // The paste keeps its head and end and says what was cut and where the whole is.
    QCOMPARE(r.newOffloads.size(), 1);
    const OffloadOverlay &cut = r.newOffloads.first();
    QVERIFY(cut.isCut());
    QCOMPARE(cut.messageId, history[0].id);
    QCOMPARE(cut.recordId, r.record.id);
    QCOMPARE(r.record.offloaded.size(), 1);
    QCOMPARE(r.record.offloaded.first().gate, OffloadEntry::kCutGate);
    QVERIFY2(r.record.error.contains(u"cut 1 message(s)"_s), qPrintable(r.record.error));
    const QList<Message> view = r.messages(history);
    QCOMPARE(view.size(), 4);
    QVERIFY(view[1].content.startsWith(u"Here is the log:\nPASTE-HEAD\n"_s));
    QVERIFY(view[1].content.endsWith(u"\nPASTE-END"_s));
    QVERIFY2(view[1].content.contains(u"cut here by the emergency compaction; the whole message is in "_s + cut.entry.relativePath),
             qPrintable(view[1].content.left(3000)));
    QVERIFY(identical(view[2], history[1]));
    QVERIFY(identical(view[3], history[2])); // the newest user message is never cut
    // The whole is in its file, private to the user, and the view is the pure function of the overlays.
    const QString file = QDir(workspace.path()).filePath(cut.entry.relativePath);
    QCOMPARE(fileText(file), history[0].content);
    QCOMPARE(QFile::permissions(file) & ~(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser), QFile::Permissions());
    QCOMPARE(ContextView::build(kSystem, history, r.overlays).items(), r.view.items());
    // It counts as replaced content, not as verbatim history.
    QCOMPARE(r.view.items()[1].kind, ViewItem::Kind::Placeholder);
}

void TestPreflight::reviewCommitsTheAnchorsAsShown()
{
    // Issue #31: the draft shows the anchors merged with the previous checkpoint; what the user
    // edits or clears there is what commits, never the previous value merged in again.
    ScriptedSummarizer s;
    CompactionPolicy p;
    HistoryBuilder h;
    const PreflightResult first = compactedOnceAndFullAgain(s, u"N/A"_s, u"N/A (no new decisions)"_s, h, &p);
    QCOMPARE(first.record.tier, Tier::Full);
    p.reviewSummaries = true;
    PreflightInput in = preflightInput(kSystem, h, p);
    in.overlays = first.overlays;
    Preflight preflight(std::move(in));
    preflight.setSummarizers(&s, nullptr);
    QSignalSpy reviewed(&preflight, &Preflight::reviewRequested);
    preflight.start();
    QTRY_COMPARE(reviewed.size(), 1);
    const SummaryDraft shown = preflight.draft();
    QVERIFY(shown.anchors.value(AnchorKind::KeyDecision).contains(u"recursive descent"_s)); // merged for the eye
    QVERIFY(shown.anchors.value(AnchorKind::UserIntent).contains(u"Build a parser"_s));
    Anchors edited = shown.anchors;
    edited.setValue(AnchorKind::KeyDecision, u"N/A"_s);                   // cleared
    edited.setValue(AnchorKind::UserIntent, u"Build a Pratt parser"_s);   // edited
    preflight.decideReview(ReviewDecision::accept(edited, shown.summary));
    QVERIFY(preflight.isFinished());
    const PreflightResult &r = preflight.result();
    QVERIFY(r.reviewAccepted);
    QCOMPARE(r.newCheckpoints.size(), 1);
    const Checkpoint &cp = r.newCheckpoints.first();
    QCOMPARE(cp.anchors, edited);
    QCOMPARE(cp.text, shown.checkpointText(edited, shown.summary)); // the text as shown
    QVERIFY(!cp.text.contains(u"recursive descent"_s));
    QCOMPARE(r.record.anchors, edited);
    QCOMPARE(r.record.anchorChanges[size_t(AnchorKind::KeyDecision)], AnchorChange::Updated);
    QCOMPARE(r.record.anchorChanges[size_t(AnchorKind::UserIntent)], AnchorChange::Updated);
    QCOMPARE(r.record.anchorChanges[size_t(AnchorKind::NextStep)], AnchorChange::Unchanged);
}

void TestPreflight::reviewCannotAcceptALargerCheckpoint()
{
    // The draft says whether its checkpoint (as edited) is smaller than what it replaces, by the
    // rule the engine adds checkpoints by; an accepted one that is not is refused, and said so.
    ScriptedSummarizer s;
    s.addAnswer(ScriptedSummarizer::answer(u"Build a parser"_s, u"- Use recursive descent"_s, u"SHORT"_s));
    CompactionPolicy p;
    p.contextWindow = 2500;
    p.tailMessages = 2;
    p.reviewSummaries = true;
    HistoryBuilder h;
    fullSession(h);
    Preflight preflight(preflightInput(kSystem, h, p));
    preflight.setSummarizers(&s, nullptr);
    QSignalSpy reviewed(&preflight, &Preflight::reviewRequested);
    preflight.start();
    QTRY_COMPARE(reviewed.size(), 1);
    const SummaryDraft shown = preflight.draft();
    QVERIFY(shown.shrinks(shown.anchors, shown.summary));
    const QString huge = big(20'000, QLatin1Char('z'));
    QVERIFY(!shown.shrinks(shown.anchors, huge));
    preflight.decideReview(ReviewDecision::accept(shown.anchors, huge));
    QVERIFY(preflight.isFinished());
    QVERIFY(preflight.result().reviewAccepted);
    QVERIFY(preflight.result().newCheckpoints.isEmpty());
    QVERIFY(preflight.result().refusal.startsWith(u"not compacted: the summary"_s));
}

void TestPreflight::summaryNamesMessagesByPosition()
{
    // Issue #31: in a store of many sessions a message's row id says nothing to the reader; the
    // summary names messages by where they are in the session (1 is its first).
    HistoryBuilder h;
    h.user(u"Fix the parser in src/parser.cpp"_s)
        .call(u"c1"_s, u"bash"_s, u"{\"command\":\"make test\"}"_s)
        .result(u"c1"_s, big(3000, QLatin1Char('r')))
        .assistant(big(3000))
        .user(u"Go on."_s);
    QList<Message> history = h;
    for (Message &m : history)
        m.id += 70'000; // as the store numbers rows across sessions
    CompactionPolicy p;
    p.contextWindow = 1000;
    p.tailMessages = 1;
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p));
    QCOMPARE(r.record.tier, Tier::Emergency);
    QVERIFY2(r.record.summaryText.contains(u"Messages 1-4: "_s), qPrintable(r.record.summaryText));
    QVERIFY2(!r.record.summaryText.contains(u"7000"_s), qPrintable(r.record.summaryText));
}

void TestPreflight::emergencyCutsToolCallArguments()
{
    CompactionPolicy p;
    p.contextWindow = 8000;
    const QString content = u"FILE-HEAD "_s + big(80'000, QLatin1Char('w')) + u" FILE-END"_s;
    const QString arguments = QString::fromUtf8(
        QJsonDocument(QJsonObject{{u"path"_s, u"big.txt"_s}, {u"content"_s, content}}).toJson(QJsonDocument::Compact));
    HistoryBuilder h;
    h.user(u"Write the file."_s)
        .call(u"w1"_s, u"write_file"_s, arguments)
        .result(u"w1"_s, u"wrote 80,019 bytes"_s)
        .assistant(u"Written."_s)
        .user(u"Now test it."_s);
    const QList<Message> history = h;
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p));
    QCOMPARE(r.record.tier, Tier::Emergency);
    QVERIFY2(r.notSent.isEmpty(), qPrintable(r.notSent));
    QVERIFY2(r.ratioAfter < p.full, qPrintable(QString::number(r.ratioAfter)));
    const QList<Message> view = r.messages(history);
    QCOMPARE(pairingProblem(view), QString());
    const Message &call = view[2];
    QCOMPARE(call.toolCalls.size(), 1);
    QCOMPARE(call.toolCalls[0].id, u"w1"_s);
    QCOMPARE(call.toolCalls[0].name, u"write_file"_s);
    // Still a JSON object, with the short field as it was and the long one cut in the middle.
    const QJsonDocument doc = QJsonDocument::fromJson(call.toolCalls[0].arguments.toUtf8());
    QVERIFY(doc.isObject());
    QCOMPARE(doc.object().value(u"path"_s).toString(), u"big.txt"_s);
    const QString shown = doc.object().value(u"content"_s).toString();
    QVERIFY(shown.startsWith(u"FILE-HEAD "_s));
    QVERIFY(shown.endsWith(u" FILE-END"_s));
    QVERIFY(shown.contains(u"cut here by the emergency compaction"_s));
    QVERIFY2(shown.size() < 30'000, qPrintable(QString::number(shown.size()))); // cut just enough to get below Full
    // The whole message, arguments included, is what the file would hold.
    QCOMPARE(r.newOffloads.size(), 1);
    QVERIFY(r.newOffloads.first().isCut());
    QCOMPARE(r.newOffloads.first().entry.bytes, qint64(EmergencyCut::wholeText(history[1]).toUtf8().size()));
    QVERIFY(identical(view.last(), history.last()));
}

void TestPreflight::emergencyCollapsesWhatItCannotCut()
{
    // Issue #31: a tail of short messages (none long enough to cut) beside a checkpoint, in a window
    // that holds the fixed parts with room to spare, was not sent ("the checkpoint, placeholders and
    // short messages left ..."). Emergency replaces them by a note naming the file that keeps them.
    QTemporaryDir workspace;
    CompactionPolicy p;
    p.contextWindow = 1500;
    p.tailMessages = 40;
    HistoryBuilder h;
    for (int i = 0; i < 30; ++i)
        h.user(u"question %1 "_s.arg(i) + big(380, QLatin1Char('q'))).assistant(u"answer %1 "_s.arg(i) + big(380, QLatin1Char('a')));
    h.user(u"NEWEST: now fix the parser."_s);
    const QList<Message> history = h;
    const PreflightResult r = runPreflight(preflightInput(kSystem, history, p, workspace.path()));
    QCOMPARE(r.record.tier, Tier::Emergency);
    QVERIFY2(r.notSent.isEmpty(), qPrintable(r.notSent));
    QVERIFY2(r.ratioAfter <= 1.0, qPrintable(QString::number(r.ratioAfter)));

    // What is sent: the system prompt, the note, and the newest user message as it was written.
    const QList<Message> view = r.messages(history);
    QCOMPARE(view.size(), 3);
    QVERIFY(identical(view[2], history.last()));
    const QRegularExpressionMatch file = QRegularExpression(u"(\\.waterline/\\S+/context-\\d+-[0-9a-f]{12}\\.txt)"_s).match(view[1].content);
    QVERIFY2(file.hasMatch(), qPrintable(view[1].content));
    QVERIFY(view[1].content.startsWith(u"[Context Compaction] The earlier context ("_s));
    QVERIFY2(r.record.error.contains(u"by a note naming "_s + file.captured(1)), qPrintable(r.record.error));

    // The file holds every replaced message whole, as the view showed it, and is private.
    const QString path = QDir(workspace.path()).filePath(file.captured(1));
    const QString whole = fileText(path);
    for (qsizetype i = 0; i + 1 < history.size(); ++i) {
        if (history[i].id <= r.overlays.checkpoints.first().coversUpToMessageId)
            continue; // summarised by the first checkpoint, whose text the file holds
        QVERIFY2(whole.contains(history[i].content), qPrintable(QString::number(i)));
    }
    QCOMPARE(QFile::permissions(path) & ~(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser), QFile::Permissions());
    // The first checkpoint's text is in the file too; its anchors go on in the note's checkpoint.
    QCOMPARE(r.overlays.checkpoints.size(), 2);
    QVERIFY(whole.startsWith(r.overlays.checkpoints.first().text));
    QCOMPARE(r.overlays.checkpoints.constLast().anchors, r.overlays.checkpoints.first().anchors);
    // The view is the pure function of history and overlays.
    QCOMPARE(ContextView::build(kSystem, history, r.overlays).items(), r.view.items());
}

void TestPreflight::emergencyDoesNotSendWhatCannotFit_data()
{
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("newestUser");
    QTest::addColumn<qint64>("reserved");
    QTest::addColumn<QString>("part");
    QTest::newRow("newest-user-message") << kSystem << big(60'000, QLatin1Char('u')) << qint64(0) << u"the newest user message"_s;
    QTest::newRow("system-prompt") << big(40'000, QLatin1Char('s')) << u"hi"_s << qint64(0) << u"the system prompt"_s;
    QTest::newRow("reserved-output") << kSystem << u"hi"_s << qint64(9'000) << u"the reserved output"_s;
}

void TestPreflight::emergencyDoesNotSendWhatCannotFit()
{
    QFETCH(QString, system);
    QFETCH(QString, newestUser);
    QFETCH(qint64, reserved);
    QFETCH(QString, part);
    CompactionPolicy p;
    p.contextWindow = 8000;
    p.reservedOutput = reserved;
    HistoryBuilder h;
    h.user(u"Start."_s).assistant(big(3000)).user(newestUser);
    const QList<Message> history = h;
    const PreflightResult r = runPreflight(preflightInput(system, history, p));
    QCOMPARE(r.record.tier, Tier::Emergency);
    QVERIFY(r.ratioAfter > 1.0);
    QVERIFY2(r.notSent.startsWith(u"not sent: the request needs "_s), qPrintable(r.notSent));
    QVERIFY2(r.notSent.endsWith(part + u" is too large (%1 tokens)"_s.arg(
                 part == u"the reserved output" ? reserved : TokenEstimate::tokensForBytes(qMax(system.size(), newestUser.size())))),
             qPrintable(r.notSent));
    QVERIFY(r.record.error.contains(r.notSent));
    // The newest user message is never cut, even then.
    const QList<Message> view = r.messages(history);
    QVERIFY(identical(view.last(), history.last()));
}

void TestPreflight::scenario25_nonDestructive()
{
    QTemporaryDir workspace;
    ScriptedSummarizer s;
    CompactionPolicy p;
    p.contextWindow = 3000;
    p.tailMessages = 2;
    HistoryBuilder h;
    ContextOverlays overlays;
    int undoChecks = 0;
    for (int round = 0; round < 6; ++round) {
        h.user(u"round %1 "_s.arg(round) + big(500)).call(u"c%1"_s.arg(round), u"bash"_s)
            .result(u"c%1"_s.arg(round), big(4500, QLatin1Char('x'))).assistant(u"ok "_s + big(800));
        const QList<Message> history = h;
        PreflightInput in = preflightInput(kSystem, history, p, workspace.path());
        in.overlays = overlays;
        const QList<Message> before = ContextView::view(kSystem, history, overlays);
        const PreflightResult r = runPreflight(in, &s);
        overlays = r.overlays;
        // Undo of this compaction brings back the view it started from.
        if (!r.newCheckpoints.isEmpty() || !r.newOffloads.isEmpty()) {
            const ContextOverlays undone = ContextView::withoutCompaction(r.overlays, r.record.id);
            QVERIFY(identical(ContextView::view(kSystem, history, undone), before));
            ++undoChecks;
        }
    }
    // The stored history is exactly what was appended, whatever happened on top of it.
    HistoryBuilder again;
    for (int round = 0; round < 6; ++round) {
        again.user(u"round %1 "_s.arg(round) + big(500)).call(u"c%1"_s.arg(round), u"bash"_s)
            .result(u"c%1"_s.arg(round), big(4500, QLatin1Char('x'))).assistant(u"ok "_s + big(800));
    }
    QVERIFY(identical(h.messages(), again.messages()));
    QVERIFY(overlays.checkpoints.size() >= 2);
    QVERIFY(undoChecks >= 2);
}

void TestPreflight::headEmptyRecordsNoChange()
{
    // One huge tool-call group: the tail moves back to its call, so the head is empty.
    ScriptedSummarizer s;
    CompactionPolicy p;
    p.contextWindow = 1000;
    p.tailMessages = 1;
    const QList<Message> history = HistoryBuilder().call(u"c1"_s, u"bash"_s).result(u"c1"_s, big(3400));
    PreflightInput in = preflightInput(kSystem, history, p);
    in.force = true;
    p.contextWindow = 1100;
    in.policy = p; // ratio ~0.78: Soft, forced to Full
    const PreflightResult r = runPreflight(in, &s);
    QCOMPARE(r.record.tier, Tier::Full);
    QVERIFY(!r.record.changed);
    QCOMPARE(s.callCount(), 0);
    QCOMPARE(r.record.tokensAfter, r.record.tokensBefore);
    QVERIFY(r.shouldRecord); // the user asked
}

void TestPreflight::warnRecordedOncePerState()
{
    QTemporaryDir data;
    const QString audit = data.filePath(u"audit.jsonl"_s);
    CompactionPolicy p;
    HistoryBuilder h;
    h.user(big(300));
    p.contextWindow = 120; // about 81 tokens: Warn
    QString lastKey;
    int recorded = 0;
    for (int turn = 0; turn < 4; ++turn) {
        h.assistant(u"x"_s); // nothing that could be offloaded
        PreflightInput in = preflightInput(kSystem, h, p);
        in.auditPath = audit;
        in.lastStateKey = lastKey;
        const PreflightResult r = runPreflight(in);
        QCOMPARE(r.record.tier, Tier::Warn);
        QVERIFY(!r.record.changed);
        if (r.shouldRecord) {
            ++recorded;
            lastKey = r.stateKey;
        }
    }
    QCOMPARE(recorded, 1);
    const AuditLog::ReadResult read = AuditLog::read(audit);
    QCOMPARE(read.records.size(), 1);
    QCOMPARE(read.records[0].tier, Tier::Warn);
    QVERIFY(!read.records[0].changed);
}

void TestPreflight::forceAndUserRequested()
{
    ScriptedSummarizer s;
    CompactionPolicy p; // 128k window: a tiny session is far below Warn
    HistoryBuilder h;
    h.user(u"one "_s + big(2000)).assistant(u"two "_s + big(2000)).user(u"three"_s).assistant(u"four"_s);
    p.tailMessages = 2;

    PreflightInput asked = preflightInput(kSystem, h, p);
    asked.userRequested = true;
    const PreflightResult atNone = runPreflight(asked, &s);
    QCOMPARE(atNone.record.tier, Tier::None);
    QVERIFY(atNone.shouldRecord);
    QCOMPARE(s.callCount(), 0);

    PreflightInput forced = preflightInput(kSystem, h, p);
    forced.force = true;
    const PreflightResult r = runPreflight(forced, &s);
    QCOMPARE(r.record.tier, Tier::Full);
    QVERIFY(r.record.reason.forced);
    QCOMPARE(s.callCount(), 1);
    QVERIFY(r.record.changed);
    QCOMPARE(r.messages(h).size(), 4);

    // Forced over a head smaller than any summary: nothing is replaced, and the record says why
    // (a compaction never makes the view larger).
    HistoryBuilder tiny;
    tiny.user(u"one"_s).assistant(u"two"_s).user(u"three"_s).assistant(u"four"_s);
    PreflightInput forcedTiny = preflightInput(kSystem, tiny, p);
    forcedTiny.force = true;
    const PreflightResult kept = runPreflight(forcedTiny, &s);
    QCOMPARE(kept.record.tier, Tier::Full);
    QVERIFY(!kept.record.changed);
    QVERIFY2(kept.record.error.contains(u"not compacted: the summary"_s), qPrintable(kept.record.error));
    QCOMPARE(kept.messages(tiny).size(), 5);
    QCOMPARE(kept.record.tokensAfter, kept.record.tokensBefore);
}

void TestPreflight::recordFields()
{
    QTemporaryDir data;
    const QString audit = data.filePath(u"records/s1.jsonl"_s);
    ScriptedSummarizer s;
    CompactionPolicy p;
    p.contextWindow = 2500;
    p.tailMessages = 2;
    p.reservedOutput = 10;
    HistoryBuilder h;
    fullSession(h);
    PreflightInput in = preflightInput(kSystem, h, p);
    in.auditPath = audit;
    in.requestIndex = 7;
    in.tools = {ToolSpec{u"bash"_s, u"Run a command"_s, QJsonObject{{u"type"_s, u"object"_s}}}};
    QElapsedTimer wall;
    wall.start();
    const PreflightResult r = runPreflight(in, &s);
    const qint64 wallMs = wall.elapsed();
    const CompactionRecord &rec = r.record;
    QVERIFY(!QUuid::fromString(rec.id).isNull());
    QCOMPARE(rec.sessionId, u"s1"_s);
    QCOMPARE(rec.requestIndex, 7);
    QVERIFY(rec.timestamp.isValid());
    QVERIFY(rec.timestamp.timeSpec() != Qt::LocalTime); // carries its offset
    QVERIFY(QRegularExpression(u"(Z|[+-]\\d\\d:\\d\\d)$"_s).match(rec.timestamp.toString(Qt::ISODate)).hasMatch());
    const qint64 schemaTokens = TokenEstimate::toolSchemaBytes(in.tools) / 4;
    QCOMPARE(rec.reason.toolSchemaTokens, schemaTokens);
    QCOMPARE(rec.reason.reservedOutput, 10);
    QCOMPARE(rec.reason.contextWindow, 2500);
    QCOMPARE(rec.reason.estimateTokens, rec.tokensBefore);
    QCOMPARE(rec.reason.ratio, double(rec.tokensBefore + schemaTokens + 10) / 2500.0);
    QCOMPARE(rec.reason.full, 0.80);
    QCOMPARE(rec.msgsBefore, 7);
    QCOMPARE(rec.msgsAfter, 4);
    QCOMPARE(rec.compressionRatio, double(rec.tokensAfter) / double(rec.tokensBefore));
    // The preflight's own time, within the time the test waited for it (the summariser answers from the event loop).
    QVERIFY2(rec.durationMs >= 0 && rec.durationMs <= wallMs, qPrintable(u"%1 of %2 ms"_s.arg(rec.durationMs).arg(wallMs)));
    QVERIFY(rec.error.isEmpty());
    QVERIFY(rec.summaryText.contains(u"Default scripted summary"_s));
    QVERIFY(r.shouldRecord);
    const AuditLog::ReadResult read = AuditLog::read(audit);
    QCOMPARE(read.records.size(), 1);
    QCOMPARE(read.records[0].id, rec.id);
    QCOMPARE(read.records[0].tier, Tier::Full);
    QCOMPARE(read.records[0].tokensAfter, rec.tokensAfter);
}

void TestPreflight::callerViewIsUsed()
{
    // A view kept by the caller gives the same result as one built from scratch.
    CompactionPolicy p;
    p.contextWindow = 2000;
    HistoryBuilder h;
    h.user(u"look"_s).call(u"c1"_s, u"bash"_s).result(u"c1"_s, big(5000));
    for (int i = 0; i < 7; ++i)
        h.user(u"short %1"_s.arg(i));
    ContextView running = ContextView::build(kSystem, h, {}, 0);
    running.appendUpTo(h, {}, h.messages().size());
    PreflightInput in = preflightInput(kSystem, h, p);
    in.view = std::move(running);
    const PreflightResult withView = runPreflight(in);
    const PreflightResult without = runPreflight(preflightInput(kSystem, h, p));
    QCOMPARE(withView.record.tier, without.record.tier);
    QCOMPARE(withView.view.items(), without.view.items());
    QCOMPARE(withView.view.items(), ContextView::build(kSystem, h, withView.overlays).items());
}

void TestPreflight::tierAtThresholds_data()
{
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<int>("tier");
    // Window 1,000, empty system prompt, one message of 4 * tokens bytes: the ratio is exactly tokens / 1000.
    QTest::newRow("599") << qint64(599) << int(Tier::None);
    QTest::newRow("600 = warn") << qint64(600) << int(Tier::Warn);
    QTest::newRow("699") << qint64(699) << int(Tier::Warn);
    QTest::newRow("700 = soft") << qint64(700) << int(Tier::Soft);
    QTest::newRow("799") << qint64(799) << int(Tier::Soft);
    QTest::newRow("800 = full") << qint64(800) << int(Tier::Full);
    QTest::newRow("949") << qint64(949) << int(Tier::Full);
    QTest::newRow("950 = emergency") << qint64(950) << int(Tier::Emergency);
}

void TestPreflight::tierAtThresholds()
{
    QFETCH(qint64, tokens);
    QFETCH(int, tier);
    CompactionPolicy p;
    p.contextWindow = 1000;
    const QList<Message> history = HistoryBuilder().user(big(tokens * 4 + 3)); // +3: the estimate divides once, rounding down
    const PreflightResult r = runPreflight(preflightInput(QString(), history, p));
    QCOMPARE(r.record.reason.estimateTokens, tokens);
    QCOMPARE(int(r.record.tier), tier);
}

QTEST_GUILESS_MAIN(TestPreflight)
#include "tst_preflight.moc"
