// Replay fidelity (issue #17): the agent runs the long task end to end against the fake server
// (every tier, gate 1 included); the stored session replayed under the policy it ran with must
// give, for every request, the view the agent sent: the same history ids, the same checkpoint
// and placeholder texts, the same estimate, the same tier.
#include "LongTask.h"

#include "compaction/Preflight.h"
#include "compaction/TokenEstimate.h"
#include "model/MessageCodec.h"
#include "whatif/ReplayInput.h"
#include "whatif/Simulator.h"

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {

// A view message as the comparison sees it: role, text, the call it answers.
QString describe(const QString &role, const QString &content, const QString &callId)
{
    return role + u'|' + callId + u'|' + content;
}

QStringList sentMessages(const RecordedRequest &request)
{
    QStringList out;
    for (const QJsonValue &v : request.json().value(u"messages").toArray()) {
        const QJsonObject m = v.toObject();
        out << describe(m.value(u"role").toString(), m.value(u"content").toString(), m.value(u"tool_call_id").toString());
    }
    return out;
}

QStringList replayedMessages(const QList<Message> &view)
{
    QStringList out;
    for (const Message &m : view)
        out << describe(roleName(m.role), m.content, m.toolCallId);
    return out;
}

} // namespace

class TestReplayFidelity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void run_passesEveryTierAndGate1();
    void run_storesWhatEachRequestCarried();
    void replay_equalsEveryRecordedRequest();
    void replay_gate1FollowsThePolicy_data();
    void replay_gate1FollowsThePolicy();
    void nextRequestEstimate_isThePreflightRatio_data();
    void nextRequestEstimate_isThePreflightRatio();

private:
    std::unique_ptr<AgentHarness> m_h;
    AgentRun::State m_state = AgentRun::State::Idle;
};

void TestReplayFidelity::initTestCase()
{
    m_h = std::make_unique<AgentHarness>(longtask::policy());
    m_state = longtask::run(*m_h);
}

void TestReplayFidelity::run_passesEveryTierAndGate1()
{
    QCOMPARE(m_state, AgentRun::State::Finished);
    QSet<Tier> tiers;
    for (const CompactionRecord &r : m_h->store.records(m_h->sessionId))
        tiers.insert(r.tier);
    QVERIFY(tiers.contains(Tier::Warn));
    QVERIFY(tiers.contains(Tier::Soft));
    QVERIFY(tiers.contains(Tier::Full));
    QVERIFY(tiers.contains(Tier::Emergency));
    int gate1 = 0;
    for (const OffloadOverlay &o : m_h->store.overlays(m_h->sessionId).offloads)
        gate1 += o.entry.gate == 1 ? 1 : 0;
    QCOMPARE(gate1, 1);
}

void TestReplayFidelity::run_storesWhatEachRequestCarried()
{
    const std::optional<SessionInfo> info = m_h->store.session(m_h->sessionId);
    QVERIFY(info);
    QCOMPARE(info->systemPrompt, m_h->run->systemPrompt());
    QList<ToolSpec> stored;
    for (const QJsonValue &v : info->toolSchemas)
        stored.append(*MessageCodec::toolSpecFromJson(v.toObject()));
    QCOMPARE(stored, m_h->run->toolSpecs());
    const qint64 bytes = TokenEstimate::toolSchemaBytes(m_h->run->toolSpecs());
    QVERIFY(bytes > 0);
    for (const RequestRecord &r : m_h->store.requests(m_h->sessionId))
        QCOMPARE(r.toolSchemaBytes, std::optional<qint64>(bytes));
}

void TestReplayFidelity::replay_equalsEveryRecordedRequest()
{
    QString error;
    const std::optional<ReplayInput> input = ReplayInput::fromStore(m_h->store, m_h->sessionId, &error);
    QVERIFY2(input, qPrintable(error));
    const SimulationResult result = Simulator::simulate(input->simulatorInput(m_h->run->policy(), SummaryModel::extractive()));

    const QList<RequestRecord> requests = m_h->store.requests(m_h->sessionId);
    const QList<RecordedRequest> sent = m_h->agentRequests();
    const ContextOverlays stored = m_h->store.overlays(m_h->sessionId);
    QHash<QString, int> requestOfRecord; // gate-2 offloads are in force from their record's request on
    for (const CompactionRecord &record : m_h->store.records(m_h->sessionId))
        requestOfRecord.insert(record.id, record.requestIndex);
    QHash<qint64, Checkpoint> checkpointById;
    for (const Checkpoint &cp : stored.checkpoints)
        checkpointById.insert(cp.id, cp);
    QCOMPARE(result.rows.size(), requests.size());
    QCOMPARE(sent.size(), requests.size());

    int compared = 0;
    for (qsizetype r = 0; r < requests.size(); ++r) {
        const RequestRecord &recorded = requests[r];
        const SimulationRow &row = result.rows[r];
        const QString where = u"request %1"_s.arg(r);
        QVERIFY2(row.tier == recorded.tier,
                 qPrintable(u"%1: tier %2 vs %3"_s.arg(where, tierName(row.tier), tierName(recorded.tier))));
        QVERIFY2(row.tokensAfter == recorded.estimateTokens,
                 qPrintable(u"%1: %2 vs %3 tokens"_s.arg(where).arg(row.tokensAfter).arg(recorded.estimateTokens)));
        QCOMPARE(result.viewMessageIdsAt(int(r)), recorded.viewMessageIds);

        // The overlays: the checkpoint the view opens with, and every placeholder, as sent.
        const QList<Message> view = result.viewAt(int(r));
        QCOMPARE(replayedMessages(view), sentMessages(sent[r]));
        const ContextOverlays overlays = result.overlaysAt(int(r));
        if (recorded.viewCheckpointId > 0) {
            QVERIFY2(view.size() > 1, qPrintable(where));
            QCOMPARE(view[1].content, checkpointById.value(recorded.viewCheckpointId).text);
            QVERIFY(!overlays.checkpoints.isEmpty());
            QCOMPARE(overlays.checkpoints.constLast().anchors, checkpointById.value(recorded.viewCheckpointId).anchors);
        }
        for (qint64 id : recorded.viewMessageIds) {
            const auto it = stored.offloads.constFind(id);
            const bool inForce = it != stored.offloads.cend()
                && (it->recordId.isEmpty() || requestOfRecord.value(it->recordId, int(r) + 1) <= r);
            QCOMPARE(overlays.offloads.contains(id), inForce);
            if (inForce) {
                QCOMPARE(overlays.offloads.value(id).entry, stored.offloads.value(id).entry);
                QCOMPARE(overlays.offloads.value(id).placeholder, stored.offloads.value(id).placeholder);
            }
        }
        ++compared;
    }
    qInfo("replay fidelity: %d of %lld requests compared, %lld checkpoints, %lld offloads", compared,
          qint64(requests.size()), qint64(stored.checkpoints.size()), qint64(stored.offloads.size()));
    QVERIFY(compared >= 12);
}

