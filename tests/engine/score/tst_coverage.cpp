// Coverage of a view: each category (verbatim, summarised, retrievable, lost) built by hand and
// checked, and the simulator's per-request hook feeding a scorer in the replay's own pass.
#include "score/RunScorer.h"

#include "compaction/Checkpoint.h"
#include "compaction/ContextOverlays.h"
#include "compaction/ContextView.h"
#include "model/Message.h"

#include <QJsonArray>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

const QString kSystem = u"You are a coding agent."_s;

// Request 2 (which saw messages 0..5) answers with message 6 and uses four facts: the user's
// instruction (message 0), load_settings (named by the user, found again in 1 and 2),
// src/config/loader.py (message 2) and tok_7f3a9c21 (message 5).
QList<Message> history()
{
    QList<Message> h{
        Message::user(u"Find where load_settings is defined."_s),
        Message::assistant(QString(), {{u"c1"_s, u"bash"_s, uR"({"command":"grep -rn load_settings src"})"_s, true}}),
        Message::toolResult(u"c1"_s, u"src/config/loader.py:12: def load_settings(path)\n[exit code: 0]"_s),
        Message::user(u"Now check the vault."_s),
        Message::assistant(QString(), {{u"c2"_s, u"bash"_s, uR"({"command":"cat vault.txt"})"_s, true}}),
        Message::toolResult(u"c2"_s, u"token=tok_7f3a9c21\n[exit code: 0]"_s),
        Message::assistant(u"Found tok_7f3a9c21 via load_settings in src/config/loader.py."_s),
    };
    for (qsizetype i = 0; i < h.size(); ++i) {
        h[i].id = i + 1;
        h[i].cacheBytes();
    }
    return h;
}

const QList<qsizetype> kEnds{1, 4, 6};

Checkpoint checkpointUpTo(qint64 id, const QString &summary)
{
    Checkpoint cp;
    cp.id = 1;
    cp.coversFromMessageId = 1;
    cp.coversUpToMessageId = id;
    cp.summary = summary;
    cp.text = checkpointMessageText(cp.anchors, summary, {});
    return cp;
}

OffloadOverlay offloadOf(const Message &m)
{
    OffloadOverlay o;
    o.messageId = m.id;
    o.entry.callId = m.toolCallId;
    o.entry.toolName = u"bash"_s;
    o.entry.relativePath = u".waterline/tool_results/s/%1.txt"_s.arg(m.toolCallId);
    o.entry.bytes = m.byteCount();
    o.entry.messageId = m.id;
    o.placeholder = u"[Tool result offloaded: %1]"_s.arg(o.entry.relativePath);
    return o;
}

RunScore scoreOfRequest2(const ContextOverlays &overlays, std::shared_ptr<const ScoreBasis> *basisOut = nullptr)
{
    const QList<Message> h = history();
    auto basis = ScoreBasis::build(h, kEnds, {0, 1, 2}, {});
    RunScorer scorer(basis, CacheProtocol::OpenAi, std::nullopt);
    const ContextView view = ContextView::build(kSystem, h, overlays, kEnds[2]);
    scorer.observe(Simulator::Step{2, h, view, overlays, 0, 0});
    if (basisOut)
        *basisOut = basis;
    return scorer.score();
}

} // namespace

class TestCoverage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void neededFacts();
    void categories_data();
    void categories();
    void lostFactsNameTheRequestAndKind();
    void simulatorHookScoresEveryRequest();
    void onlyLlmSummariesAreBilled_data();
    void onlyLlmSummariesAreBilled();
};

void TestCoverage::neededFacts()
{
    std::shared_ptr<const ScoreBasis> basis;
    scoreOfRequest2({}, &basis);
    QStringList keys;
    for (int f : basis->needed[2])
        keys << basis->facts[f].key;
    keys.sort();
    QCOMPARE(keys, (QStringList{u"Find where load_settings is defined"_s, u"load_settings"_s, u"src/config/loader.py"_s,
                                u"tok_7f3a9c21"_s}));
}

void TestCoverage::categories_data()
{
    QTest::addColumn<ContextOverlays>("overlays");
    QTest::addColumn<int>("verbatim");
    QTest::addColumn<int>("summarised");
    QTest::addColumn<int>("retrievable");
    QTest::addColumn<int>("lost");
    const QList<Message> h = history();

    QTest::newRow("nothing compacted: all verbatim") << ContextOverlays{} << 4 << 0 << 0 << 0;

    // Messages 0..2 summarised by a summary that kept the instruction, the name and the path.
    ContextOverlays kept;
    kept.checkpoints = {checkpointUpTo(3, u"User Intent: Find where load_settings is defined. It is in src/config/loader.py."_s)};
    QTest::newRow("summary keeps them: summarised") << kept << 1 << 3 << 0 << 0;

    // The same messages behind a summary that says none of it.
    ContextOverlays forgot;
    forgot.checkpoints = {checkpointUpTo(3, u"Looked for the settings."_s)};
    QTest::newRow("summary forgets them: lost") << forgot << 1 << 0 << 0 << 3;

    // As above, but the grep result was offloaded first: the checkpoint names its file.
    ContextOverlays offloadedBehind = forgot;
    offloadedBehind.offloads.insert(h[2].id, offloadOf(h[2]));
    QTest::newRow("offloaded behind the summary: retrievable") << offloadedBehind << 1 << 0 << 2 << 1;

    // No summary; the vault's result is a placeholder in the view.
    ContextOverlays placeholder;
    placeholder.offloads.insert(h[5].id, offloadOf(h[5]));
    QTest::newRow("placeholder in the view: retrievable") << placeholder << 3 << 0 << 1 << 0;
}

