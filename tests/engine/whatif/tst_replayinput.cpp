// ReplayInput: what each request of an imported transcript carried. Claude Code keeps neither its
// system prompt nor its tool schemas; their fixed overhead is estimated from the reported input
// tokens and counted in every replayed request. And a replay is deterministic, views included,
// with caches shared between runs as the Thresholds dock shares them.
#include "compaction/ExtractiveSummarizer.h"
#include "compaction/TokenEstimate.h"
#include "llm/ModelTable.h"
#include "model/MessageCodec.h"
#include "replay/ImportedSession.h"
#include "replay/SessionImporter.h"
#include "replay/TranscriptFormats.h"
#include "compaction/ContextOverlays.h"
#include "store/SessionInfo.h"
#include "store/SessionStore.h"
#include "whatif/ReplayInput.h"
#include "whatif/SimulatedOffloads.h"
#include "whatif/Simulator.h"

#include <QJsonDocument>
#include "TestSupport.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <limits>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// A transcript under tests/data/replay.
QString dataFile(const QString &relative)
{
    return test::dataPath(u"replay/"_s + relative);
}

const QString kClaudeCode = u"claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl"_s;

// Every prompt token the provider read for request r (as the importer stores it).
qint64 reportedInput(const ImportedRequest &r)
{
    return r.usage.context >= 0 ? r.usage.context : r.usage.input;
}

// The requests in message order, as ReplayInput sorts them.
QList<ImportedRequest> sortedRequests(const ImportedSession &s)
{
    QList<ImportedRequest> requests = s.requests;
    std::stable_sort(requests.begin(), requests.end(),
                     [](const ImportedRequest &a, const ImportedRequest &b) { return a.messageIndex < b.messageIndex; });
    return requests;
}

// A replay that never compacts: each row is the whole history the request saw.
CompactionPolicy neverCompacts()
{
    CompactionPolicy p;
    p.contextWindow = 100'000'000;
    return p;
}

QByteArray resultText(const SimulationResult &result)
{
    QByteArray text = QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact);
    for (int r = 0; r < result.rows.size(); ++r) {
        text += '\n' + QJsonDocument(MessageCodec::toJson(result.viewAt(r))).toJson(QJsonDocument::Compact);
        const ContextOverlays o = result.overlaysAt(r);
        for (const Checkpoint &cp : o.checkpoints)
            text += '\n' + cp.text.toUtf8() + ' ' + QByteArray::number(cp.coversFromMessageId) + '-'
                + QByteArray::number(cp.coversUpToMessageId) + ' ' + cp.createdAt.toString(Qt::ISODateWithMs).toUtf8();
        for (const OffloadOverlay &off : o.offloads)
            text += '\n' + QByteArray::number(off.messageId) + ' ' + off.entry.relativePath.toUtf8() + ' '
                + QByteArray::number(off.entry.gate) + ' ' + off.placeholder.toUtf8();
    }
    return text;
}

} // namespace

class TestReplayInput : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void claudeCode_overheadIsEstimated();
    void claudeCode_everyReplayCountsTheOverhead();
    void claudeCode_storedSessionGivesTheSameInput();
    void defaultPolicy_usesTheModelsWindow_data();
    void defaultPolicy_usesTheModelsWindow();
    void defaultWindow_ofAStoredSession_data();
    void defaultWindow_ofAStoredSession();
    void overhead_hostileReports_data();
    void overhead_hostileReports();
    void tokenScale_fit_data();
    void tokenScale_fit();
    void replayTwice_isDeterministic_data();
    void replayTwice_isDeterministic();
};

