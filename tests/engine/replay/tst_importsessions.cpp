// Sources that are not one session in one file: files of several sessions (a JSON array of
// trajectories, OpenHands evaluation output), a folder of one file per event, and older OpenHands
// output whose calls are paired with their observations by position.
#include "replay/SessionImporter.h"
#include "replay/TranscriptFormats.h"
#include "replay/TranscriptImporter.h"
#include "store/SessionStore.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

QString data(const QString &relative)
{
    return QStringLiteral(WATERLINE_TEST_DATA "/replay/") + relative;
}

const QString trajectories = u"openai-chat/trajectories.json"_s;

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

int countIssues(const ImportedSession &s, ImportIssue::Kind kind)
{
    int n = 0;
    for (const ImportIssue &issue : s.issues)
        n += issue.kind == kind ? 1 : 0;
    return n;
}

} // namespace

class TestImportSessions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void trajectoryArray_data();
    void trajectoryArray();
    void trajectoryArrayMissingSession();
    void trajectoryArrayMixedElements();
    void trajectoryArrayRecordCap();
    void stopAfterTheChosenSession();
    void indexBeyondASingleSession_data();
    void indexBeyondASingleSession();
    void storeImportsEverySession_data();
    void storeImportsEverySession();
    void storeImportIsAllOrNothing();
    void storeImportOneSession();
    void eventFolder();
    void eventFolderOrderAndHostileFiles();
    void eventFolderIntoStore();
    void positionalPairing();
    void resolverOutput();
    void resolverOutputLongFirstLine();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SessionStore> m_store;
};

void TestImportSessions::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<SessionStore>();
    QString error;
    QVERIFY2(m_store->open(m_dir->filePath(u"sessions.db"_s), &error), qPrintable(error));
}

void TestImportSessions::trajectoryArray_data()
{
    QTest::addColumn<int>("run");
    QTest::addColumn<QString>("title");
    QTest::addColumn<int>("messages");
    QTest::addColumn<int>("requests");
    QTest::addColumn<int>("tools");
    // The fixture holds the 14 messages of fncall-llm-message.json (6 assistant turns), the 12
    // request messages of the LiteLLM log (5 assistant turns), and the first 4 of the former.
    QTest::newRow("first") << 0 << u"fncall-llm-message"_s << 14 << 6 << 3;
    QTest::newRow("second") << 1 << u"litellm-request"_s << 12 << 5 << 3;
    QTest::newRow("third, no tools") << 2 << u"fncall-first-call"_s << 4 << 1 << 0;
}

void TestImportSessions::trajectoryArray()
{
    QFETCH(int, run);
    QFETCH(QString, title);
    QFETCH(int, messages);
    QFETCH(int, requests);
    QFETCH(int, tools);

    const TranscriptFormats::Detection detection = TranscriptFormats::detect(data(trajectories));
    QCOMPARE(detection.format, u"openai"_s);
    ImportOptions options;
    options.runIndex = run;
    const ImportResult r = TranscriptFormats::importFile(data(trajectories), {}, options);
    QVERIFY2(r.ok, qPrintable(r.error));
    const ImportedSession &s = r.session;
    QCOMPARE(s.runCount, 3);
    QCOMPARE(s.runIndex, run);
    QCOMPARE(s.runIds, (QStringList{u"fncall-llm-message"_s, u"litellm-request"_s, u"fncall-first-call"_s}));
    QCOMPARE(s.title, title);
    QCOMPARE(s.messageCount, messages);
    QCOMPARE(s.requests.size(), requests);
    QCOMPARE(s.tools.size(), tools);
    QCOMPARE(s.messages.first().role, Role::System);
    QCOMPARE(s.skippedLines, 0);
    // Every tool result answers a call of the same session.
    QCOMPARE(countIssues(s, ImportIssue::Kind::ResultForUnknownCall), 0);
}

