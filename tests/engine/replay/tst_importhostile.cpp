// Importers on hand-written hostile input: Claude Code files that start mid-session with
// sub-agent records inline and several compactions, Codex rollouts whose compaction is an
// encrypted blob, unknown record types, and numbers that no integer can hold.
#include "replay/TranscriptFormats.h"
#include "replay/TranscriptImporter.h"

#include <QBuffer>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

ImportResult importText(const QString &format, QByteArray text, const QString &name = u"x.jsonl"_s)
{
    QBuffer buffer(&text);
    buffer.open(QIODevice::ReadOnly);
    return TranscriptFormats::importer(format)->import(&buffer, name);
}

QByteArray lines(const QList<QByteArray> &records)
{
    QByteArray out;
    for (const QByteArray &r : records)
        out += r + '\n';
    return out;
}

int countIssues(const ImportedSession &s, ImportIssue::Kind kind, const QString &containing = {})
{
    int n = 0;
    for (const ImportIssue &issue : s.issues)
        n += issue.kind == kind && issue.text.contains(containing) ? 1 : 0;
    return n;
}

bool anyNumberProblemContains(const ImportedSession &s, const QString &text)
{
    for (const QString &p : s.numberProblems) {
        if (p.contains(text))
            return true;
    }
    return false;
}

// A Waterline session export: a question, the answer of request 0, and that request's usage.
QByteArray waterlineExport(const QByteArray &usage, const QByteArray &origin = "0", const QByteArray &index = "0")
{
    return lines({
        R"({"type":"header","format":"waterline-session","version":1,"session":{"title":"t"}})",
        R"({"type":"message","seq":0,"role":"user","content":"hello"})",
        R"({"type":"message","seq":1,"role":"assistant","content":"hi","origin":)" + origin + "}",
        R"({"type":"request","index":)" + index + R"(,"view":{"messages":[0]},"estimate_tokens":1,"tool_schema_tokens":0,"usage":)" + usage + R"(,"tier":"none","model":"m"})",
        R"({"type":"end","counts":{"messages":2,"checkpoints":0,"offloads":0,"requests":1,"records":0}})",
    });
}

// A Claude Code main file cut out of a longer session: its first records are a sub-agent's
// (inline, isSidechain), its first own record answers a call made before the cut, and it holds
// `summary` records and two compactions.
QByteArray claudeMidSession()
{
    return lines({
        R"({"parentUuid":"s0","isSidechain":true,"type":"user","uuid":"s1","sessionId":"S","message":{"role":"user","content":"sub-agent task: find the config"}})",
        R"({"parentUuid":"s1","isSidechain":true,"type":"assistant","uuid":"s2","sessionId":"S","message":{"id":"ms1","model":"claude-haiku","role":"assistant","content":[{"type":"text","text":"It is in config.toml"}]}})",
        R"({"parentUuid":"before-the-cut","isSidechain":false,"type":"user","uuid":"u1","sessionId":"S","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t0","content":"output of a call made before the cut"}]}})",
        R"({"parentUuid":"u1","isSidechain":false,"type":"assistant","uuid":"a1","sessionId":"S","message":{"id":"m1","model":"claude-opus","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"config.toml"}}],"usage":{"input_tokens":10,"output_tokens":5}}})",
        R"({"parentUuid":"a1","isSidechain":false,"type":"user","uuid":"u2","sessionId":"S","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"[server]\nport = 80"}]}})",
        R"({"type":"summary","summary":"Reading the server config","leafUuid":"u2"})",
        R"({"parentUuid":null,"logicalParentUuid":"u2","isSidechain":false,"type":"system","subtype":"compact_boundary","uuid":"c1","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":1000}})",
        R"({"parentUuid":"c1","isSidechain":false,"type":"user","uuid":"u3","isCompactSummary":true,"message":{"role":"user","content":"Summary one: the port is 80."}})",
        R"({"parentUuid":"u3","isSidechain":true,"type":"assistant","uuid":"s3","sessionId":"S","message":{"id":"ms2","model":"claude-haiku","role":"assistant","content":[{"type":"text","text":"sub-agent again"}]}})",
        R"({"parentUuid":"u3","isSidechain":false,"type":"user","uuid":"u4","sessionId":"S","message":{"role":"user","content":"Now change it to 8080"}})",
        R"({"parentUuid":"u4","isSidechain":false,"type":"assistant","uuid":"a2","sessionId":"S","message":{"id":"m2","model":"claude-opus","role":"assistant","content":[{"type":"text","text":"Changing it."}],"usage":{"input_tokens":20,"output_tokens":3}}})",
        R"({"type":"summary","summary":"Changing the port","leafUuid":"a2"})",
        R"({"parentUuid":null,"logicalParentUuid":"a2","isSidechain":false,"type":"system","subtype":"compact_boundary","uuid":"c2","content":"Conversation compacted","compactMetadata":{"trigger":"manual","preTokens":2000}})",
        R"({"parentUuid":"c2","isSidechain":false,"type":"user","uuid":"u5","isCompactSummary":true,"message":{"role":"user","content":"Summary two: the port is being changed."}})",
        R"({"parentUuid":"u5","isSidechain":false,"type":"user","uuid":"u6","sessionId":"S","message":{"role":"user","content":"Done?"}})",
        R"({"parentUuid":"u6","isSidechain":false,"type":"assistant","uuid":"a3","sessionId":"S","message":{"id":"m3","model":"claude-opus","role":"assistant","content":[{"type":"text","text":"Done."}]}})",
        R"({"type":"hologram","uuid":"h1","payload":{"future":"record type"}})",
    });
}

} // namespace

