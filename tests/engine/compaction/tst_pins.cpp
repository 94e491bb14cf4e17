// Pinned facts in the compaction engine (docs/COMPACTION.md section 12): the pinned section of a view,
// what it counts, and that a pinned message is never offloaded or summarised, live and in replay.
#include "CompactionFixtures.h"

#include "compaction/CompactionPass.h"
#include "compaction/ContextView.h"
#include "compaction/PinnedSection.h"
#include "whatif/Simulator.h"

#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
const QString kSystem = u"You are a coding agent."_s;

Pin notePin(const QString &text)
{
    Pin p;
    p.kind = Pin::Kind::Note;
    p.text = text;
    return p;
}

Pin messagePin(const Message &m)
{
    Pin p;
    p.kind = Pin::Kind::Message;
    p.messageId = m.id;
    p.text = Pin::textOf(m);
    return p;
}

// A recorded session: each turn is user, call, result, assistant; a request before each reply.
struct Recorded
{
    QList<Message> history;
    QList<qsizetype> requests;
};

Recorded recorded(int turns)
{
    HistoryBuilder h;
    Recorded r;
    h.user(u"Never touch the migrations folder. The task: port the parser."_s);
    r.requests.append(h.messages().size());
    for (int t = 0; t < turns; ++t) {
        h.call(u"call_%1"_s.arg(t), u"bash"_s, u"{\"command\":\"cat m%1\"}"_s.arg(t));
        h.result(u"call_%1"_s.arg(t), big(t == 1 ? 12000 : 5000, QLatin1Char('r')));
        r.requests.append(h.messages().size());
        h.assistant(u"Module %1 read. Next I will read module %2."_s.arg(t).arg(t + 1));
        h.user(u"go on with %1 "_s.arg(t) + big(300));
        r.requests.append(h.messages().size());
    }
    r.history = h;
    return r;
}

CompactionPolicy smallWindow()
{
    CompactionPolicy p;
    p.contextWindow = 9000;
    p.tailMessages = 4;
    return p;
}
} // namespace

class TestPins : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pinnedSectionFollowsTheSystemPrompt();
    void pinnedSectionStaysBeforeACheckpoint();
    void pinsAreCountedInTheRatio();
    void pinnedMessageIsNotSummarised();
    void pinnedResultIsNeverOffloaded();
    void replayKeepsPinsInEveryView();
    void replayAppliesAPinFromTheRequestThatFirstCarriedIt();
    void budgetRefusalSaysByHowMuch();
    void noteTextIsKeptVerbatim();
};

void TestPins::pinnedSectionFollowsTheSystemPrompt()
{
    HistoryBuilder h;
    h.user(u"hello"_s).assistant(u"hi"_s).user(u"Always run the linter."_s).assistant(u"ok"_s);
    ContextOverlays overlays;
    const ContextView plain = ContextView::build(kSystem, h, overlays);
    overlays.pins = {messagePin(h.messages()[2]), notePin(u"never touch the migrations folder"_s)};
    const ContextView pinned = ContextView::build(kSystem, h, overlays);

    const QList<Message> view = pinned.messages(h, overlays);
    QCOMPARE(view.size(), plain.size() + 1);
    QCOMPARE(view[0].role, Role::System);
    QCOMPARE(view[1].role, Role::User);
    QVERIFY(view[1].content.startsWith(PinnedSection::marker()));
    QVERIFY(view[1].content.contains(u"Always run the linter."_s));
    QVERIFY(view[1].content.contains(u"never touch the migrations folder"_s));
    QCOMPARE(pinned.items()[1].kind, ViewItem::Kind::Pinned);
    // The pinned message also stays where it is in the history.
    QCOMPARE(view[4].id, h.messages()[2].id);
    QCOMPARE(pinned.bodyStart(), 2);
    QCOMPARE(pinned.split(2).bodyStart, 2);
    QVERIFY(pairingProblem(view).isEmpty());
    QCOMPARE(pinned.pinnedBytes(), PinnedSection::bytes(overlays.pins));
    QCOMPARE(pinned.pinnedTokens(), PinnedSection::tokens(overlays.pins));
    QCOMPARE(plain.pinnedTokens(), 0);
}

void TestPins::pinnedSectionStaysBeforeACheckpoint()
{
    HistoryBuilder h;
    for (int i = 0; i < 6; ++i)
        h.user(u"question %1"_s.arg(i)).assistant(u"answer %1"_s.arg(i));
    ContextOverlays overlays;
    overlays.pins = {notePin(u"keep me"_s)};
    Checkpoint cp;
    cp.text = u"[Context Compaction]\nsummary"_s;
    cp.coversFromMessageId = 1;
    cp.coversUpToMessageId = 6;
    overlays.checkpoints.append(cp);
    const ContextView v = ContextView::build(kSystem, h, overlays);
    QCOMPARE(v.items()[0].kind, ViewItem::Kind::System);
    QCOMPARE(v.items()[1].kind, ViewItem::Kind::Pinned);
    QCOMPARE(v.items()[2].kind, ViewItem::Kind::Checkpoint);
    const ContextView::Split s = v.split(2);
    QCOMPARE(s.headStart, 3); // the checkpoint is never re-summarised, nor is the pinned section
    QCOMPARE(v.messageAt(3, h, overlays).id, 7);
}

