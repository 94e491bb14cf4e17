// SessionImporter on the real corpus files in tests/data/replay: what reaches the store
// matches what the importer read (history, requests, usage, source compactions and issues);
// cancel and bad input leave no session; export -> import -> export is identical apart from
// the two documented differences (the header's "exported_at" and the session's new "id").
#include "replay/ImportMetadata.h"
#include "compaction/TokenEstimate.h"
#include "replay/SessionImporter.h"
#include "replay/TranscriptFormats.h"
#include "store/SessionStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimeZone>
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
const QString codexTui = u"codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"_s;
const QString chatLog = u"openai-chat/litellm_proxy__anthropic__claude-sonnet-4-20250514-1757015046.707.json"_s;

QList<QJsonObject> jsonLines(const QString &path)
{
    QList<QJsonObject> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (!line.isEmpty())
            out.append(QJsonDocument::fromJson(line).object());
    }
    return out;
}

std::optional<qint64> known(qint64 v)
{
    return v >= 0 ? std::optional<qint64>(v) : std::nullopt;
}

} // namespace

class TestSessionImporter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void corpus_data();
    void corpus();
    void smallBatchesGiveTheSameSession();
    void titleAndWorkspaceOptions();
    void keepsTheTranscriptsTimes_data();
    void keepsTheTranscriptsTimes();
    void cancelLeavesNothing_data();
    void cancelLeavesNothing();
    void badInputLeavesNothing_data();
    void badInputLeavesNothing();
    void exportImportExportIsIdentical();
    void waterlineExportReadsAsTranscript();
    void metadataRoundTrip();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SessionStore> m_store;
};

void TestSessionImporter::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<SessionStore>();
    QString error;
    QVERIFY2(m_store->open(m_dir->filePath(u"sessions.db"_s), &error), qPrintable(error));
}

void TestSessionImporter::corpus_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("messages");
    QTest::addColumn<int>("requests");
    QTest::addColumn<int>("compactions");
    QTest::addColumn<int>("callsWithoutResult");
    QTest::addColumn<bool>("systemFirst");
    // Counts as in tst_transcriptimport (corpus/README.md and FORMATS.md).
    QTest::newRow("claude main") << claudeMain << 343 << 152 << 1 << 0 << false;
    QTest::newRow("codex tui") << codexTui << 173 << 66 << 0 << 0 << true;
    QTest::newRow("swe 1.0") << u"swe-agent/marshmallow-code__marshmallow-1867.traj"_s << 28 << 13 << 0 << 0 << true;
    QTest::newRow("openhands output") << u"openhands/output.jsonl"_s << 47 << 23 << 0 << 1 << true;
    QTest::newRow("chat log") << chatLog << 13 << 6 << 0 << 1 << true;
}

