// Importers on the real corpus files in tests/data/replay, plus malformed inputs.
// Expected counts come from corpus/README.md and corpus/FORMATS.md (rows cited inline).
#include "replay/ImportTitle.h"
#include "replay/TranscriptFormats.h"
#include "replay/TranscriptImporter.h"

#include <QBuffer>
#include <QFile>
#include <QHash>
#include <QSet>
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

const QString claudeMain = u"claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl"_s;
const QString claudeSub = u"claude-code/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl"_s;
const QString claudeCompact = u"claude-code/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-acompact-fffbd0.jsonl"_s;
const QString codexTui = u"codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"_s;
const QString codexDesktop = u"codex/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl"_s;
const QString chatLog = u"openai-chat/litellm_proxy__anthropic__claude-sonnet-4-20250514-1757015046.707.json"_s;

int countIssues(const ImportedSession &s, ImportIssue::Kind kind)
{
    int n = 0;
    for (const ImportIssue &issue : s.issues)
        n += issue.kind == kind ? 1 : 0;
    return n;
}

// Recomputes pairing from the messages and checks it matches the issues exactly: every
// result follows its call, and every unpaired call or result is flagged at its message.
void verifyPairing(const ImportedSession &s)
{
    QHash<QString, int> open;
    QSet<QString> answered;
    QSet<QPair<int, QString>> expectedNoResult, expectedUnknown;
    for (int i = 0; i < s.messages.size(); ++i) {
        const Message &m = s.messages.at(i);
        for (const ToolCall &c : m.toolCalls)
            open.insert(c.id, i);
        if (m.isToolResult()) {
            if (open.remove(m.toolCallId))
                answered.insert(m.toolCallId);
            else if (!answered.contains(m.toolCallId))
                expectedUnknown.insert({i, m.toolCallId});
        }
    }
    for (auto it = open.cbegin(); it != open.cend(); ++it)
        expectedNoResult.insert({it.value(), it.key()});
    QSet<QPair<int, QString>> flaggedNoResult, flaggedUnknown;
    for (const ImportIssue &issue : s.issues) {
        if (issue.kind == ImportIssue::Kind::CallWithoutResult)
            flaggedNoResult.insert({issue.messageIndex, issue.callId});
        else if (issue.kind == ImportIssue::Kind::ResultForUnknownCall)
            flaggedUnknown.insert({issue.messageIndex, issue.callId});
    }
    QCOMPARE(flaggedNoResult, expectedNoResult);
    QCOMPARE(flaggedUnknown, expectedUnknown);
    // Results come after the assistant message holding their call.
    QHash<QString, int> callAt;
    for (int i = 0; i < s.messages.size(); ++i) {
        for (const ToolCall &c : s.messages.at(i).toolCalls)
            callAt.insert(c.id, i);
        const Message &m = s.messages.at(i);
        if (m.isToolResult() && callAt.contains(m.toolCallId))
            QVERIFY2(callAt.value(m.toolCallId) < i, qPrintable(m.toolCallId));
    }
}

void verifyRequests(const ImportedSession &s)
{
    QSet<int> seen;
    for (const ImportedRequest &r : s.requests) {
        QVERIFY(r.messageIndex >= 0 && r.messageIndex < s.messages.size());
        QCOMPARE(s.messages.at(r.messageIndex).role, Role::Assistant);
        QVERIFY2(!seen.contains(r.messageIndex), "two requests for one message");
        seen.insert(r.messageIndex);
    }
}

class CountingSink : public ImportSink
{
public:
    bool addMessage(Message &&message, QString *) override
    {
        ++messages;
        calls += int(message.toolCalls.size());
        results += message.isToolResult() ? 1 : 0;
        return true;
    }
    int messages = 0;
    int calls = 0;
    int results = 0;
};

} // namespace

class TestTranscriptImport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void detect_data();
    void detect();
    void corpus_data();
    void corpus();
    void claudeCompactBoundary();
    void claudeUsageDeduplicatedByMessageId();
    void claudeSidechainFile();
    void codexUsageAndUserTurns();
    void titleSkipsAgentBoilerplate_data();
    void titleSkipsAgentBoilerplate();
    void titlesOfCorpusFiles_data();
    void titlesOfCorpusFiles();
    void sweAgentFormats();
    void openHandsRuns();
    void openHandsUnlinkedError();
    void openHandsV1BrokenPairFlagged();
    void chatLogResponse();
    void sinkReceivesMessages();
    void sourceCompactions_data();
    void sourceCompactions();
    void malformedLines_data();
    void malformedLines();
    void claudeNoiseRecords_data();
    void claudeNoiseRecords();
    void unusableInput_data();
    void unusableInput();
    void truncatedDocumentNamesOffset();
    void overlongLine();
    void cancel();
    void progressReachesEnd();
    void forcedWrongFormatFailsClearly();
};

