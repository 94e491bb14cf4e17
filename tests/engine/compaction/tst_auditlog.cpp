#include "compaction/AuditLog.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <sys/stat.h>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
int modeOf(const QString &path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

QList<QByteArray> fileLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().split('\n');
}

CompactionRecord sampleRecord(Tier tier, int requestIndex)
{
    CompactionRecord r;
    r.id = u"7f1c2d3e-0000-4000-8000-00000000000%1"_s.arg(requestIndex);
    r.sessionId = u"session-1"_s;
    r.requestIndex = requestIndex;
    r.timestamp = QDateTime(QDate(2025, 3, 14), QTime(15, 9, 26, 535), QTimeZone::fromSecondsAheadOfUtc(3600));
    r.tier = tier;
    r.reason.ratio = 0.8312;
    r.reason.estimateTokens = 99'744;
    r.reason.toolSchemaTokens = 1'200;
    r.reason.reservedOutput = 4'096;
    r.reason.contextWindow = 128'000;
    r.reason.warn = 0.6;
    r.reason.soft = 0.7;
    r.reason.full = 0.8;
    r.reason.emergency = 0.95;
    r.reason.forced = true;
    r.tokensBefore = 100'944;
    r.tokensAfter = 20'100;
    r.msgsBefore = 120;
    r.msgsAfter = 9;
    r.anchors.setValue(AnchorKind::UserIntent, u"Build a REST API\n- in Go"_s);
    r.anchors.setValue(AnchorKind::KeyDecision, u"chi router, \"quoted\""_s);
    r.anchors.setValue(AnchorKind::NextStep, u"修复测试"_s);
    r.anchorChanges = {AnchorChange::Updated, AnchorChange::Kept, AnchorChange::New, AnchorChange::Unchanged, AnchorChange::New};
    OffloadEntry entry;
    entry.callId = u"call_1"_s;
    entry.toolName = u"bash"_s;
    entry.relativePath = u".waterline/tool_results/session-1/call_1.txt"_s;
    entry.bytes = 48'890;
    entry.lines = 1'000;
    entry.gate = 2;
    entry.messageId = 17;
    r.offloaded = {entry, entry};
    r.offloaded[1].callId = u"../x"_s;
    r.offloaded[1].relativePath = u".waterline/tool_results/session-1/h.abc.txt"_s;
    r.summarized = 100;
    r.preservedTail = 6;
    r.summaryText = u"Messages 1-100: edited src/a.cpp\nran \"make\""_s;
    r.summarizerStep = SummarizerStep::MainModel;
    r.summarizerModel = u"gpt-4o-mini"_s;
    r.compressionRatio = 20'100.0 / 100'944.0;
    r.durationMs = 1234;
    r.error = u"summary failed: timeout after 60 s"_s;
    r.changed = true;
    return r;
}

CompactionRecord jsonRoundTrip(const CompactionRecord &record, bool *ok)
{
    const QByteArray text = QJsonDocument(record.toJson()).toJson(QJsonDocument::Compact);
    CompactionRecord back;
    QString error;
    *ok = CompactionRecord::fromJson(QJsonDocument::fromJson(text).object(), &back, &error);
    if (!*ok)
        qWarning() << error;
    return back;
}
} // namespace

class TestAuditLog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void stepNames();
    void changedAnchorCount();
    void recordRoundTrip_data();
    void recordRoundTrip();
    void requiredFields();           // scenario 24
    void timestampHasOffset_data();
    void timestampHasOffset();
    void errorOmittedWhenEmpty();
    void damagedRecords_data();
    void damagedRecords();
    void unknownKeysIgnored();

    void appendAndReadInOrder();     // scenario 23
    void missingFileReadsEmpty();
    void damagedLineSkipped_data();
    void damagedLineSkipped();
    void appendFailsWhenBlocked();
    void truncatedRecordDoesNotSwallowNext_data();
    void truncatedRecordDoesNotSwallowNext();
    void privateWhateverTheUmask();
};

