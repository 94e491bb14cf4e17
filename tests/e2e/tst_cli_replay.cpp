// The real `waterline-cli` binary: simulate, import and export on a corpus file.
#include "CliProcess.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QString kCorpus = QStringLiteral(WATERLINE_TEST_DATA "/replay/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl");
const QString kSwe = QStringLiteral(WATERLINE_TEST_DATA "/replay/swe-agent/marshmallow-code__marshmallow-1867.traj");
const QString kTrajectories = QStringLiteral(WATERLINE_TEST_DATA "/replay/openai-chat/trajectories.json");
const QString kEventFolder = QStringLiteral(WATERLINE_TEST_DATA "/replay/openhands/conversation");

using Run = wl::test::CliProcess;

Run cli(const QStringList &arguments, const QString &home)
{
    return wl::test::runWaterlineCli(arguments, home);
}

QString tierFor(double ratio, double warn, double soft, double full, double emergency)
{
    if (ratio >= emergency)
        return u"emergency"_s;
    if (ratio >= full)
        return u"full"_s;
    if (ratio >= soft)
        return u"soft"_s;
    if (ratio >= warn)
        return u"warn"_s;
    return u"none"_s;
}

// Every result follows the call it answers, every call has exactly one result.
QString orphanIn(const QJsonArray &view)
{
    QSet<QString> open;
    QSet<QString> answered;
    for (qsizetype i = 0; i < view.size(); ++i) {
        const QJsonObject m = view[i].toObject();
        const QString role = m.value(u"role").toString();
        const QString callId = m.value(u"tool_call_id").toString();
        if (role == u"assistant") {
            if (!open.isEmpty())
                return u"message %1: calls %2 have no result before the next assistant turn"_s.arg(i).arg(open.values().join(u",'"_s));
            for (const QJsonValue &c : m.value(u"tool_calls").toArray()) {
                const QString id = c.toObject().value(u"id").toString();
                if (c.toObject().value(u"function").toObject().value(u"name").toString().isEmpty())
                    return u"message %1: a call without a function name"_s.arg(i);
                open.insert(id);
            }
        } else if (!callId.isEmpty()) {
            if (!open.remove(callId))
                return u"message %1: result for %2 without an open call"_s.arg(i).arg(callId);
            answered.insert(callId);
        } else if (!open.isEmpty() && role != u"system") {
            // A user message between a call and its result would break the pairing.
            return u"message %1: %2 message while calls are open"_s.arg(i).arg(role);
        }
    }
    if (!open.isEmpty())
        return u"calls %1 have no result at the end"_s.arg(open.values().join(u","_s));
    return {};
}

} // namespace

class TestCliReplay : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void simulateJsonAndViews_data();
    void simulateJsonAndViews();
    void usageErrors_data();
    void usageErrors();
    void malformedFileExitsThree();
    void importThenExport();
    void importWithReplayAndSimulateStored();
    void severalSessionsInOneFile();
    void simulatePicksASession_data();
    void simulatePicksASession();
    void eventFolder();
    void hostileNumbersInAFileAreNamed();
    void helpForEachCommand_data();
    void helpForEachCommand();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCliReplay::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestCliReplay::simulateJsonAndViews_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("policy");
    QTest::addColumn<double>("warn");
    QTest::addColumn<double>("soft");
    QTest::addColumn<double>("full");
    QTest::addColumn<double>("emergency");
    QTest::addColumn<bool>("everyTier");
    QTest::newRow("claude small window") << kCorpus
                                         << QStringList{u"--window"_s, u"20000"_s, u"--warn"_s, u"0.4"_s, u"--soft"_s,
                                                        u"0.55"_s, u"--full"_s, u"0.7"_s, u"--emergency"_s, u"0.9"_s,
                                                        u"--overhead"_s, u"0"_s, u"--offload-at-tool-time"_s, u"1000000000"_s}
                                         << 0.4 << 0.55 << 0.7 << 0.9 << true;
    QTest::newRow("claude defaults, size model") << kCorpus
                                                 << QStringList{u"--window"_s, u"30000"_s, u"--summary"_s, u"size:500"_s,
                                                                u"--count-tool-schemas"_s, u"off"_s, u"--tail"_s, u"4"_s,
                                                                u"--overhead"_s, u"0"_s}
                                                 << 0.6 << 0.7 << 0.8 << 0.95 << false;
    QTest::newRow("claude mask") << kCorpus
                                 << QStringList{u"--window"_s, u"60000"_s, u"--strategy"_s, u"mask"_s}
                                 << 0.6 << 0.7 << 0.8 << 0.95 << false;
    QTest::newRow("swe-agent hybrid") << kSwe
                                      << QStringList{u"--window"_s, u"8000"_s, u"--strategy"_s, u"hybrid"_s}
                                      << 0.6 << 0.7 << 0.8 << 0.95 << false;
    QTest::newRow("swe-agent 1.0") << kSwe
                                   << QStringList{u"--window"_s, u"8000"_s, u"--offload-threshold"_s, u"2000"_s}
                                   << 0.6 << 0.7 << 0.8 << 0.95 << false;
}