void TestTranscriptImport::detect_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::newRow("claude main") << claudeMain << u"claude-code"_s;
    QTest::newRow("claude sub-agent") << claudeSub << u"claude-code"_s;
    QTest::newRow("claude compaction run") << claudeCompact << u"claude-code"_s;
    QTest::newRow("codex tui") << codexTui << u"codex"_s;
    QTest::newRow("codex desktop") << codexDesktop << u"codex"_s;
    QTest::newRow("swe 0.x pydicom") << u"swe-agent/pydicom__pydicom-1458.traj"_s << u"swe-agent"_s;
    QTest::newRow("swe 0.x ctf") << u"swe-agent/i_got_id_demo.traj"_s << u"swe-agent"_s;
    QTest::newRow("swe 1.0") << u"swe-agent/marshmallow-code__marshmallow-1867.traj"_s << u"swe-agent"_s;
    QTest::newRow("openhands output") << u"openhands/output.jsonl"_s << u"openhands"_s;
    QTest::newRow("openhands trajectory") << u"openhands/basic_gui_mode.json"_s << u"openhands"_s;
    QTest::newRow("openhands v1") << u"openhands/events.jsonl"_s << u"openhands"_s;
    QTest::newRow("chat array") << u"openai-chat/fncall-llm-message.json"_s << u"openai"_s;
    QTest::newRow("chat log") << chatLog << u"openai"_s;
}

void TestTranscriptImport::detect()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    const TranscriptFormats::Detection d = TranscriptFormats::detect(data(file));
    QCOMPARE(d.format, format);
    QVERIFY(d.confidence >= 50);
    QVERIFY(d.error.isEmpty());
}

void TestTranscriptImport::corpus_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("messages");
    QTest::addColumn<int>("calls");
    QTest::addColumn<int>("results");
    QTest::addColumn<int>("requests");
    QTest::addColumn<int>("callsWithoutResult");
    QTest::addColumn<int>("unknownResults");
    QTest::addColumn<int>("compactions");
    QTest::addColumn<bool>("systemFirst");

    // README claude-code row 258c7280: 192 user + 299 assistant records, 186 tool calls.
    // The 299 assistant records share 152 message.id values (one API response each); the 192
    // user records are 186 tool results, 5 prompts and 1 compaction summary (kept in the
    // compaction, not as a message): 152 + 186 + 5 = 343.
    QTest::newRow("claude main") << claudeMain << 343 << 186 << 186 << 152 << 0 << 0 << 1 << false;
    // README row agent-a881341: 3 user + 5 assistant records, 2 tool calls; 3 responses.
    QTest::newRow("claude sub-agent") << claudeSub << 6 << 2 << 2 << 3 << 0 << 0 << 0 << false;
    // README row agent-acompact: 3 user + 1 assistant, no tool calls.
    QTest::newRow("claude compaction run") << claudeCompact << 4 << 0 << 0 << 1 << 0 << 0 << 0 << false;
    // README codex row 019e1625: 102 tool calls (99 function_call + 3 apply_patch), each with
    // its output; 17 response_item messages (13 assistant, 1 developer, 3 user) + the
    // session_meta system prompt; the 66 token_count events close 66 model responses.
    // Messages: 1 system + 1 developer + 3 user + 66 assistant + 102 outputs = 173.
    QTest::newRow("codex tui") << codexTui << 173 << 102 << 102 << 66 << 0 << 0 << 0 << true;
    // README codex row 019e1695: 38 tool calls; user turns only as 3 event_msg/user_message.
    // 1 system + 3 user + 20 assistant turns + 38 outputs = 62.
    QTest::newRow("codex desktop") << codexDesktop << 62 << 38 << 38 << 20 << 0 << 0 << 0 << true;
    // README swe-agent rows: 26 msgs / 12 steps, 43 / 21, 28 / 13 (1.0: one tool call per step).
    QTest::newRow("swe pydicom") << u"swe-agent/pydicom__pydicom-1458.traj"_s << 26 << 0 << 0 << 12 << 0 << 0 << 0 << true;
    QTest::newRow("swe ctf") << u"swe-agent/i_got_id_demo.traj"_s << 43 << 0 << 0 << 21 << 0 << 0 << 0 << true;
    QTest::newRow("swe 1.0") << u"swe-agent/marshmallow-code__marshmallow-1867.traj"_s << 28 << 13 << 13 << 13 << 0 << 0 << 0 << true;
    // README openhands output.jsonl run 1: 49 events, 22 tool calls with observations; the
    // run ends with a `finish` call, which has no observation: 23 calls, 1 flagged.
    // system + task + 23 assistant turns + 22 results = 47 (recall events are not messages).
    QTest::newRow("openhands output run 0") << u"openhands/output.jsonl"_s << 47 << 23 << 22 << 23 << 1 << 0 << 0 << true;
    // README basic_gui_mode.json: 18 events, 4 tool calls. User task + 4 calls + 4 results +
    // the agent's closing message = 10.
    QTest::newRow("openhands trajectory") << u"openhands/basic_gui_mode.json"_s << 10 << 4 << 4 << 5 << 0 << 0 << 0 << false;
    // README events.jsonl: 10 events, 2 actions, 3 observations. One observation answers an
    // action that is not in the file (the fixture starts mid-run): flagged, kept.
    QTest::newRow("openhands v1") << u"openhands/events.jsonl"_s << 5 << 2 << 3 << 2 << 0 << 1 << 0 << false;
    // README chat row fncall-llm-message.json: 14 messages, 6 tool calls.
    QTest::newRow("chat array") << u"openai-chat/fncall-llm-message.json"_s << 14 << 6 << 6 << 6 << 0 << 0 << 0 << true;
    // README chat row litellm log: 12 request messages + 1 response; 5 calls (+1 in the
    // response, which the log has no result for).
    QTest::newRow("chat log") << chatLog << 13 << 6 << 5 << 6 << 1 << 0 << 0 << true;
}