void TestReplayInput::claudeCode_overheadIsEstimated()
{
    const ImportResult imported = TranscriptFormats::importFile(dataFile(kClaudeCode));
    QVERIFY2(imported.ok, qPrintable(imported.error));
    const ImportedSession &s = imported.session;
    QVERIFY(s.tools.isEmpty()); // what makes it needed: no tool schemas...
    QVERIFY(s.messages.isEmpty() || s.messages.constFirst().role != Role::System); // ...and no system prompt
    const ReplayInput in = ReplayInput::fromImport(s);

    // Claude Code's system prompt and tools are tens of thousands of tokens: far more than noise.
    QVERIFY2(in.overheadTokens >= 5000, qPrintable(QString::number(in.overheadTokens)));

    // Without it, the requests are undercounted; with it, the estimate of most requests is within
    // reach of what the provider reported, and none of the lowest tenth's reports is exceeded.
    const SimulationResult result = Simulator::simulate(in.simulatorInput(neverCompacts(), SummaryModel::extractive()));
    const QList<ImportedRequest> requests = sortedRequests(s);
    QCOMPARE(result.rows.size(), requests.size());
    qsizetype firstCompaction = s.messages.size();
    for (const ExternalCompaction &c : s.compactions)
        firstCompaction = std::min<qsizetype>(firstCompaction, c.messageIndex);
    int usable = 0, undercountedWithout = 0, atOrBelowReport = 0;
    qint64 errorWithout = 0, errorWith = 0;
    for (qsizetype r = 0; r < requests.size(); ++r) {
        const qint64 reported = reportedInput(requests[r]);
        if (reported <= 0 || requests[r].messageIndex > firstCompaction)
            continue;
        ++usable;
        // The view as the estimate counts it: bytes / 4, calibrated (ReplayInput::tokenScale).
        const qint64 view = TokenEstimate::scaledBy(result.rows[r].tokensBefore, in.tokenScale);
        // The ratio counts the overhead: (view + overhead) / window.
        QCOMPARE(result.rows[r].ratioBefore, TokenEstimate::ratioFor(view + in.overheadTokens, neverCompacts().contextWindow));
        undercountedWithout += view < reported ? 1 : 0;
        atOrBelowReport += view + in.overheadTokens <= reported ? 1 : 0;
        errorWithout += std::abs(reported - view);
        errorWith += std::abs(reported - view - in.overheadTokens);
    }
    qInfo("claude code: %d requests before its own compaction, overhead %lld tokens, mean error %lld -> %lld tokens",
          usable, in.overheadTokens, usable ? errorWithout / usable : 0, usable ? errorWith / usable : 0);
    QVERIFY(usable >= 10);
    QVERIFY2(undercountedWithout >= usable * 9 / 10, qPrintable(u"%1 of %2"_s.arg(undercountedWithout).arg(usable)));
    QVERIFY2(atOrBelowReport >= usable * 9 / 10, qPrintable(u"%1 of %2"_s.arg(atOrBelowReport).arg(usable)));
    QVERIFY(errorWith < errorWithout);
}

void TestReplayInput::claudeCode_everyReplayCountsTheOverhead()
{
    const ImportResult imported = TranscriptFormats::importFile(dataFile(kClaudeCode));
    QVERIFY(imported.ok);
    ReplayInput in = ReplayInput::fromImport(imported.session);
    QVERIFY(in.overheadTokens > 0);
    in.tokenScale = 1.0; // the overhead alone (the calibration has tests of its own)
    CompactionPolicy policy;
    policy.contextWindow = 200000;
    const SimulationResult with = Simulator::simulate(in.simulatorInput(policy, SummaryModel::fixedSize(600)));
    in.overheadTokens = 0;
    const SimulationResult without = Simulator::simulate(in.simulatorInput(policy, SummaryModel::fixedSize(600)));
    // The same session is fuller with what every request carried: it compacts sooner, and the
    // first request's ratio differs by exactly the overhead.
    const qint64 overhead = ReplayInput::fromImport(imported.session).overheadTokens;
    QCOMPARE(with.rows.constFirst().tokensBefore, without.rows.constFirst().tokensBefore);
    QCOMPARE(with.rows.constFirst().ratioBefore, TokenEstimate::ratioFor(with.rows.constFirst().tokensBefore + overhead, 200000));
    QCOMPARE(without.rows.constFirst().ratioBefore, TokenEstimate::ratioFor(without.rows.constFirst().tokensBefore, 200000));
    QVERIFY(with.totals.peakRatio > without.totals.peakRatio);
    QVERIFY(with.totals.summaryCalls + with.totals.emergencies >= without.totals.summaryCalls + without.totals.emergencies);
    QVERIFY(with.totals.tokensSent > without.totals.tokensSent);
}