class TestImportHostile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void claudeMidSessionWithInlineSubAgent();
    void claudeSubAgentFileStillReadsItsOwnRecords();
    void codexEncryptedCompaction();
    void codexCompactedWithEncryptedReplacement();
    void codexUnknownTypesAreReported();
    void hostileNumbers_data();
    void hostileNumbers();
    void waterlineExportPositions_data();
    void usageDetailsAreCountedWhenRejected_data();
    void usageDetailsAreCountedWhenRejected();
    void waterlineExportPositions();
};

void TestImportHostile::claudeMidSessionWithInlineSubAgent()
{
    const ImportResult r = importText(u"claude-code"_s, claudeMidSession());
    QVERIFY2(r.ok, qPrintable(r.error));
    const ImportedSession &s = r.session;
    // The main conversation only: result (call before the cut), call, result, user, assistant,
    // user, assistant.
    QStringList contents;
    for (const Message &m : s.messages)
        contents << (m.toolCalls.isEmpty() ? m.content : m.toolCalls.first().name);
    QCOMPARE(contents, (QStringList{u"output of a call made before the cut"_s, u"Read"_s, u"[server]\nport = 80"_s,
                                    u"Now change it to 8080"_s, u"Changing it."_s, u"Done?"_s, u"Done."_s}));
    QCOMPARE(s.requests.size(), 3);
    QCOMPARE(s.model, u"claude-opus"_s);
    // The result whose call is before the cut is kept and flagged.
    QCOMPARE(countIssues(s, ImportIssue::Kind::ResultForUnknownCall), 1);
    // Said, not silent: the cut and the three sub-agent records left out.
    QCOMPARE(countIssues(s, ImportIssue::Kind::Note, u"mid-session"_s), 1);
    QCOMPARE(countIssues(s, ImportIssue::Kind::Note, u"sidechain"_s), 1);
    QCOMPARE(s.ignoredRecords.value(u"sidechain"_s), 3);
    // Both compactions, with their summaries, sizes and triggers.
    QCOMPARE(s.compactions.size(), 2);
    QCOMPARE(s.compactions[0].tokensBefore, qint64(1000));
    QCOMPARE(s.compactions[0].summary, u"Summary one: the port is 80."_s);
    QCOMPARE(s.compactions[0].messageIndex, 3);
    QCOMPARE(s.compactions[1].tokensBefore, qint64(2000));
    QCOMPARE(s.compactions[1].trigger, u"manual"_s);
    QCOMPARE(s.compactions[1].summary, u"Summary two: the port is being changed."_s);
    QCOMPARE(s.compactions[1].messageIndex, 5);
    // Summary records are read (the title), the unknown record is reported.
    QCOMPARE(s.recordCounts.value(u"summary"_s), 2);
    QCOMPARE(s.title, u"Reading the server config"_s);
    QCOMPARE(s.skippedLines, 1);
    QVERIFY2(s.problems.value(0).startsWith(u"x.jsonl:17: field 'type': unknown record kind 'hologram'"_s), qPrintable(s.problems.value(0)));
}