void TestTranscriptImport::corpus()
{
    QFETCH(QString, file);
    QFETCH(int, messages);
    QFETCH(int, calls);
    QFETCH(int, results);
    QFETCH(int, requests);
    QFETCH(int, callsWithoutResult);
    QFETCH(int, unknownResults);
    QFETCH(int, compactions);
    QFETCH(bool, systemFirst);

    const ImportResult r = TranscriptFormats::importFile(data(file));
    QVERIFY2(r.ok, qPrintable(r.error));
    const ImportedSession &s = r.session;
    QCOMPARE(s.skippedLines, 0);
    QVERIFY2(s.problems.isEmpty(), qPrintable(s.problems.join(u'\n')));
    QCOMPARE(s.messages.size(), messages);
    QCOMPARE(s.messageCount, messages);
    int callCount = 0, resultCount = 0;
    for (const Message &m : s.messages) {
        callCount += int(m.toolCalls.size());
        resultCount += m.isToolResult() ? 1 : 0;
        QVERIFY(m.role != Role::Tool || m.isToolResult());
        for (const ToolCall &c : m.toolCalls)
            QVERIFY(!c.name.isEmpty());
    }
    QCOMPARE(callCount, calls);
    QCOMPARE(s.toolCallCount, calls);
    QCOMPARE(resultCount, results);
    QCOMPARE(s.requests.size(), requests);
    QCOMPARE(countIssues(s, ImportIssue::Kind::CallWithoutResult), callsWithoutResult);
    QCOMPARE(countIssues(s, ImportIssue::Kind::ResultForUnknownCall), unknownResults);
    QCOMPARE(countIssues(s, ImportIssue::Kind::DuplicateResult), 0);
    QCOMPARE(s.compactions.size(), compactions);
    QCOMPARE(s.messages.first().role == Role::System, systemFirst);
    QVERIFY(!s.title.isEmpty());
    QCOMPARE(s.sourcePath, data(file));
    verifyPairing(s);
    verifyRequests(s);
}

void TestTranscriptImport::claudeCompactBoundary()
{
    const ImportResult r = TranscriptFormats::importFile(data(claudeMain), u"claude-code"_s);
    QVERIFY2(r.ok, qPrintable(r.error));
    const ImportedSession &s = r.session;
    // README: "auto-compaction (compact_boundary, preTokens 167,094) plus the summary record".
    QCOMPARE(s.compactions.size(), 1);
    const ExternalCompaction &c = s.compactions.first();
    QCOMPARE(c.kind, u"compact_boundary"_s);
    QCOMPARE(c.tokensBefore, 167094);
    QCOMPARE(c.trigger, u"auto"_s);
    QVERIFY(c.summary.startsWith(u"This session is being continued from a previous conversation"_s));
    QVERIFY(c.summary.size() > 10000); // FORMATS.md: 13–15 KB here
    QVERIFY(c.timestamp.isValid());
    QVERIFY(c.messageIndex > 0 && c.messageIndex < s.messages.size());
    // The summary is not also a message (keepCompactionSummaries is off).
    for (const Message &m : s.messages)
        QVERIFY(!m.content.startsWith(u"This session is being continued"_s));
    // README: 1,333 progress lines, skipped as UI noise; 192 user + 299 assistant records.
    QCOMPARE(s.ignoredRecords.value(u"progress"_s), 1333);
    QCOMPARE(s.recordCounts.value(u"user"_s), 192);
    QCOMPARE(s.recordCounts.value(u"assistant"_s), 299);
    QCOMPARE(s.model, u"claude-opus-4-6"_s);
    QCOMPARE(s.title, u"Implement spotter-gqc"_s);

    ImportOptions keep;
    keep.keepCompactionSummaries = true;
    const ImportResult kept = TranscriptFormats::importFile(data(claudeMain), {}, keep);
    QVERIFY(kept.ok);
    QCOMPARE(kept.session.messages.size(), s.messages.size() + 1);
    QCOMPARE(kept.session.messages.at(c.messageIndex).content, c.summary);
}

void TestTranscriptImport::claudeUsageDeduplicatedByMessageId()
{
    const ImportResult r = TranscriptFormats::importFile(data(claudeMain));
    QVERIFY(r.ok);
    const ImportedRequest &first = r.session.requests.first();
    // First assistant record: input 3, cache write 8,037, cache read 17,842.
    QCOMPARE(first.usage.input, 3);
    QCOMPARE(first.usage.cacheWrite, 8037);
    QCOMPARE(first.usage.cacheRead, 17842);
    QCOMPARE(first.usage.context, 3 + 8037 + 17842);
    QCOMPARE(first.model, u"claude-opus-4-6"_s);
    QVERIFY(first.timestamp.isValid());
    QSet<QString> ids;
    for (const ImportedRequest &req : r.session.requests) {
        QVERIFY(req.usage.isKnown());
        QVERIFY2(!ids.contains(req.responseId), qPrintable(req.responseId));
        ids.insert(req.responseId);
    }
    // The first response holds text, thinking, text and three parallel tool_use records:
    // one assistant message with three calls, thinking left out.
    const Message &reply = r.session.messages.at(first.messageIndex);
    QCOMPARE(reply.toolCalls.size(), 3);
    QVERIFY(!reply.content.isEmpty());
    QCOMPARE(r.session.ignoredRecords.value(u"block/thinking"_s), 19);
}

void TestTranscriptImport::claudeSidechainFile()
{
    const ImportResult r = TranscriptFormats::importFile(data(claudeSub));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.model, u"claude-sonnet-4-5-20250929"_s);
    QCOMPARE(r.session.ignoredRecords.value(u"sidechain"_s), 0);
    // README: web fetches with very large results (max 78,243 B).
    qint64 largest = 0;
    for (const Message &m : r.session.messages)
        largest = qMax(largest, m.isToolResult() ? m.byteCount() : 0);
    QVERIFY(largest > 50000);
}

