// Hostile Waterline session exports: every number the reader takes set to 1e300, -5, 1.5, 2^63
// or a string; a line that never ends; many lines. Each is a clear error naming the line and the
// field, never a crash or a cast of an out-of-range double, and the reader's memory does not grow
// with the size of the file.
#include "TestSupport.h"
#include "StoreTestData.h"
#include "store/SessionExport.h"
#include "store/SessionStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {

// Every kind of line, every numeric field present (usage and schema bytes not null).
SessionDocument sampleDocument()
{
    SessionDocument doc;
    doc.session.id = u"s1"_s;
    doc.session.title = u"hostile"_s;
    doc.session.policy = QJsonObject{{u"context_window"_s, 1000}, {u"tail_messages"_s, 4}, {u"reserved_output"_s, 10}};
    Message user = Message::user(u"Fix it"_s);
    Message call = Message::assistant(u"Looking."_s, {{u"call_1"_s, u"grep"_s, u"{}"_s, true}});
    call.origin = 1;
    Message result = Message::toolResult(u"call_1"_s, u"found"_s);
    Message done = Message::assistant(u"Done."_s);
    done.origin = 2;
    qint64 id = 0;
    for (Message m : {user, call, result, done}) {
        m.id = ++id;
        m.createdAt = fixedTime(int(id));
        m.cacheBytes();
        doc.messages << m;
    }
    Checkpoint cp;
    cp.id = 1;
    cp.coversFromMessageId = 1;
    cp.coversUpToMessageId = 3;
    cp.text = u"[Context Compaction]"_s;
    cp.recordId = u"rec-1"_s;
    cp.tier = Tier::Soft;
    doc.checkpoints << cp;
    OffloadOverlay off;
    off.messageId = 3;
    off.entry = {u"call_1"_s, u"grep"_s, u"call_1.txt"_s, 5, 1, 1, 3};
    off.placeholder = u"[offloaded: call_1]"_s;
    doc.offloads << off;
    for (int i = 0; i < 2; ++i) {
        RequestRecord r;
        r.id = i + 1;
        r.index = i;
        r.viewMessageIds = i == 0 ? ViewIds{1} : ViewIds{4};
        r.viewCheckpointId = i == 0 ? 0 : 1;
        r.estimateTokens = 10;
        r.toolSchemaTokens = 30;
        r.toolSchemaBytes = 120;
        r.inputTokens = 40;
        r.outputTokens = 5;
        r.cacheReadTokens = 1;
        r.cacheWriteTokens = 2;
        r.model = u"m"_s;
        doc.requests << r;
    }
    CompactionRecord record = sampleRecord(u"rec-1"_s, 1);
    record.offloaded << OffloadEntry{u"call_1"_s, u"grep"_s, u"call_1.txt"_s, 5, 1, 2, 3};
    record.durationMs = 12;
    doc.records << record;
    return doc;
}

QList<QJsonObject> sampleLines(const QString &path)
{
    if (!SessionExport::write(sampleDocument(), path))
        return {};
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QJsonObject> out;
    for (QByteArray line = f.readLine(); !line.isEmpty(); line = f.readLine())
        out << QJsonDocument::fromJson(line).object();
    return out;
}

bool writeLines(const QString &path, const QList<QJsonObject> &lines)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    for (const QJsonObject &o : lines)
        f.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
    return true;
}

// Sets a value at a dotted path ("record.offloaded.0.bytes"); numbers index arrays.
QJsonValue withValue(const QJsonValue &at, QStringView path, const QJsonValue &value)
{
    const qsizetype dot = path.indexOf(u'.');
    const QStringView key = dot < 0 ? path : path.first(dot);
    if (at.isArray()) {
        QJsonArray array = at.toArray();
        const qsizetype i = key.toInt();
        array[i] = dot < 0 ? value : withValue(array[i], path.sliced(dot + 1), value);
        return array;
    }
    QJsonObject object = at.toObject();
    object[key] = dot < 0 ? value : withValue(object[key], path.sliced(dot + 1), value);
    return object;
}

struct Field
{
    const char *type;  // the line's "type"
    const char *path;  // dotted path inside it
    const char *name;  // what the error must name
};