void TestSessionImporter::corpus()
{
    QFETCH(QString, file);
    QFETCH(int, messages);
    QFETCH(int, requests);
    QFETCH(int, compactions);
    QFETCH(int, callsWithoutResult);
    QFETCH(bool, systemFirst);

    // The in-memory import is the reference for what the store must hold.
    const ImportResult reference = TranscriptFormats::importFile(data(file));
    QVERIFY2(reference.ok, qPrintable(reference.error));
    const ImportedSession &s = reference.session;

    QList<qint64> progress;
    SessionImporter::Options options;
    options.progress = [&](qint64 done, qint64) { progress << done; };
    const SessionImporter::Result r = SessionImporter::importFile(*m_store, data(file), options);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.format, s.sourceFormat);
    QCOMPARE(r.messages, messages);
    QCOMPARE(r.requests, requests);
    QCOMPARE(r.compactions, compactions);
    QCOMPARE(r.issues, int(s.issues.size()));
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last(), QFileInfo(data(file)).size());

    const std::optional<SessionInfo> info = m_store->session(r.sessionId);
    QVERIFY(info);
    QCOMPARE(info->messageCount, qint64(messages));
    QCOMPARE(info->requestCount, qint64(requests));
    QCOMPARE(info->title, s.title);
    // Read-only until continued, and never working in the transcript's folder.
    QVERIFY(info->readOnly);
    QCOMPARE(info->workspace, m_store->importFolder());
    QVERIFY(info->workspace != QFileInfo(data(file)).absolutePath());

    const QList<Message> history = m_store->history(r.sessionId);
    QCOMPARE(history.size(), s.messages.size());
    QCOMPARE(history.first().role == Role::System, systemFirst);
    for (qsizetype i = 0; i < history.size(); ++i) {
        QVERIFY2(history[i].sameContent(s.messages[i]), qPrintable(u"message %1"_s.arg(i)));
        QCOMPARE(history[i].byteCount(), s.messages[i].byteCount());
    }

    const QList<RequestRecord> stored = m_store->requests(r.sessionId);
    QCOMPARE(stored.size(), s.requests.size());
    QHash<qint64, qsizetype> positionOf;
    for (qsizetype i = 0; i < history.size(); ++i)
        positionOf.insert(history[i].id, i);
    for (qsizetype k = 0; k < stored.size(); ++k) {
        const RequestRecord &req = stored[k];
        const ImportedRequest &src = s.requests[k];
        QCOMPARE(req.index, int(k));
        QCOMPARE(req.tier, Tier::None);
        QCOMPARE(req.model, src.model);
        QCOMPARE(req.startedAt, src.timestamp.isValid() ? src.timestamp.toUTC() : QDateTime());
        // Every prompt token read, cached or not (Claude Code's input_tokens count only the rest).
        QCOMPARE(req.inputTokens, known(src.usage.context >= 0 ? src.usage.context : src.usage.input));
        if (QByteArray(QTest::currentDataTag()).startsWith("claude") && src.usage.input >= 0)
            QCOMPARE(*req.inputTokens, src.usage.input + std::max<qint64>(0, src.usage.cacheRead) + std::max<qint64>(0, src.usage.cacheWrite));
        QCOMPARE(req.outputTokens, known(src.usage.output));
        QCOMPARE(req.cacheReadTokens, known(src.usage.cacheRead));
        QCOMPARE(req.cacheWriteTokens, known(src.usage.cacheWrite));
        // The view is what the source sent: a leading system message, then every message before
        // the one the request produced from where its newest own compaction left off (with what
        // that compaction sent instead), and its estimate.
        const ExternalCompaction *inForce = nullptr;
        for (const ExternalCompaction &c : s.compactions) {
            if (c.effect == ExternalCompaction::Effect::ReplacesHistory && c.messageIndex <= src.messageIndex
                && (!inForce || c.messageIndex >= inForce->messageIndex))
                inForce = &c;
        }
        const int lead = !history.isEmpty() && history[0].role == Role::System ? 1 : 0;
        QList<qint64> before;
        qint64 bytes = inForce ? TokenEstimate::utf8Bytes(inForce->sentInstead) : 0;
        for (int i = 0; i < src.messageIndex; ++i) {
            if (i >= lead && inForce && i < inForce->messageIndex)
                continue;
            before << history[i].id;
            bytes += history[i].byteCount();
        }
        QCOMPARE(req.viewMessageIds.toList(), before);
        QCOMPARE(req.estimateTokens, bytes / 4);
        QCOMPARE(history[src.messageIndex].origin, req.id);
        QCOMPARE(history[src.messageIndex].role, Role::Assistant);
    }

    const std::optional<SessionSource> source = m_store->sessionSource(r.sessionId);
    QVERIFY(source);
    QCOMPARE(source->format, s.sourceFormat);
    QCOMPARE(source->sourcePath, QFileInfo(data(file)).absoluteFilePath());
    ImportedSession details;
    ImportMetadata::fromJson(source->details, &details);
    QCOMPARE(details.compactions.size(), s.compactions.size());
    for (qsizetype i = 0; i < details.compactions.size(); ++i) {
        QCOMPARE(details.compactions[i].messageIndex, s.compactions[i].messageIndex);
        QCOMPARE(details.compactions[i].summary, s.compactions[i].summary);
        QCOMPARE(details.compactions[i].tokensBefore, s.compactions[i].tokensBefore);
        QCOMPARE(details.compactions[i].kind, s.compactions[i].kind);
        // The index is the stored seq: the marker sits at the same message in the store.
        QVERIFY(details.compactions[i].messageIndex < history.size());
    }
    QCOMPARE(details.issues.size(), s.issues.size());
    for (qsizetype i = 0; i < details.issues.size(); ++i) {
        QCOMPARE(details.issues[i].kind, s.issues[i].kind);
        QCOMPARE(details.issues[i].messageIndex, s.issues[i].messageIndex);
        QCOMPARE(details.issues[i].callId, s.issues[i].callId);
        // Flagged messages are stored as they were: the call (or result) is still there.
        const Message &flagged = history[details.issues[i].messageIndex];
        if (details.issues[i].kind == ImportIssue::Kind::CallWithoutResult) {
            bool found = false;
            for (const ToolCall &c : flagged.toolCalls)
                found = found || c.id == details.issues[i].callId;
            QVERIFY(found);
        }
    }
    QCOMPARE(details.tools.size(), s.tools.size());
    int unanswered = 0;
    for (const ImportIssue &issue : std::as_const(details.issues))
        unanswered += issue.kind == ImportIssue::Kind::CallWithoutResult ? 1 : 0;
    QCOMPARE(unanswered, callsWithoutResult);
}