// A sub-agent file (every record a sidechain one) keeps its records, even when the main
// session's records start mid-file.
void TestImportHostile::claudeSubAgentFileStillReadsItsOwnRecords()
{
    const ImportResult r = importText(u"claude-code"_s, lines({
        R"({"parentUuid":null,"isSidechain":true,"agentId":"a1","type":"user","uuid":"s1","sessionId":"S","message":{"role":"user","content":"find it"}})",
        R"({"parentUuid":"s1","isSidechain":true,"agentId":"a1","type":"assistant","uuid":"s2","sessionId":"S","message":{"id":"m1","model":"claude-haiku","role":"assistant","content":[{"type":"text","text":"found"}]}})",
    }), u"agent-a1.jsonl"_s);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.messageCount, 2);
    QCOMPARE(r.session.ignoredRecords.value(u"sidechain"_s), 0);
    QCOMPARE(countIssues(r.session, ImportIssue::Kind::Note), 0);
}

void TestImportHostile::codexEncryptedCompaction()
{
    const QByteArray blob(6000, 'Q');
    const ImportResult r = importText(u"codex"_s, lines({
        R"({"timestamp":"2026-05-11T11:00:00Z","type":"session_meta","payload":{"id":"r1","base_instructions":{"text":"You are Codex."}}})",
        R"({"timestamp":"2026-05-11T11:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Refactor the parser"}]}})",
        R"({"timestamp":"2026-05-11T11:00:02Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"On it."}]}})",
        R"({"timestamp":"2026-05-11T11:00:03Z","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":250000,"output_tokens":10}}}})",
        R"({"timestamp":"2026-05-11T11:00:04Z","type":"response_item","payload":{"type":"compaction","encrypted_content":")" + blob + R"("}})",
        R"({"timestamp":"2026-05-11T11:00:05Z","type":"response_item","payload":{"type":"compaction_summary","summary":[{"type":"summary_text","text":"The parser was split in two."}],"encrypted_content":"abc"}})",
        R"({"timestamp":"2026-05-11T11:00:06Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Continue"}]}})",
        R"({"timestamp":"2026-05-11T11:00:07Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Continuing."}]}})",
    }));
    QVERIFY2(r.ok, qPrintable(r.error));
    const ImportedSession &s = r.session;
    QCOMPARE(s.compactions.size(), 2);
    QCOMPARE(s.compactions[0].kind, u"compaction"_s);
    QCOMPARE(s.compactions[0].tokensBefore, qint64(250000));
    QCOMPARE(s.compactions[0].messageIndex, 3);
    QCOMPARE(s.compactions[1].summary, u"The parser was split in two."_s);
    // The opaque part stands where it was, saying what it is and how big.
    QCOMPARE(s.messageCount, 7);
    const Message &opaque = s.messages[3];
    QCOMPARE(opaque.role, Role::User);
    QVERIFY2(opaque.content.contains(u"encrypted"_s) && opaque.content.contains(u"6000 bytes"_s), qPrintable(opaque.content));
    // The readable part of the second one is kept, with a note of its opaque part.
    QVERIFY(s.messages[4].content.startsWith(u"The parser was split in two.\n"_s));
    QVERIFY(s.messages[4].content.contains(u"3 bytes"_s));
    QCOMPARE(s.messages[6].content, u"Continuing."_s);
    QCOMPARE(s.skippedLines, 0);
}

// Remote compaction: a `compacted` line whose replacement history holds the encrypted summary
// (and copies of earlier user messages, which stay where they were).
void TestImportHostile::codexCompactedWithEncryptedReplacement()
{
    const QByteArray blob(1234, 'Z');
    const ImportResult r = importText(u"codex"_s, lines({
        R"({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Port the parser"}]}})",
        R"({"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Ported half."}]}})",
        R"({"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":240000,"output_tokens":10}}}})",
        R"({"type":"compacted","payload":{"message":"","replacement_history":[{"type":"message","role":"user","content":[{"type":"input_text","text":"Port the parser"}]},{"type":"compaction","encrypted_content":")" + blob + R"("}]}})",
        R"({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Go on"}]}})",
        R"({"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}})",
    }));
    QVERIFY2(r.ok, qPrintable(r.error));
    const ImportedSession &s = r.session;
    QCOMPARE(s.compactions.size(), 1);
    QCOMPARE(s.compactions[0].kind, u"compacted"_s);
    QCOMPARE(s.compactions[0].tokensBefore, qint64(240000));
    QCOMPARE(s.compactions[0].messageIndex, 2);
    QCOMPARE(s.messageCount, 5);
    QVERIFY2(s.messages[2].content.contains(u"encrypted"_s) && s.messages[2].content.contains(u"1234 bytes"_s), qPrintable(s.messages[2].content));
    QCOMPARE(s.messages[3].content, u"Go on"_s); // the repeated user message is not added again
}