void TestReplayInput::claudeCode_storedSessionGivesTheSameInput()
{
    QTemporaryDir dir;
    SessionStore store;
    QString error;
    QVERIFY2(store.open(dir.filePath(u"s.db"_s), &error), qPrintable(error));
    SessionImporter::Options options;
    options.workspace = dir.path();
    const SessionImporter::Result stored = SessionImporter::importFile(store, dataFile(kClaudeCode), options);
    QVERIFY2(stored.ok, qPrintable(stored.error));
    const std::optional<ReplayInput> fromStore = ReplayInput::fromStore(store, stored.sessionId, &error);
    QVERIFY2(fromStore, qPrintable(error));
    const ReplayInput fromFile = ReplayInput::fromImport(TranscriptFormats::importFile(dataFile(kClaudeCode)).session);
    QCOMPARE(fromStore->requestEnds, fromFile.requestEnds);
    QCOMPARE(fromStore->overheadTokens, fromFile.overheadTokens);
    QCOMPARE(fromStore->tokenScale, fromFile.tokenScale);
    QVERIFY(fromStore->tokenScale > 1.0); // spotter's provider counts more than bytes / 4
    QCOMPARE(fromStore->systemPrompt, fromFile.systemPrompt);
    QCOMPARE(fromStore->tools, fromFile.tools);

    // A calibration kept with the session (a replay's, or a hostile file's) is used only within
    // [kMinTokenScale, kMaxTokenScale]; one that is not a positive number is ignored.
    const QList<std::pair<QJsonValue, double>> kept{
        {QJsonValue(2.5), 2.5},
        {QJsonValue(1e300), ReplayInput::kMaxTokenScale},
        {QJsonValue(0.01), ReplayInput::kMinTokenScale},
        {QJsonValue(-3.0), fromFile.tokenScale},
        {QJsonValue(u"lots"_s), fromFile.tokenScale},
    };
    for (const auto &[value, expected] : kept) {
        std::optional<SessionSource> source = store.sessionSource(stored.sessionId, &error);
        QVERIFY2(source, qPrintable(error));
        source->details.insert(ReplayInput::kTokenScaleKey, value);
        QVERIFY2(store.setSessionSource(stored.sessionId, *source, &error), qPrintable(error));
        const std::optional<ReplayInput> again = ReplayInput::fromStore(store, stored.sessionId, &error);
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(again->tokenScale, expected);
    }
}

void TestReplayInput::defaultPolicy_usesTheModelsWindow_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<qint64>("window");
    QTest::newRow("in the model table") << u"claude-opus-4-20250514"_s << qint64(ModelTable::lookup(u"claude-opus-4-20250514").value().contextWindow);
    QTest::newRow("unknown model") << u"my-finetune"_s << qint64(128000);
    QTest::newRow("no model") << QString() << qint64(128000);
}

// A replay without a policy of the session's own starts from the model's window.
void TestReplayInput::defaultPolicy_usesTheModelsWindow()
{
    QFETCH(QString, model);
    QFETCH(qint64, window);
    ImportedSession s;
    s.model = model;
    s.messages << Message::user(u"hello"_s);
    const ReplayInput in = ReplayInput::fromImport(s);
    QCOMPARE(in.model, model);
    QCOMPARE(in.defaultPolicy().contextWindow, window);
    CompactionPolicy expected;
    expected.contextWindow = window;
    QCOMPARE(in.defaultPolicy(), expected);
}

void TestReplayInput::defaultWindow_ofAStoredSession_data()
{
    QTest::addColumn<QJsonObject>("profile");
    QTest::addColumn<qint64>("window");
    const qint64 opus = ModelTable::lookup(u"claude-opus-4-20250514").value().contextWindow;
    QTest::newRow("the window the profile names")
        << QJsonObject{{u"model"_s, u"claude-opus-4-20250514"_s}, {u"contextWindow"_s, 32768}} << qint64(32768);
    QTest::newRow("the model's") << QJsonObject{{u"model"_s, u"claude-opus-4-20250514"_s}} << opus;
    QTest::newRow("an unknown model") << QJsonObject{{u"model"_s, u"my-finetune"_s}} << qint64(128000);
    QTest::newRow("no profile") << QJsonObject() << qint64(128000);
}

// A stored session without a policy of its own has one window, whoever asks: the loader and
// `simulate` (defaultPolicy) and the agent that gives it its policy (defaultWindow of the profile).
void TestReplayInput::defaultWindow_ofAStoredSession()
{
    QFETCH(QJsonObject, profile);
    QFETCH(qint64, window);
    SessionInfo info;
    info.id = u"s"_s;
    info.providerProfile = profile;
    Message m = Message::user(u"hello"_s);
    m.id = 1;
    const ReplayInput in = ReplayInput::fromStored(info, {m}, {}, ContextOverlays(), std::nullopt);
    QCOMPARE(in.defaultPolicy().contextWindow, window);
    QCOMPARE(ReplayInput::defaultWindow(profile), window);
}

void TestReplayInput::overhead_hostileReports_data()
{
    QTest::addColumn<QList<qint64>>("reported");
    QTest::addColumn<qint64>("expected");
    // Two user messages of 400 bytes: requests see 100, then 200 tokens.
    QTest::newRow("nothing reported") << QList<qint64>{-1, -1} << qint64(0);
    QTest::newRow("zero reported") << QList<qint64>{0, 0} << qint64(0);
    QTest::newRow("reports below the estimate") << QList<qint64>{10, 20} << qint64(0);
    QTest::newRow("fixed 1000") << QList<qint64>{1100, 1200} << qint64(1000);
    QTest::newRow("huge outlier does not win") << QList<qint64>{1100, std::numeric_limits<qint64>::max() / 2} << qint64(1000);
}