// Every number SessionExport::read takes from a file.
constexpr Field numericFields[] = {
    {"header", "version", "version"},
    {"header", "session.policy.context_window", "context_window"},
    {"header", "session.policy.tail_messages", "tail_messages"},
    {"header", "session.policy.reserved_output", "reserved_output"},
    {"message", "seq", "seq"},
    {"message", "origin", "origin"},
    {"checkpoint", "ordinal", "ordinal"},
    {"checkpoint", "covers_from", "covers_from"},
    {"checkpoint", "covers_up_to", "covers_up_to"},
    {"offload", "message", "message"},
    {"offload", "bytes", "bytes"},
    {"offload", "lines", "lines"},
    {"offload", "gate", "gate"},
    {"request", "index", "index"},
    {"request", "estimate_tokens", "estimate_tokens"},
    {"request", "tool_schema_tokens", "tool_schema_tokens"},
    {"request", "tool_schema_bytes", "tool_schema_bytes"},
    {"request", "view.checkpoint", "view.checkpoint"},
    {"request", "view.messages.0", "view"},
    {"request", "usage.input", "usage.input"},
    {"request", "usage.output", "usage.output"},
    {"request", "usage.cache_read", "usage.cache_read"},
    {"request", "usage.cache_write", "usage.cache_write"},
    {"record", "record.request_index", "request_index"},
    {"record", "record.tokens_before", "tokens_before"},
    {"record", "record.tokens_after", "tokens_after"},
    {"record", "record.msgs_before", "msgs_before"},
    {"record", "record.msgs_after", "msgs_after"},
    {"record", "record.summarized", "summarized"},
    {"record", "record.preserved_tail", "preserved_tail"},
    {"record", "record.duration_ms", "duration_ms"},
    {"record", "record.reason.estimate_tokens", "estimate_tokens"},
    {"record", "record.reason.tool_schema_tokens", "tool_schema_tokens"},
    {"record", "record.reason.reserved_output", "reserved_output"},
    {"record", "record.reason.context_window", "context_window"},
    {"record", "record.offloaded.0.bytes", "bytes"},
    {"record", "record.offloaded.0.lines", "lines"},
    {"record", "record.offloaded.0.gate", "gate"},
    {"record", "record.offloaded.0.message_id", "message_id"},
    {"end", "counts.messages", "messages"},
    {"end", "counts.checkpoints", "checkpoints"},
    {"end", "counts.offloads", "offloads"},
    {"end", "counts.requests", "requests"},
    {"end", "counts.records", "records"},
};

} // namespace

class TestExportHostile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void sampleReads();
    void cutMessageArguments_data();
    void cutMessageArguments();
    void hostileNumbersNameLineAndField_data();
    void hostileNumbersNameLineAndField();
    void windowOfZeroMeansNeverCompact_data();
    void windowOfZeroMeansNeverCompact();
    void endlessLineIsRefusedBeforeItIsHeld();
    void lineOverTheCapIsRefused();
    void linesUnderTheCapReadWhateverTheFileSize();
    void peakMemoryDoesNotGrowWithTheFile();
    void importIntoTheStoreStreams();

private:
    QString path(const QString &name) const { return m_dir->filePath(name); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestExportHostile::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestExportHostile::sampleReads()
{
    const QString file = path(u"sample.jsonl"_s);
    QVERIFY(!sampleLines(file).isEmpty());
    QString error;
    const auto doc = SessionExport::read(file, &error);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->messages.size(), 4);
    QCOMPARE(doc->requests.size(), 2);
    QCOMPARE(doc->requests[1].cacheWriteTokens, 2);
    QCOMPARE(doc->offloads.value(0).entry.bytes, 5);
    QCOMPARE(doc->records.value(0).durationMs, 12);
}

void TestExportHostile::cutMessageArguments_data()
{
    // An offload line of gate 3 (a message Emergency cut) carries its calls' shown arguments.
    QTest::addColumn<QJsonValue>("arguments");
    QTest::addColumn<bool>("ok");
    QTest::newRow("strings") << QJsonValue(QJsonArray{u"{\"content\":\"he[... cut ...]nd\"}"_s}) << true;
    QTest::newRow("absent") << QJsonValue(QJsonValue::Undefined) << true;
    QTest::newRow("not-a-list") << QJsonValue(u"{}"_s) << false;
    QTest::newRow("a-number-in-it") << QJsonValue(QJsonArray{1}) << false;
    QTest::newRow("an-object-in-it") << QJsonValue(QJsonArray{QJsonObject{{u"a"_s, 1}}}) << false;
}

