// The real `waterline-cli show`: a stored import as the workbench shows it, one row per request,
// the same numbers as the engine's RecordedRequests (which the window's gauge and Context dock read).
#include "CliProcess.h"

#include "score/RecordedRequests.h"
#include "store/SessionStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QString kCodemie = QStringLiteral(WATERLINE_TEST_DATA "/replay/claude-code/session-624a4a58.jsonl");
const QString kCodex = QStringLiteral(WATERLINE_TEST_DATA "/replay/codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl");

wl::test::CliProcess cli(const QStringList &arguments, const QString &home)
{
    return wl::test::runWaterlineCli(arguments, home);
}

} // namespace

class TestCliShow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void json_isWhatTheWorkbenchShows_data();
    void json_isWhatTheWorkbenchShows();
    void table_isReadable();
    void badArguments_data();
    void badArguments();
};

void TestCliShow::json_isWhatTheWorkbenchShows_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<qint64>("window");
    QTest::addColumn<QString>("windowSource");
    QTest::addColumn<bool>("compacts");
    QTest::newRow("claude code 624a4a58") << kCodemie << qint64(200000) << u"model table: claude-sonnet-4-5-20250929"_s << true;
    QTest::newRow("codex 019e1625") << kCodex << qint64(258400) << u"transcript: model_context_window"_s << false;
}

void TestCliShow::json_isWhatTheWorkbenchShows()
{
    QFETCH(QString, file);
    QFETCH(qint64, window);
    QFETCH(QString, windowSource);
    QFETCH(bool, compacts);
    QTemporaryDir home;
    const QString db = home.filePath(u"s.db"_s);
    const auto imported = cli({u"import"_s, file, u"--db"_s, db}, home.path());
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    const QString id = QString::fromUtf8(imported.out).trimmed();
    const auto shown = cli({u"show"_s, u"--db"_s, db, id, u"--json"_s}, home.path());
    QVERIFY2(shown.exitCode == 0, shown.err.constData());
    QJsonParseError parseError;
    const QJsonObject out = QJsonDocument::fromJson(shown.out, &parseError).object();
    QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(parseError.errorString()));

    const QJsonObject session = out.value(u"session").toObject();
    QCOMPARE(session.value(u"id").toString(), id);
    QVERIFY(!session.value(u"title").toString().isEmpty());
    QCOMPARE(session.value(u"source_format").toString(), file.endsWith(u".jsonl"_s) && file.contains(u"codex"_s) ? u"codex"_s : u"claude-code"_s);
    QCOMPARE(session.value(u"window").toInteger(), window);
    QCOMPARE(session.value(u"window_source").toString(), windowSource);

    // The engine's rows for the same stored session.
    wl::SessionStore store;
    QString error;
    QVERIFY(store.open(db, &error));
    const std::optional<wl::RecordedRequests::StoredRequests> engine = wl::RecordedRequests::ofStored(store, id, &error);
    QVERIFY2(engine, qPrintable(error));
    // The calibration the rows were measured with, and the part it adds to each.
    QCOMPARE(session.value(u"token_scale").toDouble(), engine->replay.tokenScale);
    QVERIFY(engine->replay.tokenScale >= wl::ReplayInput::kMinTokenScale);
    const QJsonArray requests = out.value(u"requests").toArray();
    QCOMPARE(requests.size(), engine->rows.size());
    int compacted = 0;
    for (qsizetype r = 0; r < requests.size(); ++r) {
        const QJsonObject row = requests[r].toObject();
        const wl::RecordedRequestRow &expected = engine->rows[r];
        QCOMPARE(row.value(u"index").toInt(), expected.index);
        QCOMPARE(row.value(u"window").toInteger(), window);
        QCOMPARE(row.value(u"tier").toString(), u"none"_s);
        const qint64 gauge = row.value(u"gauge_tokens").toInteger();
        QCOMPARE(gauge, expected.gaugeTokens);
        QCOMPARE(row.value(u"sent_tokens").toInteger(), expected.sentTokens);
        qint64 sum = 0;
        const QJsonObject composition = row.value(u"composition").toObject();
        for (auto it = composition.constBegin(); it != composition.constEnd(); ++it)
            sum += it.value().toInteger();
        QCOMPARE(sum, gauge);
        QCOMPARE(composition.value(u"calibration").toInteger(), expected.composition.tokens(wl::ViewComposition::Part::Calibration));
        QCOMPARE(row.value(u"sent_tokens").toInteger(), gauge - composition.value(u"reserved").toInteger());
        QCOMPARE(row.value(u"view_messages").toInt(), expected.viewMessages);
        QCOMPARE(row.value(u"history_messages").toInt(), expected.historyMessages);
        QVERIFY(row.value(u"view_messages").toInt() <= row.value(u"history_messages").toInt());
        QCOMPARE(row.value(u"provider_input_tokens").isNull(), !expected.providerInputTokens.has_value());
        if (expected.providerInputTokens)
            QCOMPARE(row.value(u"provider_input_tokens").toInteger(), *expected.providerInputTokens);
        QCOMPARE(row.value(u"source_compacted").toBool(), expected.sourceCompacted);
        compacted += row.value(u"source_compacted").toBool() ? 1 : 0;
    }
    QCOMPARE(compacted > 0, compacts);
}

void TestCliShow::table_isReadable()
{
    QTemporaryDir home;
    const QString db = home.filePath(u"s.db"_s);
    const auto imported = cli({u"import"_s, kCodemie, u"--db"_s, db}, home.path());
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    const QString id = QString::fromUtf8(imported.out).trimmed();
    const auto shown = cli({u"show"_s, u"--db"_s, db, id}, home.path());
    QVERIFY2(shown.exitCode == 0, shown.err.constData());
    const QString text = QString::fromUtf8(shown.out);
    QVERIFY(text.contains(u"Window: 200,000 tokens (model table: claude-sonnet-4-5-20250929)"_s));
    const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    int yes = 0;
    for (const QString &line : lines)
        yes += line.endsWith(u"  yes"_s) ? 1 : 0;
    // Three header lines, the column header and one line per request, as many as --json lists.
    const auto json = cli({u"show"_s, u"--db"_s, db, id, u"--json"_s}, home.path());
    const QJsonArray requests = QJsonDocument::fromJson(json.out).object().value(u"requests").toArray();
    QVERIFY(requests.size() > 10);
    QCOMPARE(lines.size(), 4 + requests.size());
    int compacted = 0;
    for (const QJsonValue &r : requests)
        compacted += r.toObject().value(u"source_compacted").toBool() ? 1 : 0;
    QCOMPARE(yes, compacted);
    QVERIFY(yes > 0);
}

void TestCliShow::badArguments_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("says");
    QTest::newRow("no db") << QStringList{u"show"_s, u"x"_s} << 2 << u"--db"_s;
    QTest::newRow("no id") << QStringList{u"show"_s, u"--db"_s, u"x.db"_s} << 2 << u"session id"_s;
    QTest::newRow("no such database") << QStringList{u"show"_s, u"--db"_s, u"missing.db"_s, u"x"_s} << 3 << u"missing.db"_s;
}

void TestCliShow::badArguments()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, says);
    QTemporaryDir home;
    QStringList args = arguments;
    for (QString &a : args) {
        if (a.endsWith(u".db"_s))
            a = home.filePath(a);
    }
    const auto run = cli(args, home.path());
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(run.err).contains(says), run.err.constData());
}

QTEST_GUILESS_MAIN(TestCliShow)
#include "tst_cli_show.moc"