void TestTranscriptImport::titleSkipsAgentBoilerplate_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("title");
    QTest::newRow("plain request") << u"  Fix the flaky test\nin CI"_s << u"Fix the flaky test"_s;
    QTest::newRow("markdown heading") << u"## Refactor the parser"_s << u"Refactor the parser"_s;
    QTest::newRow("codex AGENTS.md") << u"# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nUse rg.\n</INSTRUCTIONS>"_s << QString();
    QTest::newRow("codex environment") << u"<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"_s << QString();
    QTest::newRow("user instructions, then the request")
        << u"<user_instructions>\nBe brief.\n</user_instructions>\n\nshow tools"_s << u"show tools"_s;
    QTest::newRow("codex desktop attachments")
        << u"\n# Files mentioned by the user:\n\n## notes.vtt: /tmp/notes.vtt\n\n## My request for Codex:\nsummarise the notes\n"_s
        << u"summarise the notes"_s;
    QTest::newRow("claude caveat")
        << u"Caveat: The messages below were generated by the user while running local commands. DO NOT respond."_s << QString();
    QTest::newRow("claude command") << u"<command-name>/clear</command-name>\n<command-message>clear</command-message>"_s << QString();
    QTest::newRow("unclosed wrapper") << u"<system-reminder>\nremember this"_s << QString();
    QTest::newRow("long request") << u"x"_s.repeated(200) << u"x"_s.repeated(79) + QChar(0x2026);
}

void TestTranscriptImport::titleSkipsAgentBoilerplate()
{
    QFETCH(QString, text);
    QFETCH(QString, title);
    QCOMPARE(ImportTitle::fromUserText(text), title);
}

void TestTranscriptImport::titlesOfCorpusFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("title");
    QTest::newRow("claude main") << claudeMain << u"Implement spotter-gqc"_s;
    QTest::newRow("codex tui") << codexTui << u"show tools"_s;
    // The request follows the attachments Codex Desktop lists first.
    QTest::newRow("codex desktop")
        << codexDesktop
        << u"analyze trascript and summarzie action items related to codemie and demo preapration, specifically focus on demo, User and Vadym"_s
               .first(79) + QChar(0x2026);
}

// The title is the first real request, not the text an agent put in the first user message.
void TestTranscriptImport::titlesOfCorpusFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, title);
    const ImportResult r = TranscriptFormats::importFile(data(file));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.title, title);
}

void TestTranscriptImport::codexUsageAndUserTurns()
{
    const ImportResult r = TranscriptFormats::importFile(data(codexTui));
    QVERIFY2(r.ok, qPrintable(r.error));
    const ImportedSession &s = r.session;
    QCOMPARE(s.model, u"gpt-5.5"_s);
    int withUsage = 0;
    for (const ImportedRequest &req : s.requests) {
        withUsage += req.usage.isKnown() ? 1 : 0;
        QCOMPARE(req.model, u"gpt-5.5"_s);
    }
    QCOMPARE(withUsage, 66); // README: 66 token_count events
    // FORMATS.md: base_instructions is the ~21 KB system prompt.
    QVERIFY(s.messages.first().content.size() > 15000);
    // 3 apply_patch calls keep their raw patch text (not JSON), flagged as such.
    int patches = 0;
    for (const Message &m : s.messages) {
        for (const ToolCall &c : m.toolCalls) {
            if (c.name == u"apply_patch"_s) {
                ++patches;
                QVERIFY(c.arguments.startsWith(u"*** Begin Patch"_s));
                QVERIFY(!c.argumentsValid);
            } else {
                QVERIFY2(c.argumentsValid, qPrintable(c.arguments));
            }
        }
    }
    QCOMPARE(patches, 3);
    QCOMPARE(s.ignoredRecords.value(u"web_search_call"_s), 3);
    QCOMPARE(s.ignoredRecords.value(u"reasoning"_s), 25);

    const ImportResult desktop = TranscriptFormats::importFile(data(codexDesktop));
    QVERIFY(desktop.ok);
    int users = 0;
    for (const Message &m : desktop.session.messages)
        users += m.role == Role::User ? 1 : 0;
    QCOMPARE(users, 3); // FORMATS.md: user turns exist only as event_msg/user_message
    QCOMPARE(desktop.session.messages.at(1).role, Role::User);
}

void TestTranscriptImport::sweAgentFormats()
{
    const ImportResult pydicom = TranscriptFormats::importFile(data(u"swe-agent/pydicom__pydicom-1458.traj"_s));
    QVERIFY(pydicom.ok);
    // README: 12 API calls, 122,612 tokens sent; 0.x, with the demonstration inlined.
    QCOMPARE(pydicom.session.totalUsage.input, 122612);
    QCOMPARE(pydicom.session.totalUsage.output, 1369);
    QCOMPARE(pydicom.session.title, u"pydicom__pydicom-1458"_s);
    QCOMPARE(pydicom.session.messages.at(1).role, Role::User); // the demonstration
    QVERIFY(pydicom.session.messages.at(1).content.size() > 1000);

    const ImportResult fc = TranscriptFormats::importFile(data(u"swe-agent/marshmallow-code__marshmallow-1867.traj"_s));
    QVERIFY(fc.ok);
    QVERIFY(!fc.session.totalUsage.isKnown()); // README: replay, model_stats are zero
    const Message &call = fc.session.messages.at(2);
    QCOMPARE(call.role, Role::Assistant);
    QCOMPARE(call.toolCalls.size(), 1);
    QVERIFY(call.toolCalls.first().argumentsValid);
    QCOMPARE(fc.session.messages.at(3).toolCallId, call.toolCalls.first().id);
}

