#include "CompactionFixtures.h"

#include "compaction/CompactionPolicy.h"
#include "compaction/ContextView.h"
#include "compaction/PinnedSection.h"
#include "compaction/TokenEstimate.h"
#include "compaction/ViewComposition.h"
#include "model/ToolSpec.h"

#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace wl;
using namespace wl::test;

namespace {
using Part = ViewComposition::Part;

CompactionPolicy policyWith(qint64 window, qint64 reserved = 0, bool countSchemas = true)
{
    CompactionPolicy p;
    p.contextWindow = window;
    p.reservedOutput = reserved;
    p.countToolSchemas = countSchemas;
    return p;
}

// A user message, a call and its result (offloaded to a 20-byte placeholder), a user message and
// a reply; a checkpoint of 800 bytes covers the first message.
struct HandMade
{
    HistoryBuilder history;
    ContextOverlays overlays;
};

HandMade handMade()
{
    HandMade out;
    out.history.user(big(40)).call(u"c1"_s, u"bash"_s).result(u"c1"_s, big(5000)).user(big(400)).assistant(big(120));
    Checkpoint cp;
    cp.coversUpToMessageId = 1;
    cp.coversFromMessageId = 1;
    cp.text = big(800);
    out.overlays.checkpoints.append(cp);
    OffloadOverlay off;
    off.messageId = 3;
    off.placeholder = big(18);
    out.overlays.offloads.insert(3, off);
    return out;
}

qint64 sumOfParts(const ViewComposition &c)
{
    qint64 sum = 0;
    for (Part part : ViewComposition::kParts)
        sum += c.tokens(part);
    return sum;
}
} // namespace

class TestViewComposition : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachPartOfAHandMadeView();
    void viewPartsSumToTheEstimatesViewTokens();
    void sumsExactlyToTheWindow_data();
    void sumsExactlyToTheWindow();
    void overTheWindowHasNoFreeSpaceAndSaysByHowMuch();
    void noWindowMeansNoFreeSpace();
    void schemasNotCountedAreNotShown();
    void overheadIsItsOwnPart();
    void oneItemPartsTakeTheirItemsTokens();
    void pinnedIsWhatThePinsListSays();
    void countsTheMessagesOfTheViewAndOfTheHistory();
    void sentIsUsedLessTheReservedOutput();
    void onlyThePinnedSectionIsPinned();
    void everyPartHasItsOwnKey();
};