// Reported numbers come from the transcript (untrusted): missing, zero, absurd.
void TestReplayInput::overhead_hostileReports()
{
    QFETCH(QList<qint64>, reported);
    QFETCH(qint64, expected);
    // Two user messages of 400 bytes: requests see 100, then 200 tokens.
    const qint64 overhead = ReplayInput::fitOverhead({100, 200}, reported, 0, 0, 2);
    QCOMPARE(overhead, expected);
}

void TestReplayInput::tokenScale_fit_data()
{
    // Twelve requests whose views grow by 1,000 tokens each, reported as given.
    QTest::addColumn<QList<qint64>>("reported");
    QTest::addColumn<double>("expected");
    QList<qint64> slope2, flat, steep, fewer, negative, unknown;
    for (int r = 0; r < 12; ++r) {
        const qint64 view = 1000 + 1000 * r;
        slope2.append(5000 + 2 * view);
        flat.append(5000 + view);
        steep.append(100 * view);           // a provider that claims 100 tokens per 4 bytes
        negative.append(900'000 - 50 * view); // counts that fall as the conversation grows
        unknown.append(-1);
        if (r < 9)
            fewer.append(5000 + 2 * view);
        else
            fewer.append(-1);
    }
    QTest::newRow("slope 2") << slope2 << 2.0;
    QTest::newRow("slope 1") << flat << 1.0;
    QTest::newRow("hostile: capped at 4") << steep << ReplayInput::kMaxTokenScale;
    QTest::newRow("hostile: falling, floored at 1") << negative << ReplayInput::kMinTokenScale;
    QTest::newRow("nine reports are too few") << fewer << 1.0;
    QTest::newRow("none reported") << unknown << 1.0;
}

void TestReplayInput::tokenScale_fit()
{
    QFETCH(QList<qint64>, reported);
    QFETCH(double, expected);
    QList<qint64> views;
    for (int r = 0; r < 12; ++r)
        views.append(1000 + 1000 * r);
    QCOMPARE(ReplayInput::fitTokenScale(views, reported, 0, 0, views.size()), expected);
    // Only [from, to) is read: the requests after it say nothing.
    QCOMPARE(ReplayInput::fitTokenScale(views, reported, 0, 0, 5), 1.0);
    // The overhead is fitted beside it: the intercept that is left.
    if (expected == 2.0)
        QCOMPARE(ReplayInput::fitOverhead(views, reported, 0, 0, views.size(), expected), qint64(5000));
}

void TestReplayInput::replayTwice_isDeterministic_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<qint64>("window");
    QTest::addColumn<bool>("extractive");
    QTest::newRow("claude code, extractive") << kClaudeCode << qint64(60000) << true;
    QTest::newRow("claude code, fixed size") << kClaudeCode << qint64(60000) << false;
    QTest::newRow("codex") << u"codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"_s << qint64(20000) << true;
    QTest::newRow("swe-agent") << u"swe-agent/marshmallow-code__marshmallow-1867.traj"_s << qint64(4000) << true;
}

// Twice from the file, once with fresh caches and once with the caches a slider drag leaves
// behind (another policy ran first): the same rows, views, checkpoints and offloads.
void TestReplayInput::replayTwice_isDeterministic()
{
    QFETCH(QString, file);
    QFETCH(qint64, window);
    QFETCH(bool, extractive);
    CompactionPolicy policy;
    policy.contextWindow = window;
    const SummaryModel model = extractive ? SummaryModel::extractive() : SummaryModel::fixedSize();

    const ImportResult first = TranscriptFormats::importFile(dataFile(file));
    QVERIFY2(first.ok, qPrintable(first.error));
    const SimulationResult a = Simulator::simulate(ReplayInput::fromImport(first.session).simulatorInput(policy, model));
    QVERIFY(a.totals.summaryCalls + a.totals.emergencies > 0); // something to be deterministic about

    const ImportResult second = TranscriptFormats::importFile(dataFile(file));
    QVERIFY(second.ok);
    Simulator::Input in = ReplayInput::fromImport(second.session).simulatorInput(policy, model);
    in.extractiveFacts = std::make_shared<const ExtractiveFacts>();
    in.offloads = std::make_shared<SimulatedOffloads>();
    Simulator::Input other = in;
    other.policy.warn = 0.3;
    other.policy.soft = 0.4;
    other.policy.offloadAtToolTime = 2000;
    Simulator::simulate(other);
    const SimulationResult b = Simulator::simulate(in);
    QCOMPARE(resultText(b), resultText(a));
}

QTEST_GUILESS_MAIN(TestReplayInput)
#include "tst_replayinput.moc"
