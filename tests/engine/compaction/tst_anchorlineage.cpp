#include "compaction/AnchorItemSources.h"
#include "compaction/AnchorLineage.h"
#include "model/Message.h"

#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

LineageStep step(const QString &recordId, const QString &decisions, const QString &next = u"N/A"_s,
                 qint64 upTo = 0)
{
    LineageStep s;
    s.recordId = recordId;
    s.anchors.setValue(AnchorKind::KeyDecision, decisions);
    s.anchors.setValue(AnchorKind::NextStep, next);
    s.coversUpToMessageId = upTo;
    return s;
}

const LineageItem *findItem(const QList<LineageItem> &items, const QString &firstText)
{
    for (const LineageItem &item : items)
        if (item.texts.value(item.addedAt) == firstText)
            return &item;
    return nullptr;
}

Message message(qint64 id, Role role, const QString &content)
{
    Message m;
    m.id = id;
    m.role = role;
    m.content = content;
    return m;
}

} // namespace

class TestAnchorLineage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void splitItems();
    void tokens();
    void similarity_data();
    void similarity();
    void addedKeptRewordedDropped();
    void nearMissIsANewItem();
    void rewordingsPairMostSimilarFirst();
    void caseAndSpacingAreKept();
    void nonAscii();
    void droppedItemComingBackIsNew();
    void hostileAnchorIsBounded();
    void sourceMessage();
    void sourceSearchIsBounded();
};

void TestAnchorLineage::splitItems()
{
    const QStringList items = lineage::splitItems(
        u"- Use chi\n* Store in Postgres\n\n  \u2022 Cache with Redis \n1. Write tests\n12) Deploy\n- N/A\nnone\n-1 is a number"_s);
    QCOMPARE(items, (QStringList{u"Use chi"_s, u"Store in Postgres"_s, u"Cache with Redis"_s, u"Write tests"_s,
                                 u"Deploy"_s, u"-1 is a number"_s}));
    QVERIFY(lineage::splitItems(u"N/A"_s).isEmpty());
    QVERIFY(lineage::splitItems(QString()).isEmpty());
}

void TestAnchorLineage::tokens()
{
    const QSet<QString> t = lineage::tokens(u"Edit the file src/api/Server.go and run spotter-gqc."_s);
    QVERIFY(t.contains(u"src/api/server.go"_s));
    QVERIFY(t.contains(u"server.go"_s));   // the path's last part
    QVERIFY(t.contains(u"spotter-gqc"_s)); // the sentence's final dot is not part of it
    QVERIFY(t.contains(u"edit"_s));
    QVERIFY(!t.contains(u"the"_s));        // filler
    QVERIFY(!t.contains(u"and"_s));
    QCOMPARE(lineage::tokens(u"部署 API"_s), (QSet<QString>{u"部"_s, u"署"_s, u"api"_s}));
    QCOMPARE(lineage::tokens(u"Привет МИР"_s), (QSet<QString>{u"привет"_s, u"мир"_s}));
    QVERIFY(lineage::tokens(u"-- ... //"_s).isEmpty());
}

void TestAnchorLineage::similarity_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("reworded");
    // {use, chi, router} against {use, chi, router, sqlc}: 3/4.
    QTest::newRow("extended") << u"Use the chi router"_s << u"Use the chi router and sqlc"_s << true;
    // {use, chi, router} against {use, gin, router}: 2/4, a different decision.
    QTest::newRow("swapped-library") << u"Use the chi router"_s << u"Use the gin router"_s << false;
    // {write, handler, tests} against {write, handler, tests, todos}: 3/4.
    QTest::newRow("more-precise") << u"Write the handler tests"_s << u"Write the handler tests for /todos"_s << true;
    // {run, tests} against {run, linter}: 1/3.
    QTest::newRow("same-verb") << u"Run the tests"_s << u"Run the linter"_s << false;
    // Exactly at the threshold: {a1, b1, c1} against {a1, b1, c1, d1, e1}: 3/5.
    QTest::newRow("threshold") << u"a1 b1 c1"_s << u"a1 b1 c1 d1 e1"_s << true;
    // Just below it: 3/6.
    QTest::newRow("below-threshold") << u"a1 b1 c1"_s << u"a1 b1 c1 d1 e1 f1"_s << false;
}

void TestAnchorLineage::similarity()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(bool, reworded);
    const double s = lineage::similarity(a, b);
    QCOMPARE(s >= lineage::kRewordSimilarity, reworded);
    QCOMPARE(lineage::similarity(b, a), s);
}