void TestSessionImporter::smallBatchesGiveTheSameSession()
{
    SessionImporter::Options small;
    small.batchMessages = 7;
    const auto a = SessionImporter::importFile(*m_store, data(codexTui), small);
    SessionImporter::Options bytes;
    bytes.batchBytes = 1; // one message per transaction
    const auto b = SessionImporter::importFile(*m_store, data(codexTui), bytes);
    const auto c = SessionImporter::importFile(*m_store, data(codexTui));
    QVERIFY(a.ok && b.ok && c.ok);
    const QList<Message> ha = m_store->history(a.sessionId);
    const QList<Message> hb = m_store->history(b.sessionId);
    const QList<Message> hc = m_store->history(c.sessionId);
    QCOMPARE(ha.size(), 173);
    QCOMPARE(hb.size(), ha.size());
    QCOMPARE(hc.size(), ha.size());
    for (qsizetype i = 0; i < ha.size(); ++i) {
        QVERIFY(ha[i].sameContent(hc[i]));
        QVERIFY(hb[i].sameContent(hc[i]));
    }
    const QList<RequestRecord> ra = m_store->requests(a.sessionId);
    const QList<RequestRecord> rc = m_store->requests(c.sessionId);
    QCOMPARE(ra.size(), rc.size());
    for (qsizetype i = 0; i < ra.size(); ++i) {
        QCOMPARE(ra[i].estimateTokens, rc[i].estimateTokens);
        QCOMPARE(ra[i].viewMessageIds.size(), rc[i].viewMessageIds.size());
    }
}

void TestSessionImporter::titleAndWorkspaceOptions()
{
    SessionImporter::Options options;
    options.title = u"My title"_s;
    options.workspace = m_dir->path();
    const auto r = SessionImporter::importFile(*m_store, data(chatLog), options);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(m_store->session(r.sessionId)->title, u"My title"_s);
    QCOMPARE(m_store->session(r.sessionId)->workspace, QFileInfo(m_dir->path()).absoluteFilePath());
}

void TestSessionImporter::keepsTheTranscriptsTimes_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QDateTime>("first");
    QTest::addColumn<QDateTime>("last");
    // The first and last times of the conversation's records in each file.
    QTest::newRow("claude main") << claudeMain << QDateTime::fromString(u"2026-02-11T20:36:45.618Z"_s, Qt::ISODateWithMs)
                                 << QDateTime::fromString(u"2026-02-11T21:46:25.781Z"_s, Qt::ISODateWithMs);
    QTest::newRow("codex tui") << codexTui << QDateTime::fromString(u"2026-05-11T08:27:17.490Z"_s, Qt::ISODateWithMs)
                               << QDateTime::fromString(u"2026-05-11T08:44:58.544Z"_s, Qt::ISODateWithMs);
}

// An imported session began when its transcript did, and each message keeps the time its record
// gives, so the session list, the conversation and the timeline show when the work happened.
void TestSessionImporter::keepsTheTranscriptsTimes()
{
    QFETCH(QString, file);
    QFETCH(QDateTime, first);
    QFETCH(QDateTime, last);
    const auto r = SessionImporter::importFile(*m_store, data(file));
    QVERIFY2(r.ok, qPrintable(r.error));
    const std::optional<SessionInfo> info = m_store->session(r.sessionId);
    QVERIFY(info);
    QCOMPARE(info->createdAt, first);
    QVERIFY2(info->lastActivityAt <= last && info->lastActivityAt > first,
             qPrintable(info->lastActivityAt.toString(Qt::ISODateWithMs)));
    const QList<Message> history = m_store->history(r.sessionId);
    QVERIFY(!history.isEmpty());
    QCOMPARE(history.first().createdAt, first);
    for (const Message &m : history)
        QVERIFY2(m.createdAt >= first && m.createdAt <= last, qPrintable(m.createdAt.toString(Qt::ISODateWithMs)));
}