void TestImportSessions::trajectoryArrayMissingSession()
{
    ImportOptions options;
    options.runIndex = 3;
    const ImportResult r = TranscriptFormats::importFile(data(trajectories), {}, options);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"session 3"_s) && r.error.contains(u"3 session"_s), qPrintable(r.error));
    options.runIndex = -1;
    const ImportResult negative = TranscriptFormats::importFile(data(trajectories), {}, options);
    QVERIFY(!negative.ok);
    QVERIFY2(negative.error.contains(u"-1"_s), qPrintable(negative.error));
}

// An element that is not a session, in an array of sessions, is reported and does not shift
// the indices of the others.
void TestImportSessions::trajectoryArrayMixedElements()
{
    const QString path = m_dir->filePath(u"mixed.json"_s);
    QVERIFY(writeFile(path, R"([{"instance_id":"a","messages":[{"role":"user","content":"one"},{"role":"assistant","content":"1"}]},
{"role":"user","content":"stray message"},
{"instance_id":"c","messages":[{"role":"user","content":"three"},{"role":"assistant","content":"3"},{"role":"wizard","content":"?"}]}])"));
    ImportOptions options;
    options.runIndex = 2;
    const ImportResult r = TranscriptFormats::importFile(path, {}, options);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.runCount, 3);
    QCOMPARE(r.session.runIds, (QStringList{u"a"_s, QString(), u"c"_s}));
    QCOMPARE(r.session.title, u"c"_s);
    QCOMPARE(r.session.messageCount, 2);
    QCOMPARE(r.session.messages.first().content, u"three"_s);
    // The stray element and the bad role, each named.
    QCOMPARE(r.session.skippedLines, 2);
    QVERIFY2(r.session.problems.value(0).contains(u"[1]"_s), qPrintable(r.session.problems.value(0)));
    QVERIFY2(r.session.problems.value(1).contains(u"[2].messages[2].role"_s), qPrintable(r.session.problems.value(1)));
}

// A session element larger than the record cap ends the import with the byte offset; it is
// never collected whole.
void TestImportSessions::trajectoryArrayRecordCap()
{
    ImportOptions options;
    options.maxRecordBytes = 20000; // the first two sessions are about 26 KB each
    const ImportResult r = TranscriptFormats::importFile(data(trajectories), {}, options);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"byte"_s) && r.error.contains(u"larger than"_s), qPrintable(r.error));
}

// Without counting the sessions (the later passes of an all-sessions import), reading stops at
// the end of the chosen one: what follows is never read, let alone parsed.
void TestImportSessions::stopAfterTheChosenSession()
{
    const QString array = m_dir->filePath(u"cut.json"_s);
    QVERIFY(writeFile(array, R"([{"id":"a","messages":[{"role":"user","content":"one"}]},
{"id":"b","messages":[{"role":"user","content":"two"}]},
{"id":"c","messages":[{"role": tru)"));
    const QString output = m_dir->filePath(u"cut.jsonl"_s);
    QVERIFY(writeFile(output, R"({"instance_id":"r0","history":[{"action":"message","args":{"content":"zero"},"source":"user"}]})" "\n"
                              R"({"instance_id":"r1","history":[{"action":"message","args":{"content":"one"},"source":"user"}]})" "\n"
                              R"({"instance_id":"r2","history":[{"act)" "\n"));
    for (const QString &file : {array, output}) {
        ImportOptions counting;
        counting.runIndex = 1;
        const ImportResult all = TranscriptFormats::importFile(file, {}, counting);
        // Counting reads to the end and meets the broken third session.
        QVERIFY(!all.ok || all.session.skippedLines == 1);

        ImportOptions stopping = counting;
        stopping.countRuns = false;
        const ImportResult r = TranscriptFormats::importFile(file, {}, stopping);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.session.skippedLines, 0);
        QCOMPARE(r.session.messageCount, 1);
        QCOMPARE(r.session.messages.first().content, file == array ? u"two"_s : u"one"_s);
        QCOMPARE(r.session.runIndex, 1);
        QCOMPARE(r.session.runCount, 2); // as far as it read
    }
}

// Asking a one-session file for its second session is an error, not the first session.
void TestImportSessions::indexBeyondASingleSession_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("openhands v1") << u"openhands/events.jsonl"_s;
    QTest::newRow("chat array") << u"openai-chat/fncall-llm-message.json"_s;
    QTest::newRow("event folder") << u"openhands/conversation"_s;
}

void TestImportSessions::indexBeyondASingleSession()
{
    QFETCH(QString, file);
    ImportOptions options;
    options.runIndex = 1;
    const ImportResult r = TranscriptFormats::importFile(data(file), {}, options);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"session 1"_s) && r.error.contains(u"1 session"_s), qPrintable(r.error));
    options.runIndex = 0;
    QVERIFY(TranscriptFormats::importFile(data(file), {}, options).ok);
}

void TestImportSessions::storeImportsEverySession_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("titles");
    QTest::addColumn<QList<int>>("messages");
    QTest::newRow("trajectory array") << trajectories
                                      << QStringList{u"fncall-llm-message"_s, u"litellm-request"_s, u"fncall-first-call"_s}
                                      << QList<int>{14, 12, 4};
    QTest::newRow("openhands output") << u"openhands/output.jsonl"_s
                                      << QStringList{u"ponylang__ponyc-4595"_s, u"ponylang__ponyc-4593"_s, u"ponylang__ponyc-4588"_s}
                                      << QList<int>{47, -1, -1};
}