void TestReplayFidelity::replay_gate1FollowsThePolicy_data()
{
    QTest::addColumn<qint64>("threshold");
    QTest::addColumn<bool>("offloaded");
    QTest::newRow("recorded threshold (10,000 bytes)") << qint64(10000) << true;
    QTest::newRow("above the result (1,000,000 bytes)") << qint64(1000000) << false;
    QTest::newRow("below every module read (3,000 bytes)") << qint64(3000) << true;
}

// The Thresholds dock's "Offload at tool time" changes the what-if: the big result enters the
// view as its placeholder, or whole.
void TestReplayFidelity::replay_gate1FollowsThePolicy()
{
    QFETCH(qint64, threshold);
    QFETCH(bool, offloaded);
    const std::optional<ReplayInput> input = ReplayInput::fromStore(m_h->store, m_h->sessionId);
    QVERIFY(input);
    qsizetype big = -1;
    for (qsizetype i = 0; i < input->history.size(); ++i)
        if (input->history[i].toolCallId == u"big"_s)
            big = i;
    QVERIFY(big > 0);
    int request = -1; // the first request that saw the big result
    for (qsizetype r = 0; r < input->requestEnds.size() && request < 0; ++r)
        if (input->requestEnds[r] > big)
            request = int(r);
    QVERIFY(request > 0);

    CompactionPolicy policy = m_h->run->policy();
    policy.offloadAtToolTime = threshold;
    const SimulationResult result = Simulator::simulate(input->simulatorInput(policy, SummaryModel::extractive()));
    const qint64 bigId = input->history[big].id;
    const ContextOverlays overlays = result.overlaysAt(request);
    QCOMPARE(overlays.offloads.contains(bigId) && overlays.offloads.value(bigId).entry.gate == 1, offloaded);
    // Without gate 1 the request starts from the whole result: more tokens before its preflight.
    policy.offloadAtToolTime = 1000000;
    const SimulationResult whole = Simulator::simulate(input->simulatorInput(policy, SummaryModel::extractive()));
    QCOMPARE(result.rows[request].tokensBefore < whole.rows[request].tokensBefore, offloaded);
    // Read-back tools are exempt from gate 1, whatever the threshold.
    for (const OffloadOverlay &o : overlays.offloads)
        if (o.entry.gate == 1)
            QCOMPARE(o.entry.toolName, u"bash"_s);
}

void TestReplayFidelity::nextRequestEstimate_isThePreflightRatio_data()
{
    QTest::addColumn<qint64>("reserved");
    QTest::addColumn<bool>("countSchemas");
    QTest::newRow("as run") << qint64(0) << true;
    QTest::newRow("reserved output") << qint64(700) << true;
    QTest::newRow("schemas not counted") << qint64(300) << false;
}

// The status bar's gauge reads AgentRun::nextRequestEstimate(): it must be the ratio the next
// request's preflight decides on.
void TestReplayFidelity::nextRequestEstimate_isThePreflightRatio()
{
    QFETCH(qint64, reserved);
    QFETCH(bool, countSchemas);
    CompactionPolicy policy = longtask::policy();
    policy.reservedOutput = reserved;
    policy.countToolSchemas = countSchemas;
    QVERIFY(m_h->run->setPolicy(policy));

    PreflightInput in;
    in.sessionId = m_h->sessionId;
    in.systemPrompt = m_h->run->systemPrompt();
    in.history = m_h->run->history();
    in.overlays = m_h->run->overlays();
    in.policy = policy;
    in.tools = m_h->run->toolSpecs();
    in.simulateOffloads = true;
    const PreflightResult preflight = Preflight::runWithoutLlm(std::move(in));

    const TokenEstimate estimate = m_h->run->nextRequestEstimate();
    QCOMPARE(estimate.ratio(), preflight.ratioBefore);
    QCOMPARE(estimate.reservedOutput(), reserved);
    QCOMPARE(estimate.toolSchemaTokens() > 0, countSchemas);
    QCOMPARE(m_h->run->estimatedTokens(), estimate.totalTokens());
    QCOMPARE(estimate.totalTokens(), preflight.record.reason.estimateTokens + preflight.record.reason.toolSchemaTokens + reserved);
}

QTEST_GUILESS_MAIN(TestReplayFidelity)
#include "tst_replayfidelity.moc"