void TestExportHostile::cutMessageArguments()
{
    QFETCH(QJsonValue, arguments);
    QFETCH(bool, ok);
    QList<QJsonObject> lines = sampleLines(path(u"sample.jsonl"_s));
    qsizetype at = -1;
    for (qsizetype i = 0; i < lines.size() && at < 0; ++i) {
        if (lines[i].value(u"type").toString() == u"offload")
            at = i;
    }
    QVERIFY(at >= 0);
    lines[at].insert(u"gate"_s, OffloadEntry::kCutGate);
    lines[at].insert(u"message"_s, 1); // the assistant message with the call
    if (!arguments.isUndefined())
        lines[at].insert(u"arguments"_s, arguments);
    const QString file = path(u"cut.jsonl"_s);
    QVERIFY(writeLines(file, lines));
    QString error;
    const auto doc = SessionExport::read(file, &error);
    QCOMPARE(bool(doc), ok);
    if (!ok) {
        QVERIFY2(error.contains(u"line %1"_s.arg(at + 1)) && error.contains(u"arguments"_s), qPrintable(error));
        return;
    }
    const OffloadOverlay &cut = doc->offloads.value(0);
    QVERIFY(cut.isCut());
    QCOMPARE(QJsonValue(QJsonArray::fromStringList(cut.arguments)), arguments.isUndefined() ? QJsonValue(QJsonArray()) : arguments);
    // And written back the same way.
    const QString again = path(u"again.jsonl"_s);
    QVERIFY(SessionExport::write(*doc, again));
    const auto reread = SessionExport::read(again, &error);
    QVERIFY2(reread, qPrintable(error));
    QCOMPARE(reread->offloads.value(0).arguments, cut.arguments);
}

void TestExportHostile::hostileNumbersNameLineAndField_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("fieldPath");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QJsonValue>("value");
    const std::pair<const char *, QJsonValue> values[] = {
        {"1e300", 1e300},
        {"-5", -5},
        {"1.5", 1.5},
        {"2^63", 9223372036854775808.0},
        {"string", u"12"_s},
    };
    for (const Field &f : numericFields) {
        for (const auto &[label, value] : values)
            QTest::addRow("%s %s", f.path, label) << QString::fromLatin1(f.type) << QString::fromLatin1(f.path)
                                                  << QString::fromLatin1(f.name) << value;
    }
}

void TestExportHostile::hostileNumbersNameLineAndField()
{
    QFETCH(QString, type);
    QFETCH(QString, fieldPath);
    QFETCH(QString, name);
    QFETCH(QJsonValue, value);
    QList<QJsonObject> lines = sampleLines(path(u"sample.jsonl"_s));
    QVERIFY(!lines.isEmpty());
    qsizetype at = -1;
    for (qsizetype i = 0; i < lines.size() && at < 0; ++i) {
        if (lines[i].value(u"type").toString() == type)
            at = i;
    }
    QVERIFY(at >= 0);
    lines[at] = withValue(lines[at], fieldPath, value).toObject();
    const QString file = path(u"hostile.jsonl"_s);
    QVERIFY(writeLines(file, lines));

    QString error;
    QVERIFY(!SessionExport::read(file, &error));
    QVERIFY2(error.contains(u"line %1"_s.arg(at + 1)), qPrintable(error));
    QVERIFY2(error.contains(name), qPrintable(error));
}

void TestExportHostile::windowOfZeroMeansNeverCompact_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("fieldPath");
    QTest::newRow("policy") << u"header"_s << u"session.policy.context_window"_s;
    QTest::newRow("record of a forced pass") << u"record"_s << u"record.reason.context_window"_s;
}