void TestCliReplay::simulateJsonAndViews()
{
    QFETCH(QString, file);
    QFETCH(QStringList, policy);
    QFETCH(double, warn);
    QFETCH(double, soft);
    QFETCH(double, full);
    QFETCH(double, emergency);
    QFETCH(bool, everyTier);

    const QString views = m_dir->filePath(u"views"_s);
    const Run run = cli(QStringList{u"simulate"_s, u"--input"_s, file, u"--json"_s, u"--dump-views"_s, views} + policy,
                        m_dir->path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &parseError);
    QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(parseError.errorString()));
    const QJsonObject root = doc.object();
    const QJsonArray requests = root.value(u"requests").toArray();
    const QJsonObject totals = root.value(u"totals").toObject();
    QVERIFY(!requests.isEmpty());
    QCOMPARE(totals.value(u"requests").toInt(), requests.size());
    for (const QString &key : {u"summary_calls"_s, u"peak_ratio"_s, u"emergencies"_s, u"tokens_sent"_s})
        QVERIFY2(totals.value(key).isDouble(), qPrintable(key));

    QSet<QString> tiers;
    int emergencies = 0;
    double peak = 0;
    for (qsizetype i = 0; i < requests.size(); ++i) {
        const QJsonObject r = requests[i].toObject();
        for (const QString &key : {u"index"_s, u"ratio_before"_s, u"ratio_after"_s, u"tokens_before"_s, u"tokens_after"_s,
                                   u"msgs_before"_s, u"msgs_after"_s, u"offloaded"_s, u"summarized"_s})
            QVERIFY2(r.value(key).isDouble(), qPrintable(u"request %1: %2"_s.arg(i).arg(key)));
        QVERIFY(r.value(u"error").isString());
        QCOMPARE(r.value(u"index").toInt(), int(i));
        const QString tier = r.value(u"tier").toString();
        QCOMPARE(tier, tierFor(r.value(u"ratio_before").toDouble(), warn, soft, full, emergency));
        tiers.insert(tier);
        emergencies += tier == u"emergency" ? 1 : 0;
        peak = std::max(peak, r.value(u"ratio_after").toDouble());
        QVERIFY(r.value(u"tokens_after").toDouble() <= r.value(u"tokens_before").toDouble());

        // The view file of this request.
        QFile viewFile(QDir(views).filePath(u"%1.json"_s.arg(i)));
        QVERIFY2(viewFile.open(QIODevice::ReadOnly), qPrintable(viewFile.fileName()));
        const QJsonArray view = QJsonDocument::fromJson(viewFile.readAll()).array();
        QCOMPARE(view.size(), r.value(u"msgs_after").toInt());
        QCOMPARE(view.first().toObject().value(u"role").toString(), u"system"_s);
        const QString orphan = orphanIn(view);
        QVERIFY2(orphan.isEmpty(), qPrintable(u"request %1: %2"_s.arg(i).arg(orphan)));
    }
    QCOMPARE(totals.value(u"emergencies").toInt(), emergencies);
    QCOMPARE(totals.value(u"peak_ratio").toDouble(), peak);
    QVERIFY(!QFileInfo::exists(QDir(views).filePath(u"%1.json"_s.arg(requests.size()))));
    if (everyTier)
        QCOMPARE(tiers, (QSet<QString>{u"none"_s, u"warn"_s, u"soft"_s, u"full"_s, u"emergency"_s}));
}

