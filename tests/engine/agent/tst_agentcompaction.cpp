// A long scripted task through every tier (Warn, Soft, Full, Emergency) with a small window,
// real files and a real store; retention of an offloaded result across compactions; a failing
// summariser endpoint (HTTP 500, then a hang) that the fallback chain survives.
#include "AgentHarness.h"
#include "LongTask.h"

#include "compaction/Checkpoint.h"
#include "compaction/OffloadStore.h"
#include "tools/Workspace.h"

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

// The task's files, read arguments and scripted summaries are shared with tst_replayfidelity.
using namespace wl::test::longtask;

class TestAgentCompaction : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void longTask_finishes();
    void longTask_passesEveryTier();
    void longTask_everyRequestIsValid();
    void longTask_offloadedFilesExist();
    void longTask_anchorsMergeAcrossSummaries();
    void longTask_auditAgreesWithRecords();
    void longTask_historyHoldsEveryMessage();
    void longTask_retention();
    void summariserFailsOver_data();
    void summariserFailsOver();
    void maskStrategySendsNoSummaryRequest();
    void requestOverTheWindowIsNeverSent();

private:
    std::unique_ptr<AgentHarness> m_long;
    QList<Message> m_emitted;        // every messageStored(), in order
    QList<CompactionRecord> m_records;
    QString m_offloadedPath;         // where the early bash result with the code was offloaded
    AgentRun::State m_finalState = AgentRun::State::Idle;
};

void TestAgentCompaction::initTestCase()
{
    qRegisterMetaType<wl::Message>();
    qRegisterMetaType<wl::CompactionRecord>();

    CompactionPolicy policy;
    policy.contextWindow = 6000;
    policy.tailMessages = 2;
    policy.summaryTimeoutMs = 5000;
    m_long = std::make_unique<AgentHarness>(policy);
    AgentHarness &h = *m_long;
    for (int n = 1; n <= 6; ++n)
        QVERIFY(writeFile(h.wsPath(u"src/module%1.txt"_s.arg(n)), moduleText(n)));

    m_offloadedPath = u".waterline/tool_results/"_s + h.sessionId + u"/cat12.txt"_s;
    h.server.addRule(summaryRule(firstSummary(), false)); // the first summary, once
    h.server.addRule(summaryRule(laterSummary()));        // every later one

    QList<FakeReply> script;
    script << callReply(u"cat12"_s, u"bash"_s, {{u"command"_s, u"cat src/module1.txt src/module2.txt"_s}});
    int call = 0;
    auto read = [&](int module, int offset, int limit) {
        return callReply(u"r%1"_s.arg(++call), u"read_file"_s, readArgs(u"src/module%1.txt"_s.arg(module), offset, limit));
    };
    // Small steps: Warn offloads the big early result, later Warn/Soft summarise part of the head.
    script << read(3, 0, 1500) << read(3, 1500, 1500) << read(4, 0, 1500) << read(4, 1500, 1500);
    script << read(5, 0, 1500) << read(5, 1500, 1500) << read(6, 0, 1500);
    // A big step after the Soft compaction: Full.
    script << callReply(u"cat56"_s, u"bash"_s, {{u"command"_s, u"cat src/module5.txt src/module6.txt src/module4.txt | head -c 9000"_s}});
    // One step that adds far more than the window has left: Emergency. (Module 1 stays out of it.)
    script << FakeReply::withToolCalls({toolCall(u"e1"_s, u"read_file"_s, readArgs(u"src/module2.txt"_s)),
                                        toolCall(u"e2"_s, u"read_file"_s, readArgs(u"src/module3.txt"_s)),
                                        toolCall(u"e3"_s, u"read_file"_s, readArgs(u"src/module4.txt"_s)),
                                        toolCall(u"e4"_s, u"read_file"_s, readArgs(u"src/module5.txt"_s)),
                                        toolCall(u"e5"_s, u"bash"_s, {{u"command"_s, u"cat src/module6.txt src/module2.txt"_s}})});
    // The code from module 1 is long gone from the context: read the offloaded result back.
    script << callReply(u"back"_s, u"read_file"_s, readArgs(m_offloadedPath));
    script << FakeReply::withText(u"Report: six modules reviewed; the retention marker is "_s + kCode);
    for (const FakeReply &r : std::as_const(script))
        h.server.enqueue(r);

    AgentConfig config = h.config();
    config.summarizerModel = u"summary-model"_s;
    AgentRun *run = h.open(config);
    connect(run, &AgentRun::messageStored, this, [this](const Message &m) { m_emitted << m; });
    connect(run, &AgentRun::compactionRecorded, this, [this](const CompactionRecord &r) { m_records << r; });
    QVERIFY(run->submit(u"Review the six modules in src/ and write a short report."_s));
    m_finalState = h.settle(60000);
    if (qEnvironmentVariableIsSet("AGENT_TRACE")) {
        for (const RequestRecord &r : h.store.requests(h.sessionId))
            qInfo("request %d: view %lld schema %lld tier %d msgs %lld", r.index, r.estimateTokens, r.toolSchemaTokens,
                  int(r.tier), r.viewMessageIds.size());
        for (const CompactionRecord &r : std::as_const(m_records))
            qInfo("record @%d %s ratio %.2f tokens %lld->%lld msgs %d->%d summarized %d offloaded %lld changed %d",
                  r.requestIndex, qPrintable(tierName(r.tier)), r.reason.ratio, r.tokensBefore, r.tokensAfter,
                  r.msgsBefore, r.msgsAfter, r.summarized, r.offloaded.size(), int(r.changed));
    }
}