void TestTranscriptImport::openHandsRuns()
{
    ImportOptions second;
    second.runIndex = 1;
    const ImportResult r1 = TranscriptFormats::importFile(data(u"openhands/output.jsonl"_s), {}, second);
    QVERIFY2(r1.ok, qPrintable(r1.error));
    // README: 3 runs; run 2 has 70 events, 32 tool calls with observations (+ finish),
    // 1 error observation without a call.
    QCOMPARE(r1.session.runCount, 3);
    QCOMPARE(r1.session.runIndex, 1);
    QCOMPARE(r1.session.toolCallCount, 33);
    QCOMPARE(r1.session.toolResultCount, 32);
    QCOMPARE(r1.session.title, u"ponylang__ponyc-4593"_s);
    QCOMPARE(r1.session.model, u"openai/openrouter-llama-4-maverick"_s);
    QVERIFY(r1.session.requests.first().usage.isKnown());
    QVERIFY(r1.session.totalUsage.isKnown());
    QVERIFY(r1.session.tools.size() >= 4); // the system action lists the tool schemas
    verifyPairing(r1.session);

    ImportOptions third;
    third.runIndex = 2;
    const ImportResult r2 = TranscriptFormats::importFile(data(u"openhands/output.jsonl"_s), {}, third);
    QVERIFY(r2.ok);
    QCOMPARE(r2.session.toolCallCount, 49); // README: 49 tool calls
    QCOMPARE(r2.session.toolResultCount, 49);

    ImportOptions missing;
    missing.runIndex = 3;
    const ImportResult none = TranscriptFormats::importFile(data(u"openhands/output.jsonl"_s), {}, missing);
    QVERIFY(!none.ok);
    QVERIFY2(none.error.contains(u"run 3"_s) && none.error.contains(u"3 run"_s), qPrintable(none.error));
}

void TestTranscriptImport::openHandsUnlinkedError()
{
    ImportOptions second;
    second.runIndex = 1;
    const ImportResult r = TranscriptFormats::importFile(data(u"openhands/output.jsonl"_s), {}, second);
    QVERIFY(r.ok);
    int notes = 0;
    for (const ImportIssue &issue : r.session.issues) {
        if (issue.kind != ImportIssue::Kind::Note)
            continue;
        ++notes;
        const Message &m = r.session.messages.at(issue.messageIndex);
        QCOMPARE(m.role, Role::User);
        QVERIFY(r.session.messages.at(issue.messageIndex - 1).isToolResult());
    }
    QCOMPARE(notes, 1);
}

void TestTranscriptImport::openHandsV1BrokenPairFlagged()
{
    const ImportResult r = TranscriptFormats::importFile(data(u"openhands/events.jsonl"_s));
    QVERIFY(r.ok);
    const ImportedSession &s = r.session;
    QCOMPARE(countIssues(s, ImportIssue::Kind::ResultForUnknownCall), 1);
    const ImportIssue &issue = s.issues.first();
    QCOMPARE(issue.callId, u"chatcmpl-tool-9051d3d10f914188"_s);
    QVERIFY(s.messages.at(issue.messageIndex).isError); // kept as it was
    QCOMPARE(s.model, u"litellm_proxy/minimax-m2.7"_s);
    QVERIFY(s.totalUsage.input >= 107458); // the last stats event's running total
}

void TestTranscriptImport::chatLogResponse()
{
    const ImportResult r = TranscriptFormats::importFile(data(chatLog));
    QVERIFY(r.ok);
    const ImportedSession &s = r.session;
    // README: response with usage (prompt 6,729 / completion 199).
    const ImportedRequest &last = s.requests.last();
    QCOMPARE(last.messageIndex, s.messages.size() - 1);
    QCOMPARE(last.usage.input, 6729);
    QCOMPARE(last.usage.output, 199);
    QCOMPARE(last.model, u"litellm_proxy/claude-sonnet-4-20250514"_s);
    QCOMPARE(s.tools.size(), 3);
    QVERIFY(!s.requests.first().usage.isKnown());
    const ImportIssue &open = s.issues.last();
    QCOMPARE(open.kind, ImportIssue::Kind::CallWithoutResult);
    QCOMPARE(open.messageIndex, s.messages.size() - 1);
}

void TestTranscriptImport::sinkReceivesMessages()
{
    CountingSink sink;
    ImportOptions options;
    options.sink = &sink;
    const ImportResult r = TranscriptFormats::importFile(data(claudeMain), {}, options);
    QVERIFY(r.ok);
    QVERIFY(r.session.messages.isEmpty());
    QCOMPARE(sink.messages, 343);
    QCOMPARE(sink.calls, 186);
    QCOMPARE(sink.results, 186);
    QCOMPARE(r.session.messageCount, 343);
    QCOMPARE(r.session.requests.size(), 152);
}