void TestImportSessions::storeImportsEverySession()
{
    QFETCH(QString, file);
    QFETCH(QStringList, titles);
    QFETCH(QList<int>, messages);

    QList<qint64> progress;
    SessionImporter::Options options;
    options.runIndex = SessionImporter::Options::allRuns;
    options.progress = [&](qint64 done, qint64 total) { progress << done * 1000 / std::max<qint64>(1, total); };
    const SessionImporter::Result r = SessionImporter::importFile(*m_store, data(file), options);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.runs, int(titles.size()));
    QCOMPARE(r.sessionIds.size(), titles.size());
    QCOMPARE(r.sessionId, r.sessionIds.first());
    QCOMPARE(QSet<QString>(r.sessionIds.cbegin(), r.sessionIds.cend()).size(), titles.size());
    for (qsizetype i = 0; i < titles.size(); ++i) {
        const auto info = m_store->session(r.sessionIds[i]);
        QVERIFY(info);
        QCOMPARE(info->title, titles[i]);
        // Each stored session is exactly what importing that one session gives.
        ImportOptions one;
        one.runIndex = int(i);
        const ImportResult reference = TranscriptFormats::importFile(data(file), {}, one);
        QVERIFY2(reference.ok, qPrintable(reference.error));
        if (messages[i] >= 0)
            QCOMPARE(reference.session.messageCount, messages[i]);
        const QList<Message> history = m_store->history(r.sessionIds[i]);
        QCOMPARE(history.size(), reference.session.messageCount);
        QCOMPARE(history.last().content, reference.session.messages.last().content);
        QCOMPARE(m_store->requests(r.sessionIds[i]).size(), reference.session.requests.size());
        const auto source = m_store->sessionSource(r.sessionIds[i]);
        QVERIFY(source);
        QCOMPARE(source->details.value(u"run_index").toInt(), int(i));
        QCOMPARE(source->details.value(u"run_count").toInt(), int(titles.size()));
    }
    QCOMPARE(m_store->listSessions().size(), titles.size());
    // Progress over all passes ends at the whole.
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last(), qint64(1000));
}

void TestImportSessions::storeImportIsAllOrNothing()
{
    // The third session has nothing usable: the two before it are removed again.
    const QString path = m_dir->filePath(u"third-broken.json"_s);
    QVERIFY(writeFile(path, R"([{"id":"a","messages":[{"role":"user","content":"one"}]},
{"id":"b","messages":[{"role":"user","content":"two"}]},
{"id":"c","messages":[{"role":7}]}])"));
    SessionImporter::Options options;
    options.runIndex = SessionImporter::Options::allRuns;
    const SessionImporter::Result r = SessionImporter::importFile(*m_store, path, options);
    QVERIFY(!r.ok);
    QVERIFY(r.badInput);
    QVERIFY2(r.error.contains(u"session 3 of 3"_s), qPrintable(r.error));
    QVERIFY(r.sessionIds.isEmpty());
    QCOMPARE(m_store->listSessions().size(), 0);
}

