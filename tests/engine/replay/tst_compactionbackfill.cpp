// CompactionBackfill on a real corpus session with a small window: every tier occurs, records,
// overlays and anchor history are stored, offload files exist and hold the original results,
// the request views are rewritten, the history stays byte for byte, the replay agrees with the
// what-if simulator and is deterministic.
#include "compaction/AuditLog.h"
#include "compaction/ContextView.h"
#include "replay/CompactionBackfill.h"
#include "replay/SessionImporter.h"
#include "store/SessionStore.h"
#include "whatif/ReplayInput.h"
#include "whatif/Simulator.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

QString data(const QString &relative)
{
    return QStringLiteral(WATERLINE_TEST_DATA "/replay/") + relative;
}

// The Claude Code session (343 messages, 152 requests, one 2,759 KB file) under a window that
// is small for it: thresholds spread so that the big tool results push some requests straight
// from below `full` to `emergency`.
const QString kFile = u"claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl"_s;

CompactionPolicy smallWindow()
{
    CompactionPolicy p;
    p.contextWindow = 20000;
    p.warn = 0.40;
    p.soft = 0.55;
    p.full = 0.70;
    p.emergency = 0.90;
    p.tailMessages = 6;
    p.offloadAtToolTime = 1'000'000'000; // the big results arrive whole (gate 1 would offload them)
    return p;
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCompactionBackfill : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void everyTierStoredWithItsOverlays();
    void agreesWithTheSimulator();
    void deterministic();
    void refusesASecondReplay();
    void invalidPolicyRefused();
    void cancelStops();
    void importWithReplayIsAllOrNothing();

private:
    QString importFresh(const QString &workspace);
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SessionStore> m_store;
};

void TestCompactionBackfill::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<SessionStore>();
    QString error;
    QVERIFY2(m_store->open(m_dir->filePath(u"sessions.db"_s), &error), qPrintable(error));
}

QString TestCompactionBackfill::importFresh(const QString &workspace)
{
    QDir().mkpath(workspace);
    SessionImporter::Options options;
    options.workspace = workspace;
    const auto r = SessionImporter::importFile(*m_store, data(kFile), options);
    return r.ok ? r.sessionId : QString();
}