// COMPACTION.md section 3: a window of 0 means "never compact"; it is read, not refused (a forced
// compaction under such a policy records it). Negative windows are refused above.
void TestExportHostile::windowOfZeroMeansNeverCompact()
{
    QFETCH(QString, type);
    QFETCH(QString, fieldPath);
    QList<QJsonObject> lines = sampleLines(path(u"sample.jsonl"_s));
    QVERIFY(!lines.isEmpty());
    for (QJsonObject &line : lines) {
        if (line.value(u"type").toString() == type)
            line = withValue(line, fieldPath, 0).toObject();
    }
    const QString file = path(u"zero.jsonl"_s);
    QVERIFY(writeLines(file, lines));
    QString error;
    const auto doc = SessionExport::read(file, &error);
    QVERIFY2(doc, qPrintable(error));
    if (type == u"header")
        QCOMPARE(doc->session.policy.value(u"context_window").toInteger(-1), 0);
    else
        QCOMPARE(doc->records.value(0).reason.contextWindow, 0);
}

// A 200 MB line without a newline: refused at the cap, with the line's number, without holding
// the line; the default cap refuses it too once it is over (here: at the end of the file).
void TestExportHostile::endlessLineIsRefusedBeforeItIsHeld()
{
    const QString file = path(u"endless.jsonl"_s);
    QList<QJsonObject> lines = sampleLines(file);
    QVERIFY(!lines.isEmpty());
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(lines.first()).toJson(QJsonDocument::Compact) + '\n');
        f.write(R"({"type":"message","seq":0,"role":"user","content":")");
        const QByteArray block(1 << 20, 'x');
        for (int i = 0; i < 200; ++i)
            QCOMPARE(f.write(block), block.size());
    }
    constexpr qint64 cap = 16ll << 20;
    const bool measured = resetPeak();
    const qint64 before = peakRss();
    QString error;
    QVERIFY(!SessionExport::read(file, &error, cap));
    const qint64 growth = peakRss() - before;
    QVERIFY2(error.contains(u"line 2: line is longer than 16 MB"_s), qPrintable(error));
    if (measured && before > 0) {
        qInfo("peak memory growth reading a 200 MB line with a 16 MB cap: %lld MB", growth >> 20);
        QVERIFY2(growth < 3 * cap, qPrintable(u"grew by %1 MB"_s.arg(growth >> 20)));
    }

    // The default cap: an unterminated line is still a clear error naming it, not a crash.
    resetPeak();
    const qint64 beforeDefault = peakRss();
    QVERIFY(!SessionExport::read(file, &error));
    QVERIFY2(error.contains(u"line 2"_s), qPrintable(error));
    if (measured && beforeDefault > 0)
        qInfo("peak memory growth reading it with the default cap: %lld MB", (peakRss() - beforeDefault) >> 20);
}

void TestExportHostile::lineOverTheCapIsRefused()
{
    const QString file = path(u"long.jsonl"_s);
    QList<QJsonObject> lines = sampleLines(file);
    QVERIFY(!lines.isEmpty());
    lines[1].insert(u"content", QString(4096, u'y'));
    QVERIFY(writeLines(file, lines));
    QString error;
    QVERIFY(!SessionExport::read(file, &error, 1024));
    QVERIFY2(error.contains(u"line 2: line is longer than"_s), qPrintable(error));
}

// The cap is per line: a file holding many times the cap in records reads.
void TestExportHostile::linesUnderTheCapReadWhateverTheFileSize()
{
    SessionDocument doc = sampleDocument();
    doc.checkpoints.clear();
    doc.offloads.clear();
    doc.records.clear();
    doc.requests.clear();
    doc.messages.clear();
    for (int i = 0; i < 2000; ++i) {
        Message m = Message::user(QString(2000, QChar(u'a' + i % 26)));
        m.id = i + 1;
        doc.messages << m;
    }
    const QString file = path(u"many.jsonl"_s);
    QVERIFY(SessionExport::write(doc, file));
    QVERIFY(QFileInfo(file).size() > 8 * 4096);
    QString error;
    const auto read = SessionExport::read(file, &error, 4096);
    QVERIFY2(read, qPrintable(error));
    QCOMPARE(read->messages.size(), 2000);
    QCOMPARE(read->messages.last().content, QString(2000, QChar(u'a' + 1999 % 26)));
}