void TestSessionImporter::cancelLeavesNothing_data()
{
    QTest::addColumn<bool>("beforeStart");
    QTest::newRow("before start") << true;
    QTest::newRow("after the first megabyte") << false;
}

void TestSessionImporter::cancelLeavesNothing()
{
    QFETCH(bool, beforeStart);
    std::atomic_bool cancel = beforeStart;
    SessionImporter::Options options;
    options.cancel = &cancel;
    options.batchMessages = 10; // several batches are stored before the cancel is seen
    int calls = 0;
    options.progress = [&](qint64 done, qint64) {
        ++calls;
        if (done > 0)
            cancel = true;
    };
    const auto r = SessionImporter::importFile(*m_store, data(claudeMain), options);
    QVERIFY(!r.ok);
    QVERIFY(r.cancelled);
    QVERIFY(r.sessionId.isEmpty());
    QVERIFY2(r.error.contains(u"cancel"_s), qPrintable(r.error));
    QVERIFY(m_store->listSessions().isEmpty());
    if (!beforeStart)
        QVERIFY(calls >= 1);
}

void TestSessionImporter::badInputLeavesNothing_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("expected");
    QTest::newRow("only broken records") << QByteArray(R"({"type":"user","message":"oops"})" "\n"
                                                    R"({"type":"assistant","message":{"content":42}})" "\n")
                                         << u"auto"_s << u"bad.jsonl:1: field 'message'"_s;
    QTest::newRow("truncated array") << QByteArray(R"([{"role":"user","content":"a"},)" "\n" R"({"role":"assistant","content":)")
                                     << u"openai"_s << u"bad.jsonl:2"_s;
    QTest::newRow("binary") << QByteArray("\x7f" "ELF\x02\x01\x01\0\0\0\0", 12) << u"auto"_s << u"binary file"_s;
    QTest::newRow("empty") << QByteArray() << u"auto"_s << u"empty"_s;
    QTest::newRow("waterline export cut short")
        << QByteArray(R"({"type":"header","format":"waterline-session","version":1,"session":{"title":"t"}})" "\n"
                      R"({"type":"message","seq":0,"role":"user","content":"hi"})" "\n")
        << u"auto"_s << u"bad.jsonl"_s;
}

void TestSessionImporter::badInputLeavesNothing()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, format);
    QFETCH(QString, expected);
    const QString path = m_dir->filePath(u"bad.jsonl"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();
    SessionImporter::Options options;
    options.format = format;
    const auto r = SessionImporter::importFile(*m_store, path, options);
    QVERIFY(!r.ok);
    QVERIFY(r.badInput);
    QVERIFY2(r.error.contains(expected), qPrintable(r.error));
    QVERIFY(m_store->listSessions().isEmpty());
}

void TestSessionImporter::exportImportExportIsIdentical()
{
    const auto first = SessionImporter::importFile(*m_store, data(claudeMain));
    QVERIFY2(first.ok, qPrintable(first.error));
    const QString a = m_dir->filePath(u"a.jsonl"_s);
    const QString b = m_dir->filePath(u"b.jsonl"_s);
    QString error;
    QVERIFY2(m_store->exportSession(first.sessionId, a, &error), qPrintable(error));

    const auto second = SessionImporter::importFile(*m_store, a);
    QVERIFY2(second.ok, qPrintable(second.error));
    QCOMPARE(second.format, u"waterline"_s);
    QVERIFY(second.sessionId != first.sessionId);
    QCOMPARE(second.messages, 343);
    QCOMPARE(second.requests, 152);
    QVERIFY2(m_store->exportSession(second.sessionId, b, &error), qPrintable(error));

    QList<QJsonObject> la = jsonLines(a);
    QList<QJsonObject> lb = jsonLines(b);
    QCOMPARE(la.size(), 1 + 343 + 152 + 1);
    QCOMPARE(lb.size(), la.size());
    // The documented differences: when the file was written, the new session's id, and the
    // workspace, which an import never takes from the file: an export is read-only once imported,
    // with its offloads in the store's import folder until the user continues it.
    QCOMPARE(lb.first().value(u"session").toObject().value(u"workspace").toString(), m_store->importFolder());
    QVERIFY(m_store->session(second.sessionId)->readOnly);
    for (QList<QJsonObject> *lines : {&la, &lb}) {
        QJsonObject header = lines->first();
        QJsonObject session = header.value(u"session").toObject();
        QVERIFY(!session.value(u"id").toString().isEmpty());
        QVERIFY(!header.value(u"exported_at").toString().isEmpty());
        session.remove(u"id"_s);
        session.remove(u"workspace"_s);
        header.insert(u"session", session);
        header.remove(u"exported_at"_s);
        lines->first() = header;
    }
    for (qsizetype i = 0; i < la.size(); ++i)
        QVERIFY2(la[i] == lb[i], qPrintable(u"line %1 differs"_s.arg(i + 1)));
}