void TestCliReplay::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("named");
    QTest::newRow("no input") << QStringList{u"simulate"_s, u"--json"_s} << u"--input"_s;
    QTest::newRow("warn above one") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--warn"_s, u"1.5"_s} << u"--warn"_s;
    QTest::newRow("warn not a number") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--warn"_s, u"lots"_s} << u"--warn"_s;
    QTest::newRow("window zero") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--window"_s, u"0"_s} << u"--window"_s;
    QTest::newRow("soft below warn") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--soft"_s, u"0.5"_s} << u"--soft"_s;
    QTest::newRow("full below given soft") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--soft"_s, u"0.85"_s} << u"--soft"_s;
    QTest::newRow("tail zero") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--tail"_s, u"0"_s} << u"--tail"_s;
    QTest::newRow("negative offload") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--offload-threshold"_s, u"-1"_s}
                                      << u"--offload-threshold"_s;
    QTest::newRow("summary model") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--summary"_s, u"llm"_s} << u"--summary"_s;
    QTest::newRow("summary size zero") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--summary"_s, u"size:0"_s}
                                       << u"--summary"_s;
    QTest::newRow("schemas yes") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--count-tool-schemas"_s, u"yes"_s}
                                 << u"--count-tool-schemas"_s;
    QTest::newRow("unknown strategy") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--strategy"_s, u"compress"_s}
                                      << u"--strategy: 'compress'"_s;
    QTest::newRow("unknown format") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--format"_s, u"word"_s} << u"--format"_s;
    QTest::newRow("unknown option") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--colour"_s} << u"colour"_s;
    QTest::newRow("import without db") << QStringList{u"import"_s, kCorpus} << u"--db"_s;
    QTest::newRow("import window without replay") << QStringList{u"import"_s, kCorpus, u"--db"_s, u"x.db"_s, u"--window"_s, u"9"_s}
                                                  << u"--replay"_s;
    // Hostile numbers: a usage error naming the option, never a wrapped or negative value.
    QTest::newRow("window int64 max") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--window"_s, u"9223372036854775807"_s}
                                      << u"--window"_s;
    QTest::newRow("window 1e300") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--window"_s, u"1e300"_s} << u"--window"_s;
    QTest::newRow("window negative") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--window"_s, u"-5"_s} << u"--window"_s;
    QTest::newRow("window 12abc") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--window"_s, u"12abc"_s} << u"--window"_s;
    QTest::newRow("tail huge") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--tail"_s, u"99999999999999999999"_s} << u"--tail"_s;
    QTest::newRow("offload 2^63") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--offload-threshold"_s, u"9223372036854775808"_s}
                                  << u"--offload-threshold"_s;
    QTest::newRow("summary size huge") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--summary"_s, u"size:9223372036854775807"_s}
                                       << u"--summary"_s;
    QTest::newRow("warn NaN") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--warn"_s, u"nan"_s} << u"--warn"_s;
    QTest::newRow("run fractional") << QStringList{u"simulate"_s, u"--input"_s, kCorpus, u"--run"_s, u"1.5"_s} << u"--run"_s;
    QTest::newRow("import run 2^31") << QStringList{u"import"_s, kCorpus, u"--db"_s, u"x.db"_s, u"--run"_s, u"2147483648"_s} << u"--run"_s;
    QTest::newRow("import window 1e300") << QStringList{u"import"_s, kCorpus, u"--db"_s, u"x.db"_s, u"--replay"_s, u"--window"_s, u"1e300"_s}
                                         << u"--window"_s;
    QTest::newRow("export two sessions") << QStringList{u"export"_s, u"a"_s, u"b"_s, u"--db"_s, u"x.db"_s} << u"session"_s;
}

void TestCliReplay::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, named);
    const Run run = cli(arguments, m_dir->path());
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(named), run.err.constData());
    QVERIFY(run.out.isEmpty());
}