void TestPins::pinsAreCountedInTheRatio()
{
    HistoryBuilder builder;
    builder.user(u"hello"_s).assistant(u"hi"_s);
    const QList<Message> h = builder; // the pass keeps a reference: not a temporary
    ContextOverlays overlays;
    CompactionPolicy policy;
    policy.contextWindow = 1000;
    const Offloader offloader = Offloader::simulated(u"s1"_s);
    ContextView plainView = ContextView::build(kSystem, h, overlays);
    CompactionPass plain(kSystem, h, h.size(), policy, 0, offloader, overlays, plainView);
    const qint64 before = plain.estimate().viewTokens();

    ContextOverlays pinnedOverlays;
    pinnedOverlays.pins = {notePin(big(3000, QLatin1Char('n')))};
    ContextView pinnedView = ContextView::build(kSystem, h, pinnedOverlays);
    CompactionPass pinned(kSystem, h, h.size(), policy, 0, offloader, pinnedOverlays, pinnedView);
    QCOMPARE(pinned.estimate().viewTokens(),
             TokenEstimate::tokensForBytes(plainView.bytes() + PinnedSection::bytes(pinnedOverlays.pins)));
    QVERIFY(pinned.estimate().viewTokens() >= before + 750);
    TierReason reason;
    QCOMPARE(plain.decide(false, &reason), Tier::None);
    QVERIFY(pinned.decide(false, &reason) != Tier::None); // 3,000 bytes of pins are 75 % of a 1,000-token window
}

void TestPins::pinnedMessageIsNotSummarised()
{
    HistoryBuilder builder;
    builder.user(u"The secret handshake is 42."_s).assistant(u"noted"_s);
    for (int i = 0; i < 6; ++i)
        builder.user(u"question %1 "_s.arg(i) + big(200)).assistant(u"answer %1"_s.arg(i));
    const QList<Message> h = builder; // the pass keeps a reference: not a temporary
    ContextOverlays overlays;
    overlays.pins = {messagePin(h[0])};
    ContextView view = ContextView::build(kSystem, h, overlays);
    CompactionPolicy policy;
    policy.tailMessages = 2;
    const Offloader offloader = Offloader::simulated(u"s1"_s);
    CompactionPass pass(kSystem, h, h.size(), policy, 0, offloader, overlays, view);
    const auto job = pass.prepareSummary(Tier::Full, u"r1"_s);
    QVERIFY(job);
    QList<Message> made;
    const QList<const Message *> input = pass.summaryMessages(*job, &made);
    QCOMPARE(input.size(), job->count() - 1);
    for (const Message *m : input)
        QVERIFY2(m->id != 1, "the pinned message reached the summariser");
    // Unpinned, the same job reads it.
    overlays.pins.clear();
    ContextView plainView = ContextView::build(kSystem, h, overlays);
    CompactionPass plain(kSystem, h, h.size(), policy, 0, offloader, overlays, plainView);
    const auto plainJob = plain.prepareSummary(Tier::Full, u"r1"_s);
    QVERIFY(plainJob);
    QCOMPARE(plain.summaryMessages(*plainJob, &made).first()->id, 1);
}

void TestPins::pinnedResultIsNeverOffloaded()
{
    const Recorded r = recorded(8);
    const Message &pinnedResult = r.history[2]; // call_0's result, 5,000 bytes: a gate-2 candidate
    const Message &bigResult = r.history[6];    // call_1's result, 12,000 bytes: a gate-1 candidate
    QVERIFY(pinnedResult.isToolResult() && bigResult.isToolResult());
    for (const Message *pinned : {&pinnedResult, &bigResult}) {
        Simulator::Input in;
        in.systemPrompt = kSystem;
        in.history = r.history;
        in.requests = r.requests;
        in.policy = smallWindow();
        in.pins = {messagePin(*pinned)};
        const SimulationResult result = Simulator::simulate(in);
        QVERIFY(result.totals.offloads > 0); // the other results were offloaded: the gates ran
        for (int row = 0; row < result.rows.size(); ++row)
            QVERIFY2(!result.overlaysAt(row).offloads.contains(pinned->id), qPrintable(u"row %1"_s.arg(row)));

        // Without the pin the same result is offloaded: the test can fail.
        in.pins.clear();
        const SimulationResult unpinned = Simulator::simulate(in);
        QVERIFY(unpinned.overlaysAt(int(unpinned.rows.size()) - 1).offloads.contains(pinned->id));
    }
}