void TestAnchorLineage::addedKeptRewordedDropped()
{
    const QList<LineageItem> items = traceAnchorLineage({
        step(u"r1"_s, u"- Use the chi router\n- Store data in Postgres"_s, u"- Write the handler tests"_s),
        step(u"r2"_s, u"- Use the chi router and sqlc\n- Store data in Postgres"_s, u"- Write the handler tests for /todos"_s),
        step(u"r3"_s, u"- Store data in Postgres"_s, u"- Deploy to staging"_s),
    });
    QCOMPARE(items.size(), 4);

    const LineageItem *chi = findItem(items, u"Use the chi router"_s);
    QVERIFY(chi);
    QCOMPARE(chi->kind, AnchorKind::KeyDecision);
    QCOMPARE(chi->fates, (QList<ItemFate>{ItemFate::Added, ItemFate::Reworded, ItemFate::Dropped}));
    QCOMPARE(chi->addedAt, 0);
    QCOMPARE(chi->droppedAt, 2);
    QCOMPARE(chi->latestText(), u"Use the chi router and sqlc"_s);
    QCOMPARE(chi->rewordCount(), 1);
    QCOMPARE(chi->texts.at(2), QString());

    const LineageItem *postgres = findItem(items, u"Store data in Postgres"_s);
    QVERIFY(postgres);
    QCOMPARE(postgres->fates, (QList<ItemFate>{ItemFate::Added, ItemFate::Kept, ItemFate::Kept}));
    QVERIFY(!postgres->isDropped());

    const LineageItem *tests = findItem(items, u"Write the handler tests"_s);
    QVERIFY(tests);
    QCOMPARE(tests->kind, AnchorKind::NextStep);
    QCOMPARE(tests->fates, (QList<ItemFate>{ItemFate::Added, ItemFate::Reworded, ItemFate::Dropped}));

    const LineageItem *deploy = findItem(items, u"Deploy to staging"_s);
    QVERIFY(deploy);
    QCOMPARE(deploy->fates, (QList<ItemFate>{ItemFate::Absent, ItemFate::Absent, ItemFate::Added}));
    QCOMPARE(deploy->addedAt, 2);
}

void TestAnchorLineage::nearMissIsANewItem()
{
    // Half the words shared: a different decision, so the old one is dropped and the new one added.
    const QList<LineageItem> items = traceAnchorLineage({step(u"r1"_s, u"Use the chi router"_s),
                                                         step(u"r2"_s, u"Use the gin router"_s)});
    QCOMPARE(items.size(), 2);
    QCOMPARE(items.at(0).fates, (QList<ItemFate>{ItemFate::Added, ItemFate::Dropped}));
    QCOMPARE(items.at(1).fates, (QList<ItemFate>{ItemFate::Absent, ItemFate::Added}));
    QCOMPARE(items.at(1).texts.at(1), u"Use the gin router"_s);
}

void TestAnchorLineage::rewordingsPairMostSimilarFirst()
{
    // The new line is close enough to both old ones ({a1 b1 c1}: 3/4, {a1 b1 c1 d1 e1}: 4/5): it
    // continues the closer one, the second, and the first is dropped.
    const QList<LineageItem> items = traceAnchorLineage({
        step(u"r1"_s, u"- a1 b1 c1\n- a1 b1 c1 d1 e1"_s),
        step(u"r2"_s, u"- a1 b1 c1 d1"_s),
    });
    QCOMPARE(items.size(), 2);
    QCOMPARE(items.at(0).fates, (QList<ItemFate>{ItemFate::Added, ItemFate::Dropped}));
    QCOMPARE(items.at(1).fates, (QList<ItemFate>{ItemFate::Added, ItemFate::Reworded}));
    QCOMPARE(items.at(1).texts.at(1), u"a1 b1 c1 d1"_s);
}

void TestAnchorLineage::caseAndSpacingAreKept()
{
    const QList<LineageItem> items = traceAnchorLineage({step(u"r1"_s, u"- Use   SQLite"_s),
                                                         step(u"r2"_s, u"* use sqlite"_s)});
    QCOMPARE(items.size(), 1);
    QCOMPARE(items.at(0).fates, (QList<ItemFate>{ItemFate::Added, ItemFate::Kept}));
    QCOMPARE(items.at(0).texts.at(1), u"use sqlite"_s); // the wording of that step
}

void TestAnchorLineage::nonAscii()
{
    const QList<LineageItem> items = traceAnchorLineage({
        step(u"r1"_s, u"- 使用 chi 路由器\n- Привет мир\n- 部署到生产环境"_s),
        // {使, 用, chi, 路, 由, 器} + {和, sqlc}: 6/8, reworded. Case only: kept.
        // {部, 署, 到, 生, 产, 环, 境} against {部, 署, 到, 测, 试, 环, 境}: 5/9, a new item.
        step(u"r2"_s, u"- 使用 chi 路由器 和 sqlc\n- ПРИВЕТ МИР\n- 部署到测试环境"_s),
    });
    QCOMPARE(items.size(), 4);
    QCOMPARE(findItem(items, u"使用 chi 路由器"_s)->fates.at(1), ItemFate::Reworded);
    QCOMPARE(findItem(items, u"Привет мир"_s)->fates.at(1), ItemFate::Kept);
    QCOMPARE(findItem(items, u"部署到生产环境"_s)->fates.at(1), ItemFate::Dropped);
    QCOMPARE(findItem(items, u"部署到测试环境"_s)->fates.at(1), ItemFate::Added);
}