// A valid export of `megabytes` MB: user messages of 100 KB, every tenth answered by a request.
static qint64 writeLargeExport(const QString &file, int megabytes)
{
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return -1;
    f.write(R"({"type":"header","format":"waterline-session","version":1,"session":{"title":"large"}})" "\n");
    const QByteArray body(100 * 1024, 'b');
    qint64 messages = 0;
    while (f.size() < qint64(megabytes) << 20) {
        f.write(R"({"type":"message","seq":)" + QByteArray::number(messages) + R"(,"role":"user","content":")" + body + "\"}\n");
        ++messages;
    }
    f.write(R"({"type":"end","counts":{"messages":)" + QByteArray::number(messages)
            + R"(,"checkpoints":0,"offloads":0,"requests":0,"records":0}})" "\n");
    return messages;
}

// The reader streams: reading 40 MB and 160 MB exports, the peak grows by about the same few MB
// (one read buffer, one line, its message), not by the file.
void TestExportHostile::peakMemoryDoesNotGrowWithTheFile()
{
    if (!resetPeak() || peakRss() < 0)
        QSKIP("no /proc/self/clear_refs: peak memory cannot be measured here");
    QList<qint64> growth;
    for (const int megabytes : {40, 160}) {
        const QString file = path(u"large-%1.jsonl"_s.arg(megabytes));
        const qint64 written = writeLargeExport(file, megabytes);
        QVERIFY(written > 0);
        qint64 messages = 0;
        qint64 bytes = 0;
        SessionExport::Streaming streaming;
        streaming.session = [](const SessionInfo &session, QString *) { return session.title == u"large"; };
        streaming.message = [&](Message &&m, QString *) {
            ++messages;
            bytes += m.byteCount();
            return m.id == messages;
        };
        QVERIFY(resetPeak());
        const qint64 before = peakRss();
        QString error;
        const auto doc = SessionExport::read(file, streaming, &error);
        growth << peakRss() - before;
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(messages, written);
        QCOMPARE(doc->streamedMessages, written);
        QVERIFY(doc->messages.isEmpty());
        QCOMPARE(bytes, written * 100 * 1024);
        QFile::remove(file);
        qInfo("reading a %d MB export (%lld messages): peak memory grew by %lld KB", megabytes, written, growth.last() >> 10);
    }
    QVERIFY2(growth[1] < 16ll << 20, qPrintable(u"grew by %1 MB"_s.arg(growth[1] >> 20)));
    QVERIFY2(growth[1] < growth[0] + (4ll << 20), qPrintable(u"%1 KB then %2 KB"_s.arg(growth[0] >> 10).arg(growth[1] >> 10)));
}

// SessionStore::importSession stores each message as it is read: importing a 160 MB export
// grows the peak by the store's caches, not by the file; a damaged line at the end still
// leaves nothing behind.
void TestExportHostile::importIntoTheStoreStreams()
{
    if (!resetPeak() || peakRss() < 0)
        QSKIP("no /proc/self/clear_refs: peak memory cannot be measured here");
    SessionStore store;
    QVERIFY(store.open(path(u"sessions.db"_s)));
    const QString file = path(u"large.jsonl"_s);
    const qint64 written = writeLargeExport(file, 160);
    QVERIFY(written > 0);
    QVERIFY(resetPeak());
    const qint64 before = peakRss();
    QString error;
    const auto id = store.importSession(file, m_dir->path(), &error);
    const qint64 growth = peakRss() - before;
    QVERIFY2(id, qPrintable(error));
    QCOMPARE(store.session(*id)->messageCount, written);
    qInfo("importing a 160 MB export into the store: peak memory grew by %lld MB", growth >> 20);
    QVERIFY2(growth < 48ll << 20, qPrintable(u"grew by %1 MB"_s.arg(growth >> 20)));

    // The same file with its end line damaged: refused after the messages were stored, and
    // every one of them is gone again.
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.seek(f.size() - 3));
        f.write("?\n");
    }
    const qsizetype sessions = store.listSessions().size();
    QVERIFY(!store.importSession(file, m_dir->path(), &error));
    QVERIFY2(error.contains(u"line %1"_s.arg(written + 2)), qPrintable(error));
    QCOMPARE(store.listSessions().size(), sessions);
}

QTEST_GUILESS_MAIN(TestExportHostile)
#include "tst_exporthostile.moc"