void TestViewComposition::eachPartOfAHandMadeView()
{
    // system 400 bytes = 100 tokens; checkpoint 800 = 200; a user message 40 = 10; a call and a
    // result offloaded to a 20-byte placeholder.
    const HandMade made = handMade();
    const HistoryBuilder &h = made.history;
    const ContextView view = ContextView::build(big(400), h.messages(), made.overlays);

    const ViewComposition::ViewBytes bytes = ViewComposition::bytesOf(view);
    QCOMPARE(bytes.total(), view.bytes());
    QCOMPARE(bytes.bytes[size_t(Part::SystemPrompt)], qint64(400));
    QCOMPARE(bytes.bytes[size_t(Part::Checkpoint)], qint64(800));
    QCOMPARE(bytes.bytes[size_t(Part::Offloaded)], qint64(18 + 2)); // placeholder + its call id
    QCOMPARE(bytes.bytes[size_t(Part::History)],
             h.messages()[1].byteCount() + h.messages()[3].byteCount() + h.messages()[4].byteCount());

    QList<ToolSpec> tools{{u"bash"_s, big(396), QJsonObject()}};
    const qint64 schemaBytes = TokenEstimate::toolSchemaBytes(tools);
    const TokenEstimate estimate(view.bytes(), schemaBytes, policyWith(10'000, 1'000));
    const ViewComposition c = ViewComposition::of(view, estimate);
    QCOMPARE(c.tokens(Part::SystemPrompt), qint64(100));
    QCOMPARE(c.tokens(Part::Checkpoint), qint64(200));
    QCOMPARE(c.tokens(Part::ToolSchemas), TokenEstimate::tokensForBytes(schemaBytes));
    QCOMPARE(c.tokens(Part::Offloaded), qint64(5));
    QCOMPARE(c.tokens(Part::Reserved), qint64(1'000));
    QCOMPARE(c.tokens(Part::Pinned), qint64(0));
    QCOMPARE(c.used(), estimate.totalTokens());
    QCOMPARE(c.tokens(Part::Free), 10'000 - estimate.totalTokens());
    QCOMPARE(sumOfParts(c), qint64(10'000));
    QCOMPARE(c.overflow(), qint64(0));
    QCOMPARE(c.share(Part::Reserved), 0.1);
}

void TestViewComposition::viewPartsSumToTheEstimatesViewTokens()
{
    // Parts of 3 bytes each would be 0 tokens alone; together they are what the estimate counts.
    ViewComposition::ViewBytes bytes;
    bytes.add(Part::SystemPrompt, 3);
    bytes.add(Part::Checkpoint, 3);
    bytes.add(Part::History, 3);
    bytes.add(Part::Offloaded, 3);
    const TokenEstimate estimate(bytes.total(), 0, policyWith(100));
    const ViewComposition c = ViewComposition::of(bytes, estimate);
    QCOMPARE(estimate.viewTokens(), qint64(3));
    QCOMPARE(c.tokens(Part::SystemPrompt) + c.tokens(Part::Checkpoint) + c.tokens(Part::History) + c.tokens(Part::Offloaded), qint64(3));
    QCOMPARE(c.used(), estimate.totalTokens());
}

void TestViewComposition::sumsExactlyToTheWindow_data()
{
    QTest::addColumn<qint64>("seed");
    for (qint64 seed : {1, 7, 42, 1234, 99999})
        QTest::addRow("seed %lld", seed) << seed;
}

void TestViewComposition::sumsExactlyToTheWindow()
{
    QFETCH(qint64, seed);
    // Odd byte counts in every part, a window that holds them.
    ViewComposition::ViewBytes bytes;
    qint64 x = seed;
    for (Part part : {Part::SystemPrompt, Part::Checkpoint, Part::History, Part::Offloaded}) {
        x = (x * 1103515245 + 12345) % 100003;
        bytes.add(part, x);
    }
    const qint64 window = 200'000;
    const TokenEstimate estimate(bytes.total(), (seed % 1000) * 13 + 1, policyWith(window, seed % 4096), seed % 97);
    const ViewComposition c = ViewComposition::of(bytes, estimate);
    QCOMPARE(c.used(), estimate.totalTokens());
    QCOMPARE(sumOfParts(c), window);
    QCOMPARE(c.total(), window);
    QCOMPARE(c.window(), window);
    for (Part part : ViewComposition::kParts)
        QVERIFY2(c.tokens(part) >= 0, qPrintable(u"part %1 negative"_s.arg(int(part))));
}

void TestViewComposition::overTheWindowHasNoFreeSpaceAndSaysByHowMuch()
{
    ViewComposition::ViewBytes bytes;
    bytes.add(Part::History, 4'000 * 4);
    const ViewComposition c = ViewComposition::of(bytes, TokenEstimate(bytes.total(), 0, policyWith(3'000, 500)));
    QCOMPARE(c.tokens(Part::Free), qint64(0));
    QCOMPARE(c.used(), qint64(4'500));
    QCOMPARE(c.overflow(), qint64(1'500));
    QCOMPARE(c.total(), qint64(4'500));
}

void TestViewComposition::noWindowMeansNoFreeSpace()
{
    ViewComposition::ViewBytes bytes;
    bytes.add(Part::History, 400);
    const ViewComposition c = ViewComposition::of(bytes, TokenEstimate(bytes.total(), 0, policyWith(0)));
    QCOMPARE(c.window(), qint64(0));
    QCOMPARE(c.tokens(Part::Free), qint64(0));
    QCOMPARE(c.overflow(), qint64(0));
    QCOMPARE(c.share(Part::History), 0.0);
    QCOMPARE(c.used(), qint64(100));
}

void TestViewComposition::schemasNotCountedAreNotShown()
{
    ViewComposition::ViewBytes bytes;
    bytes.add(Part::SystemPrompt, 400);
    const TokenEstimate estimate(bytes.total(), 4'000, policyWith(10'000, 0, false));
    const ViewComposition c = ViewComposition::of(bytes, estimate);
    QCOMPARE(c.tokens(Part::ToolSchemas), qint64(0));
    QCOMPARE(c.used(), estimate.totalTokens());
    QCOMPARE(c.tokens(Part::Free), qint64(9'900));
}

// An import without its system prompt: the estimated overhead is a category of its own, so the
// system prompt the list shows (0 tokens) is the bar's, and the overhead is not hidden in it.
void TestViewComposition::overheadIsItsOwnPart()
{
    ViewComposition::ViewBytes bytes;
    bytes.add(Part::SystemPrompt, 0);
    bytes.add(Part::History, 4'000);
    const TokenEstimate estimate(bytes.total(), 0, policyWith(100'000), 56'055);
    const ViewComposition c = ViewComposition::of(bytes, estimate);
    QCOMPARE(c.tokens(Part::SystemPrompt), qint64(0));
    QCOMPARE(c.tokens(Part::Overhead), qint64(56'055));
    QCOMPARE(c.tokens(Part::History), qint64(1'000));
    QCOMPARE(c.besidesView(), qint64(56'055));
    QCOMPARE(c.used(), estimate.totalTokens());
}

// The system prompt, the checkpoint and the pinned section are one item each: their parts are
// that item's tokens, as the Context dock's list counts it; the history absorbs the rounding.
void TestViewComposition::oneItemPartsTakeTheirItemsTokens()
{
    ViewComposition::ViewBytes bytes;
    bytes.add(Part::SystemPrompt, 3);     // 0 tokens alone
    bytes.add(Part::Pinned, 4'087);       // 1,021 alone; 1,022 on a running sum after the prompt
    bytes.add(Part::Checkpoint, 4'003);   // 1,000 alone
    bytes.add(Part::History, 4'001);
    const TokenEstimate estimate(bytes.total(), 0, policyWith(100'000));
    const ViewComposition c = ViewComposition::of(bytes, estimate);
    QCOMPARE(c.tokens(Part::SystemPrompt), qint64(0));
    QCOMPARE(c.tokens(Part::Pinned), qint64(1'021));
    QCOMPARE(c.tokens(Part::Checkpoint), qint64(1'000));
    QCOMPARE(c.tokens(Part::History), estimate.viewTokens() - 2'021);
    QCOMPARE(c.used(), estimate.totalTokens());
    // A view of one-item parts only: the rounding goes to the largest of them.
    ViewComposition::ViewBytes alone;
    alone.add(Part::SystemPrompt, 7);
    alone.add(Part::Pinned, 4'087);
    const ViewComposition d = ViewComposition::of(alone, TokenEstimate(alone.total(), 0, policyWith(100'000)));
    QCOMPARE(d.tokens(Part::SystemPrompt) + d.tokens(Part::Pinned), TokenEstimate::tokensForBytes(alone.total()));
    QCOMPARE(d.tokens(Part::SystemPrompt), qint64(1));
}

// The Pins list says PinnedSection::tokens(pins); a view with those pins says the same.
void TestViewComposition::pinnedIsWhatThePinsListSays()
{
    HistoryBuilder h;
    h.user(u"write the file"_s).assistant(QString());
    QList<Message> history = h.messages();
    ToolCall write;
    write.id = u"w1"_s;
    write.name = u"Write"_s;
    write.arguments = u"{\"content\":\""_s + QString(4'020, u'x') + u"\"}"_s;
    history[1].content = u"Done."_s;
    history[1].toolCalls.append(write);
    history[1].cacheBytes();
    for (int extra = 0; extra < 4; ++extra) {
        ContextOverlays overlays;
        Pin pin;
        pin.kind = Pin::Kind::Message;
        pin.messageId = history[1].id;
        pin.text = Pin::textOf(history[1]) + QString(extra, u'y');
        overlays.pins.append(pin);
        // A system prompt of 1 to 4 bytes: a running sum would carry its spare bytes into the pins.
        const ContextView view = ContextView::build(QString(extra + 1, u's'), history, overlays);
        const ViewComposition c = ViewComposition::of(view, TokenEstimate(view.bytes(), 0, policyWith(100'000)));
        QCOMPARE(c.tokens(Part::Pinned), PinnedSection::tokens(overlays.pins));
        QCOMPARE(c.tokens(Part::Pinned), view.pinnedTokens());
        QCOMPARE(c.tokens(Part::SystemPrompt), TokenEstimate::tokensForBytes(extra + 1));
        QCOMPARE(c.used(), TokenEstimate(view.bytes(), 0, policyWith(100'000)).totalTokens());
    }
}

void TestViewComposition::countsTheMessagesOfTheViewAndOfTheHistory()
{
    const HandMade made = handMade();
    const ContextView view = ContextView::build(big(400), made.history.messages(), made.overlays, 4);
    const ViewComposition c = ViewComposition::of(view, TokenEstimate(view.bytes(), 0, policyWith(10'000)));
    // The system prompt and the checkpoint are not history messages; the placeholder stands for one.
    QCOMPARE(view.size(), 5);
    QCOMPARE(c.viewMessages(), qint64(3));
    QCOMPARE(c.historyMessages(), qint64(4));
    QCOMPARE(c.viewMessages(), qint64(view.historyMessageIds().size()));
}

void TestViewComposition::sentIsUsedLessTheReservedOutput()
{
    ViewComposition::ViewBytes bytes;
    bytes.add(Part::History, 40'000);
    const TokenEstimate estimate(bytes.total(), 800, policyWith(20'000, 2'000), 300);
    const ViewComposition c = ViewComposition::of(bytes, estimate);
    QCOMPARE(c.used(), qint64(10'000 + 200 + 300 + 2'000));
    QCOMPARE(c.sent(), qint64(10'500));
    QCOMPARE(c.ratio(), estimate.ratio());
}

void TestViewComposition::onlyThePinnedSectionIsPinned()
{
    ViewItem pinned;
    pinned.kind = ViewItem::Kind::Pinned;
    QCOMPARE(ViewComposition::partOf(pinned), Part::Pinned);
    for (ViewItem::Kind kind : {ViewItem::Kind::System, ViewItem::Kind::Checkpoint, ViewItem::Kind::Original,
                                ViewItem::Kind::Placeholder, ViewItem::Kind::Stub}) {
        ViewItem item;
        item.kind = kind;
        QVERIFY(ViewComposition::partOf(item) != Part::Pinned);
    }
    ViewItem stub;
    stub.kind = ViewItem::Kind::Stub;
    QCOMPARE(ViewComposition::partOf(stub), Part::History);
}

void TestViewComposition::everyPartHasItsOwnKey()
{
    QSet<QByteArray> keys;
    for (Part part : ViewComposition::kParts)
        keys.insert(QByteArray(ViewComposition::partKey(part)));
    QCOMPARE(keys.size(), ViewComposition::kPartCount);
    QCOMPARE(QByteArray(ViewComposition::partKey(Part::Overhead)), QByteArray("overhead"));
}

QTEST_GUILESS_MAIN(TestViewComposition)
#include "tst_viewcomposition.moc"