void TestImportSessions::storeImportOneSession()
{
    SessionImporter::Options options;
    options.runIndex = 1;
    options.title = u"Picked"_s;
    const SessionImporter::Result r = SessionImporter::importFile(*m_store, data(trajectories), options);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.sessionIds, QStringList{r.sessionId});
    QCOMPARE(r.runs, 3);
    QCOMPARE(r.messages, 12);
    QCOMPARE(m_store->listSessions().size(), 1);
    QCOMPARE(m_store->session(r.sessionId)->title, u"Picked"_s);
}

// The V1 events.jsonl split into one file per event, as recent OpenHands stores a conversation:
// the folder imports exactly like the lines.
void TestImportSessions::eventFolder()
{
    const QString folder = data(u"openhands/conversation"_s);
    const TranscriptFormats::Detection detection = TranscriptFormats::detect(folder);
    QCOMPARE(detection.format, u"openhands"_s);
    QVERIFY(detection.error.isEmpty());

    const ImportResult lines = TranscriptFormats::importFile(data(u"openhands/events.jsonl"_s));
    QVERIFY2(lines.ok, qPrintable(lines.error));
    // Both the conversation folder and its events/ folder itself.
    for (const QString &path : QStringList{folder, folder + u"/events"_s}) {
        const ImportResult r = TranscriptFormats::importFile(path);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.session.messageCount, lines.session.messageCount);
        QCOMPARE(r.session.toolCallCount, lines.session.toolCallCount);
        QCOMPARE(r.session.toolResultCount, lines.session.toolResultCount);
        QCOMPARE(r.session.requests.size(), lines.session.requests.size());
        QCOMPARE(r.session.issues.size(), lines.session.issues.size());
        QCOMPARE(r.session.model, lines.session.model);
        QCOMPARE(r.session.totalUsage, lines.session.totalUsage);
        QCOMPARE(r.session.recordCounts, lines.session.recordCounts);
        for (int i = 0; i < r.session.messages.size(); ++i)
            QCOMPARE(r.session.messages[i].content, lines.session.messages[i].content);
    }
}

void TestImportSessions::eventFolderOrderAndHostileFiles()
{
    QDir dir(m_dir->path());
    QVERIFY(dir.mkpath(u"conv/events/11.json"_s)); // a folder named like an event
    const QString events = dir.filePath(u"conv/events"_s);
    // Numbered by name, not sorted as text: 2 comes before 10.
    QVERIFY(writeFile(events + u"/1.json"_s, R"({"id":1,"action":"message","args":{"content":"first"},"source":"user"})"));
    QVERIFY(writeFile(events + u"/2.json"_s, R"({"id":2,"action":"message","args":{"content":"second"},"source":"agent"})"));
    QVERIFY(writeFile(events + u"/10.json"_s, R"({"id":10,"action":"message","args":{"content":"third"},"source":"user"})"));
    QVERIFY(writeFile(events + u"/12.json"_s, "{\"id\":12, \"action\": trunc"));
    QVERIFY(writeFile(events + u"/notes.txt"_s, "not an event"));
    // A link to a device is never opened (reading it would never end).
    QVERIFY(QFile::link(u"/dev/zero"_s, events + u"/13.json"_s));

    const ImportResult r = TranscriptFormats::importFile(dir.filePath(u"conv"_s));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.messageCount, 3);
    QCOMPARE(r.session.messages[0].content, u"first"_s);
    QCOMPARE(r.session.messages[1].content, u"second"_s);
    QCOMPARE(r.session.messages[2].content, u"third"_s);
    // The broken file is reported by its name.
    QCOMPARE(r.session.skippedLines, 1);
    QVERIFY2(r.session.problems.value(0).startsWith(events + u"/12.json: invalid JSON"_s), qPrintable(r.session.problems.value(0)));

    // The record cap holds for files too: an oversized one ends the import, naming it.
    QVERIFY(writeFile(events + u"/3.json"_s, QByteArray(R"({"id":3,"action":"message","args":{"content":")") + QByteArray(4000, 'x') + "\"},\"source\":\"user\"}"));
    ImportOptions small;
    small.maxRecordBytes = 1000;
    const ImportResult capped = TranscriptFormats::importFile(dir.filePath(u"conv"_s), u"openhands"_s, small);
    QVERIFY(!capped.ok);
    QVERIFY2(capped.error.startsWith(events + u"/3.json"_s), qPrintable(capped.error));

    // A folder without events is no transcript, with a clear message.
    QVERIFY(dir.mkpath(u"empty"_s));
    const ImportResult none = TranscriptFormats::importFile(dir.filePath(u"empty"_s));
    QVERIFY(!none.ok);
    QVERIFY2(none.error.contains(u"folder"_s), qPrintable(none.error));
}