void TestCliReplay::malformedFileExitsThree()
{
    const QString path = m_dir->filePath(u"broken.jsonl"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // Claude Code lines whose "message" is not an object: nothing of the conversation is left.
    file.write(R"({"type":"user","message":"hello"})" "\n" R"({"type":"assistant","message":{"content":42}})" "\n");
    file.close();
    const QString db = m_dir->filePath(u"s.db"_s);
    for (const QStringList &arguments : {QStringList{u"simulate"_s, u"--input"_s, path, u"--json"_s},
                                         QStringList{u"import"_s, path, u"--db"_s, db}}) {
        const Run run = cli(arguments, m_dir->path());
        QCOMPARE(run.exitCode, 3);
        // File, line and field.
        const QString err = QString::fromUtf8(run.err);
        QVERIFY2(err.contains(path + u":1: field 'message'"_s), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }
    // Some bad lines: the rest is used, and the skipped lines are reported with file, line, field.
    const QString partial = m_dir->filePath(u"partial.jsonl"_s);
    QFile partialFile(partial);
    QVERIFY(partialFile.open(QIODevice::WriteOnly));
    partialFile.write(R"({"role":"user","content":"hello"})" "\n" R"({"role":7,"content":"?"})" "\n"
                      R"({"role":"assistant","content":"hi"})" "\n");
    partialFile.close();
    const Run some = cli({u"simulate"_s, u"--input"_s, partial, u"--json"_s}, m_dir->path());
    QCOMPARE(some.exitCode, 0);
    QVERIFY2(QString::fromUtf8(some.err).contains(partial + u":2: field 'role'"_s), some.err.constData());
    QCOMPARE(QJsonDocument::fromJson(some.out).object().value(u"totals").toObject().value(u"requests").toInt(), 1);

    // A session id without --db, a missing file, a session not in the database: bad input too.
    QCOMPARE(cli({u"simulate"_s, u"--input"_s, u"no-such-thing"_s}, m_dir->path()).exitCode, 3);
    QCOMPARE(cli({u"import"_s, m_dir->filePath(u"missing.jsonl"_s), u"--db"_s, db}, m_dir->path()).exitCode, 3);
    const Run unknown = cli({u"export"_s, u"no-such-session"_s, u"--db"_s, db}, m_dir->path());
    QCOMPARE(unknown.exitCode, 3);
    QVERIFY2(unknown.err.contains("no-such-session"), unknown.err.constData());
}

void TestCliReplay::importThenExport()
{
    const QString db = m_dir->filePath(u"sessions.db"_s);
    const Run imported = cli({u"import"_s, kSwe, u"--db"_s, db, u"--title"_s, u"marshmallow"_s}, m_dir->path());
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    const QString id = QString::fromUtf8(imported.out).trimmed();
    QVERIFY(!id.isEmpty() && !id.contains(u'\n'));

    const Run exported = cli({u"export"_s, id, u"--db"_s, db}, m_dir->path());
    QVERIFY2(exported.exitCode == 0, exported.err.constData());
    const QList<QByteArray> lines = exported.out.trimmed().split('\n');
    const QJsonObject header = QJsonDocument::fromJson(lines.first()).object();
    QCOMPARE(header.value(u"format").toString(), u"waterline-session"_s);
    QCOMPARE(header.value(u"session").toObject().value(u"id").toString(), id);
    QCOMPARE(header.value(u"session").toObject().value(u"title").toString(), u"marshmallow"_s);
    int messages = 0, requests = 0;
    for (const QByteArray &line : lines) {
        const QString type = QJsonDocument::fromJson(line).object().value(u"type").toString();
        messages += type == u"message" ? 1 : 0;
        requests += type == u"request" ? 1 : 0;
    }
    QCOMPARE(messages, 28); // README swe-agent row: 28 messages, 13 steps
    QCOMPARE(requests, 13);

    // --out writes the same file; importing it back gives a new session.
    const QString out = m_dir->filePath(u"out.jsonl"_s);
    QCOMPARE(cli({u"export"_s, id, u"--db"_s, db, u"--out"_s, out}, m_dir->path()).exitCode, 0);
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().split('\n').size(), exported.out.split('\n').size());
    const Run again = cli({u"import"_s, out, u"--db"_s, db}, m_dir->path());
    QVERIFY2(again.exitCode == 0, again.err.constData());
    QVERIFY(QString::fromUtf8(again.out).trimmed() != id);
}

// A JSON array of three trajectories: import makes three sessions, --session-index one.
void TestCliReplay::severalSessionsInOneFile()
{
    const QString db = m_dir->filePath(u"sessions.db"_s);
    const Run all = cli({u"import"_s, kTrajectories, u"--db"_s, db}, m_dir->path());
    QVERIFY2(all.exitCode == 0, all.err.constData());
    const QStringList ids = QString::fromUtf8(all.out).trimmed().split(u'\n');
    QCOMPARE(ids.size(), 3);
    QCOMPARE(QSet<QString>(ids.cbegin(), ids.cend()).size(), 3);
    QVERIFY2(all.err.contains("3 sessions"), all.err.constData());
    // Each is its own session, the second with the LiteLLM log's 12 messages.
    const Run second = cli({u"export"_s, ids[1], u"--db"_s, db}, m_dir->path());
    QVERIFY2(second.exitCode == 0, second.err.constData());
    QCOMPARE(second.out.count("\"type\":\"message\""), 12);

    const Run one = cli({u"import"_s, kTrajectories, u"--db"_s, db, u"--session-index"_s, u"2"_s}, m_dir->path());
    QVERIFY2(one.exitCode == 0, one.err.constData());
    QCOMPARE(QString::fromUtf8(one.out).trimmed().split(u'\n').size(), 1);
    const Run missing = cli({u"import"_s, kTrajectories, u"--db"_s, db, u"--session-index"_s, u"3"_s}, m_dir->path());
    QCOMPARE(missing.exitCode, 3);
    QVERIFY2(missing.err.contains("holds 3 session"), missing.err.constData());
}

void TestCliReplay::simulatePicksASession_data()
{
    QTest::addColumn<QStringList>("pick");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("requests");
    QTest::addColumn<QString>("message");
    // Ambiguous: the sessions are listed by index and id.
    QTest::newRow("none given") << QStringList{} << 2 << 0 << u"litellm-request"_s;
    QTest::newRow("by index") << QStringList{u"--session-index"_s, u"1"_s} << 0 << 5 << QString();
    QTest::newRow("by old name") << QStringList{u"--run"_s, u"0"_s} << 0 << 6 << QString();
    QTest::newRow("by id") << QStringList{u"--session-id"_s, u"fncall-first-call"_s} << 0 << 1 << QString();
    QTest::newRow("unknown id") << QStringList{u"--session-id"_s, u"nope"_s} << 2 << 0 << u"fncall-first-call"_s;
    QTest::newRow("index too big") << QStringList{u"--session-index"_s, u"7"_s} << 3 << 0 << u"holds 3 session"_s;
    QTest::newRow("both") << QStringList{u"--session-index"_s, u"1"_s, u"--session-id"_s, u"x"_s} << 2 << 0 << u"--session-id"_s;
}

void TestCliReplay::simulatePicksASession()
{
    QFETCH(QStringList, pick);
    QFETCH(int, exitCode);
    QFETCH(int, requests);
    QFETCH(QString, message);
    const Run run = cli(QStringList{u"simulate"_s, u"--input"_s, kTrajectories, u"--json"_s} + pick, m_dir->path());
    QVERIFY2(run.exitCode == exitCode, run.err.constData());
    if (exitCode == 0) {
        const QJsonObject totals = QJsonDocument::fromJson(run.out).object().value(u"totals").toObject();
        QCOMPARE(totals.value(u"requests").toInt(), requests);
    } else {
        QVERIFY(run.out.isEmpty());
        QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    }
}

// A folder of one JSON file per event (OpenHands) imports and simulates like its events.jsonl.
void TestCliReplay::eventFolder()
{
    const Run folder = cli({u"simulate"_s, u"--input"_s, kEventFolder, u"--json"_s}, m_dir->path());
    QVERIFY2(folder.exitCode == 0, folder.err.constData());
    const Run lines = cli({u"simulate"_s, u"--input"_s, QStringLiteral(WATERLINE_TEST_DATA "/replay/openhands/events.jsonl"), u"--json"_s},
                          m_dir->path());
    QVERIFY2(lines.exitCode == 0, lines.err.constData());
    QCOMPARE(QJsonDocument::fromJson(folder.out).object().value(u"totals"), QJsonDocument::fromJson(lines.out).object().value(u"totals"));
    const Run imported = cli({u"import"_s, kEventFolder, u"--db"_s, m_dir->filePath(u"s.db"_s)}, m_dir->path());
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    QCOMPARE(QString::fromUtf8(imported.out).trimmed().split(u'\n').size(), 1);
}

// A token count no integer holds is read as not reported, and the warning names its line and field.
void TestCliReplay::hostileNumbersInAFileAreNamed()
{
    const QString path = m_dir->filePath(u"numbers.jsonl"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"type":"user","sessionId":"s","parentUuid":null,"message":{"role":"user","content":"hello"}})" "\n"
               R"({"type":"assistant","sessionId":"s","parentUuid":"u","message":{"id":"m1","model":"x","role":"assistant","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":1e300,"output_tokens":1}}})" "\n");
    file.close();
    for (const QStringList &arguments : {QStringList{u"simulate"_s, u"--input"_s, path, u"--json"_s},
                                         QStringList{u"import"_s, path, u"--db"_s, m_dir->filePath(u"s.db"_s)}}) {
        const Run run = cli(arguments, m_dir->path());
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(QString::fromUtf8(run.err).contains(path + u":2: field message.usage.input_tokens"_s), run.err.constData());
    }
}