void TestAnchorLineage::droppedItemComingBackIsNew()
{
    const QList<LineageItem> items = traceAnchorLineage(
        {step(u"r1"_s, u"Use SQLite"_s), step(u"r2"_s, u"N/A"_s), step(u"r3"_s, u"Use SQLite"_s)});
    QCOMPARE(items.size(), 2);
    QCOMPARE(items.at(0).fates, (QList<ItemFate>{ItemFate::Added, ItemFate::Dropped, ItemFate::Absent}));
    QCOMPARE(items.at(1).fates, (QList<ItemFate>{ItemFate::Absent, ItemFate::Absent, ItemFate::Added}));
    QVERIFY(traceAnchorLineage({}).isEmpty());
}

void TestAnchorLineage::hostileAnchorIsBounded()
{
    QString huge;
    for (int i = 0; i < 5000; ++i)
        huge += u"- item number %1 of a summary that never ends\n"_s.arg(i);
    huge += u"- "_s + QString(100000, u'x');
    const QStringList items = lineage::splitItems(huge);
    QCOMPARE(items.size(), lineage::kMaxItemsPerAnchor);
    const QStringList longLine = lineage::splitItems(u"- "_s + QString(100000, u'x'));
    QCOMPARE(longLine.size(), 1);
    QCOMPARE(longLine.at(0).size(), lineage::kMaxItemChars);
    // Lone surrogates and control characters are only characters.
    const QString broken = QString(QChar(0xd800)) + u"abc\u0000def"_s + QChar(0xdc00);
    QVERIFY(!lineage::tokens(broken).isEmpty());
    const QList<LineageItem> traced = traceAnchorLineage({step(u"r1"_s, huge), step(u"r2"_s, huge)});
    QCOMPARE(traced.size(), lineage::kMaxItemsPerAnchor);
    QCOMPARE(traced.constLast().fates.at(1), ItemFate::Kept);
}

void TestAnchorLineage::sourceMessage()
{
    QList<Message> history{
        message(1, Role::User, u"Build a todo API. Store data in Postgres, please."_s),
        message(2, Role::Assistant, u"First, tests: I will add them after the router in server.go."_s),
        message(3, Role::Assistant, QString()),
        message(4, Role::User, u"Also deploy to staging when done. Add the tests first!"_s),
        message(9, Role::User, u"And cache with Redis"_s),
    };
    history[2].toolCalls.append(ToolCall{u"c1"_s, u"write_file"_s, u"{\"path\": \"/work/api/internal/server.go\"}"_s});

    QList<LineageStep> steps{
        step(u"r1"_s, u"- Store data in postgres\n- Files written: internal/server.go\n- Use the chi router\n- Build the todo API service"_s,
             u"N/A"_s, 3),
        step(u"r2"_s, u"- Store data in postgres\n- Cache with Redis"_s, u"- Deploy to staging\n- Add the tests first."_s, 4),
    };
    QList<LineageItem> items = traceAnchorLineage(steps);
    findItemSources(&items, steps, history);
    // Verbatim, case folded.
    QCOMPARE(findItem(items, u"Store data in postgres"_s)->sourceMessageId, 1);
    QCOMPARE(findItem(items, u"Deploy to staging"_s)->sourceMessageId, 4);
    // A file: the call that names it (by the path's last part), not the earlier mention in prose.
    QCOMPARE(findItem(items, u"Files written: internal/server.go"_s)->sourceMessageId, 3);
    // A short item whose words are scattered over message 2: only the verbatim one counts.
    QCOMPARE(findItem(items, u"Add the tests first."_s)->sourceMessageId, 4);
    // Four tokens, three of them in message 1: a rewording of it.
    QCOMPARE(findItem(items, u"Build the todo API service"_s)->sourceMessageId, 1);
    // "chi" appears nowhere.
    QCOMPARE(findItem(items, u"Use the chi router"_s)->sourceMessageId, 0);
    // Message 9 lies after the range the adding compaction summarised.
    QCOMPARE(findItem(items, u"Cache with Redis"_s)->sourceMessageId, 0);
}

void TestAnchorLineage::sourceSearchIsBounded()
{
    // A message read whole could be any size: past kMaxSourceChars of its content, or of its calls
    // together, nothing is looked at.
    Message flood = message(1, Role::Assistant, QString(lineage::kMaxSourceChars, u'x') + u" late.go"_s);
    for (int i = 0; i < 3; ++i)
        flood.toolCalls.append(ToolCall{u"c%1"_s.arg(i), u"bash"_s, QString(lineage::kMaxSourceChars / 2, u'y')});
    flood.toolCalls.append(ToolCall{u"c9"_s, u"write_file"_s, u"{\"path\": \"later.go\"}"_s});
    const QList<Message> history{flood, message(2, Role::User, u"fix late.go and later.go"_s)};
    const QList<LineageStep> steps{step(u"r1"_s, u"- Edit late.go\n- Edit later.go"_s)};
    QList<LineageItem> items = traceAnchorLineage(steps);
    findItemSources(&items, steps, history);
    QCOMPARE(findItem(items, u"Edit late.go"_s)->sourceMessageId, 2);
    QCOMPARE(findItem(items, u"Edit later.go"_s)->sourceMessageId, 2);
}

QTEST_GUILESS_MAIN(TestAnchorLineage)
#include "tst_anchorlineage.moc"