void TestCoverage::categories()
{
    QFETCH(ContextOverlays, overlays);
    QFETCH(int, verbatim);
    QFETCH(int, summarised);
    QFETCH(int, retrievable);
    QFETCH(int, lost);
    const RunScore score = scoreOfRequest2(overlays);
    QCOMPARE(score.coverage.needed, 4);
    QCOMPARE(score.coverage.verbatim, verbatim);
    QCOMPARE(score.coverage.summarised, summarised);
    QCOMPARE(score.coverage.retrievable, retrievable);
    QCOMPARE(score.coverage.lost, lost);
    QCOMPARE(score.coverage.coverage(), double(4 - lost) / 4);
    QCOMPARE(score.lostFacts.size(), lost);
    QCOMPARE(score.perRequest.size(), 1);
}

void TestCoverage::lostFactsNameTheRequestAndKind()
{
    ContextOverlays forgot;
    forgot.checkpoints = {checkpointUpTo(3, u"Looked for the settings."_s)};
    std::shared_ptr<const ScoreBasis> basis;
    const RunScore score = scoreOfRequest2(forgot, &basis);
    QCOMPARE(score.lostByKind[size_t(Fact::Kind::Instruction)], 1);
    QCOMPARE(score.lostByKind[size_t(Fact::Kind::Identifier)], 2);
    QCOMPARE(score.lostByKind[size_t(Fact::Kind::Artifact)] + score.lostByKind[size_t(Fact::Kind::Outcome)], 0);
    const QJsonObject json = score.toJson(*basis);
    QCOMPARE(json.value(u"lost").toInt(), 3);
    QCOMPARE(json.value(u"coverage").toDouble(), 0.25);
    const QJsonArray lost = json.value(u"lost_facts").toArray();
    QCOMPARE(lost.size(), 3);
    QStringList texts;
    for (const QJsonValue &v : lost) {
        QCOMPARE(v.toObject().value(u"request").toInt(), 2);
        texts << v.toObject().value(u"kind").toString() + u':' + v.toObject().value(u"text").toString();
    }
    texts.sort();
    QCOMPARE(texts, (QStringList{u"identifier:load_settings"_s, u"identifier:src/config/loader.py"_s,
                                 u"instruction:Find where load_settings is defined"_s}));
}

void TestCoverage::simulatorHookScoresEveryRequest()
{
    const QList<Message> h = history();
    auto basis = ScoreBasis::build(h, kEnds, {0, 1, 2}, {});
    RunScorer scorer(basis, CacheProtocol::OpenAi, std::nullopt);
    QList<int> seen;
    Simulator::Input in;
    in.systemPrompt = kSystem;
    in.history = h;
    in.requests = kEnds;
    in.policy.contextWindow = 100000; // nothing to compact
    in.observer = [&](const Simulator::Step &step) {
        seen << step.request;
        QCOMPARE(step.view.historyEnd(), kEnds[step.request]);
        scorer.observe(step);
    };
    const SimulationResult result = Simulator::simulate(in);
    QCOMPARE(seen, (QList<int>{0, 1, 2}));
    QCOMPARE(result.rows.size(), 3);
    // Request 1 (the second call) uses nothing the user or a result introduced; request 0 uses the
    // user's load_settings and its instruction; request 2 the four facts. All verbatim.
    QCOMPARE(scorer.score().coverage.needed, 2 + 4);
    QCOMPARE(scorer.score().coverage.verbatim, 6);
    QCOMPARE(scorer.score().perRequestCost.size(), 3);
    QCOMPARE(scorer.score().cost.output, basis->outputTokens[0] + basis->outputTokens[1] + basis->outputTokens[2]);
}

void TestCoverage::onlyLlmSummariesAreBilled_data()
{
    QTest::addColumn<bool>("extractive");
    QTest::newRow("extractive: no call, nothing billed") << true;
    QTest::newRow("an LLM's summaries: billed") << false;
}

// A replay that summarises: only summaries an LLM writes are calls a provider bills; the
// extractive summariser is no call at all.
void TestCoverage::onlyLlmSummariesAreBilled()
{
    QFETCH(bool, extractive);
    QList<Message> h;
    QList<qsizetype> ends;
    for (int i = 0; i < 30; ++i) {
        h << Message::user(u"Step %1: %2"_s.arg(i).arg(QString(1500, u'x')));
        ends << h.size();
        h << Message::assistant(u"Done with step %1."_s.arg(i));
    }
    QList<int> indexes;
    for (int i = 0; i < ends.size(); ++i)
        indexes << i;
    auto basis = ScoreBasis::build(h, ends, indexes, {});
    RunScorer scorer(basis, CacheProtocol::Anthropic, std::nullopt);
    Simulator::Input in;
    in.systemPrompt = kSystem;
    in.history = h;
    in.requests = ends;
    in.policy.contextWindow = 4000;
    in.policy.tailMessages = 2;
    in.summaryModel = extractive ? SummaryModel::extractive() : SummaryModel::fixedSize(200);
    in.observer = scorer.observer();
    const SimulationResult result = Simulator::simulate(in);
    QVERIFY(result.totals.summaryCalls > 0); // the policy summarised either way
    if (extractive) {
        QCOMPARE(scorer.score().summaryCalls, 0);
        QCOMPARE(scorer.score().summaries, TokenCost());
    } else {
        QCOMPARE(scorer.score().summaryCalls, result.totals.summaryCalls);
        QVERIFY(scorer.score().summaries.input + scorer.score().summaries.cacheWrite > 0);
    }
}

QTEST_GUILESS_MAIN(TestCoverage)
#include "tst_coverage.moc"
