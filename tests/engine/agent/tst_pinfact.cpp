// pin_fact through the approval gate against the fake server (docs/COMPACTION.md section 12):
// approved, the fact is a pin and the next request carries it; denied, nothing is pinned.
#include "AgentHarness.h"

#include "compaction/PinnedSection.h"
#include "tools/ApprovalGate.h"
#include "tools/PinFactTool.h"

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
const QString kFact = u"Never touch the migrations folder."_s;

// The text of every message of a request body, joined.
// The request's messages after the system prompt (which names the pinned section's marker).
QString bodyText(const RecordedRequest &r)
{
    QString out;
    for (const QJsonValue &m : r.json().value(u"messages").toArray()) {
        if (m.toObject().value(u"role").toString() != u"system"_s)
            out += m.toObject().value(u"content").toString() + u'\n';
    }
    return out;
}
} // namespace

class TestPinFact : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void throughTheApprovalGate_data();
    void throughTheApprovalGate();
    void refusedPastTheBudget();
    void userPinReachesTheNextRequest();
};

void TestPinFact::throughTheApprovalGate_data()
{
    QTest::addColumn<int>("decision");
    QTest::addColumn<bool>("pinned");
    QTest::newRow("approve") << int(ApprovalDecision::AllowOnce) << true;
    QTest::newRow("deny") << int(ApprovalDecision::Deny) << false;
}

void TestPinFact::throughTheApprovalGate()
{
    QFETCH(int, decision);
    QFETCH(bool, pinned);
    AgentHarness h;
    h.server.enqueue(callReply(u"p1"_s, u"pin_fact"_s, {{u"text"_s, kFact}, {u"reason"_s, u"the user said to remember it"_s}}));
    h.server.enqueue(FakeReply::withText(u"done"_s));
    AgentConfig config = h.config();
    config.approval = ApprovalPolicy(); // writes ask
    AgentRun *run = h.open(config);
    QList<ApprovalRequest> asked;
    connect(run, &AgentRun::approvalRequested, this, [&asked](const ApprovalRequest &r) { asked << r; });

    QVERIFY(run->submit(u"Remember: never touch the migrations folder."_s));
    QTRY_COMPARE_WITH_TIMEOUT(run->state(), AgentRun::State::AwaitingApproval, 10000);
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked.first().toolName, u"pin_fact"_s);
    QCOMPARE(asked.first().kind, ApprovalKind::Write);
    QVERIFY(asked.first().summary.contains(kFact));
    QVERIFY(h.store.pins(h.sessionId).isEmpty()); // nothing before the answer
    QVERIFY(run->approve(u"p1"_s, ApprovalDecision(decision)));
    QCOMPARE(h.settle(), AgentRun::State::Finished);

    const QList<Pin> pins = h.store.pins(h.sessionId);
    QCOMPARE(pins.size(), pinned ? 1 : 0);
    const QList<RecordedRequest> requests = h.agentRequests();
    QCOMPARE(requests.size(), 2);
    // The first request had no pinned section; the one after the tool has it only when approved.
    QVERIFY(!bodyText(requests[0]).contains(PinnedSection::marker()));
    const QJsonArray next = requests[1].json().value(u"messages").toArray();
    const QString second = next.at(1).toObject().value(u"content").toString();
    QCOMPARE(second.startsWith(PinnedSection::marker()), pinned);
    if (pinned) {
        QCOMPARE(pins.first().source, Pin::Source::Model);
        QCOMPARE(pins.first().text, kFact);
        QCOMPARE(pins.first().reason, u"the user said to remember it"_s);
        QVERIFY(second.contains(kFact));
        QCOMPARE(next.at(1).toObject().value(u"role").toString(), u"user"_s);
        QVERIFY(viewProblem(requests[1].json()).isEmpty());
        // And it survives reopening the session: a new run's view has it.
        AgentRun *again = h.open(config);
        QVERIFY(again->currentView().size() > 1);
        QVERIFY(again->currentView().at(1).content.contains(kFact));
    } else {
        QVERIFY(!bodyText(requests[1]).contains(PinnedSection::marker()));
    }
}

void TestPinFact::refusedPastTheBudget()
{
    CompactionPolicy policy;
    policy.contextWindow = 3000; // warn at 1,800 tokens, most of it the system prompt and tool schemas
    AgentHarness h(policy);
    const QString fact = QString(PinFactTool::kMaxTextChars, u'x');
    h.server.enqueue(callReply(u"p1"_s, u"pin_fact"_s, {{u"text"_s, fact}, {u"reason"_s, u"r"_s}}));
    h.server.enqueue(FakeReply::withText(u"done"_s));
    AgentRun *run = h.open();
    QVERIFY(run->pinBudgetTokens() < PinFactTool::kMaxTextChars / 4);
    QVERIFY(run->submit(u"pin something big"_s));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
    QVERIFY(h.store.pins(h.sessionId).isEmpty());
    const QList<Message> history = h.store.history(h.sessionId);
    QCOMPARE(history.size(), 4);
    QVERIFY(history[2].isError);
    QVERIFY2(history[2].content.contains(u"more than the budget"_s), qPrintable(history[2].content));
}

void TestPinFact::userPinReachesTheNextRequest()
{
    AgentHarness h;
    h.server.enqueue(FakeReply::withText(u"first"_s));
    h.server.enqueue(FakeReply::withText(u"second"_s));
    AgentRun *run = h.open();
    QVERIFY(run->submit(u"The build command is make -j4."_s));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
    // The window pins on another connection while the run stays open.
    const QList<Message> history = h.store.history(h.sessionId);
    Pin pin;
    pin.kind = Pin::Kind::Selection;
    pin.messageId = history.first().id;
    pin.text = u"make -j4"_s;
    QVERIFY(h.store.addPin(h.sessionId, pin, run->pinBudgetTokens()));
    QVERIFY(run->submit(u"and now?"_s));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
    const QList<RecordedRequest> requests = h.agentRequests();
    QCOMPARE(requests.size(), 2);
    const QString pinned = requests[1].json().value(u"messages").toArray().at(1).toObject().value(u"content").toString();
    QVERIFY(pinned.startsWith(PinnedSection::marker()));
    QVERIFY(pinned.contains(u"make -j4"_s));
    // Unpinned, the next request goes without it.
    QVERIFY(h.store.removePin(h.store.pins(h.sessionId).constFirst().id));
    h.server.enqueue(FakeReply::withText(u"third"_s));
    QVERIFY(run->submit(u"again"_s));
    QCOMPARE(h.settle(), AgentRun::State::Finished);
    QVERIFY(!bodyText(h.agentRequests().constLast()).contains(PinnedSection::marker()));
}

QTEST_GUILESS_MAIN(TestPinFact)
#include "tst_pinfact.moc"
