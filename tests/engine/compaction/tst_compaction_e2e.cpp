// End to end (reference scenarios 26 and 27): the engine driven turn by turn with a
// scripted model, real offload files in a temporary workspace and the JSONL audit.
#include "CompactionFixtures.h"
#include "PreflightRunner.h"
#include "ScriptedSummarizer.h"

#include "compaction/AuditLog.h"
#include "compaction/ContextView.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
const QString kSystem = u"You are a coding agent working in a Go repository."_s;

// One agent session as the agent loop would hold it: history, overlays, the kept view.
class Session
{
public:
    Session(const QString &workspace, const QString &audit, const CompactionPolicy &policy, Summarizer *summarizer)
        : m_workspace(workspace), m_audit(audit), m_policy(policy), m_summarizer(summarizer)
    {
    }

    HistoryBuilder history;
    ContextOverlays overlays;

    // Pads with an assistant message so that the view reaches `ratio` of the window.
    void fillTo(double ratio)
    {
        const qint64 tokens = ContextView::build(kSystem, history, overlays).tokens();
        const qint64 missing = qint64(ratio * double(m_policy.contextWindow)) - tokens;
        if (missing > 0)
            history.assistant(u"Working notes: "_s + big(missing * 4, QLatin1Char('n')));
        history.user(u"continue"_s);
    }

    PreflightResult preflight()
    {
        PreflightInput in = preflightInput(kSystem, history, m_policy, m_workspace);
        in.overlays = overlays;
        in.auditPath = m_audit;
        in.lastStateKey = m_lastKey;
        in.requestIndex = ++m_requests;
        PreflightResult r = runPreflight(in, m_summarizer);
        overlays = r.overlays;
        if (r.shouldRecord)
            m_lastKey = r.stateKey;
        return r;
    }

    double ratio() const
    {
        return double(ContextView::build(kSystem, history, overlays).tokens()) / double(m_policy.contextWindow);
    }

private:
    QString m_workspace;
    QString m_audit;
    CompactionPolicy m_policy;
    Summarizer *m_summarizer;
    QString m_lastKey;
    int m_requests = 0;
};

QString listing(int lines, const QString &marker = {})
{
    QString s;
    for (int i = 0; i < lines; ++i) {
        s += u"-rw-r--r-- 1 dev dev 1234 static/file_%1.html\n"_s.arg(i, 4, 10, QLatin1Char('0'));
        if (i == lines / 2 && !marker.isEmpty())
            s += u"secret token: "_s + marker + u'\n';
    }
    return s;
}
} // namespace

class TestCompactionE2E : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void scenario26_warnThenTwoFulls();
    void scenario27_secretRetention();
};