void TestSessionImporter::waterlineExportReadsAsTranscript()
{
    const auto stored = SessionImporter::importFile(*m_store, data(codexTui));
    QVERIFY(stored.ok);
    const QString path = m_dir->filePath(u"codex-export.jsonl"_s);
    QVERIFY(m_store->exportSession(stored.sessionId, path));
    const TranscriptFormats::Detection d = TranscriptFormats::detect(path);
    QCOMPARE(d.format, u"waterline"_s);
    QCOMPARE(d.confidence, 100);

    const ImportResult again = TranscriptFormats::importFile(path);
    QVERIFY2(again.ok, qPrintable(again.error));
    const ImportResult original = TranscriptFormats::importFile(data(codexTui));
    QCOMPARE(again.session.messages.size(), original.session.messages.size());
    for (qsizetype i = 0; i < again.session.messages.size(); ++i)
        QVERIFY(again.session.messages[i].sameContent(original.session.messages[i]));
    QCOMPARE(again.session.requests.size(), original.session.requests.size());
    for (qsizetype i = 0; i < again.session.requests.size(); ++i) {
        QCOMPARE(again.session.requests[i].messageIndex, original.session.requests[i].messageIndex);
        QCOMPARE(again.session.requests[i].usage.input, original.session.requests[i].usage.input);
        QCOMPARE(again.session.requests[i].model, original.session.requests[i].model);
    }
    QCOMPARE(again.session.title, original.session.title);
    QCOMPARE(again.session.skippedLines, 0);
}

void TestSessionImporter::metadataRoundTrip()
{
    const ImportResult r = TranscriptFormats::importFile(data(u"openhands/output.jsonl"_s));
    QVERIFY(r.ok);
    ImportedSession s = r.session;
    s.compactions.append({5, 1234, u"auto"_s, u"summary text"_s, u"condensation"_s,
                          QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), QTimeZone::UTC)});
    const QJsonObject json = ImportMetadata::toJson(s);
    // Through text, as the store keeps it.
    const QJsonObject reread = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
    ImportedSession back;
    ImportMetadata::fromJson(reread, &back);
    QCOMPARE(back.compactions.size(), 1);
    QCOMPARE(back.compactions[0].messageIndex, 5);
    QCOMPARE(back.compactions[0].tokensBefore, qint64(1234));
    QCOMPARE(back.compactions[0].timestamp, s.compactions[0].timestamp);
    QCOMPARE(back.issues.size(), s.issues.size());
    QCOMPARE(back.issues.first().kind, s.issues.first().kind);
    QCOMPARE(back.issues.first().text, s.issues.first().text);
    QCOMPARE(back.tools.size(), s.tools.size());
    QCOMPARE(back.tools.first().name, s.tools.first().name);
    QCOMPARE(back.totalUsage, s.totalUsage);
    QCOMPARE(back.model, s.model);
    QCOMPARE(back.runCount, 3);
    // The marker's request: the first request at or after message 5.
    int expected = 0;
    QList<int> at;
    for (const ImportedRequest &q : s.requests)
        at << q.messageIndex;
    std::sort(at.begin(), at.end());
    while (expected < at.size() && at[expected] < 5)
        ++expected;
    QCOMPARE(reread.value(u"compactions").toArray().first().toObject().value(u"request").toInt(), expected);
}

QTEST_GUILESS_MAIN(TestSessionImporter)
#include "tst_sessionimporter.moc"
