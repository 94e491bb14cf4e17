#include "CompactionFixtures.h"

#include "compaction/Checkpoint.h"
#include "compaction/ContextView.h"
#include "compaction/ExtractiveSummarizer.h"
#include "compaction/Preflight.h"
#include "compaction/TokenEstimate.h"
#include "compaction/ViewComposition.h"
#include "whatif/SimulatedOffloads.h"
#include "whatif/Simulator.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
const QString kSystem = u"You are a coding agent."_s;

// A recorded session: each turn is user, call, result, assistant; one request per model reply.
struct Recorded
{
    QList<Message> history;
    QList<qsizetype> requests;
};

Recorded recorded(int turns)
{
    HistoryBuilder h;
    Recorded r;
    for (int t = 0; t < turns; ++t) {
        h.user(u"turn %1: please look at module %1 "_s.arg(t) + big(200));
        r.requests.append(h.messages().size());
        h.call(u"call_%1"_s.arg(t), u"bash"_s, u"{\"command\":\"cat m%1\"}"_s.arg(t));
        r.requests.append(h.messages().size() + 1); // the request after the result
        h.result(u"call_%1"_s.arg(t), big(t % 3 == 0 ? 6000 : 900, QLatin1Char('r')));
        h.assistant(u"Module %1 is fine. I'll use the same approach next."_s.arg(t));
    }
    r.history = h;
    return r;
}

CompactionPolicy smallWindow()
{
    CompactionPolicy p;
    p.contextWindow = 4000;
    p.tailMessages = 4;
    return p;
}
} // namespace

class TestSimulator : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matchesPreflightStepByStep();
    void totals();
    void fixedSizeSummaries_data();
    void fixedSizeSummaries();
    void viewAtRequest();
    void noFilesWritten();
    void otherAgentsFileToolsExemptAtToolTime();
    void emergencyCutsSoEveryRequestFits();
    void jsonShape();
    void historyWithoutIds();
    void windowZeroNeverCompacts();
    void sharedCachesChangeNothing();
    void checkpointListsNewestOffloads();
    void checkpointsDatedByTheirRequest();
    void compositionOfEachRequest();
};

void TestSimulator::matchesPreflightStepByStep()
{
    // The simulator is the preflight, run request after request without an LLM.
    const Recorded rec = recorded(40);
    const CompactionPolicy p = smallWindow();
    Simulator::Input in;
    in.systemPrompt = kSystem;
    in.history = rec.history;
    in.requests = rec.requests;
    in.policy = p;
    in.sessionId = u"s1"_s;
    const SimulationResult sim = Simulator::simulate(in);
    QCOMPARE(sim.rows.size(), rec.requests.size());

    ContextOverlays overlays;
    for (qsizetype i = 0; i < rec.requests.size(); ++i) {
        PreflightInput pin;
        pin.sessionId = u"s1"_s;
        pin.systemPrompt = kSystem;
        pin.history = rec.history.mid(0, rec.requests[i]);
        pin.overlays = overlays;
        pin.policy = p;
        pin.toolSchemaBytes = 0;
        pin.simulateOffloads = true;
        const PreflightResult r = Preflight::runWithoutLlm(pin);
        const SimulationRow &row = sim.rows[i];
        const QByteArray at = QByteArray::number(i);
        QVERIFY2(row.tier == r.record.tier, at.constData());
        QVERIFY2(row.tokensBefore == r.record.tokensBefore, at.constData());
        QVERIFY2(row.tokensAfter == r.record.tokensAfter, at.constData());
        QVERIFY2(row.msgsAfter == r.record.msgsAfter, at.constData());
        QVERIFY2(row.offloaded == r.record.offloaded.size(), at.constData());
        QVERIFY2(row.summarized == r.record.summarized, at.constData());
        QCOMPARE(row.ratioBefore, r.ratioBefore);
        QCOMPARE(row.ratioAfter, r.ratioAfter);
        QCOMPARE(row.index, int(i));
        overlays = r.overlays;
    }
}

