#include "CompactionFixtures.h"

#include "compaction/CompactionPolicy.h"
#include "compaction/ContextView.h"
#include "compaction/TokenEstimate.h"
#include "model/ToolSpec.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

class TestTokenEstimate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void divideOnceAtTheEnd();
    void bytesForTokensInvertsTheRule();
    void utf8Bytes_data();
    void utf8Bytes();
    void utf8BytesRandom();
    void usesCachedBytes();
    void toolSchemas();
    void ratio_data();
    void ratio();
    void incrementalEqualsRebuild();
};

void TestTokenEstimate::divideOnceAtTheEnd()
{
    // Three 3-byte messages: 9 bytes -> 2 tokens (dividing per message would give 0).
    const QList<Message> list{Message::user(u"abc"_s), Message::user(u"def"_s), Message::user(u"ghi"_s)};
    QCOMPARE(TokenEstimate::messageBytes(list), 9);
    QCOMPARE(TokenEstimate::estimateTokens(list), 2);
}

// The size model of the what-if replay makes texts of a given token count with the inverse of the
// one rule: the fewest bytes that count as that many tokens.
void TestTokenEstimate::bytesForTokensInvertsTheRule()
{
    for (qint64 tokens : {qint64(0), qint64(1), qint64(600), qint64(123457)}) {
        const qint64 bytes = TokenEstimate::bytesForTokens(tokens);
        QCOMPARE(TokenEstimate::tokensForBytes(bytes), tokens);
        if (tokens > 0)
            QCOMPARE(TokenEstimate::tokensForBytes(bytes - 1), tokens - 1);
    }
}

void TestTokenEstimate::utf8Bytes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("wellFormed");
    QTest::newRow("ascii") << u"hello"_s << true;
    QTest::newRow("cjk") << u"上下文压缩"_s << true;
    QTest::newRow("emoji") << u"🚀🚀"_s << true;
    QTest::newRow("mixed") << u"a é 上 🚀"_s << true;
    QTest::newRow("empty") << QString() << true;
    // Longer than one eight-unit block, with the special units inside blocks and in the rest.
    QTest::newRow("ascii-blocks") << u"src/engine/compaction/TokenEstimate.cpp:42"_s << true;
    QTest::newRow("two-byte-blocks") << u"éééééééé ñññññññ ü"_s << true;
    QTest::newRow("cjk-blocks") << u"上下文压缩上下文压缩上下文压缩 ok"_s << true;
    QTest::newRow("emoji-in-block") << u"abc🚀defghijklmnop"_s << true;
    QTest::newRow("emoji-across-blocks") << u"abcdefg🚀hijklmnop🚀"_s << true;
    QTest::newRow("emoji-in-rest") << u"abcdefghijklmnop🚀"_s << true;
    // Lone surrogates: counted as U+FFFD would be (3 bytes), like Message::computeBytes() does.
    QTest::newRow("lone-high") << (u"abcdefghij"_s + QChar(0xD83D) + u"klmnop"_s) << false;
    QTest::newRow("lone-low") << (u"abcdefghij"_s + QChar(0xDE80) + u"klmnopqrs"_s) << false;
    QTest::newRow("high-at-end") << (u"abcdefghijklmnop"_s + QChar(0xD83D)) << false;
}

void TestTokenEstimate::utf8Bytes()
{
    QFETCH(QString, text);
    QFETCH(bool, wellFormed);
    // The view's sums and the messages' cached sizes must agree, whatever the text.
    QCOMPARE(TokenEstimate::utf8Bytes(text), Message::user(text).computeBytes());
    if (wellFormed)
        QCOMPARE(TokenEstimate::utf8Bytes(text), text.toUtf8().size());
}

namespace {
// The count one unit at a time, written out here as the reference for the vectorised one.
qint64 scalarUtf8Bytes(const QString &text)
{
    qint64 n = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if (c < 0x80) {
            n += 1;
        } else if (c < 0x800) {
            n += 2;
        } else if (QChar::isHighSurrogate(c) && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            n += 4;
            ++i;
        } else {
            n += 3; // lone surrogates are written as U+FFFD
        }
    }
    return n;
}
} // namespace