void TestAgentCompaction::cleanupTestCase()
{
    m_long.reset();
}

void TestAgentCompaction::longTask_finishes()
{
    QCOMPARE(m_finalState, AgentRun::State::Finished);
    QVERIFY(m_long->run->lastAnswer().contains(kCode));
    QCOMPARE(m_long->server.pendingReplies(), 0);
}

void TestAgentCompaction::longTask_passesEveryTier()
{
    QSet<Tier> tiers;
    QStringList trace;
    for (const CompactionRecord &r : std::as_const(m_records)) {
        tiers.insert(r.tier);
        trace << u"%1@%2(%3)"_s.arg(tierName(r.tier)).arg(r.requestIndex).arg(r.reason.ratio, 0, 'f', 2);
    }
    const QString text = trace.join(u' ');
    QVERIFY2(tiers.contains(Tier::Warn), qPrintable(text));
    QVERIFY2(tiers.contains(Tier::Soft), qPrintable(text));
    QVERIFY2(tiers.contains(Tier::Full), qPrintable(text));
    QVERIFY2(tiers.contains(Tier::Emergency), qPrintable(text));
    for (const CompactionRecord &r : std::as_const(m_records)) {
        if (r.tier == Tier::Soft || r.tier == Tier::Full) {
            QVERIFY2(r.changed, qPrintable(text));
            QCOMPARE(r.summarizerStep, SummarizerStep::Configured);
            QCOMPARE(r.summarizerModel, u"summary-model"_s);
        }
        if (r.tier == Tier::Emergency)
            QCOMPARE(r.summarizerStep, SummarizerStep::Extractive);
    }
}

void TestAgentCompaction::longTask_everyRequestIsValid()
{
    const QList<RecordedRequest> requests = m_long->agentRequests();
    QVERIFY(requests.size() >= 10);
    for (const RecordedRequest &r : requests) {
        const QString problem = viewProblem(r.json());
        QVERIFY2(problem.isEmpty(), qPrintable(u"request %1: %2"_s.arg(r.number).arg(problem)));
    }
    // What was sent stayed within the window's reach once compaction acted.
    for (const RequestRecord &r : m_long->store.requests(m_long->sessionId))
        QVERIFY2(r.estimateTokens + r.toolSchemaTokens < 6000,
                 qPrintable(u"request %1: %2 tokens"_s.arg(r.index).arg(r.estimateTokens + r.toolSchemaTokens)));
}

void TestAgentCompaction::longTask_offloadedFilesExist()
{
    int files = 0;
    for (const CompactionRecord &r : std::as_const(m_records)) {
        for (const OffloadEntry &e : r.offloaded) {
            const QFileInfo info(m_long->workspace + u'/' + e.relativePath);
            QVERIFY2(info.isFile() && info.size() == e.bytes, qPrintable(e.relativePath));
            ++files;
        }
    }
    QVERIFY(files >= 1);
    const ContextOverlays overlays = m_long->store.overlays(m_long->sessionId);
    for (const OffloadOverlay &o : overlays.offloads)
        QVERIFY2(QFileInfo::exists(m_long->workspace + u'/' + o.entry.relativePath), qPrintable(o.entry.relativePath));
}

