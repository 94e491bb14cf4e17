#include "llm/SseParser.h"

#include <QTest>

using namespace Qt::StringLiterals;
using wl::SseEvent;
using wl::SseParser;

namespace {
struct Event
{
    QByteArray type;
    QByteArray data;
    QByteArray id;
    friend bool operator==(const Event &, const Event &) = default;
};

QList<Event> parseChunks(const QList<QByteArray> &chunks, bool finish = false, SseParser *out = nullptr)
{
    QList<Event> events;
    SseParser parser([&events](const SseEvent &e) {
        events.append({e.type.toByteArray(), e.data.toByteArray(), e.id.toByteArray()});
    });
    for (const QByteArray &chunk : chunks)
        parser.feed(chunk);
    if (finish)
        parser.finish();
    if (out)
        *out = std::move(parser);
    return events;
}

QList<QByteArray> splitAt(const QByteArray &bytes, qsizetype position)
{
    return {bytes.left(position), bytes.mid(position)};
}

QList<QByteArray> singleBytes(const QByteArray &bytes)
{
    QList<QByteArray> out;
    for (char c : bytes)
        out << QByteArray(1, c);
    return out;
}

// A stream that uses every feature: comments, event/id/retry fields, multi-line
// data, a multi-byte UTF-8 character, an empty data line, a field without a colon
// and an unknown field. Line ends are written as LF and converted per test row.
const QByteArray kStream =
    ": keep-alive comment\n"
    "event: message_start\n"
    "id: 7\n"
    "data: {\"type\":\"message_start\"}\n"
    "\n"
    "retry: 2500\n"
    "data: first line\n"
    "data:second line without space\n"
    "data:  two spaces keep one\n"
    "\n"
    "data: caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\n"
    "unknown: ignored\n"
    "\n"
    "data\n"
    "\n"
    "event: ping\n"
    "\n"
    "data: {\"partial\": [1,2,3]}\n"
    "\n";

const QList<Event> kExpected{
    {"message_start", "{\"type\":\"message_start\"}", "7"},
    {"", "first line\nsecond line without space\n two spaces keep one", "7"},
    {"", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "7"},
    {"", "", "7"},
    // "event: ping" with no data dispatches nothing, and its type does not leak into the next event.
    {"", "{\"partial\": [1,2,3]}", "7"},
};

QByteArray withLineEnds(QByteArray stream, const QByteArray &eol)
{
    return stream.replace("\n", eol);
}
} // namespace

class TestSseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lineEndings_data()
    {
        QTest::addColumn<QByteArray>("eol");
        QTest::newRow("LF") << QByteArray("\n");
        QTest::newRow("CRLF") << QByteArray("\r\n");
        QTest::newRow("CR") << QByteArray("\r");
    }
    void lineEndings()
    {
        QFETCH(QByteArray, eol);
        SseParser parser;
        QCOMPARE(parseChunks({withLineEnds(kStream, eol)}, false, &parser), kExpected);
        QCOMPARE(parser.retryMs(), 2500);
        QCOMPARE(parser.lastEventId(), QByteArray("7"));
        QCOMPARE(parser.eventCount(), kExpected.size());
    }

    // Every two-chunk split, for every line-end style: the split may fall between
    // \r and \n, inside a UTF-8 sequence, inside a field name or a JSON value.
    void everySplitPoint_data() { lineEndings_data(); }
    void everySplitPoint()
    {
        QFETCH(QByteArray, eol);
        const QByteArray stream = withLineEnds(kStream, eol);
        for (qsizetype i = 0; i <= stream.size(); ++i) {
            const QList<Event> events = parseChunks(splitAt(stream, i));
            if (events != kExpected)
                QFAIL(qPrintable(u"split at byte %1 changed the events"_s.arg(i)));
        }
        QCOMPARE(parseChunks(singleBytes(stream)), kExpected);
    }

    void mixedLineEndingsInOneStream()
    {
        const QByteArray stream = "data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\n\n";
        const QList<Event> expected{{"", "a", ""}, {"", "b", ""}, {"", "c", ""}, {"", "d", ""}};
        QCOMPARE(parseChunks({stream}), expected);
        QCOMPARE(parseChunks(singleBytes(stream)), expected);
    }

    // A CR at the very end of a chunk, then a chunk starting with LF: one line end, not two.
    void crAtChunkEndThenLf()
    {
        const QList<Event> events = parseChunks({"data: x\r", "\ndata: y\r", "\n\r", "\n"});
        QCOMPARE(events, (QList<Event>{{"", "x\ny", ""}}));
    }

    void byteOrderMarkAtStartIsSkipped()
    {
        QCOMPARE(parseChunks({"\xEF\xBB", "\xBF" "data: x\n\n"}), (QList<Event>{{"", "x", ""}}));
        // Only at the start: later the same bytes are data.
        QCOMPARE(parseChunks({"data: a\n\ndata: \xEF\xBB\xBFz\n\n"}).last().data, QByteArray("\xEF\xBB\xBFz"));
    }

    void commentsOnlyDispatchNothing()
    {
        QVERIFY(parseChunks({": a\n\n: b\r\n\r\n:\n\n"}).isEmpty());
    }

    void idPersistsAndNulIdIsIgnored()
    {
        SseParser parser;
        const QList<Event> events = parseChunks({QByteArray("id: 1\ndata: a\n\ndata: b\n\nid: x") + '\0' + QByteArray("y\ndata: c\n\n")},
                                                false, &parser);
        QCOMPARE(events.size(), 3);
        QCOMPARE(events[1].id, QByteArray("1"));
        QCOMPARE(events[2].id, QByteArray("1"));
    }

    void invalidRetryIsIgnored()
    {
        SseParser parser;
        parseChunks({"retry: 10s\ndata: a\n\nretry: 300\n\nretry: -5\n\n"}, false, &parser);
        QCOMPARE(parser.retryMs(), 300);
    }

    // The SSE spec drops an event without its final blank line; finish() keeps it (documented choice).
    void unterminatedLastEvent()
    {
        const QByteArray stream = "event: message_stop\ndata: {\"type\":\"message_stop\"}";
        QVERIFY(parseChunks({stream}, false).isEmpty());
        const QList<Event> finished = parseChunks({stream}, true);
        QCOMPARE(finished, (QList<Event>{{"message_stop", "{\"type\":\"message_stop\"}", ""}}));
        // An unterminated line that is not data dispatches nothing.
        QVERIFY(parseChunks({"data: a\n\n: trailing comment"}, true).size() == 1);
    }

    void oversizedEventStopsWithError()
    {
        SseParser parser;
        int events = 0;
        parser.setHandler([&events](const SseEvent &) { ++events; });
        parser.setMaxEventBytes(1024);
        parser.feed("data: small\n\n");
        parser.feed(QByteArray(QByteArray("data: ") + QByteArray(2000, 'x')));
        QVERIFY(parser.hasError());
        parser.feed("\n\ndata: after\n\n");
        QCOMPARE(events, 1);
        // Multi-line data over the limit as well.
        SseParser multi;
        multi.setMaxEventBytes(100);
        for (int i = 0; i < 20; ++i)
            multi.feed("data: 0123456789\n");
        QVERIFY(multi.hasError());
    }

    void resetStartsAFreshStream()
    {
        SseParser parser;
        QList<QByteArray> seen;
        parser.setHandler([&seen](const SseEvent &e) { seen << e.data.toByteArray(); });
        parser.feed("id: 4\nretry: 100\ndata: half");
        parser.reset();
        parser.feed("data: whole\n\n");
        QCOMPARE(seen, QList<QByteArray>{"whole"});
        QCOMPARE(parser.retryMs(), -1);
        QVERIFY(parser.lastEventId().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