void TestCompactionBackfill::everyTierStoredWithItsOverlays()
{
    const QString workspace = m_dir->filePath(u"ws"_s);
    const QString session = importFresh(workspace);
    QVERIFY(!session.isEmpty());
    const QList<Message> historyBefore = m_store->history(session);
    const QString exportBefore = m_dir->filePath(u"before.jsonl"_s);
    QVERIFY(m_store->exportSession(session, exportBefore));
    const QList<RequestRecord> requestsBefore = m_store->requests(session);

    CompactionBackfill::Options options;
    options.policy = smallWindow();
    options.overheadTokens = 0; // the window is far below the session's own fixed overhead
    options.auditPath = m_dir->filePath(u"audit/records.jsonl"_s);
    int lastProgress = 0;
    options.progress = [&](int done, int total) {
        QCOMPARE(total, 152);
        lastProgress = done;
    };
    const CompactionBackfill::Result r = CompactionBackfill::run(*m_store, session, options);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.requests, 152);
    QCOMPARE(lastProgress, 152);
    for (Tier t : {Tier::None, Tier::Warn, Tier::Soft, Tier::Full, Tier::Emergency})
        QVERIFY2(r.tiers[size_t(t)] > 0, qPrintable(u"no request at tier %1"_s.arg(tierName(t))));

    // History: the same rows, byte for byte.
    const QList<Message> historyAfter = m_store->history(session);
    QCOMPARE(historyAfter.size(), historyBefore.size());
    for (qsizetype i = 0; i < historyAfter.size(); ++i) {
        QCOMPARE(historyAfter[i].id, historyBefore[i].id);
        QCOMPARE(historyAfter[i].content.toUtf8(), historyBefore[i].content.toUtf8());
        QVERIFY(historyAfter[i].sameContent(historyBefore[i]));
        QCOMPARE(historyAfter[i].origin, historyBefore[i].origin);
    }

    // Records: in the store, in the audit file, with anchor history.
    const QList<CompactionRecord> records = m_store->records(session);
    QCOMPARE(records.size(), r.records);
    QVERIFY(records.size() >= 4);
    const AuditLog::ReadResult audit = AuditLog::read(options.auditPath);
    QCOMPARE(audit.skipped, 0);
    QCOMPARE(audit.records.size(), records.size());
    for (qsizetype i = 0; i < records.size(); ++i) {
        QCOMPARE(audit.records[i].id, records[i].id);
        QCOMPARE(audit.records[i].tier, records[i].tier);
        QVERIFY(records[i].tier != Tier::None);
    }
    const QList<AnchorHistoryEntry> anchors = m_store->anchorHistory(session);
    QCOMPARE(anchors.size(), records.size());
    bool someAnchorKnown = false;
    for (const AnchorHistoryEntry &e : anchors)
        someAnchorKnown = someAnchorKnown || e.anchors.value(AnchorKind::UserIntent) != u"N/A"_s;
    QVERIFY(someAnchorKnown);

    // Overlays, and the offload files holding the original results.
    const ContextOverlays overlays = m_store->overlays(session);
    QCOMPARE(overlays.checkpoints.size(), r.checkpoints);
    QCOMPARE(overlays.offloads.size(), r.offloads);
    QVERIFY(r.checkpoints > 0);
    QVERIFY(r.offloads > 0);
    for (const Checkpoint &cp : overlays.checkpoints)
        QVERIFY(cp.text.startsWith(u"[Context Compaction]"_s));
    QHash<qint64, Message> byId;
    for (const Message &m : historyAfter)
        byId.insert(m.id, m);
    for (const OffloadOverlay &off : overlays.offloads) {
        const QString path = QDir(workspace).filePath(off.entry.relativePath);
        QVERIFY2(QFileInfo::exists(path), qPrintable(path));
        QVERIFY(off.entry.relativePath.startsWith(u".waterline/tool_results/"_s + session + u'/'));
        QCOMPARE(fileBytes(path), byId.value(off.messageId).content.toUtf8());
        QVERIFY(off.placeholder.startsWith(u"[offloaded: "_s));
    }

    // Requests: usage kept, views rewritten to what Waterline would have sent.
    const QList<RequestRecord> requests = m_store->requests(session);
    QCOMPARE(requests.size(), requestsBefore.size());
    QHash<QString, Tier> recordTier;
    for (const CompactionRecord &rec : records)
        recordTier.insert(rec.id, rec.tier);
    int shrunk = 0;
    for (qsizetype i = 0; i < requests.size(); ++i) {
        const RequestRecord &after = requests[i];
        const RequestRecord &before = requestsBefore[i];
        QCOMPARE(after.inputTokens, before.inputTokens);
        QCOMPARE(after.outputTokens, before.outputTokens);
        QCOMPARE(after.model, before.model);
        QCOMPARE(after.startedAt, before.startedAt);
        QVERIFY(after.estimateTokens <= before.estimateTokens + 1000); // + a checkpoint at most
        QVERIFY(std::is_sorted(after.viewMessageIds.cbegin(), after.viewMessageIds.cend()));
        for (qint64 id : after.viewMessageIds)
            QVERIFY(id < before.viewMessageIds.last() + 1);
        if (after.viewMessageIds.size() < before.viewMessageIds.size())
            ++shrunk;
        if (after.viewCheckpointId) {
            bool found = false;
            for (const Checkpoint &cp : overlays.checkpoints)
                found = found || cp.id == after.viewCheckpointId;
            QVERIFY(found);
        }
    }
    QVERIFY(shrunk > 0);
    // The tier of every request that left a record is the record's tier.
    for (const CompactionRecord &rec : records)
        QCOMPARE(requests[rec.requestIndex].tier, rec.tier);
    QCOMPARE(m_store->session(session)->policy, smallWindow().toJson());
}

void TestCompactionBackfill::agreesWithTheSimulator()
{
    const QString session = importFresh(m_dir->filePath(u"ws"_s));
    QVERIFY(!session.isEmpty());
    const std::optional<ReplayInput> input = ReplayInput::fromStore(*m_store, session);
    QVERIFY(input);
    Simulator::Input simulatorInput = input->simulatorInput(smallWindow(), SummaryModel::extractive());
    simulatorInput.overheadTokens = 0; // as the replay below is told
    const SimulationResult simulated = Simulator::simulate(simulatorInput);

    CompactionBackfill::Options options;
    options.policy = smallWindow();
    options.overheadTokens = 0; // the window is far below the session's own fixed overhead
    options.auditPath = m_dir->filePath(u"audit.jsonl"_s);
    QVERIFY(CompactionBackfill::run(*m_store, session, options).ok);
    const QList<RequestRecord> requests = m_store->requests(session);
    QCOMPARE(simulated.rows.size(), requests.size());
    for (qsizetype i = 0; i < requests.size(); ++i) {
        QCOMPARE(requests[i].tier, simulated.rows[i].tier);
        QCOMPARE(requests[i].estimateTokens, simulated.rows[i].tokensAfter);
    }
}