void TestTokenEstimate::utf8BytesRandom()
{
    // Every length around the eight-unit steps and past the 32,768-unit sums, with every kind of
    // unit at every position: the count must equal the one-unit-at-a-time count.
    QRandomGenerator random(4242);
    const char16_t kinds[] = {u'a', u'\n', 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x4E0A, 0xFFFF, 0xD83D, 0xDE80};
    QList<qsizetype> lengths;
    for (qsizetype n = 0; n <= 80; ++n)
        lengths << n;
    lengths << 32767 << 32768 << 32769 << 70001;
    for (qsizetype length : std::as_const(lengths)) {
        for (int round = 0; round < 6; ++round) {
            QString text(length, Qt::Uninitialized);
            for (qsizetype i = 0; i < length; ++i) {
                const int pick = random.bounded(round == 0 ? 2 : int(std::size(kinds)));
                text[i] = QChar(kinds[pick]);
                if (pick == 9 && i + 1 < length && random.bounded(2) == 0)
                    text[++i] = QChar(0xDE80); // a well-formed pair
            }
            QVERIFY2(TokenEstimate::utf8Bytes(text) == scalarUtf8Bytes(text),
                     qPrintable(u"length %1, round %2"_s.arg(length).arg(round)));
        }
    }
}

void TestTokenEstimate::usesCachedBytes()
{
    Message m = Message::user(u"abcd"_s);
    m.cachedBytes = 400;
    QCOMPARE(TokenEstimate::estimateTokens({m}), 100);
}

void TestTokenEstimate::toolSchemas()
{
    ToolSpec spec{u"bash"_s, u"Run a command"_s, QJsonObject{{u"type"_s, u"object"_s}}};
    const qint64 expected = 4 + 13 + QJsonDocument(spec.inputSchema).toJson(QJsonDocument::Compact).size();
    QCOMPARE(TokenEstimate::toolSchemaBytes({spec, spec}), 2 * expected);
}

void TestTokenEstimate::ratio_data()
{
    QTest::addColumn<qint64>("viewBytes");
    QTest::addColumn<qint64>("schemaBytes");
    QTest::addColumn<qint64>("reserved");
    QTest::addColumn<bool>("countSchemas");
    QTest::addColumn<qint64>("window");
    QTest::addColumn<double>("ratio");
    QTest::newRow("view only") << qint64(4000) << qint64(0) << qint64(0) << true << qint64(1000) << 1.0;
    QTest::newRow("with schemas") << qint64(2000) << qint64(2000) << qint64(0) << true << qint64(1000) << 1.0;
    QTest::newRow("schemas ignored") << qint64(2000) << qint64(2000) << qint64(0) << false << qint64(1000) << 0.5;
    QTest::newRow("reserved output") << qint64(2000) << qint64(0) << qint64(250) << true << qint64(1000) << 0.75;
    QTest::newRow("window zero") << qint64(2000) << qint64(0) << qint64(0) << true << qint64(0) << 0.0;
}

void TestTokenEstimate::ratio()
{
    QFETCH(qint64, viewBytes);
    QFETCH(qint64, schemaBytes);
    QFETCH(qint64, reserved);
    QFETCH(bool, countSchemas);
    QFETCH(qint64, window);
    QFETCH(double, ratio);
    CompactionPolicy p;
    p.contextWindow = window;
    p.reservedOutput = reserved;
    p.countToolSchemas = countSchemas;
    const TokenEstimate e(viewBytes, schemaBytes, p);
    QCOMPARE(e.ratio(), ratio);
    QCOMPARE(e.totalTokens(), viewBytes / 4 + (countSchemas ? schemaBytes / 4 : 0) + reserved);
}

void TestTokenEstimate::incrementalEqualsRebuild()
{
    // The running sum kept by ContextView::append equals a fresh build after every message,
    // including calls waiting for their results (stubs) and orphans.
    HistoryBuilder h;
    h.user(u"start 上下文"_s)
        .calls({{u"c1"_s, u"bash"_s, u"{}"_s, true}, {u"c2"_s, u"grep"_s, u"{}"_s, true}})
        .result(u"c2"_s, big(300))
        .result(u"c1"_s, big(50))
        .result(u"c1"_s, u"duplicate"_s)
        .user(u"next"_s)
        .result(u"zz"_s, u"orphan"_s)
        .call(u"c3"_s, u"read_file"_s)
        .assistant(u"no result for c3"_s);
    const QList<Message> history = h;
    ContextOverlays overlays;
    ContextView running = ContextView::build(u"sys"_s, history, overlays, 0);
    for (qsizetype n = 1; n <= history.size(); ++n) {
        running.append(history, overlays);
        const ContextView fresh = ContextView::build(u"sys"_s, history, overlays, n);
        QCOMPARE(running.items(), fresh.items());
        QCOMPARE(running.bytes(), fresh.bytes());
        qint64 recomputed = 0;
        for (const Message &m : fresh.messages(history, overlays))
            recomputed += m.computeBytes(); // not the cached numbers the view set
        QCOMPARE(running.bytes(), recomputed);
    }
}

QTEST_GUILESS_MAIN(TestTokenEstimate)
#include "tst_tokenestimate.moc"