// What the conversation's marker and the session summary say of a record: kept and unchanged anchors
// are not changes.
void TestAuditLog::changedAnchorCount()
{
    CompactionRecord r;
    r.anchorChanges = {AnchorChange::Updated, AnchorChange::Kept, AnchorChange::New, AnchorChange::Unchanged, AnchorChange::New};
    QCOMPARE(r.changedAnchorCount(), 3);
    r.anchorChanges.fill(AnchorChange::Kept);
    QCOMPARE(r.changedAnchorCount(), 0);
    r.anchorChanges.fill(AnchorChange::Updated);
    QCOMPARE(r.changedAnchorCount(), kAnchorCount);
}

void TestAuditLog::stepNames()
{
    const QList<std::pair<SummarizerStep, QString>> expected{{SummarizerStep::None, u"none"_s},
                                                             {SummarizerStep::Configured, u"configured"_s},
                                                             {SummarizerStep::MainModel, u"main_model"_s},
                                                             {SummarizerStep::Extractive, u"extractive"_s}};
    for (const auto &[step, name] : expected) {
        QCOMPARE(summarizerStepName(step), name);
        SummarizerStep back = step == SummarizerStep::None ? SummarizerStep::Extractive : SummarizerStep::None;
        QVERIFY(summarizerStepFromName(name, &back));
        QCOMPARE(back, step);
    }
    SummarizerStep untouched = SummarizerStep::Configured;
    QVERIFY(!summarizerStepFromName(u"llm"_s, &untouched));
    QCOMPARE(untouched, SummarizerStep::Configured);
}

void TestAuditLog::recordRoundTrip_data()
{
    QTest::addColumn<CompactionRecord>("record");
    QTest::newRow("full") << sampleRecord(Tier::Full, 1);
    CompactionRecord none = sampleRecord(Tier::None, 2);
    none.offloaded.clear();
    none.error.clear();
    none.changed = false;
    none.summarizerStep = SummarizerStep::None;
    none.summarizerModel.clear();
    none.anchors = Anchors();
    QTest::newRow("none-minimal") << none;
    CompactionRecord utc = sampleRecord(Tier::Emergency, 3);
    utc.timestamp = QDateTime(QDate(2024, 12, 31), QTime(23, 59, 59, 999), QTimeZone::UTC);
    QTest::newRow("utc") << utc;
    CompactionRecord local = sampleRecord(Tier::Warn, 4);
    local.timestamp = QDateTime(QDate(2025, 7, 1), QTime(8, 0, 0, 1), QTimeZone::LocalTime);
    QTest::newRow("local-time") << local;
}

void TestAuditLog::recordRoundTrip()
{
    QFETCH(CompactionRecord, record);
    bool ok = false;
    const CompactionRecord back = jsonRoundTrip(record, &ok);
    QVERIFY(ok);
    QCOMPARE(back.timestamp, record.timestamp);
    QCOMPARE(back.offloaded, record.offloaded);
    QCOMPARE(back.anchors, record.anchors);
    QVERIFY(back.reason == record.reason);
    QVERIFY(back == record);
}