void TestTranscriptImport::sourceCompactions_data()
{
    // Shapes from FORMATS.md (Codex `compacted`, OpenHands condensation); the corpus files
    // themselves hold none of these.
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("messageIndex");
    QTest::addColumn<qint64>("tokensBefore");
    QTest::addColumn<QString>("summary");
    QTest::addColumn<QString>("kind");

    QTest::newRow("codex compacted") << u"codex"_s << QByteArray(
        R"({"type":"session_meta","payload":{"base_instructions":{"text":"sys"}}})" "\n"
        R"({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}})" "\n"
        R"({"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"c1"}})" "\n"
        R"({"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":90000,"cached_input_tokens":100,"output_tokens":5}}}})" "\n"
        R"({"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"ok"}})" "\n"
        R"({"type":"compacted","payload":{"message":"Summary of the work so far."}})" "\n"
        R"({"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}})" "\n")
        << 4 << qint64(90000) << u"Summary of the work so far."_s << u"compacted"_s;
    QTest::newRow("openhands v1 condensation") << u"openhands"_s << QByteArray(
        R"({"kind":"MessageEvent","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"task"}]}})" "\n"
        R"({"kind":"ConversationStateUpdateEvent","key":"stats","value":{"usage_to_metrics":{"default":{"model_name":"m","accumulated_token_usage":{"prompt_tokens":500,"completion_tokens":20,"per_turn_token":480}}}}})" "\n"
        R"({"kind":"Condensation","forgotten_event_ids":["a"],"summary":"Forgot a.","summary_offset":1})" "\n"
        R"({"kind":"MessageEvent","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"more"}]}})" "\n")
        << 1 << qint64(480) << u"Forgot a."_s << u"condensation"_s;
    QTest::newRow("openhands v0 condensation") << u"openhands"_s << QByteArray(
        R"([{"id":0,"source":"user","action":"message","args":{"content":"task"}},)"
        R"({"id":1,"source":"agent","action":"condensation","args":{"forgotten_event_ids":[0],"summary":"Earlier: task."}},)"
        R"({"id":2,"source":"user","action":"message","args":{"content":"next"}}])")
        << 1 << qint64(-1) << u"Earlier: task."_s << u"condensation"_s;
    QTest::newRow("claude boundary") << u"claude-code"_s << QByteArray(
        R"({"type":"user","sessionId":"s","message":{"role":"user","content":"first"}})" "\n"
        R"({"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"manual","preTokens":1234}})" "\n"
        R"({"type":"user","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued."}})" "\n"
        R"({"type":"user","message":{"role":"user","content":"second"}})" "\n")
        << 1 << qint64(1234) << u"This session is being continued."_s << u"compact_boundary"_s;
}

void TestTranscriptImport::sourceCompactions()
{
    QFETCH(QString, format);
    QFETCH(QByteArray, text);
    QFETCH(int, messageIndex);
    QFETCH(qint64, tokensBefore);
    QFETCH(QString, summary);
    QFETCH(QString, kind);
    QBuffer buffer(&text);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const ImportResult r = TranscriptFormats::importer(format)->import(&buffer, u"c"_s);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.skippedLines, 0);
    QCOMPARE(r.session.compactions.size(), 1);
    const ExternalCompaction &c = r.session.compactions.first();
    QCOMPARE(c.messageIndex, messageIndex);
    QCOMPARE(c.tokensBefore, tokensBefore);
    QCOMPARE(c.summary, summary);
    QCOMPARE(c.kind, kind);
    QVERIFY(c.messageIndex < r.session.messages.size()); // messages continue after it
}

void TestTranscriptImport::malformedLines_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("messages");
    QTest::addColumn<int>("skipped");
    QTest::addColumn<QString>("problem");

    const QByteArray user = R"({"type":"user","sessionId":"s","parentUuid":null,"message":{"role":"user","content":"hello"}})";
    const QByteArray reply = R"({"type":"assistant","sessionId":"s","message":{"id":"m1","model":"x","role":"assistant","content":[{"type":"text","text":"hi"}]}})";
    QTest::newRow("claude truncated line") << u"claude-code"_s << QByteArray(user + "\n" + reply.left(40) + "\n" + reply + "\n")
                                           << 2 << 1 << u"x.jsonl:2: invalid JSON"_s;
    QTest::newRow("claude wrong type") << u"claude-code"_s
                                       << QByteArray(user + "\n" + R"({"type":"assistant","message":{"content":42}})" + "\n" + reply + "\n")
                                       << 2 << 1 << u"x.jsonl:2: field 'message.content': expected an array or a string, got number"_s;
    QTest::newRow("claude message not object") << u"claude-code"_s << QByteArray(user + "\n" + R"({"type":"user","message":"oops"})" + "\n")
                                                << 1 << 1 << u"x.jsonl:2: field 'message': expected an object, got string"_s;
    QTest::newRow("claude unknown kind") << u"claude-code"_s << QByteArray(user + "\n" + R"({"type":"hologram","x":1})" + "\n" + reply + "\n")
                                         << 2 << 1 << u"x.jsonl:2: field 'type': unknown record kind 'hologram'"_s;
    QTest::newRow("claude no type") << u"claude-code"_s << QByteArray(user + "\n" + R"({"kind":"user"})" + "\n")
                                    << 1 << 1 << u"x.jsonl:2: field 'type': missing"_s;
    QTest::newRow("claude array line") << u"claude-code"_s << QByteArray(user + "\n[1,2]\n")
                                       << 1 << 1 << u"x.jsonl:2: expected a JSON object"_s;
    QTest::newRow("codex unknown kind") << u"codex"_s
                                        << QByteArray(R"({"type":"session_meta","payload":{"id":"a"}})" "\n"
                                                      R"({"type":"future_thing","payload":{}})" "\n"
                                                      R"({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}})" "\n")
                                        << 1 << 1 << u"x.jsonl:2: field 'type': unknown record kind 'future_thing'"_s;
    QTest::newRow("codex wrong payload") << u"codex"_s
                                         << QByteArray(R"({"type":"response_item","payload":[]})" "\n"
                                                       R"({"type":"response_item","payload":{"type":"message","role":"user","content":"go"}})" "\n")
                                         << 1 << 1 << u"x.jsonl:1: field 'payload': expected an object, got array"_s;
    QTest::newRow("chat jsonl wrong role type") << u"openai"_s
                                                << QByteArray(R"({"role":"user","content":"a"})" "\n" R"({"role":5,"content":"b"})" "\n"
                                                              R"({"role":"assistant","content":"c"})" "\n")
                                                << 2 << 1 << u"x.jsonl:2: field 'role': missing or not a string"_s;
    QTest::newRow("openhands v1 unknown kind") << u"openhands"_s
                                               << QByteArray(R"({"kind":"MessageEvent","llm_message":{"role":"user","content":[{"type":"text","text":"hi"}]}})" "\n"
                                                             R"({"kind":"WormholeEvent"})" "\n")
                                               << 1 << 1 << u"x.jsonl:2: field 'kind': unknown event kind 'WormholeEvent'"_s;
    QTest::newRow("chat array element wrong type") << u"openai"_s
                                                   << QByteArray("[{\"role\":\"user\",\"content\":\"a\"},\n{\"role\":\"assistant\",\"content\":7}]")
                                                   << 1 << 1 << u"x.jsonl:2 (byte 32): field 'messages[1].content'"_s;
}