void TestAgentCompaction::longTask_anchorsMergeAcrossSummaries()
{
    int llmSummaries = 0;
    for (const CompactionRecord &r : std::as_const(m_records))
        llmSummaries += r.summarizerStep == SummarizerStep::Configured ? 1 : 0;
    QVERIFY2(llmSummaries >= 2, qPrintable(QString::number(llmSummaries)));
    // The later answers say "- N/A" for the intent: the first summary's intent survives every merge.
    const ContextOverlays overlays = m_long->store.overlays(m_long->sessionId);
    QVERIFY(overlays.checkpoints.size() >= 2);
    const Checkpoint &last = overlays.checkpoints.constLast();
    QVERIFY2(last.anchors.values[0].contains(u"Review the six modules"_s), qPrintable(last.anchors.values[0]));
    // Every later checkpoint the LLM wrote carries its answer (the extractive Emergency one has its own words).
    int later = 0;
    for (qsizetype i = 1; i < overlays.checkpoints.size(); ++i) {
        const Checkpoint &cp = overlays.checkpoints[i];
        if (cp.tier == Tier::Emergency)
            continue;
        QVERIFY2(cp.text.contains(u"LATER-PROGRESS"_s), qPrintable(cp.text));
        ++later;
    }
    QVERIFY(later >= 1);
    // The second LLM summary was asked with the first one as <previous-compaction>.
    int withPrevious = 0;
    for (const RecordedRequest &r : m_long->server.requests())
        if (r.isSummarizerCall() && QString::fromUtf8(r.body).contains(u"previous-compaction"_s))
            ++withPrevious;
    QVERIFY(withPrevious >= 1);
    bool kept = false;
    for (const CompactionRecord &r : std::as_const(m_records))
        kept = kept || r.anchorChanges[0] == AnchorChange::Kept;
    QVERIFY(kept);
}

void TestAgentCompaction::longTask_auditAgreesWithRecords()
{
    const QList<CompactionRecord> stored = m_long->store.records(m_long->sessionId);
    const AuditLog::ReadResult audit = AuditLog::read(m_long->auditPath());
    QCOMPARE(audit.skipped, 0);
    QCOMPARE(audit.records.size(), stored.size());
    QCOMPARE(stored.size(), m_records.size());
    for (qsizetype i = 0; i < stored.size(); ++i) {
        QCOMPARE(audit.records[i].id, stored[i].id);
        QCOMPARE(audit.records[i].tier, stored[i].tier);
        QCOMPARE(audit.records[i].tokensBefore, stored[i].tokensBefore);
        QCOMPARE(audit.records[i].tokensAfter, stored[i].tokensAfter);
        QCOMPARE(audit.records[i].requestIndex, stored[i].requestIndex);
    }
}

void TestAgentCompaction::longTask_historyHoldsEveryMessage()
{
    const QList<Message> history = m_long->store.history(m_long->sessionId);
    QCOMPARE(history.size(), m_emitted.size());
    for (qsizetype i = 0; i < history.size(); ++i) {
        QCOMPARE(history[i].id, m_emitted[i].id);
        QVERIFY(history[i].sameContent(m_emitted[i]));
    }
    // One assistant message per answered request, and every call answered once.
    int assistants = 0;
    for (const Message &m : history)
        assistants += m.role == Role::Assistant ? 1 : 0;
    QCOMPARE(assistants, int(m_long->agentRequests().size()));
    QVERIFY(pairingProblem(history).isEmpty());
    // The early bash result is in the history verbatim, however it was compacted.
    QVERIFY(history[2].content.contains(kCode));
    QCOMPARE(m_long->store.requests(m_long->sessionId).size(), assistants);
}

void TestAgentCompaction::longTask_retention()
{
    const QList<Message> history = m_long->store.history(m_long->sessionId);
    // The result with the code was offloaded, and no view after the compactions holds it...
    const ContextOverlays overlays = m_long->store.overlays(m_long->sessionId);
    QVERIFY(overlays.offloads.contains(history[2].id));
    QCOMPARE(overlays.offloads.value(history[2].id).entry.relativePath, m_offloadedPath);
    const QList<RecordedRequest> requests = m_long->agentRequests();
    const RecordedRequest &readBack = requests[requests.size() - 2];
    QVERIFY(readBack.json().value(u"messages").toArray().size() < history.size());
    bool codeInContext = false;
    for (const QJsonValue &v : readBack.json().value(u"messages").toArray())
        codeInContext = codeInContext || v.toObject().value(u"content").toString().contains(kCode);
    QVERIFY(!codeInContext);
    // ...and the model's read_file of the offloaded path returned it.
    const Message &answer = history[history.size() - 2];
    QCOMPARE(answer.toolCallId, u"back"_s);
    QVERIFY(!answer.isError);
    QVERIFY2(answer.content.contains(kCode), qPrintable(answer.content.left(300)));
    QVERIFY(m_long->run->workspace()->offloadReadCount(m_offloadedPath) >= 1);
}