void TestAuditLog::requiredFields()
{
    const QJsonObject json = sampleRecord(Tier::Soft, 5).toJson();
    const QStringList keys{u"id"_s, u"session_id"_s, u"request_index"_s, u"timestamp"_s, u"tier"_s, u"strategy"_s, u"reason"_s,
                           u"tokens_before"_s, u"tokens_after"_s, u"msgs_before"_s, u"msgs_after"_s, u"anchors"_s,
                           u"anchor_changes"_s, u"offloaded"_s, u"summarized"_s, u"preserved_tail"_s, u"summary_text"_s,
                           u"summarizer"_s, u"summarizer_model"_s, u"compression_ratio"_s, u"duration_ms"_s, u"error"_s,
                           u"changed"_s};
    for (const QString &key : keys)
        QVERIFY2(json.contains(key), qPrintable(key));
    QCOMPARE(json.size(), keys.size());
    QCOMPARE(json.value(u"id"_s).toString(), u"7f1c2d3e-0000-4000-8000-000000000005"_s);
    QCOMPARE(json.value(u"tier"_s).toString(), u"soft"_s);
    QCOMPARE(json.value(u"tokens_before"_s).toInteger(), 100'944);
    QCOMPARE(json.value(u"tokens_after"_s).toInteger(), 20'100);
    QCOMPARE(json.value(u"msgs_before"_s).toInt(), 120);
    QCOMPARE(json.value(u"msgs_after"_s).toInt(), 9);
    QCOMPARE(json.value(u"summarizer"_s).toString(), u"main_model"_s);
    const QJsonObject reason = json.value(u"reason"_s).toObject();
    for (const QString &key : {u"ratio"_s, u"estimate_tokens"_s, u"tool_schema_tokens"_s, u"reserved_output"_s,
                               u"context_window"_s, u"warn"_s, u"soft"_s, u"full"_s, u"emergency"_s, u"forced"_s})
        QVERIFY2(reason.contains(key), qPrintable(key));
    QCOMPARE(reason.value(u"context_window"_s).toInteger(), 128'000);
    QCOMPARE(json.value(u"anchor_changes"_s).toObject().value(u"execution_progress"_s).toString(), u"kept"_s);
    const QJsonObject offload = json.value(u"offloaded"_s).toArray().at(0).toObject();
    for (const QString &key : {u"call_id"_s, u"tool_name"_s, u"path"_s, u"bytes"_s, u"lines"_s, u"gate"_s, u"message_id"_s})
        QVERIFY2(offload.contains(key), qPrintable(key));
    QCOMPARE(offload.value(u"path"_s).toString(), u".waterline/tool_results/session-1/call_1.txt"_s);
    QCOMPARE(offload.value(u"message_id"_s).toInteger(), 17);
}

void TestAuditLog::timestampHasOffset_data()
{
    QTest::addColumn<QDateTime>("time");
    QTest::addColumn<QString>("text");
    QTest::newRow("plus-one") << QDateTime(QDate(2025, 3, 14), QTime(15, 9, 26, 535), QTimeZone::fromSecondsAheadOfUtc(3600))
                              << u"2025-03-14T15:09:26.535+01:00"_s;
    QTest::newRow("india") << QDateTime(QDate(2025, 1, 2), QTime(3, 4, 5, 6), QTimeZone::fromSecondsAheadOfUtc(19800))
                           << u"2025-01-02T03:04:05.006+05:30"_s;
    QTest::newRow("minus-eight") << QDateTime(QDate(2025, 1, 2), QTime(3, 4, 5), QTimeZone::fromSecondsAheadOfUtc(-28800))
                                 << u"2025-01-02T03:04:05.000-08:00"_s;
    QTest::newRow("utc-numeric") << QDateTime(QDate(2025, 1, 2), QTime(3, 4, 5), QTimeZone::UTC)
                                 << u"2025-01-02T03:04:05.000+00:00"_s;
}

void TestAuditLog::timestampHasOffset()
{
    QFETCH(QDateTime, time);
    QFETCH(QString, text);
    CompactionRecord record = sampleRecord(Tier::Full, 1);
    record.timestamp = time;
    QCOMPARE(record.toJson().value(u"timestamp"_s).toString(), text);

    // Local time gets its numeric offset too.
    record.timestamp = QDateTime(QDate(2025, 6, 1), QTime(12, 0), QTimeZone::LocalTime);
    static const QRegularExpression withOffset(u"^2025-06-01T12:00:00\\.000[+-]\\d\\d:\\d\\d$"_s);
    const QString local = record.toJson().value(u"timestamp"_s).toString();
    QVERIFY2(withOffset.match(local).hasMatch(), qPrintable(local));
}

void TestAuditLog::errorOmittedWhenEmpty()
{
    CompactionRecord record = sampleRecord(Tier::Warn, 1);
    QCOMPARE(record.toJson().value(u"error"_s).toString(), u"summary failed: timeout after 60 s"_s);
    record.error.clear();
    QVERIFY(!record.toJson().contains(u"error"_s));
    bool ok = false;
    QVERIFY(jsonRoundTrip(record, &ok).error.isEmpty());
    QVERIFY(ok);
}

void TestAuditLog::damagedRecords_data()
{
    QTest::addColumn<QString>("field");     // dotted path into the record's JSON
    QTest::addColumn<QJsonValue>("value");  // undefined: remove the field
    QTest::addColumn<QString>("named");     // what the error must name
    const QJsonValue remove(QJsonValue::Undefined);
    QTest::newRow("no-id") << u"id"_s << remove << u"id"_s;
    QTest::newRow("empty-id") << u"id"_s << QJsonValue(u""_s) << u"id"_s;
    QTest::newRow("id-number") << u"id"_s << QJsonValue(5) << u"id"_s;
    QTest::newRow("no-session") << u"session_id"_s << remove << u"session_id"_s;
    QTest::newRow("no-timestamp") << u"timestamp"_s << remove << u"timestamp"_s;
    QTest::newRow("bad-timestamp") << u"timestamp"_s << QJsonValue(u"yesterday"_s) << u"timestamp"_s;
    QTest::newRow("no-tier") << u"tier"_s << remove << u"tier"_s;
    QTest::newRow("unknown-tier") << u"tier"_s << QJsonValue(u"critical"_s) << u"tier"_s;
    QTest::newRow("tier-number") << u"tier"_s << QJsonValue(3) << u"tier"_s;
    QTest::newRow("no-tokens-before") << u"tokens_before"_s << remove << u"tokens_before"_s;
    QTest::newRow("tokens-after-text") << u"tokens_after"_s << QJsonValue(u"12"_s) << u"tokens_after"_s;
    QTest::newRow("msgs-before-fraction") << u"msgs_before"_s << QJsonValue(1.5) << u"msgs_before"_s;
    QTest::newRow("no-msgs-after") << u"msgs_after"_s << remove << u"msgs_after"_s;
    QTest::newRow("changed-text") << u"changed"_s << QJsonValue(u"yes"_s) << u"changed"_s;
    QTest::newRow("reason-array") << u"reason"_s << QJsonValue(QJsonArray{}) << u"reason"_s;
    QTest::newRow("reason-ratio-text") << u"reason.ratio"_s << QJsonValue(u"high"_s) << u"reason.ratio"_s;
    QTest::newRow("bad-change") << u"anchor_changes.user_intent"_s << QJsonValue(u"moved"_s) << u"anchor_changes.user_intent"_s;
    QTest::newRow("bad-summarizer") << u"summarizer"_s << QJsonValue(u"oracle"_s) << u"summarizer"_s;
    QTest::newRow("offloaded-object") << u"offloaded"_s << QJsonValue(QJsonObject{}) << u"offloaded"_s;
    QTest::newRow("offloaded-item-number") << u"offloaded"_s << QJsonValue(QJsonArray{1}) << u"offloaded[0]"_s;
    QTest::newRow("offloaded-no-path") << u"offloaded"_s << QJsonValue(QJsonArray{QJsonObject{{u"call_id"_s, u"c"_s}}})
                                       << u"offloaded[0].path"_s;
}

void TestAuditLog::damagedRecords()
{
    QFETCH(QString, field);
    QFETCH(QJsonValue, value);
    QFETCH(QString, named);
    QJsonObject json = sampleRecord(Tier::Full, 1).toJson();
    const QStringList parts = field.split(u'.');
    if (parts.size() == 1) {
        if (value.isUndefined())
            json.remove(field);
        else
            json.insert(field, value);
    } else {
        QJsonObject inner = json.value(parts[0]).toObject();
        inner.insert(parts[1], value);
        json.insert(parts[0], inner);
    }
    CompactionRecord record;
    record.id = u"untouched"_s;
    QString error;
    QVERIFY(!CompactionRecord::fromJson(json, &record, &error));
    QVERIFY2(error.contains(u'"' + named + u'"'), qPrintable(error));
    QCOMPARE(record.id, u"untouched"_s);
}

void TestAuditLog::unknownKeysIgnored()
{
    QJsonObject json = sampleRecord(Tier::Full, 1).toJson();
    json.insert(u"future_field"_s, QJsonArray{1, 2});
    json.remove(u"summary_text"_s); // optional fields may be missing
    CompactionRecord record;
    QString error;
    QVERIFY2(CompactionRecord::fromJson(json, &record, &error), qPrintable(error));
    QCOMPARE(record.tier, Tier::Full);
    QVERIFY(record.summaryText.isEmpty());
}

void TestAuditLog::appendAndReadInOrder()
{
    QTemporaryDir data;
    // Two missing levels: both are created 0700.
    const QString path = data.filePath(u"waterline/compaction_records/session-1.jsonl"_s);
    const CompactionRecord first = sampleRecord(Tier::Warn, 1);
    const CompactionRecord second = sampleRecord(Tier::Emergency, 2);
    QString error;
    QVERIFY2(AuditLog::append(path, first, &error), qPrintable(error));
    QVERIFY2(AuditLog::append(path, second, &error), qPrintable(error));

    QCOMPARE(modeOf(path), 0600);
    QCOMPARE(modeOf(data.filePath(u"waterline/compaction_records"_s)), 0700);
    QCOMPARE(modeOf(data.filePath(u"waterline"_s)), 0700);

    const QList<QByteArray> lines = fileLines(path);
    QCOMPARE(lines.size(), 3); // two records, each ending in '\n'
    QVERIFY(lines[2].isEmpty());
    QVERIFY(QJsonDocument::fromJson(lines[0]).isObject());
    QVERIFY(!lines[0].contains("\n"));

    const AuditLog::ReadResult read = AuditLog::read(path);
    QCOMPARE(read.skipped, 0);
    QVERIFY(read.problems.isEmpty());
    QCOMPARE(read.records.size(), 2);
    QCOMPARE(read.records[0].tier, Tier::Warn);
    QCOMPARE(read.records[1].tier, Tier::Emergency);
    QVERIFY(read.records[0] == first);
    QVERIFY(read.records[1] == second);
}

void TestAuditLog::missingFileReadsEmpty()
{
    QTemporaryDir data;
    const AuditLog::ReadResult read = AuditLog::read(data.filePath(u"nothing/here.jsonl"_s));
    QVERIFY(read.records.isEmpty());
    QCOMPARE(read.skipped, 0);
    QVERIFY(read.problems.isEmpty());
}

void TestAuditLog::damagedLineSkipped_data()
{
    QTest::addColumn<QByteArray>("damaged");
    QTest::addColumn<QString>("why");
    QTest::newRow("not-json") << QByteArray("this is not json") << u"not JSON"_s;
    QTest::newRow("truncated") << QByteArray(R"({"id":"x","session_id":"s","tier":"fu)") << u"not JSON"_s;
    QTest::newRow("array") << QByteArray("[1,2,3]") << u"not a JSON object"_s;
    QTest::newRow("wrong-record") << QByteArray(R"({"id":"x"})") << u"session_id"_s;
    QTest::newRow("binary") << QByteArray("\x01\x02\xff\xfe", 4) << u"not JSON"_s;
}

void TestAuditLog::damagedLineSkipped()
{
    QFETCH(QByteArray, damaged);
    QFETCH(QString, why);
    QTemporaryDir data;
    const QString path = data.filePath(u"s.jsonl"_s);
    QVERIFY(AuditLog::append(path, sampleRecord(Tier::Warn, 1)));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Append));
        QVERIFY(file.write(damaged + '\n') == damaged.size() + 1);
    }
    QVERIFY(AuditLog::append(path, sampleRecord(Tier::Full, 3)));

    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"audit read: .*skipped 1 damaged lines"_s));
    const AuditLog::ReadResult read = AuditLog::read(path);
    QCOMPARE(read.records.size(), 2);
    QCOMPARE(read.records[0].requestIndex, 1);
    QCOMPARE(read.records[1].requestIndex, 3);
    QCOMPARE(read.records[1].tier, Tier::Full);
    QCOMPARE(read.skipped, 1);
    QCOMPARE(read.problems.size(), 1);
    QVERIFY2(read.problems[0].startsWith(u"line 2: "_s), qPrintable(read.problems[0]));
    QVERIFY2(read.problems[0].contains(why), qPrintable(read.problems[0]));
}