void TestCompactionE2E::scenario26_warnThenTwoFulls()
{
    QTemporaryDir workspace, data;
    QVERIFY(workspace.isValid() && data.isValid());
    const QString audit = data.filePath(u"compaction_records/s1.jsonl"_s);
    ScriptedSummarizer model;
    model.addAnswer(ScriptedSummarizer::answer(u"Build a small web server in Go that serves static files"_s,
                                               u"- Use net/http from the standard library"_s, u"Listed static/ and started main.go."_s));
    model.addAnswer(ScriptedSummarizer::answer(u"- N/A"_s, u"- Serve with http.FileServer"_s, u"Server builds; tests pass."_s));
    CompactionPolicy policy;
    policy.contextWindow = 3000;
    policy.tailMessages = 2;
    Session s(workspace.path(), audit, policy, &model);

    s.history.user(u"Build a small web server in Go that serves the static/ folder."_s)
        .call(u"call_ls"_s, u"bash"_s, u"{\"command\":\"ls -l static\"}"_s)
        .result(u"call_ls"_s, listing(110))
        .assistant(u"I'll use net/http."_s);
    s.fillTo(0.66);
    QVERIFY(s.ratio() >= 0.6 && s.ratio() < 0.7);
    PreflightResult r = s.preflight();
    QCOMPARE(r.record.tier, Tier::Warn);
    QVERIFY(!r.record.offloaded.isEmpty());
    QCOMPARE(model.callCount(), 0);

    s.history.call(u"call_build"_s, u"bash"_s, u"{\"command\":\"go build ./...\"}"_s)
        .result(u"call_build"_s, u"ok\n"_s)
        .assistant(u"It builds."_s);
    s.fillTo(0.83);
    r = s.preflight();
    QCOMPARE(r.record.tier, Tier::Full);
    QCOMPARE(model.callCount(), 1);
    for (AnchorKind kind : kAllAnchorKinds)
        QVERIFY(!isUnknownAnchorValue(r.record.anchors.value(kind)));
    QVERIFY(r.record.anchors.value(AnchorKind::UserIntent).contains(u"web server"_s));
    QVERIFY(r.ratioAfter < 1.0);

    s.history.call(u"call_test"_s, u"bash"_s, u"{\"command\":\"go test ./...\"}"_s)
        .result(u"call_test"_s, u"PASS\n"_s)
        .assistant(u"Tests pass."_s);
    s.fillTo(0.83);
    r = s.preflight();
    QCOMPARE(r.record.tier, Tier::Full);
    QCOMPARE(model.callCount(), 2);
    QVERIFY(model.prompts()[1].user.contains(u"<previous-compaction>"_s));
    QVERIFY(r.record.anchors.value(AnchorKind::UserIntent).contains(u"web server"_s)); // "- N/A" did not overwrite it
    QVERIFY(r.ratioAfter < 1.0);

    const AuditLog::ReadResult read = AuditLog::read(audit);
    QCOMPARE(read.skipped, 0);
    int warns = 0, fulls = 0;
    for (const CompactionRecord &rec : read.records) {
        warns += rec.tier == Tier::Warn;
        fulls += rec.tier == Tier::Full;
        for (const OffloadEntry &e : rec.offloaded) {
            const QFileInfo file(QDir(workspace.path()).filePath(e.relativePath));
            QVERIFY2(file.isFile() && file.size() > 0, qPrintable(e.relativePath));
            QCOMPARE(file.size(), e.bytes);
        }
    }
    QVERIFY(warns >= 1);
    QCOMPARE(fulls, 2);
}

void TestCompactionE2E::scenario27_secretRetention()
{
    QTemporaryDir workspace, data;
    const QString audit = data.filePath(u"s1.jsonl"_s);
    ScriptedSummarizer model; // default answers: they never mention the secret
    CompactionPolicy policy;
    policy.contextWindow = 3000;
    policy.tailMessages = 2;
    Session s(workspace.path(), audit, policy, &model);
    s.history.user(u"Find the deployment token in the logs."_s)
        .call(u"call_logs"_s, u"bash"_s, u"{\"command\":\"cat deploy.log\"}"_s)
        .result(u"call_logs"_s, listing(120, u"E2E-8371"_s))
        .assistant(u"Found the log."_s);
    int compactions = 0;
    for (int round = 0; round < 6 && compactions < 3; ++round) {
        s.history.call(u"call_r%1"_s.arg(round), u"bash"_s, u"{}"_s).result(u"call_r%1"_s.arg(round), u"done"_s);
        s.fillTo(0.85);
        const PreflightResult r = s.preflight();
        compactions += !r.newCheckpoints.isEmpty();
    }
    QCOMPARE(compactions, 3);
    // The secret is no longer in the context...
    const QList<Message> view = ContextView::view(kSystem, s.history, s.overlays);
    QString text;
    for (const Message &m : view)
        text += m.content + u'\n';
    QVERIFY(!text.contains(u"E2E-8371"_s));
    // ...but the context names the file that holds it, and reading that file gives it back.
    const QRegularExpressionMatch m = QRegularExpression(u"\\.waterline/tool_results/s1/call_logs\\.txt"_s).match(text);
    QVERIFY2(m.hasMatch(), qPrintable(text.left(2000)));
    QFile file(QDir(workspace.path()).filePath(m.captured(0)));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("E2E-8371"));
}

QTEST_GUILESS_MAIN(TestCompactionE2E)
#include "tst_compaction_e2e.moc"
