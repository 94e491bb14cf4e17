// Schema 3 and the store calls imports and replays use: session_sources (set, replace, read,
// cascade), appendRequests (batch requests with origins) and StepAppend::requestUpdate.
#include "store/Migrations.h"
#include "store/SessionStore.h"
#include "store/SqlConnection.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace wl;
using namespace Qt::StringLiterals;

class TestSessionSource : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void schemaThreeHasTheTable();
    void upgradeFromTwoKeepsSessionsWithoutSource();
    void sourceRoundTripAndReplace();
    void sourceGoesWithItsSession();
    void appendRequestsLinksOrigins();
    void appendRequestsIsAllOrNothing();
    void requestUpdateRewritesTheView();
    void requestUpdateOfMissingRequestStoresNothing();

private:
    QString addMessages(int count, QList<qint64> *ids);
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SessionStore> m_store;
};

void TestSessionSource::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<SessionStore>();
    QString error;
    QVERIFY2(m_store->open(m_dir->filePath(u"sessions.db"_s), &error), qPrintable(error));
}

QString TestSessionSource::addMessages(int count, QList<qint64> *ids)
{
    const auto info = m_store->createSession({});
    if (!info)
        return {};
    StepAppend step;
    for (int i = 0; i < count; ++i)
        step.messages << (i % 2 ? Message::assistant(u"answer %1"_s.arg(i)) : Message::user(u"question %1"_s.arg(i)));
    const auto stored = m_store->appendStep(info->id, step);
    if (!stored)
        return {};
    *ids = stored->messageIds;
    return info->id;
}