void TestTranscriptImport::malformedLines()
{
    QFETCH(QString, format);
    QFETCH(QByteArray, text);
    QFETCH(int, messages);
    QFETCH(int, skipped);
    QFETCH(QString, problem);

    QBuffer buffer(&text);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const ImportResult r = TranscriptFormats::importer(format)->import(&buffer, u"x.jsonl"_s);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.messageCount, messages);
    QCOMPARE(r.session.skippedLines, skipped);
    QVERIFY2(r.session.problems.value(0).startsWith(problem), qPrintable(r.session.problems.value(0)));
}

// Noise records (progress and the like) are counted without being parsed into objects when they
// are plainly well-formed; anything doubtful goes through the full parser, so a broken noise line
// is still reported, and a record that only mentions a noise type is still read.
void TestTranscriptImport::claudeNoiseRecords_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<int>("messages");
    QTest::addColumn<int>("ignored");  // "progress" records counted as ignored
    QTest::addColumn<int>("skipped");

    QTest::newRow("progress") << QByteArray(R"({"type":"progress","data":{"type":"user","n":[1,-2.5e3,true,null]}})") << 2 << 1 << 0;
    QTest::newRow("progress with escapes")
        << QByteArray(R"({"data":{"text":"a \"quoted\" \\ \u00e9 \/ line\n\t"},"type":"progress","x":false})") << 2 << 1 << 0;
    QTest::newRow("progress with raw UTF-8") << QByteArray("{\"type\":\"progress\",\"t\":\"\xe4\xb8\x8a\xe4\xb8\x8b\"}") << 2 << 1 << 0;
    QTest::newRow("escaped type key") << QByteArray(R"({"\u0074ype":"progress","data":{}})") << 2 << 1 << 0;
    QTest::newRow("bad literal") << QByteArray(R"({"type":"progress","x":tru})") << 2 << 0 << 1;
    QTest::newRow("bad number") << QByteArray(R"({"type":"progress","x":12abc})") << 2 << 0 << 1;
    QTest::newRow("truncated") << QByteArray(R"({"type":"progress","data":{"a":)") << 2 << 0 << 1;
    QTest::newRow("mismatched brackets") << QByteArray(R"({"type":"progress","data":[1,2}})") << 2 << 0 << 1;
    // Not checked here; the full parser decides (Qt's reads "\q" as "q"), as it did before.
    QTest::newRow("unknown escape") << QByteArray(R"({"type":"progress","x":"\q"})") << 2 << 1 << 0;
    QTest::newRow("missing comma") << QByteArray(R"({"type":"progress" "x":1})") << 2 << 0 << 1;
    QTest::newRow("missing colon") << QByteArray(R"({"type" "progress"})") << 2 << 0 << 1;
    QTest::newRow("trailing garbage") << QByteArray(R"({"type":"progress"} x)") << 2 << 0 << 1;
    QTest::newRow("user mentioning progress")
        << QByteArray(R"({"type":"user","sessionId":"s","data":{"type":"progress"},"message":{"role":"user","content":"again"}})") << 3 << 0 << 0;
}

void TestTranscriptImport::claudeNoiseRecords()
{
    QFETCH(QByteArray, line);
    QFETCH(int, messages);
    QFETCH(int, ignored);
    QFETCH(int, skipped);

    const QByteArray user = R"({"type":"user","sessionId":"s","parentUuid":null,"message":{"role":"user","content":"hello"}})";
    const QByteArray reply = R"({"type":"assistant","sessionId":"s","message":{"id":"m1","model":"x","role":"assistant","content":[{"type":"text","text":"hi"}]}})";
    QByteArray text = user + "\n" + line + "\n" + reply + "\n";
    QBuffer buffer(&text);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const ImportResult r = TranscriptFormats::importer(u"claude-code"_s)->import(&buffer, u"x.jsonl"_s);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.messageCount, messages);
    QCOMPARE(r.session.ignoredRecords.value(u"progress"_s), ignored);
    QCOMPARE(r.session.recordCounts.value(u"progress"_s), ignored);
    QCOMPARE(r.session.skippedLines, skipped);
    if (skipped > 0)
        QVERIFY2(r.session.problems.value(0).startsWith(u"x.jsonl:2: invalid JSON"_s), qPrintable(r.session.problems.value(0)));
}