void TestCompactionBackfill::deterministic()
{
    // One imported session, copied to a second database: the same session twice.
    const QString session = importFresh(m_dir->filePath(u"ws"_s));
    QVERIFY(!session.isEmpty());
    const QString firstDb = m_store->path();
    m_store->close();
    const QString secondDb = m_dir->filePath(u"copy.db"_s);
    QVERIFY(QFile::copy(firstDb, secondDb));

    struct Outcome
    {
        QList<RequestRecord> requests;
        QList<Checkpoint> checkpoints;
        QList<OffloadOverlay> offloads;
        QList<QJsonObject> records;
        QByteArray audit;
    };
    QList<Outcome> outcomes;
    for (const QString &db : {firstDb, secondDb}) {
        SessionStore store;
        QVERIFY(store.open(db));
        CompactionBackfill::Options options;
        options.policy = smallWindow();
        options.overheadTokens = 0; // the window is far below the session's own fixed overhead
        options.workspace = m_dir->filePath(u"ws-"_s + QFileInfo(db).baseName());
        QVERIFY(QDir().mkpath(options.workspace));
        options.auditPath = options.workspace + u"/audit.jsonl"_s;
        QVERIFY(CompactionBackfill::run(store, session, options).ok);
        Outcome o;
        o.requests = store.requests(session);
        const ContextOverlays overlays = store.overlays(session);
        o.checkpoints = overlays.checkpoints;
        o.offloads = overlays.offloads.values();
        std::sort(o.offloads.begin(), o.offloads.end(), [](const auto &a, const auto &b) { return a.id < b.id; });
        for (const CompactionRecord &rec : store.records(session)) {
            QJsonObject json = rec.toJson();
            json.remove(u"duration_ms"_s); // the one measured field
            o.records << json;
        }
        outcomes << o;
    }
    QCOMPARE(outcomes[0].requests, outcomes[1].requests);
    QCOMPARE(outcomes[0].checkpoints, outcomes[1].checkpoints);
    QCOMPARE(outcomes[0].offloads, outcomes[1].offloads);
    QCOMPARE(outcomes[0].records, outcomes[1].records);
    QVERIFY(!outcomes[0].records.isEmpty());
    // Record times are the requests' recorded times, not the time of the replay.
    for (const QJsonObject &rec : std::as_const(outcomes[0].records)) {
        const int index = rec.value(u"request_index").toInt();
        QCOMPARE(QDateTime::fromString(rec.value(u"timestamp").toString(), Qt::ISODateWithMs),
                 outcomes[0].requests[index].startedAt);
    }
}

void TestCompactionBackfill::refusesASecondReplay()
{
    const QString session = importFresh(m_dir->filePath(u"ws"_s));
    CompactionBackfill::Options options;
    options.policy = smallWindow();
    options.overheadTokens = 0; // the window is far below the session's own fixed overhead
    options.auditPath = m_dir->filePath(u"audit.jsonl"_s);
    QVERIFY(CompactionBackfill::run(*m_store, session, options).ok);
    const int records = int(m_store->records(session).size());
    const CompactionBackfill::Result again = CompactionBackfill::run(*m_store, session, options);
    QVERIFY(!again.ok);
    QVERIFY2(again.error.contains(u"already"_s), qPrintable(again.error));
    QCOMPARE(m_store->records(session).size(), records);
}

void TestCompactionBackfill::invalidPolicyRefused()
{
    const QString session = importFresh(m_dir->filePath(u"ws"_s));
    CompactionBackfill::Options options;
    options.policy.soft = 0.5;
    options.policy.warn = 0.6;
    const CompactionBackfill::Result r = CompactionBackfill::run(*m_store, session, options);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"soft"_s), qPrintable(r.error));
    QVERIFY(m_store->records(session).isEmpty());
}

void TestCompactionBackfill::cancelStops()
{
    const QString session = importFresh(m_dir->filePath(u"ws"_s));
    std::atomic_bool cancel = false;
    CompactionBackfill::Options options;
    options.policy = smallWindow();
    options.overheadTokens = 0; // the window is far below the session's own fixed overhead
    options.auditPath = m_dir->filePath(u"audit.jsonl"_s);
    options.cancel = &cancel;
    options.progress = [&](int done, int) {
        if (done == 10)
            cancel = true;
    };
    const CompactionBackfill::Result r = CompactionBackfill::run(*m_store, session, options);
    QVERIFY(!r.ok);
    QVERIFY(r.cancelled);
    QCOMPARE(r.requests, 10);
}

void TestCompactionBackfill::importWithReplayIsAllOrNothing()
{
    const QString workspace = m_dir->filePath(u"ws"_s);
    QDir().mkpath(workspace);
    SessionImporter::Options options;
    options.workspace = workspace;
    options.replay = true;
    options.replayPolicy = smallWindow();
    options.auditPath = m_dir->filePath(u"audit.jsonl"_s);
    const auto ok = SessionImporter::importFile(*m_store, data(kFile), options);
    QVERIFY2(ok.ok, qPrintable(ok.error));
    QVERIFY(ok.replayTiers[size_t(Tier::Emergency)] > 0);
    QVERIFY(!m_store->overlays(ok.sessionId).checkpoints.isEmpty());

    // An invalid policy fails the replay: the imported session goes too.
    options.replayPolicy.tailMessages = 0;
    const auto failed = SessionImporter::importFile(*m_store, data(kFile), options);
    QVERIFY(!failed.ok);
    QVERIFY(failed.sessionId.isEmpty());
    QCOMPARE(m_store->listSessions().size(), 1);
}

QTEST_GUILESS_MAIN(TestCompactionBackfill)
#include "tst_compactionbackfill.moc"
