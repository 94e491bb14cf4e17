// The cost model: prompt caching per protocol against figures worked out by hand, and the price table.
#include "score/CostModel.h"
#include "score/PriceTable.h"

#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// An item of `tokens` tokens (4 bytes each) standing for history message `source`.
ViewItem item(ViewItem::Kind kind, qint32 source, qint64 tokens)
{
    ViewItem v;
    v.kind = kind;
    v.sourceIndex = source;
    v.sourceMessageId = source + 1;
    v.bytes = tokens * 4;
    return v;
}

const ViewItem kSystem = item(ViewItem::Kind::System, -1, 1000);
const ViewItem kA = item(ViewItem::Kind::Original, 0, 1000);
const ViewItem kB = item(ViewItem::Kind::Original, 1, 500);
const ViewItem kCheckpoint = item(ViewItem::Kind::Checkpoint, -1, 200);

// Four requests, tool schemas of 1,000 tokens: the view grows (A, then A B); a checkpoint replaces
// A; then the schemas change (1,200 tokens).
struct Request
{
    QList<ViewItem> items;
    qint64 fixed;
};
const QList<Request> kRun{
    {{kSystem, kA}, 1000},              // 3,000 tokens
    {{kSystem, kA, kB}, 1000},          // 3,500
    {{kSystem, kCheckpoint, kB}, 1000}, // 2,700
    {{kSystem, kCheckpoint, kB}, 1200}, // 2,900
};

TokenCost cost(qint64 input, qint64 read, qint64 write)
{
    TokenCost c;
    c.input = input;
    c.cacheRead = read;
    c.cacheWrite = write;
    return c;
}

} // namespace

class TestCostModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void anthropicBreakpoints();
    void openAiPrefixCaching();
    void shortPromptsAreNotCached();
    void dollars();
    void priceTable();
    void priceOverrides();
};

void TestCostModel::anthropicBreakpoints()
{
    PromptCache cache(CacheProtocol::Anthropic);
    QList<TokenCost> got;
    for (const Request &r : kRun)
        got << cache.next(r.items, r.fixed);
    // 1: nothing cached yet, the whole prompt is written at the last breakpoint.
    // 2: the previous prompt is a prefix: read 3,000, write the new 500.
    // 3: the checkpoint changes the view after the system prompt: read the tools and system
    //    breakpoint (1,000 + 1,000), write the rest (200 + 500).
    // 4: the tools changed: nothing is read, all 2,900 written.
    QCOMPARE(got, (QList<TokenCost>{cost(0, 0, 3000), cost(0, 3000, 500), cost(0, 2000, 700), cost(0, 0, 2900)}));
}

void TestCostModel::openAiPrefixCaching()
{
    PromptCache cache(CacheProtocol::OpenAi);
    QList<TokenCost> got;
    for (const Request &r : kRun)
        got << cache.next(r.items, r.fixed);
    // 2: shares 3,000 tokens: 1,024 + 15 x 128 = 2,944 read, 556 uncached.
    // 3: shares 2,000 (tools and system): 1,024 + 7 x 128 = 1,920 read, 780 uncached.
    // Nothing is ever written.
    QCOMPARE(got, (QList<TokenCost>{cost(3000, 0, 0), cost(556, 2944, 0), cost(780, 1920, 0), cost(2900, 0, 0)}));
}

void TestCostModel::shortPromptsAreNotCached()
{
    const QList<ViewItem> small{item(ViewItem::Kind::System, -1, 300), item(ViewItem::Kind::Original, 0, 300)};
    const QList<ViewItem> grown = small + QList<ViewItem>{item(ViewItem::Kind::Original, 1, 300)};
    PromptCache anthropic(CacheProtocol::Anthropic);
    QCOMPARE(anthropic.next(small, 100), cost(700, 0, 0));  // under 1,024: not cacheable
    QCOMPARE(anthropic.next(grown, 100), cost(1000, 0, 0)); // 1,000 < 1,024: still not
    PromptCache openAi(CacheProtocol::OpenAi);
    QCOMPARE(openAi.next(small, 100), cost(700, 0, 0));
    QCOMPARE(openAi.next(grown, 100), cost(1000, 0, 0));    // shares 700 only
}