void TestAgentCompaction::summariserFailsOver_data()
{
    QTest::addColumn<bool>("mainModelAnswers");
    QTest::newRow("main model takes over") << true;
    QTest::newRow("extractive takes over") << false;
}

void TestAgentCompaction::summariserFailsOver()
{
    QFETCH(bool, mainModelAnswers);
    CompactionPolicy policy;
    policy.contextWindow = 6000;
    policy.tailMessages = 2;
    policy.summaryTimeoutMs = 300;
    AgentHarness h(policy);

    // The configured summariser lives on its own endpoint: first an HTTP 500, then silence.
    FakeLlmServer summaryServer;
    QVERIFY(summaryServer.start());
    summaryServer.enqueue(FakeReply::withStatus(500, R"({"error":{"message":"summariser down"}})"));
    summaryServer.enqueue(FakeReply::withFault(FakeReply::Fault::Hang));
    std::unique_ptr<OpenAiChatClient> summaryClient = AgentHarness::makeClient(summaryServer);

    if (mainModelAnswers) {
        h.server.addRule(summaryRule(firstSummary()));
    } else {
        FakeReply refuse = FakeReply::withStatus(503, R"({"error":{"message":"main model busy"}})");
        refuse.when = [](const RecordedRequest &r) { return r.isSummarizerCall(); };
        refuse.persistent = true;
        h.server.addRule(refuse);
    }
    for (int n = 1; n <= 6; ++n)
        QVERIFY(writeFile(h.wsPath(u"m%1.txt"_s.arg(n)), moduleText(n)));
    // Twelve steps of about 530 tokens each: the ratio crosses Soft more than once.
    for (int i = 0; i < 12; ++i)
        h.server.enqueue(callReply(u"read%1"_s.arg(i), u"read_file"_s, readArgs(u"m%1.txt"_s.arg(i % 6 + 1), 0, 2000)));
    h.server.enqueue(FakeReply::withText(u"all read"_s));

    AgentConfig config = h.config();
    config.summarizerClient = summaryClient.get();
    config.summarizerModel = u"tiny-summariser"_s;
    AgentRun *run = h.open(config);
    QVERIFY(run->submit(u"read all six"_s));
    QCOMPARE(h.settle(30000), AgentRun::State::Finished);

    QList<CompactionRecord> summarised;
    for (const CompactionRecord &r : h.store.records(h.sessionId))
        if (r.summarizerStep != SummarizerStep::None && r.tier != Tier::Emergency)
            summarised << r;
    QVERIFY2(summarised.size() >= 2, qPrintable(QString::number(summarised.size())));
    const SummarizerStep expected = mainModelAnswers ? SummarizerStep::MainModel : SummarizerStep::Extractive;
    QCOMPARE(summarised[0].summarizerStep, expected);
    QVERIFY2(summarised[0].error.contains(u"summary failed: configured (tiny-summariser)"_s), qPrintable(summarised[0].error));
    QVERIFY2(summarised[0].error.contains(u"summariser down"_s), qPrintable(summarised[0].error));
    // The configured summariser hangs for the whole summary timeout, which bounds the chain: the
    // main model gets no time of its own, the extractive step answers.
    QCOMPARE(summarised[1].summarizerStep, SummarizerStep::Extractive);
    QVERIFY2(summarised[1].error.contains(u"timeout after 300 ms"_s), qPrintable(summarised[1].error));
    QVERIFY2(summarised[1].error.contains(u"main_model (fake-model): not tried: the summary timeout of 300 ms was used up"_s),
             qPrintable(summarised[1].error));
    if (!mainModelAnswers)
        QVERIFY2(summarised[0].error.contains(u"main_model"_s), qPrintable(summarised[0].error));
    QCOMPARE(summaryServer.requestCount(), int(summarised.size()));
    for (const RecordedRequest &r : h.agentRequests())
        QVERIFY(viewProblem(r.json()).isEmpty());
}