void TestAuditLog::appendFailsWhenBlocked()
{
    QTemporaryDir data;
    QFile blocker(data.filePath(u"compaction_records"_s));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    QString error;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"audit append failed: .*compaction_records"_s));
    QVERIFY(!AuditLog::append(data.filePath(u"compaction_records/s.jsonl"_s), sampleRecord(Tier::Full, 1), &error));
    QVERIFY2(error.contains(data.filePath(u"compaction_records"_s)), qPrintable(error));
    QCOMPARE(QFileInfo(blocker.fileName()).size(), 0);
}

void TestAuditLog::truncatedRecordDoesNotSwallowNext_data()
{
    QTest::addColumn<int>("cut");  // bytes cut off the end of the second record (its newline included)
    QTest::newRow("newline only") << 1;
    QTest::newRow("mid-line") << 25;
    QTest::newRow("one byte left") << -1;  // all but the first byte of the line
}

void TestAuditLog::truncatedRecordDoesNotSwallowNext()
{
    QFETCH(int, cut);
    QTemporaryDir data;
    const QString path = data.filePath(u"s.jsonl"_s);
    QVERIFY(AuditLog::append(path, sampleRecord(Tier::Warn, 1)));
    const qint64 firstEnd = QFileInfo(path).size();
    QVERIFY(AuditLog::append(path, sampleRecord(Tier::Warn, 2)));
    const qint64 secondEnd = QFileInfo(path).size();
    // A full disk (or a crash) stopped the second record part way.
    QVERIFY(QFile::resize(path, cut < 0 ? firstEnd + 1 : secondEnd - cut));
    QVERIFY(AuditLog::append(path, sampleRecord(Tier::Full, 3)));

    if (cut != 1)
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"audit read: .*skipped 1 damaged lines"_s));
    const AuditLog::ReadResult read = AuditLog::read(path);
    // The record after the damage is whole: only the cut one is lost (or none, when only its newline went).
    QCOMPARE(read.records.size(), cut == 1 ? 3 : 2);
    QCOMPARE(read.records.first().requestIndex, 1);
    QCOMPARE(read.records.last().requestIndex, 3);
    QCOMPARE(read.records.last().tier, Tier::Full);
    QCOMPARE(read.skipped, cut == 1 ? 0 : 1);
}