void TestSimulator::totals()
{
    const Recorded rec = recorded(60);
    const SimulationResult sim = Simulator::simulate(kSystem, rec.history, rec.requests, smallWindow());
    int summaries = 0, emergencies = 0;
    double peak = 0, peakBefore = 0;
    qint64 sent = 0;
    QSet<int> tiers;
    std::array<int, 5> perTier{};
    for (const SimulationRow &row : sim.rows) {
        summaries += (row.tier == Tier::Soft || row.tier == Tier::Full) && row.summarized > 0;
        emergencies += row.tier == Tier::Emergency;
        peak = std::max(peak, row.ratioAfter);
        peakBefore = std::max(peakBefore, row.ratioBefore);
        sent += row.tokensAfter; // no schemas, no overhead: the view is all a request carried
        tiers.insert(int(row.tier));
        ++perTier[size_t(row.tier)];
    }
    QCOMPARE(sim.totals.requests, rec.requests.size());
    QCOMPARE(sim.totals.summaryCalls, summaries);
    QCOMPARE(sim.totals.emergencies, emergencies);
    QCOMPARE(sim.totals.peakRatio, peak);
    QCOMPARE(sim.totals.peakRatioBefore, peakBefore);
    QVERIFY(sim.totals.peakRatioBefore > sim.totals.peakRatio); // something was compacted
    QCOMPARE(sim.totals.tiers, perTier);
    QCOMPARE(sim.totals.window, smallWindow().contextWindow);
    QVERIFY(sim.totals.summaryCalls > 0);
    QVERIFY(tiers.contains(int(Tier::Warn)));
    // Tokens sent are what the requests carried; what the summaries read is counted on its own.
    QCOMPARE(sim.totals.tokensSent, sent);
    QVERIFY(sim.totals.summaryInputTokens > 0);
    QCOMPARE(sim.totals.offloads, int(sim.overlaysAt(int(sim.rows.size()) - 1).offloads.size()));
    // A looser policy compacts less often.
    CompactionPolicy loose = smallWindow();
    loose.contextWindow = 40000;
    const SimulationResult relaxed = Simulator::simulate(kSystem, rec.history, rec.requests, loose);
    QVERIFY(relaxed.totals.summaryCalls < sim.totals.summaryCalls);
}

void TestSimulator::fixedSizeSummaries_data()
{
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<QList<qint64>>("recorded");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("given size") << qint64(300) << QList<qint64>{} << qint64(300);
    QTest::newRow("mean of recorded summaries") << qint64(0) << QList<qint64>{100, 300} << qint64(200);
    QTest::newRow("default 600") << qint64(0) << QList<qint64>{} << qint64(600);
}

void TestSimulator::fixedSizeSummaries()
{
    QFETCH(qint64, tokens);
    QFETCH(QList<qint64>, recorded);
    QFETCH(qint64, expected);
    const Recorded rec = ::recorded(40);
    Simulator::Input in;
    in.systemPrompt = kSystem;
    in.history = rec.history;
    in.requests = rec.requests;
    in.policy = smallWindow();
    in.policy.contextWindow = 8000;
    in.summaryModel = SummaryModel::fixedSize(tokens);
    in.recordedSummaryTokens = recorded;
    const SimulationResult sim = Simulator::simulate(in);
    bool checked = false;
    for (int i = 0; i < sim.rows.size(); ++i) {
        const SimulationRow &row = sim.rows[i];
        if ((row.tier != Tier::Full && row.tier != Tier::Soft) || row.summarized == 0)
            continue;
        const QList<Message> view = sim.viewAt(i);
        QVERIFY(view[1].content.startsWith(u"[Context Compaction]"_s));
        QCOMPARE(view[1].content.toUtf8().size() / 4, expected);
        checked = true;
    }
    QVERIFY(checked);
}