void TestAgentCompaction::requestOverTheWindowIsNeverSent()
{
    // Issue #31: a paste earlier in the conversation is cut so the next request fits; a newest
    // message that alone exceeds the window is not sent at all, and the run says why.
    CompactionPolicy policy;
    policy.contextWindow = 8000;
    AgentHarness h(policy);
    h.server.enqueue(FakeReply::withText(u"I read the log."_s));
    h.server.enqueue(FakeReply::withText(u"Fixed."_s));
    AgentRun *run = h.open(h.config());
    QVERIFY(run->submit(u"short question"_s));
    QCOMPARE(h.settle(30000), AgentRun::State::Finished);
    QVERIFY(run->submit(u"Here is the log:\n"_s + QString(60'000, u'p')));
    QCOMPARE(h.settle(30000), AgentRun::State::Failed);
    QVERIFY2(run->lastError().contains(u"the newest user message is too large"_s), qPrintable(run->lastError()));
    QCOMPARE(h.agentRequests().size(), 1); // the over-window request never reached the provider
    // Followed by a short message, the paste is cut and the request goes out within the window.
    QVERIFY(run->submit(u"Fix it, please."_s));
    QCOMPARE(h.settle(30000), AgentRun::State::Finished);
    const QList<RecordedRequest> requests = h.agentRequests();
    QCOMPARE(requests.size(), 2);
    const QByteArray sent = requests.last().body;
    QVERIFY2(sent.size() < 40'000, qPrintable(QString::number(sent.size()))); // the paste alone was 60 KB
    QVERIFY(sent.contains("cut here by the emergency compaction"));
    QVERIFY(sent.contains("Fix it, please."));
}

void TestAgentCompaction::maskStrategySendsNoSummaryRequest()
{
    CompactionPolicy policy;
    policy.contextWindow = 6000;
    policy.tailMessages = 2;
    policy.strategy = CompactionStrategy::Mask;
    AgentHarness h(policy);
    // Were a summary asked for, the fake would answer it, and the request would be on record.
    h.server.addRule(summaryRule(firstSummary()));
    for (int n = 1; n <= 6; ++n)
        QVERIFY(writeFile(h.wsPath(u"m%1.txt"_s.arg(n)), moduleText(n)));
    // Twelve steps of about 530 tokens each: under summarise these cross Soft more than once.
    for (int i = 0; i < 12; ++i)
        h.server.enqueue(callReply(u"read%1"_s.arg(i), u"read_file"_s, readArgs(u"m%1.txt"_s.arg(i % 6 + 1), 0, 2000)));
    h.server.enqueue(FakeReply::withText(u"all read"_s));

    AgentConfig config = h.config();
    config.summarizerModel = u"summary-model"_s;
    AgentRun *run = h.open(config);
    QVERIFY(run->submit(u"read all six"_s));
    QCOMPARE(h.settle(30000), AgentRun::State::Finished);

    for (const RecordedRequest &r : h.server.requests())
        QVERIFY2(!r.isSummarizerCall(), qPrintable(r.dump().left(400)));
    const QList<CompactionRecord> records = h.store.records(h.sessionId);
    int masking = 0;
    for (const CompactionRecord &r : records) {
        QCOMPARE(r.strategy, CompactionStrategy::Mask);
        if (r.tier == Tier::Soft || r.tier == Tier::Full) {
            QCOMPARE(r.summarized, 0);
            QCOMPARE(r.summarizerStep, SummarizerStep::None);
            masking += r.offloaded.isEmpty() ? 0 : 1;
        }
    }
    QVERIFY2(masking > 0, qPrintable(QString::number(records.size())));
    // The audit names the strategy on every line.
    const AuditLog::ReadResult audit = AuditLog::read(h.auditPath());
    QCOMPARE(audit.records.size(), records.size());
    QVERIFY(fileText(h.auditPath()).count(u"\"strategy\":\"mask\""_s) == int(records.size()));
    // What the model was sent holds placeholders instead of the old results, and stays valid.
    const QList<RecordedRequest> requests = h.agentRequests();
    QVERIFY(QJsonDocument(requests.last().json()).toJson().contains("[offloaded: "));
    for (const RecordedRequest &r : requests)
        QVERIFY(viewProblem(r.json()).isEmpty());
}

QTEST_GUILESS_MAIN(TestAgentCompaction)
#include "tst_agentcompaction.moc"