void TestAuditLog::privateWhateverTheUmask()
{
    const mode_t oldMask = ::umask(0);
    const auto restore = qScopeGuard([&] { ::umask(oldMask); });
    QTemporaryDir data;
    const QString path = data.filePath(u"records/deeper/s.jsonl"_s);
    QVERIFY(AuditLog::append(path, sampleRecord(Tier::Warn, 1)));
    struct stat info;
    QVERIFY(::stat(QFile::encodeName(path).constData(), &info) == 0);
    QCOMPARE(info.st_mode & 07777, mode_t(0600));
    for (const QString &folder : {data.filePath(u"records"_s), data.filePath(u"records/deeper"_s)}) {
        QVERIFY(::stat(QFile::encodeName(folder).constData(), &info) == 0);
        QCOMPARE(info.st_mode & 07777, mode_t(0700));
    }
    // A log an older version left readable by others is made private on the next append.
    const QString old = data.filePath(u"old.jsonl"_s);
    QVERIFY(AuditLog::append(old, sampleRecord(Tier::Warn, 1)));
    QVERIFY(::chmod(QFile::encodeName(old).constData(), 0644) == 0);
    QVERIFY(AuditLog::append(old, sampleRecord(Tier::Warn, 2)));
    QVERIFY(::stat(QFile::encodeName(old).constData(), &info) == 0);
    QCOMPARE(info.st_mode & 07777, mode_t(0600));
}

QTEST_GUILESS_MAIN(TestAuditLog)
#include "tst_auditlog.moc"