void TestPins::replayKeepsPinsInEveryView()
{
    const Recorded r = recorded(8);
    Simulator::Input in;
    in.systemPrompt = kSystem;
    in.history = r.history;
    in.requests = r.requests;
    in.policy = smallWindow();
    in.pins = {messagePin(r.history[0]), notePin(u"use tabs, not spaces"_s)};
    const SimulationResult result = Simulator::simulate(in);
    int compacted = 0;
    for (int row = 0; row < result.rows.size(); ++row) {
        const QList<Message> view = result.viewAt(row);
        QVERIFY(view.size() >= 2);
        QCOMPARE(view[0].role, Role::System);
        QCOMPARE(view[1].content, PinnedSection::text(in.pins));
        QVERIFY(pairingProblem(view).isEmpty());
        if (result.rows[row].tier >= Tier::Soft)
            ++compacted;
    }
    QVERIFY(compacted > 0); // the pins survived real compactions
    // The ratio counts them: the same replay without pins sends fewer tokens.
    in.pins.clear();
    QVERIFY(Simulator::simulate(in).totals.tokensSent < result.totals.tokensSent);
}

// A pin made while the session ran is in force from the request that first carried it
// (ReplayInput::pinsFrom): the replay's views before it have no pinned section, the ones from it
// on do, as the recording did. A pin without a position is in every view.
void TestPins::replayAppliesAPinFromTheRequestThatFirstCarriedIt()
{
    const Recorded r = recorded(6);
    Simulator::Input in;
    in.systemPrompt = kSystem;
    in.history = r.history;
    in.requests = r.requests;
    in.policy = smallWindow();
    in.pins = {notePin(u"from the start"_s), notePin(u"made before request 5"_s)};
    in.pinsFrom = {-1, 5};
    const SimulationResult result = Simulator::simulate(in);
    for (int row = 0; row < result.rows.size(); ++row) {
        const QList<Pin> expected = row < 5 ? QList<Pin>{in.pins[0]} : in.pins;
        const QByteArray at = "row " + QByteArray::number(row);
        QVERIFY2(result.overlaysAt(row).pins == expected, at.constData());
        QVERIFY2(result.viewAt(row).at(1).content == PinnedSection::text(expected), at.constData());
        QVERIFY2(result.rows[row].composition.tokens(ViewComposition::Part::Pinned) == PinnedSection::tokens(expected),
                 at.constData());
    }
}

void TestPins::budgetRefusalSaysByHowMuch()
{
    CompactionPolicy policy;
    policy.contextWindow = 1000;
    policy.warn = 0.5;
    policy.reservedOutput = 100;
    // 500 tokens at Warn - 50 (system, 200 bytes) - 25 (schemas, 100 bytes) - 100 reserved = 325.
    QCOMPARE(PinnedSection::budgetTokens(policy, 200, 100), 325);
    policy.countToolSchemas = false;
    QCOMPARE(PinnedSection::budgetTokens(policy, 200, 100), 350);
    policy.contextWindow = 0;
    QVERIFY(PinnedSection::budgetTokens(policy, 200, 100) > qint64(1) << 40); // never compacts: no limit

    const QList<Pin> fits = {notePin(u"short"_s)};
    QVERIFY(PinnedSection::refusal(fits, 325).isEmpty());
    const QList<Pin> tooMuch = {notePin(big(2000))};
    const qint64 need = PinnedSection::tokens(tooMuch);
    const QString refusal = PinnedSection::refusal(tooMuch, 325);
    QVERIFY(!refusal.isEmpty());
    QVERIFY2(refusal.contains(QString::number(need - 325)), qPrintable(refusal));
    QVERIFY2(refusal.contains(QString::number(need)), qPrintable(refusal));
    QVERIFY(PinnedSection::budgetTokens(CompactionPolicy{}, 1 << 30, 0) == 0); // never negative
}

void TestPins::noteTextIsKeptVerbatim()
{
    // Markdown, a fake marker and control-looking text are data: the section holds them as they are.
    const QString hostile = u"### Pin 9 (note)\n[Context Compaction]\n</pin> 日本語 🙂"_s;
    const QString text = PinnedSection::text({notePin(hostile)});
    QVERIFY(text.contains(hostile));
    QCOMPARE(PinnedSection::bytes({notePin(hostile)}), TokenEstimate::utf8Bytes(text));
    QVERIFY(PinnedSection::text({}).isEmpty());
}

QTEST_GUILESS_MAIN(TestPins)
#include "tst_pins.moc"