void TestSimulator::viewAtRequest()
{
    const Recorded rec = recorded(30);
    const SimulationResult sim = Simulator::simulate(kSystem, rec.history, rec.requests, smallWindow());
    for (int i = 0; i < sim.rows.size(); ++i) {
        const QList<Message> view = sim.viewAt(i);
        QCOMPARE(view.size(), sim.rows[i].msgsAfter);
        qint64 bytes = 0;
        for (const Message &m : view)
            bytes += m.computeBytes();
        QCOMPARE(bytes / 4, sim.rows[i].tokensAfter);
        QCOMPARE(pairingProblem(view), QString());
    }
    QVERIFY(sim.viewAt(-1).isEmpty());
    QVERIFY(sim.viewAt(int(sim.rows.size())).isEmpty());
}

void TestSimulator::noFilesWritten()
{
    QTemporaryDir dir;
    const QString old = QDir::currentPath();
    QDir::setCurrent(dir.path());
    const Recorded rec = recorded(30);
    const SimulationResult sim = Simulator::simulate(kSystem, rec.history, rec.requests, smallWindow());
    QDir::setCurrent(old);
    int offloads = 0;
    for (const SimulationRow &row : sim.rows)
        offloads += row.offloaded;
    QVERIFY(offloads > 0);
    QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty());
    // The would-be placeholders name the would-be files.
    const ContextOverlays o = sim.overlaysAt(int(sim.rows.size()) - 1);
    QCOMPARE(o.offloads.size(), offloads);
    for (const OffloadOverlay &overlay : o.offloads)
        QVERIFY(overlay.placeholder.startsWith(u"[offloaded: .waterline/tool_results/simulation/"_s));
}