void TestImportSessions::eventFolderIntoStore()
{
    const SessionImporter::Result r = SessionImporter::importFile(*m_store, data(u"openhands/conversation"_s));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.format, u"openhands"_s);
    const ImportResult lines = TranscriptFormats::importFile(data(u"openhands/events.jsonl"_s));
    QCOMPARE(r.messages, lines.session.messageCount);
    QCOMPARE(m_store->history(r.sessionId).size(), lines.session.messageCount);
}

// Older evaluation output: no tool_call_metadata, no ids (first run) or ids without call ids and
// [action, observation] pairs (second run). Calls are paired with observations by position.
void TestImportSessions::positionalPairing()
{
    const QString file = data(u"openhands/output-positional.jsonl"_s);
    QCOMPARE(TranscriptFormats::detect(file).format, u"openhands"_s);
    const ImportResult flat = TranscriptFormats::importFile(file);
    QVERIFY2(flat.ok, qPrintable(flat.error));
    const ImportedSession &s = flat.session;
    QCOMPARE(s.runCount, 2);
    QCOMPARE(s.runIds, (QStringList{u"flat-run"_s, u"paired-run"_s}));
    QCOMPARE(s.title, u"flat-run"_s);
    // user, (call, result) x 3, the agent's message, the finish call (no observation) = 9.
    QCOMPARE(s.messageCount, 9);
    QCOMPARE(s.toolCallCount, 4);
    QCOMPARE(s.toolResultCount, 3);
    QCOMPARE(s.requests.size(), 5);
    const QStringList names{u"run"_s, u"read"_s, u"write"_s};
    for (int i = 0; i < 3; ++i) {
        const Message &call = s.messages[1 + 2 * i];
        const Message &result = s.messages[2 + 2 * i];
        QCOMPARE(call.role, Role::Assistant);
        QCOMPARE(call.toolCalls.size(), 1);
        QCOMPARE(call.toolCalls.first().name, names[i]);
        QVERIFY(call.toolCalls.first().argumentsValid);
        QVERIFY(result.isToolResult());
        QCOMPARE(result.toolCallId, call.toolCalls.first().id);
    }
    QCOMPARE(s.messages[1].content, u"Let me run the tests first."_s);
    QVERIFY(s.messages[1].toolCalls.first().arguments.contains(u"pytest -q"_s));
    QCOMPARE(s.messages[2].content, u"F\n1 failed in 0.02s"_s);
    QCOMPARE(countIssues(s, ImportIssue::Kind::CallWithoutResult), 1); // finish
    QCOMPARE(countIssues(s, ImportIssue::Kind::ResultForUnknownCall), 0);
    QCOMPARE(countIssues(s, ImportIssue::Kind::Note), 1);               // "paired by position"

    ImportOptions second;
    second.runIndex = 1;
    const ImportResult paired = TranscriptFormats::importFile(file, {}, second);
    QVERIFY2(paired.ok, qPrintable(paired.error));
    const ImportedSession &p = paired.session;
    QCOMPARE(p.title, u"paired-run"_s);
    QCOMPARE(p.messageCount, 4);
    QCOMPARE(p.messages[0].content, u"List the files."_s);
    QCOMPARE(p.messages[1].toolCalls.first().name, u"run"_s);
    QCOMPARE(p.messages[2].toolCallId, p.messages[1].toolCalls.first().id);
    QCOMPARE(p.messages[2].content, u"README.md\nsrc"_s);
    QCOMPARE(p.messages[3].toolCalls.first().name, u"finish"_s);
    QCOMPARE(p.skippedLines, 0);
}