void TestCliReplay::importWithReplayAndSimulateStored()
{
    const QString db = m_dir->filePath(u"sessions.db"_s);
    const QString workspace = m_dir->filePath(u"ws"_s);
    QVERIFY(QDir().mkpath(workspace));
    // Claude Code's own prompt and tools (about 37,000 tokens, estimated) ride with every request:
    // a window that leaves room for the conversation.
    const Run imported = cli({u"import"_s, kCorpus, u"--db"_s, db, u"--workspace"_s, workspace, u"--replay"_s, u"--window"_s,
                              u"55000"_s},
                             m_dir->path());
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    const QString id = QString::fromUtf8(imported.out).trimmed();
    QVERIFY(QDir(workspace + u"/.waterline/tool_results/"_s + id).exists());
    // The audit went to <data dir>/compaction_records/<session>.jsonl, one record per line.
    QString audit;
    QDirIterator it(m_dir->filePath(u"data"_s), {id + u".jsonl"_s}, QDir::Files, QDirIterator::Subdirectories);
    if (it.hasNext())
        audit = it.next();
    QVERIFY2(audit.endsWith(u"/compaction_records/"_s + id + u".jsonl"_s), qPrintable(audit));
    QFile auditFile(audit);
    QVERIFY(auditFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> auditLines = auditFile.readAll().trimmed().split('\n');

    const Run exported = cli({u"export"_s, id, u"--db"_s, db}, m_dir->path());
    QVERIFY(exported.out.contains("\"type\":\"checkpoint\""));
    int recordLines = 0;
    for (const QByteArray &line : exported.out.split('\n'))
        recordLines += QJsonDocument::fromJson(line).object().value(u"type").toString() == u"record" ? 1 : 0;
    QVERIFY(recordLines > 0);
    QCOMPARE(recordLines, auditLines.size());

    // Simulating the stored session under the policy it was replayed with gives the tiers the
    // replay stored on its requests.
    const Run simulated = cli({u"simulate"_s, u"--input"_s, id, u"--db"_s, db, u"--json"_s}, m_dir->path());
    QVERIFY2(simulated.exitCode == 0, simulated.err.constData());
    QStringList simulatedTiers;
    for (const QJsonValue &r : QJsonDocument::fromJson(simulated.out).object().value(u"requests").toArray())
        simulatedTiers << r.toObject().value(u"tier").toString();
    QStringList storedTiers;
    for (const QByteArray &line : exported.out.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value(u"type").toString() == u"request")
            storedTiers << o.value(u"tier").toString();
    }
    QCOMPARE(storedTiers.size(), 152);
    QCOMPARE(simulatedTiers, storedTiers);
    // The replay went through both LLM tiers (at a 55,000-token window: 9 Full and 141 Soft today).
    QVERIFY2(storedTiers.contains(u"full"_s), qPrintable(storedTiers.join(u',')));
    QVERIFY2(storedTiers.contains(u"soft"_s), qPrintable(storedTiers.join(u',')));
}

void TestCliReplay::helpForEachCommand_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("import") << u"import"_s << u"--replay"_s;
    QTest::newRow("export") << u"export"_s << u"--out"_s;
    QTest::newRow("simulate") << u"simulate"_s << u"--dump-views"_s;
}

void TestCliReplay::helpForEachCommand()
{
    QFETCH(QString, command);
    QFETCH(QString, mentions);
    const Run run = cli({command, u"--help"_s}, m_dir->path());
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(mentions.toUtf8()), run.out.constData());
}

QTEST_GUILESS_MAIN(TestCliReplay)
#include "tst_cli_replay.moc"