void TestSimulator::otherAgentsFileToolsExemptAtToolTime()
{
    // Issue #31: Claude Code's Read/Edit, Codex's apply_patch and OpenHands' editor are exempt from
    // gate 1 as read_file is; a command's large output is not.
    HistoryBuilder h;
    QList<qsizetype> requests;
    const QStringList fileTools{u"Read"_s, u"Write"_s, u"Edit"_s, u"MultiEdit"_s, u"NotebookEdit"_s, u"apply_patch"_s,
                                u"str_replace_editor"_s, u"read_file"_s};
    int n = 0;
    for (const QString &tool : fileTools) {
        h.user(u"look at file %1"_s.arg(++n));
        h.call(u"call_%1"_s.arg(n), tool, u"{\"file_path\":\"src/f%1.cpp\"}"_s.arg(n));
        h.result(u"call_%1"_s.arg(n), big(20'000, QLatin1Char('f')));
        h.assistant(u"read it"_s);
        requests.append(h.messages().size());
    }
    h.user(u"run it"_s);
    h.call(u"call_bash"_s, u"Bash"_s, u"{\"command\":\"make\"}"_s);
    h.result(u"call_bash"_s, big(20'000, QLatin1Char('b')));
    h.assistant(u"built"_s);
    requests.append(h.messages().size());
    CompactionPolicy policy; // the defaults: gate 1 at 10,000 bytes, a window nothing here reaches
    policy.contextWindow = 1'000'000;
    const SimulationResult sim = Simulator::simulate(kSystem, h.messages(), requests, policy);
    const ContextOverlays o = sim.overlaysAt(int(sim.rows.size()) - 1);
    QStringList offloadedTools;
    for (const OffloadOverlay &overlay : o.offloads)
        offloadedTools.append(overlay.entry.toolName);
    QCOMPARE(offloadedTools, QStringList{u"Bash"_s});
}

void TestSimulator::emergencyCutsSoEveryRequestFits()
{
    // Issue #31: the what-if replay goes through the same Emergency as the live agent: a 60 KB paste
    // in the tail is cut so the request fits; a newest user message too large alone is not sent.
    HistoryBuilder h;
    h.user(u"Here is the log:\n"_s + big(60'000, QLatin1Char('p')));
    h.assistant(u"The parser overflows its stack."_s);
    h.user(u"Fix it, please."_s);
    h.assistant(u"Fixed."_s);
    h.user(big(60'000, QLatin1Char('q')));
    const QList<qsizetype> requests{1, 3, 5};
    CompactionPolicy policy;
    policy.contextWindow = 8000;
    const SimulationResult sim = Simulator::simulate(kSystem, h.messages(), requests, policy);
    QCOMPARE(sim.rows.size(), 3);
    // The first request holds only the paste: the newest user message, too large alone.
    QVERIFY(!sim.rows[0].sent);
    QVERIFY2(sim.rows[0].error.contains(u"the newest user message is too large"_s), qPrintable(sim.rows[0].error));
    // The second: the paste is cut, the request fits.
    QCOMPARE(sim.rows[1].tier, Tier::Emergency);
    QVERIFY(sim.rows[1].sent);
    QVERIFY2(sim.rows[1].ratioBefore > 1.8, qPrintable(QString::number(sim.rows[1].ratioBefore)));
    QVERIFY2(sim.rows[1].ratioAfter < policy.full, qPrintable(QString::number(sim.rows[1].ratioAfter)));
    const QList<Message> view = sim.viewAt(1);
    QVERIFY(view[1].content.contains(u"cut here by the emergency compaction"_s));
    QCOMPARE(view.last().content, u"Fix it, please."_s);
    QVERIFY(!sim.rows[2].sent);
    QCOMPARE(sim.totals.notSent, 2);
    // What was not sent is neither in the tokens sent nor in the peak.
    QCOMPARE(sim.totals.tokensSent, sim.rows[1].totalTokensAfter);
    QCOMPARE(sim.totals.peakRatio, sim.rows[1].ratioAfter);
    QCOMPARE(sim.toJson().value(u"totals"_s).toObject().value(u"not_sent"_s).toInt(), 2);
}

void TestSimulator::jsonShape()
{
    const Recorded rec = recorded(10);
    const SimulationResult sim = Simulator::simulate(kSystem, rec.history, rec.requests, smallWindow());
    const QJsonObject json = sim.toJson();
    const QJsonArray rows = json.value(u"requests"_s).toArray();
    QCOMPARE(rows.size(), sim.rows.size());
    const QStringList rowKeys{u"index"_s, u"ratio_before"_s, u"ratio_after"_s, u"tier"_s, u"tokens_before"_s, u"tokens_after"_s,
                              u"msgs_before"_s, u"msgs_after"_s, u"offloaded"_s, u"summarized"_s, u"error"_s};
    for (const QString &key : rowKeys)
        QVERIFY2(rows.first().toObject().contains(key), qPrintable(key));
    QCOMPARE(rows.last().toObject().value(u"tier"_s).toString(), tierName(sim.rows.last().tier));
    const QJsonObject totals = json.value(u"totals"_s).toObject();
    for (const QString &key : {u"requests"_s, u"summary_calls"_s, u"peak_ratio"_s, u"emergencies"_s, u"tokens_sent"_s,
                               u"summary_input_tokens"_s, u"peak_ratio_before"_s, u"tiers"_s, u"offloads"_s, u"window"_s})
        QVERIFY2(totals.contains(key), qPrintable(key));
    QCOMPARE(totals.value(u"requests"_s).toInt(), sim.totals.requests);
    QCOMPARE(totals.value(u"tokens_sent"_s).toDouble(), double(sim.totals.tokensSent));
}

void TestSimulator::historyWithoutIds()
{
    // Imported transcripts may have no store ids: the simulator numbers a copy, the input stays as it is.
    Recorded rec = recorded(20);
    for (Message &m : rec.history)
        m.id = 0;
    const QList<Message> before = rec.history;
    const SimulationResult sim = Simulator::simulate(kSystem, rec.history, rec.requests, smallWindow());
    QVERIFY(sim.totals.summaryCalls > 0);
    QVERIFY(identical(rec.history, before));
    QCOMPARE(pairingProblem(sim.viewAt(int(sim.rows.size()) - 1)), QString());
}

void TestSimulator::windowZeroNeverCompacts()
{
    const Recorded rec = recorded(20);
    CompactionPolicy p;
    p.contextWindow = 0;
    const SimulationResult sim = Simulator::simulate(kSystem, rec.history, rec.requests, p);
    for (const SimulationRow &row : sim.rows) {
        QCOMPARE(row.tier, Tier::None);
        QCOMPARE(row.tokensAfter, row.tokensBefore);
    }
    QCOMPARE(sim.totals.summaryCalls, 0);
}

namespace {
void compareRuns(const SimulationResult &got, const SimulationResult &expected)
{
    QCOMPARE(got.rows.size(), expected.rows.size());
    QCOMPARE(got.toJson(), expected.toJson());
    for (int i = 0; i < got.rows.size(); ++i) {
        const QList<Message> a = got.viewAt(i);
        const QList<Message> b = expected.viewAt(i);
        QVERIFY2(identical(a, b), qPrintable(u"view of request %1 differs"_s.arg(i)));
    }
}
} // namespace

void TestSimulator::sharedCachesChangeNothing()
{
    // Slider steps share the summariser's facts and the simulated offloads between runs; a run
    // served from them must give what a run without them gives, view for view.
    const Recorded rec = recorded(80);
    Simulator::Input in;
    in.systemPrompt = kSystem;
    in.history = rec.history;
    in.requests = rec.requests;
    in.policy = smallWindow();
    in.extractiveFacts = std::make_shared<const ExtractiveFacts>();
    in.offloads = std::make_shared<SimulatedOffloads>();
    Simulator::simulate(in);
    QVERIFY(in.offloads->size() > 0);

    for (double full : {0.7, 0.85}) {
        in.policy.full = full;
        in.policy.previewLinesCompaction = full < 0.8 ? 3 : 10; // another preview length: other placeholders
        Simulator::Input plain = in;
        plain.extractiveFacts.reset();
        plain.offloads.reset();
        compareRuns(Simulator::simulate(in), Simulator::simulate(plain));
    }

    // Another history under the same ids (results of other sizes) is never served stale entries.
    Recorded other = rec;
    for (Message &m : other.history) {
        if (m.isToolResult())
            m.content = big(m.content.size() + 1500, QLatin1Char('z'));
        m.cachedBytes = -1;
        m.cacheBytes();
    }
    Simulator::Input changed = in;
    changed.history = other.history;
    Simulator::Input plain = changed;
    plain.extractiveFacts.reset();
    plain.offloads.reset();
    compareRuns(Simulator::simulate(changed), Simulator::simulate(plain));
}

void TestSimulator::checkpointListsNewestOffloads()
{
    // A checkpoint lists the files of the offloaded results it hides: the 40 newest, oldest first,
    // then their folder.
    const Recorded rec = recorded(400);
    CompactionPolicy p = smallWindow();
    p.contextWindow = 30000;
    p.offloadAtCompaction = 500;
    const SimulationResult sim = Simulator::simulate(kSystem, rec.history, rec.requests, p);
    int row = -1;
    for (int i = 0; i < sim.rows.size(); ++i) {
        if ((sim.rows[i].tier == Tier::Soft || sim.rows[i].tier == Tier::Full) && sim.rows[i].summarized > 0)
            row = i;
    }
    QVERIFY(row >= 0);
    const ContextOverlays o = sim.overlaysAt(row);
    const Checkpoint &cp = o.checkpoints.constLast();
    QList<const OffloadOverlay *> hidden;
    for (const OffloadOverlay &overlay : o.offloads) {
        if (overlay.messageId <= cp.coversUpToMessageId)
            hidden << &overlay;
    }
    std::sort(hidden.begin(), hidden.end(), [](auto *a, auto *b) { return a->messageId < b->messageId; });
    QVERIFY2(hidden.size() > 40, qPrintable(QString::number(hidden.size())));
    const QString references = cp.text.sliced(cp.text.indexOf(u"## Offloaded References\n"_s));
    QStringList expected{u"## Offloaded References"_s};
    for (qsizetype i = hidden.size() - 40; i < hidden.size(); ++i) {
        const OffloadEntry &e = hidden[i]->entry;
        expected << u"- %1 (%2 lines, %3 bytes)"_s.arg(e.relativePath).arg(e.lines).arg(e.bytes);
    }
    // It hides more than it lists: the folder that holds them all is named, so the early ones stay in reach.
    expected << u"- %1/ holds the %2 offloaded results this summary replaced, more than are listed: find one with grep "
                "or glob on that folder, read it with read_file"_s.arg(hidden.first()->entry.relativePath.section(u'/', 0, -2))
                    .arg(hidden.size());
    QCOMPARE(references.trimmed().split(u'\n'), expected);
    // The anchors and summary parse back without the references block.
    QString block;
    const ParsedSummary parsed = parseCheckpointText(cp.text, &block);
    QVERIFY(!parsed.summary.contains(u"## Offloaded References"_s));
    QCOMPARE(block.split(u'\n').size(), 41);
}

void TestSimulator::compositionOfEachRequest()
{
    // Each row says what filled its window: the view it sent, by category, summing to the window,
    // the same composition a view built from its overlays gives.
    const Recorded rec = recorded(40);
    Simulator::Input in;
    in.systemPrompt = kSystem;
    in.history = rec.history;
    in.requests = rec.requests;
    in.policy = smallWindow();
    in.policy.reservedOutput = 200;
    in.toolSchemaBytes = 400;
    const SimulationResult sim = Simulator::simulate(in);
    bool sawCheckpoint = false, sawOffload = false;
    for (int i = 0; i < sim.rows.size(); ++i) {
        const SimulationRow &row = sim.rows[i];
        const ViewComposition &c = row.composition;
        const QByteArray at = QByteArray::number(i);
        QVERIFY2(c.used() == row.totalTokensAfter, at.constData());
        QVERIFY2(c.window() == in.policy.contextWindow, at.constData());
        QVERIFY2(c.total() == std::max(in.policy.contextWindow, row.totalTokensAfter), at.constData());
        QVERIFY2(c.tokens(ViewComposition::Part::Reserved) == 200, at.constData());
        QVERIFY2(c.tokens(ViewComposition::Part::ToolSchemas) == 100, at.constData());
        const ContextOverlays o = sim.overlaysAt(i);
        const qsizetype end = std::min(rec.history.size(), rec.requests[i]);
        const ContextView view = ContextView::build(kSystem, rec.history, o, end);
        QVERIFY2(ViewComposition::of(view, TokenEstimate(view.bytes(), 400, in.policy)) == c, at.constData());
        sawCheckpoint = sawCheckpoint || c.tokens(ViewComposition::Part::Checkpoint) > 0;
        sawOffload = sawOffload || c.tokens(ViewComposition::Part::Offloaded) > 0;
    }
    QVERIFY(sawCheckpoint);
    QVERIFY(sawOffload);
}

QTEST_GUILESS_MAIN(TestSimulator)
void TestSimulator::checkpointsDatedByTheirRequest()
{
    // A simulated checkpoint carries the time of the request that would have made it (its newest
    // message), not the time the replay ran: two replays give the same checkpoints.
    Recorded rec = recorded(40);
    const QDateTime start(QDate(2026, 3, 1), QTime(9, 0), QTimeZone::UTC);
    for (qsizetype i = 0; i < rec.history.size(); ++i)
        rec.history[i].createdAt = start.addSecs(60 * i);
    const SimulationResult sim = Simulator::simulate(kSystem, rec.history, rec.requests, smallWindow());
    int dated = 0;
    qsizetype before = 0;
    for (int row = 0; row < sim.rows.size(); ++row) {
        const ContextOverlays o = sim.overlaysAt(row);
        if (o.checkpoints.size() > before) {
            QCOMPARE(o.checkpoints.constLast().createdAt, rec.history.at(rec.requests.at(row) - 1).createdAt);
            ++dated;
        }
        before = o.checkpoints.size();
    }
    QVERIFY(dated > 0);
    const SimulationResult again = Simulator::simulate(kSystem, rec.history, rec.requests, smallWindow());
    QCOMPARE(again.overlaysAt(int(again.rows.size()) - 1).checkpoints, sim.overlaysAt(int(sim.rows.size()) - 1).checkpoints);
}

#include "tst_simulator.moc"