// The older OpenHands resolver output: one object per line naming its issue (the second also an
// instance_id, after its history), events with their arguments inline and neither ids nor sources.
void TestImportSessions::resolverOutput()
{
    const QString file = data(u"openhands/output-resolver.jsonl"_s);
    QCOMPARE(TranscriptFormats::detect(file).format, u"openhands"_s);
    const ImportResult first = TranscriptFormats::importFile(file);
    QVERIFY2(first.ok, qPrintable(first.error));
    const ImportedSession &s = first.session;
    QCOMPARE(s.runCount, 2);
    QCOMPARE(s.runIds, (QStringList{QString(), u"example__greeter-9"_s}));
    QCOMPARE(s.title, u"example/greeter#7: Typo in greeting"_s);
    // The task, (call, result) x 2, the finish call = 6.
    QCOMPARE(s.messageCount, 6);
    QCOMPARE(s.messages[0].role, Role::User);
    QVERIFY(s.messages[0].content.contains(u"prints 'Helo'"_s));
    QCOMPARE(s.messages[1].content, u"Let me find the typo."_s);
    QCOMPARE(s.messages[1].toolCalls.first().name, u"run"_s);
    QVERIFY(s.messages[1].toolCalls.first().arguments.contains(u"grep -rn Helo ."_s));
    QVERIFY(!s.messages[1].toolCalls.first().arguments.contains(u"is_confirmed"_s));
    QCOMPARE(s.messages[2].toolCallId, s.messages[1].toolCalls.first().id);
    QVERIFY(s.messages[2].content.contains(u"print('Helo')"_s));
    QCOMPARE(s.requests.size(), 3);
    QCOMPARE(s.skippedLines, 0);
    QCOMPARE(countIssues(s, ImportIssue::Kind::CallWithoutResult), 1); // finish

    ImportOptions second;
    second.runIndex = 1;
    const ImportResult other = TranscriptFormats::importFile(file, {}, second);
    QVERIFY2(other.ok, qPrintable(other.error));
    QCOMPARE(other.session.title, u"example__greeter-9"_s);
    QCOMPARE(other.session.messages[1].toolCalls.first().name, u"run_ipython"_s);
    QCOMPARE(other.session.messages[2].toolCallId, other.session.messages[1].toolCalls.first().id);

    const SessionImporter::Result stored = SessionImporter::importFile(*m_store, file);
    QVERIFY2(stored.ok, qPrintable(stored.error));
    QCOMPARE(stored.format, u"openhands"_s);
}

// A resolver line longer than the detection sample (a big result first): still detected.
void TestImportSessions::resolverOutputLongFirstLine()
{
    QFile in(data(u"openhands/output-resolver.jsonl"_s));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray first = in.readLine();
    const QByteArray big = QByteArray("\"content\":\"") + QByteArray(400 * 1024, 'y') + "\",\"command_id\":-1,\"command\":\"cat big\",\"exit_code\":0,\"observation\":\"run\"}";
    const QByteArray task = "\"action\":\"message\",\"security_risk\":null},";
    QVERIFY(first.count(task) == 1);
    const QByteArray inserted = task + "{\"command\":\"cat big\",\"thought\":\"\",\"action\":\"run\"},{" + big + ",";
    first.replace(task, inserted);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"output.jsonl"_s);
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(first);
    out.close();
    QCOMPARE(TranscriptFormats::detect(path).format, u"openhands"_s);
    const ImportResult r = TranscriptFormats::importFile(path);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.session.messageCount, 8);
    QVERIFY(r.session.messages[2].content.size() >= 400 * 1024);
}

QTEST_GUILESS_MAIN(TestImportSessions)
#include "tst_importsessions.moc"