void TestImportHostile::codexUnknownTypesAreReported()
{
    const ImportResult r = importText(u"codex"_s, lines({
        R"({"type":"session_meta","payload":{"id":"r1"}})",
        R"({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}})",
        R"({"type":"subagent_session","payload":{"agent":"reviewer"}})",
        R"({"type":"response_item","payload":{"type":"hologram_call","call_id":"h"}})",
        R"({"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}})",
    }));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.messageCount, 2);
    QCOMPARE(r.session.skippedLines, 2);
    QVERIFY2(r.session.problems.value(0).contains(u"'subagent_session'"_s), qPrintable(r.session.problems.value(0)));
    QVERIFY2(r.session.problems.value(1).contains(u"'hologram_call'"_s), qPrintable(r.session.problems.value(1)));
}

// Token counts and times are read as "not reported" when no integer can hold them (casting
// 1e300 to an integer is undefined behaviour), and the record itself is kept and named.
void TestImportHostile::hostileNumbers_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("field");

    const QByteArray user = R"({"type":"user","sessionId":"s","parentUuid":null,"message":{"role":"user","content":"hello"}})";
    auto claude = [&](const char *usage) {
        return lines({user, QByteArray(R"({"type":"assistant","sessionId":"s","parentUuid":"x","message":{"id":"m1","model":"x","role":"assistant","content":[{"type":"text","text":"hi"}],"usage":)") + usage + "}}"});
    };
    QTest::newRow("claude 1e300") << u"claude-code"_s << claude(R"({"input_tokens":1e300,"output_tokens":1})") << u"message.usage.input_tokens"_s;
    QTest::newRow("claude 2^63") << u"claude-code"_s << claude(R"({"input_tokens":9223372036854775808,"output_tokens":1})") << u"message.usage.input_tokens"_s;
    QTest::newRow("claude negative") << u"claude-code"_s << claude(R"({"input_tokens":-5,"output_tokens":1})") << u"message.usage.input_tokens"_s;
    QTest::newRow("claude fractional") << u"claude-code"_s << claude(R"({"input_tokens":1.5,"output_tokens":1})") << u"message.usage.input_tokens"_s;
    QTest::newRow("claude string") << u"claude-code"_s << claude(R"({"input_tokens":"12abc","output_tokens":1})") << u"message.usage.input_tokens"_s;
    auto codex = [](const char *usage) {
        return lines({R"({"type":"response_item","payload":{"type":"message","role":"user","content":"go"}})",
                      R"({"type":"response_item","payload":{"type":"message","role":"assistant","content":"ok"}})",
                      QByteArray(R"({"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":)") + usage + "}}}"});
    };
    QTest::newRow("codex int64 max") << u"codex"_s << codex(R"({"input_tokens":9223372036854775807,"output_tokens":1})")
                                     << u"payload.info.last_token_usage.input_tokens"_s;
    QTest::newRow("codex -1e300") << u"codex"_s << codex(R"({"input_tokens":-1e300,"output_tokens":1})")
                                  << u"payload.info.last_token_usage.input_tokens"_s;
    QTest::newRow("chat log 1e300") << u"openai"_s
                                    << QByteArray(R"({"messages":[{"role":"user","content":"hi"}],"response":{"id":"r","created":1e300,"model":"m","choices":[{"message":{"role":"assistant","content":"yo"}}],"usage":{"prompt_tokens":1e300,"completion_tokens":2}}})")
                                    << u"response.usage.prompt_tokens"_s;
    for (const char *value : {"1e300", "-5", "1.5", "9223372036854775808"}) {
        QTest::addRow("waterline export %s", value)
            << u"waterline"_s << waterlineExport(R"({"input":)" + QByteArray(value) + R"(,"output":2})") << u"usage.input"_s;
    }
}