void TestCostModel::dollars()
{
    // Sonnet 4.5: 3 in, 0.30 cached, 3.75 write, 15 out (US$ per million).
    const Price sonnet{3.00, 0.30, 3.75, 15.00};
    TokenCost c = cost(0, 3000, 500);
    c.output = 100;
    // 3,000 x 0.30 + 500 x 3.75 + 100 x 15 = 900 + 1,875 + 1,500 = 4,275 per million.
    QCOMPARE(c.usd(sonnet), 0.004275);
    // GPT-4o: 2.50 in, 1.25 cached, 10 out: 556 x 2.5 + 2,944 x 1.25 + 100 x 10 = 1,390 + 3,680 + 1,000.
    const Price gpt4o{2.50, 1.25, 0, 10.00};
    TokenCost o = cost(556, 2944, 0);
    o.output = 100;
    QCOMPARE(o.usd(gpt4o), 0.00607);
    const QJsonObject json = o.toJson(gpt4o);
    QCOMPARE(json.value(u"input_tokens").toInteger(), 556);
    QCOMPARE(json.value(u"cache_read_tokens").toInteger(), 2944);
    QCOMPARE(json.value(u"cache_write_tokens").toInteger(), 0);
    QCOMPARE(json.value(u"output_tokens").toInteger(), 100);
    QCOMPARE(json.value(u"usd").toDouble(), 0.00607);
}

void TestCostModel::priceTable()
{
    const PriceTable table = PriceTable::builtIn();
    const auto sonnet = table.lookup(u"claude-sonnet-4-5-20250929");
    QVERIFY(sonnet);
    QCOMPARE(sonnet->protocol, CacheProtocol::Anthropic);
    QCOMPARE(sonnet->price, (Price{3.00, 0.30, 3.75, 15.00}));
    // Anthropic's rule: writes 1.25x input, reads 0.1x input, for every Claude row (Haiku 3's
    // published figures are rounded to the cent).
    for (const PriceTable::Entry &e : table.entries()) {
        if (e.protocol != CacheProtocol::Anthropic)
            continue;
        QVERIFY2(std::abs(e.price.cacheWrite - e.price.input * 1.25) < 0.02, qPrintable(e.prefix));
        QVERIFY2(std::abs(e.price.cachedInput - e.price.input * 0.1) < 0.006, qPrintable(e.prefix));
    }
    const auto routed = table.lookup(u"openai/gpt-4o-2024-08-06");
    QVERIFY(routed);
    QCOMPARE(routed->prefix, u"gpt-4o"_s);
    QCOMPARE(routed->protocol, CacheProtocol::OpenAi);
    QCOMPARE(table.lookup(u"gpt-4o-mini")->prefix, u"gpt-4o-mini"_s);
    QCOMPARE(table.lookup(u"llama3.1:8b")->price, Price{});
    QVERIFY(!table.lookup(u"mystery-model"));
    QCOMPARE(PriceTable::protocolFor(u"anthropic/claude-future"), CacheProtocol::Anthropic);
}

void TestCostModel::priceOverrides()
{
    PriceTable table = PriceTable::builtIn();
    QStringList problems;
    table.applyOverrides(QJsonObject{
                             {u"gpt-4o"_s, QJsonObject{{u"input"_s, 2.0}}},
                             {u"my-local"_s, QJsonObject{{u"input"_s, 0.5}, {u"output"_s, 1.0}}},
                             {u"bad"_s, QJsonObject{{u"input"_s, -1}}},
                             {u"worse"_s, u"cheap"_s},
                         },
                         &problems);
    problems.sort();
    QCOMPARE(problems, (QStringList{u"bad"_s, u"worse"_s}));
    QCOMPARE(table.lookup(u"gpt-4o")->price, (Price{2.0, 1.25, 0, 10.00})); // the rest kept
    QCOMPARE(table.lookup(u"my-local-7b")->price, (Price{0.5, 0, 0, 1.0}));
    QVERIFY(!table.lookup(u"bad"));
}

QTEST_GUILESS_MAIN(TestCostModel)
#include "tst_costmodel.moc"