void TestSessionSource::schemaThreeHasTheTable()
{
    QVERIFY(Migrations::latestVersion() >= 3);
    QCOMPARE(m_store->schemaVersion(), Migrations::latestVersion());
    // A session Waterline made itself has no source, and reading it is not an error.
    const auto info = m_store->createSession({});
    QVERIFY(info);
    QString error;
    QVERIFY(!m_store->sessionSource(info->id, &error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestSessionSource::upgradeFromTwoKeepsSessionsWithoutSource()
{
    const QString path = m_dir->filePath(u"v2.db"_s);
    {
        SqlConnection connection(u"make-v2"_s, path);
        QString error;
        QVERIFY2(connection.open(&error), qPrintable(error));
        QVERIFY(connection.execute(u"PRAGMA journal_mode = WAL"_s, &error));
        QVERIFY2(Migrations::migrate(connection, 2, &error), qPrintable(error));
        QCOMPARE(Migrations::schemaVersion(connection, &error), 2);
        QVERIFY(connection.execute(u"INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s2', 'old', 1, 1)"_s, &error));
    }
    SessionStore store;
    QString error;
    QVERIFY2(store.open(path, &error), qPrintable(error));
    QCOMPARE(store.schemaVersion(), Migrations::latestVersion());
    QCOMPARE(store.session(u"s2"_s)->title, u"old"_s);
    QVERIFY(!store.sessionSource(u"s2"_s, &error));
    SessionSource source{u"codex"_s, u"/tmp/x.jsonl"_s, QDateTime::fromMSecsSinceEpoch(5000, QTimeZone::UTC), {}};
    QVERIFY2(store.setSessionSource(u"s2"_s, source, &error), qPrintable(error));
    QCOMPARE(store.sessionSource(u"s2"_s)->format, u"codex"_s);
}

void TestSessionSource::sourceRoundTripAndReplace()
{
    const auto info = m_store->createSession({});
    QVERIFY(info);
    SessionSource source;
    source.format = u"claude-code"_s;
    source.sourcePath = u"/home/u/.claude/projects/p/s.jsonl"_s;
    source.importedAt = QDateTime::fromMSecsSinceEpoch(1'700'000'000'123, QTimeZone::UTC);
    source.details = QJsonObject{{u"compactions"_s, QJsonArray{QJsonObject{{u"message"_s, 12}, {u"summary"_s, u"résumé"_s}}}},
                                 {u"skipped"_s, 3}};
    QString error;
    QVERIFY2(m_store->setSessionSource(info->id, source, &error), qPrintable(error));
    QCOMPARE(*m_store->sessionSource(info->id), source);

    source.format = u"codex"_s;
    source.details = QJsonObject{{u"skipped"_s, 0}};
    QVERIFY2(m_store->setSessionSource(info->id, source, &error), qPrintable(error));
    QCOMPARE(*m_store->sessionSource(info->id), source);
}

void TestSessionSource::sourceGoesWithItsSession()
{
    const auto a = m_store->createSession({});
    const auto b = m_store->createSession({});
    QVERIFY(a && b);
    QVERIFY(m_store->setSessionSource(a->id, {u"openai"_s, u"a.json"_s, {}, {}}));
    QVERIFY(m_store->setSessionSource(b->id, {u"openai"_s, u"b.json"_s, {}, {}}));
    QVERIFY(m_store->deleteSession(a->id));
    QString error;
    QVERIFY(!m_store->sessionSource(a->id, &error));
    QCOMPARE(m_store->sessionSource(b->id)->sourcePath, u"b.json"_s);
    // A source for a session that does not exist is refused by the foreign key.
    QVERIFY(!m_store->setSessionSource(u"no-such-session"_s, {u"openai"_s, u"c.json"_s, {}, {}}, &error));
    QVERIFY(!error.isEmpty());
}

void TestSessionSource::appendRequestsLinksOrigins()
{
    QList<qint64> ids;
    const QString session = addMessages(6, &ids);
    QVERIFY(!session.isEmpty());
    QList<RequestRecord> requests;
    QList<qint64> producedBy;
    for (int k = 1; k < 6; k += 2) {
        RequestRecord r;
        r.index = -1; // the store assigns 0, 1, 2
        r.viewMessageIds = ViewIds::fromList(ids.mid(0, k)).value();
        r.estimateTokens = 10 * k;
        r.inputTokens = 100 * k;
        r.model = u"m%1"_s.arg(k);
        requests << r;
        producedBy << ids[k];
    }
    QString error;
    const auto rows = m_store->appendRequests(session, requests, producedBy, &error);
    QVERIFY2(rows, qPrintable(error));
    QCOMPARE(rows->size(), 3);

    const QList<RequestRecord> stored = m_store->requests(session);
    QCOMPARE(stored.size(), 3);
    const QList<Message> history = m_store->history(session);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(stored[i].index, i);
        QCOMPARE(stored[i].id, rows->at(i));
        QCOMPARE(stored[i].viewMessageIds, requests[i].viewMessageIds);
        QCOMPARE(stored[i].inputTokens, requests[i].inputTokens);
        QCOMPARE(stored[i].model, requests[i].model);
        QCOMPARE(history[2 * i + 1].origin, rows->at(i));
        QCOMPARE(history[2 * i].origin, qint64(0));
    }
}

void TestSessionSource::appendRequestsIsAllOrNothing()
{
    QList<qint64> ids;
    const QString session = addMessages(4, &ids);
    QList<qint64> otherIds;
    addMessages(2, &otherIds);
    RequestRecord first;
    first.index = 0;
    RequestRecord second;
    second.index = 1;
    QString error;
    // The second request names a message of another session as the one it produced.
    QVERIFY(!m_store->appendRequests(session, {first, second}, {ids[1], otherIds[1]}, &error));
    QVERIFY(error.contains(QString::number(otherIds[1])));
    QVERIFY(m_store->requests(session).isEmpty());
    QCOMPARE(m_store->history(session)[1].origin, qint64(0));
}

void TestSessionSource::requestUpdateRewritesTheView()
{
    QList<qint64> ids;
    const QString session = addMessages(8, &ids);
    RequestRecord r;
    r.index = 0;
    r.viewMessageIds = ViewIds::fromList(ids.mid(0, 7)).value();
    r.estimateTokens = 900;
    r.inputTokens = 1234;
    r.outputTokens = 56;
    r.model = u"gpt"_s;
    r.startedAt = QDateTime::fromMSecsSinceEpoch(42'000, QTimeZone::UTC);
    QVERIFY(m_store->appendRequests(session, {r}, {ids[7]}));

    StepAppend step;
    Checkpoint cp;
    cp.coversFromMessageId = ids[0];
    cp.coversUpToMessageId = ids[3];
    cp.text = u"[Context Compaction]\nsummary"_s;
    cp.recordId = u"rec-1"_s;
    cp.tier = Tier::Full;
    step.checkpoints << cp;
    RequestRecord update;
    update.index = 0;
    update.viewCheckpointId = ThisStep::kRow;
    update.viewMessageIds = ViewIds::fromList(ids.mid(4, 3)).value();
    update.estimateTokens = 120;
    update.toolSchemaTokens = 7;
    update.tier = Tier::Full;
    update.inputTokens = 1; // not part of what an update changes
    step.requestUpdate = update;
    QString error;
    const auto stored = m_store->appendStep(session, step, &error);
    QVERIFY2(stored, qPrintable(error));
    QCOMPARE(stored->checkpointIds.size(), 1);

    const RequestRecord after = m_store->requests(session).value(0);
    QCOMPARE(after.viewCheckpointId, stored->checkpointIds.first());
    QCOMPARE(after.viewMessageIds, update.viewMessageIds);
    QCOMPARE(after.estimateTokens, qint64(120));
    QCOMPARE(after.toolSchemaTokens, qint64(7));
    QCOMPARE(after.tier, Tier::Full);
    QCOMPARE(after.inputTokens, std::optional<qint64>(1234));
    QCOMPARE(after.outputTokens, std::optional<qint64>(56));
    QCOMPARE(after.model, u"gpt"_s);
    QCOMPARE(after.startedAt, r.startedAt);
    QCOMPARE(m_store->messageCount(session), qint64(8)); // an update adds no message
}

void TestSessionSource::requestUpdateOfMissingRequestStoresNothing()
{
    QList<qint64> ids;
    const QString session = addMessages(2, &ids);
    StepAppend step;
    Checkpoint cp;
    cp.coversFromMessageId = ids[0];
    cp.coversUpToMessageId = ids[0];
    cp.text = u"[Context Compaction]\nx"_s;
    step.checkpoints << cp;
    RequestRecord update;
    update.index = 5;
    step.requestUpdate = update;
    QString error;
    QVERIFY(!m_store->appendStep(session, step, &error));
    QVERIFY2(error.contains(u"5"_s), qPrintable(error));
    QVERIFY(m_store->overlays(session).checkpoints.isEmpty());
}

QTEST_GUILESS_MAIN(TestSessionSource)
#include "tst_sessionsource.moc"