// The Waterline export read as a transcript: a hostile request index skips that request line;
// a hostile origin only loses the link from the message to its request.
void TestImportHostile::waterlineExportPositions_data()
{
    QTest::addColumn<QByteArray>("origin");
    QTest::addColumn<QByteArray>("index");
    QTest::addColumn<int>("rejected");
    QTest::addColumn<int>("skipped");
    QTest::newRow("origin 1e300") << QByteArray("1e300") << QByteArray("0") << 1 << 0;
    QTest::newRow("origin -5") << QByteArray("-5") << QByteArray("0") << 1 << 0;
    QTest::newRow("index 1e300") << QByteArray("0") << QByteArray("1e300") << 0 << 1;
    QTest::newRow("index -5") << QByteArray("0") << QByteArray("-5") << 0 << 1;
    QTest::newRow("index 1.5") << QByteArray("0") << QByteArray("1.5") << 0 << 1;
}

void TestImportHostile::waterlineExportPositions()
{
    QFETCH(QByteArray, origin);
    QFETCH(QByteArray, index);
    QFETCH(int, rejected);
    QFETCH(int, skipped);
    const ImportResult r = importText(u"waterline"_s, waterlineExport(R"({"input":1,"output":2})", origin, index));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.messageCount, 2);
    QCOMPARE(r.session.requests.size(), 0); // nothing links a request to the answer
    QCOMPARE(r.session.rejectedNumbers, rejected);
    QCOMPARE(r.session.skippedLines, skipped);
    if (skipped)
        QVERIFY2(r.session.problems.value(0).contains(u"x.jsonl:4: field 'index'"_s), qPrintable(r.session.problems.join(u'\n')));
    else
        QVERIFY2(anyNumberProblemContains(r.session, u"x.jsonl:3: field origin"_s), qPrintable(r.session.numberProblems.join(u'\n')));
}

void TestImportHostile::hostileNumbers()
{
    QFETCH(QString, format);
    QFETCH(QByteArray, text);
    QFETCH(QString, field);

    const ImportResult r = importText(format, text);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.requests.size(), 1);
    const ImportedRequest &request = r.session.requests.first();
    QCOMPARE(request.usage.input, qint64(-1));
    QVERIFY(request.usage.context <= 1); // never a wrapped or negative size
    QVERIFY(!request.timestamp.isValid() || request.timestamp.date().year() < 10000);
    QCOMPARE(r.session.rejectedNumbers, 1);
    QVERIFY2(anyNumberProblemContains(r.session, field), qPrintable(r.session.numberProblems.join(u"\n"_s)));
    QCOMPARE(r.session.skippedLines, 0); // no record was skipped for it
    // The rest of the record is kept.
    QCOMPARE(r.session.messageCount, 2);
}

// Cache figures and run totals go through the same check as the main usage: a hostile one reads
// as not reported and is counted and named, never silently dropped or kept.
void TestImportHostile::usageDetailsAreCountedWhenRejected_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("field");
    auto chat = [](const QByteArray &usage) {
        return QByteArray(R"({"messages":[{"role":"user","content":"hi"}],"response":{"id":"r","model":"m","choices":[{"message":{"role":"assistant","content":"yo"}}],"usage":{"prompt_tokens":5,"completion_tokens":2,)")
            + usage + "}}}";
    };
    QTest::newRow("chat cached_tokens -5") << u"openai"_s << chat(R"("prompt_tokens_details":{"cached_tokens":-5})")
                                           << u"response.usage.prompt_tokens_details.cached_tokens"_s;
    QTest::newRow("chat cache_creation 1e300") << u"openai"_s << chat(R"("cache_creation_input_tokens":1e300)")
                                               << u"response.usage.cache_creation_input_tokens"_s;
    QTest::newRow("swe-agent tokens_sent 1.5")
        << u"swe-agent"_s
        << QByteArray(R"({"history":[{"role":"user","content":"go"},{"role":"assistant","content":"ok"}],"info":{"model_stats":{"tokens_sent":1.5,"tokens_received":3}}})")
        << u"info.model_stats.tokens_sent"_s;
}

void TestImportHostile::usageDetailsAreCountedWhenRejected()
{
    QFETCH(QString, format);
    QFETCH(QByteArray, text);
    QFETCH(QString, field);
    const ImportResult r = importText(format, text, u"x.traj"_s);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.messageCount, 2);
    QCOMPARE(r.session.rejectedNumbers, 1);
    QVERIFY2(anyNumberProblemContains(r.session, field), qPrintable(r.session.numberProblems.join(u"\n"_s)));
    for (const ImportedRequest &request : r.session.requests) {
        QCOMPARE(request.usage.cacheRead < -1, false);
        QCOMPARE(request.usage.cacheWrite < -1, false);
    }
}

QTEST_GUILESS_MAIN(TestImportHostile)
#include "tst_importhostile.moc"