void TestTranscriptImport::unusableInput_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("error");
    QTest::newRow("empty") << QByteArray() << u"the file is empty"_s;
    QTest::newRow("blank") << QByteArray("\n  \n\t\n") << u"the file is empty"_s;
    QTest::newRow("nul bytes") << QByteArray("\x7f" "ELF\x02\x01\x01\0\0\0\0", 12) << u"binary file"_s;
    QTest::newRow("latin-1") << QByteArray("{\"role\":\"user\",\"content\":\"caf\xe9\"}\n") << u"not UTF-8"_s;
    QTest::newRow("unknown json") << QByteArray("{\"hello\":\"world\"}\n") << u"unknown transcript format"_s;
    QTest::newRow("plain text") << QByteArray("Dear diary, today the agent compacted.\n") << u"unknown transcript format"_s;
}

void TestTranscriptImport::unusableInput()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"input.jsonl"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();

    const ImportResult detected = TranscriptFormats::importFile(path);
    QVERIFY(!detected.ok);
    QVERIFY2(detected.error.contains(error), qPrintable(detected.error));
    QVERIFY2(detected.error.contains(path) || detected.error.contains(u"input.jsonl"_s), qPrintable(detected.error));
    // Forcing a format must not get past the same checks (except for the well-formed unknowns).
    if (!error.contains(u"unknown"_s)) {
        for (const QString &format : TranscriptFormats::formats()) {
            const ImportResult forced = TranscriptFormats::importFile(path, format);
            QVERIFY(!forced.ok);
            QVERIFY2(forced.error.contains(error), qPrintable(forced.error));
        }
    }
}

void TestTranscriptImport::truncatedDocumentNamesOffset()
{
    QFile source(data(u"swe-agent/pydicom__pydicom-1458.traj"_s));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QByteArray cut = source.readAll().left(60000);
    QBuffer buffer(&cut);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    const ImportResult r = TranscriptFormats::importer(u"swe-agent"_s)->import(&buffer, u"cut.traj"_s);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.startsWith(u"cut.traj:"_s) && r.error.contains(u"(byte "_s), qPrintable(r.error));
    QVERIFY2(r.error.contains(u"truncated"_s), qPrintable(r.error));

    QByteArray broken = R"({"history":[{"role":"user","content":"a"},{"role":"user" "content":"b"}]})";
    QBuffer b2(&broken);
    QVERIFY(b2.open(QIODevice::ReadOnly));
    const ImportResult r2 = TranscriptFormats::importer(u"swe-agent"_s)->import(&b2, u"b.traj"_s);
    QVERIFY(!r2.ok);
    QVERIFY2(r2.error.startsWith(u"b.traj:1 (byte 57): unexpected value"_s), qPrintable(r2.error));
}

void TestTranscriptImport::overlongLine()
{
    QByteArray text = R"({"role":"user","content":"short"})" "\n" R"({"role":"user","content":")" + QByteArray(5000, 'x') + "\"}\n";
    QBuffer buffer(&text);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    ImportOptions options;
    options.maxRecordBytes = 1024;
    const ImportResult r = TranscriptFormats::importer(u"openai"_s)->import(&buffer, u"long.jsonl"_s, options);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.startsWith(u"long.jsonl:2: line is longer than"_s), qPrintable(r.error));
}

void TestTranscriptImport::cancel()
{
    std::atomic_bool stop{true};
    ImportOptions options;
    options.cancel = &stop;
    for (const QString &file : {claudeMain, u"swe-agent/marshmallow-code__marshmallow-1867.traj"_s}) {
        const ImportResult r = TranscriptFormats::importFile(data(file), {}, options);
        QVERIFY(!r.ok);
        QVERIFY(r.cancelled);
        QVERIFY(r.error.contains(u"cancelled"_s));
    }
}

void TestTranscriptImport::progressReachesEnd()
{
    for (const QString &file : {claudeMain, u"swe-agent/marshmallow-code__marshmallow-1867.traj"_s}) {
        QList<qint64> seen;
        qint64 total = 0;
        ImportOptions options;
        options.progress = [&](qint64 done, qint64 all) {
            seen << done;
            total = all;
        };
        const ImportResult r = TranscriptFormats::importFile(data(file), {}, options);
        QVERIFY(r.ok);
        QVERIFY(seen.size() >= 2);
        QCOMPARE(total, QFileInfo(data(file)).size());
        QCOMPARE(seen.last(), total);
        QVERIFY(std::is_sorted(seen.cbegin(), seen.cend()));
    }
}

void TestTranscriptImport::forcedWrongFormatFailsClearly()
{
    // A Codex rollout read as a Claude Code session: every line has an unknown kind.
    const ImportResult r = TranscriptFormats::importFile(data(codexDesktop), u"claude-code"_s);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"no conversation found"_s) && r.error.contains(u"unknown record kind"_s), qPrintable(r.error));
    const ImportResult unknown = TranscriptFormats::importFile(data(codexDesktop), u"nonsense"_s);
    QVERIFY(!unknown.ok);
    QVERIFY(unknown.error.contains(u"unknown format 'nonsense'"_s));
}

QTEST_GUILESS_MAIN(TestTranscriptImport)
#include "tst_transcriptimport.moc"
