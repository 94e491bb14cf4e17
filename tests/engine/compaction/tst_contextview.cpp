#include "CompactionFixtures.h"

#include "compaction/Checkpoint.h"
#include "compaction/ContextView.h"

#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

using Kind = ViewItem::Kind;

class TestContextView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void noOverlays();
    void checkpointHidesCoveredMessages();
    void placeholdersByMessageId();
    void repairAfterCheckpointCut();
    void historyNeverModified();
    void prefixEnd();
    void split_data();
    void split();
    void removingCheckpointRestoresView();
    void replaceHeadEqualsBuild_data();
    void replaceHeadEqualsBuild();
    void replaceHeadRefusesUnorderedIds();
};

namespace {
Checkpoint checkpoint(qint64 from, qint64 upTo, const QString &text)
{
    Checkpoint cp;
    cp.coversFromMessageId = from;
    cp.coversUpToMessageId = upTo;
    cp.text = text;
    return cp;
}
} // namespace

void TestContextView::noOverlays()
{
    const QList<Message> history = HistoryBuilder().user(u"hi"_s).assistant(u"hello"_s);
    const ContextView v = ContextView::build(u"sys"_s, history, {});
    const QList<Message> msgs = v.messages(history, {});
    QCOMPARE(msgs.size(), 3);
    QCOMPARE(msgs[0].role, Role::System);
    QCOMPARE(msgs[0].content, u"sys"_s);
    QVERIFY(identical(msgs[1], history[0]));
    QVERIFY(identical(msgs[2], history[1]));
    QCOMPARE(v.items()[0].kind, Kind::System);
    QCOMPARE(v.items()[1].sourceMessageId, 1);
    QCOMPARE(v.items()[2].sourceIndex, 1);
    QCOMPARE(v.bytes(), 3 + 2 + 5);
}

void TestContextView::checkpointHidesCoveredMessages()
{
    const QList<Message> history = HistoryBuilder().user(u"one"_s).assistant(u"two"_s).user(u"three"_s).assistant(u"four"_s);
    ContextOverlays o;
    o.checkpoints << checkpoint(1, 1, u"[Context Compaction] old"_s) << checkpoint(1, 2, u"[Context Compaction] newest"_s);
    const ContextView v = ContextView::build(u"sys"_s, history, o);
    const QList<Message> msgs = v.messages(history, o);
    QCOMPARE(msgs.size(), 4);
    QCOMPARE(msgs[1].role, Role::User);
    QCOMPARE(msgs[1].content, u"[Context Compaction] newest"_s);
    QCOMPARE(v.items()[1].kind, Kind::Checkpoint);
    QCOMPARE(v.items()[1].coversFrom, 1);
    QCOMPARE(v.items()[1].coversTo, 2);
    QCOMPARE(msgs[2].content, u"three"_s);
    QCOMPARE(msgs[3].content, u"four"_s);
    QVERIFY(v.hasCheckpoint());
    QCOMPARE(v.checkpointCoversUpTo(), 2);
}

void TestContextView::placeholdersByMessageId()
{
    const QList<Message> history = HistoryBuilder().user(u"q"_s).call(u"c1"_s, u"bash"_s).result(u"c1"_s, big(5000));
    ContextOverlays o;
    OffloadOverlay off;
    off.messageId = 3;
    off.placeholder = u"[offloaded: .waterline/tool_results/s1/c1.txt | 1 lines, 5000 bytes]"_s;
    o.offloads.insert(3, off);
    const ContextView v = ContextView::build(u"sys"_s, history, o);
    const QList<Message> msgs = v.messages(history, o);
    QCOMPARE(msgs.size(), 4);
    QCOMPARE(msgs[3].content, off.placeholder);
    QCOMPARE(msgs[3].toolCallId, u"c1"_s);
    QCOMPARE(msgs[3].id, 3);
    QCOMPARE(v.items()[3].kind, Kind::Placeholder);
    QCOMPARE(v.items()[3].sourceMessageId, 3);
    QCOMPARE(v.bytes(), 3 + 1 + history[1].byteCount() + off.placeholder.toUtf8().size() + 2);
}

void TestContextView::repairAfterCheckpointCut()
{
    // A checkpoint that (wrongly) cut a group: the orphan result is dropped, never sent.
    const QList<Message> history = HistoryBuilder().user(u"q"_s).call(u"c1"_s, u"bash"_s).result(u"c1"_s, u"out"_s).assistant(u"done"_s);
    ContextOverlays o;
    o.checkpoints << checkpoint(1, 2, u"[Context Compaction]"_s);
    const ContextView v = ContextView::build(u"sys"_s, history, o);
    const QList<Message> msgs = v.messages(history, o);
    QCOMPARE(msgs.size(), 3);
    QCOMPARE(msgs[2].content, u"done"_s);
    QCOMPARE(v.repairReport().resultsDropped, 1);
}

void TestContextView::historyNeverModified()
{
    HistoryBuilder h;
    h.user(u"q"_s).call(u"c1"_s, u"bash"_s).result(u"c1"_s, big(6000)).call(u"c2"_s, u"bash"_s).user(u"x"_s);
    const QList<Message> history = h;
    QList<Message> deepCopy;
    for (const Message &m : history) {
        Message c = m;
        c.content = QString(m.content.constData(), m.content.size()); // a separate buffer
        deepCopy.append(c);
    }
    ContextOverlays o;
    o.checkpoints << checkpoint(1, 1, u"[Context Compaction]"_s);
    OffloadOverlay off;
    off.messageId = 3;
    off.placeholder = u"[offloaded: x]"_s;
    o.offloads.insert(3, off);
    const QList<Message> msgs = ContextView::view(u"sys"_s, history, o);
    QVERIFY(msgs.size() > 1);
    QVERIFY(identical(history, deepCopy));
    QCOMPARE(history[2].content, big(6000));
}

void TestContextView::prefixEnd()
{
    const QList<Message> history = HistoryBuilder().user(u"a"_s).assistant(u"b"_s).user(u"c"_s);
    const ContextView v = ContextView::build(u"s"_s, history, {}, 2);
    QCOMPARE(v.size(), 3);
    QCOMPARE(v.historyEnd(), 2);
    QCOMPARE(v.messages(history, {}).last().content, u"b"_s);
}

void TestContextView::split_data()
{
    QTest::addColumn<QList<Message>>("history");
    QTest::addColumn<bool>("withCheckpoint");
    QTest::addColumn<int>("tail");
    QTest::addColumn<int>("headStart");
    QTest::addColumn<int>("tailStart");

    const QList<Message> plain = HistoryBuilder().user(u"1"_s).assistant(u"2"_s).user(u"3"_s).assistant(u"4"_s).user(u"5"_s);
    QTest::newRow("by count") << plain << false << 2 << 1 << 4;
    QTest::newRow("tail larger than body") << plain << false << 10 << 1 << 1;
    // items: sys, u, a[c1,c2], r1, r2, a, u
    const QList<Message> group = HistoryBuilder().user(u"q"_s).calls({{u"c1"_s, u"bash"_s, u"{}"_s, true}, {u"c2"_s, u"bash"_s, u"{}"_s, true}})
                                     .result(u"c1"_s, u"x"_s).result(u"c2"_s, u"y"_s).assistant(u"a"_s).user(u"u"_s);
    QTest::newRow("tail would start at a result: moved to the call") << group << false << 3 << 1 << 2;
    QTest::newRow("tail starts right after the group") << group << false << 2 << 1 << 5;
    QTest::newRow("tail 1") << group << false << 1 << 1 << 6;
    QTest::newRow("checkpoint is skipped by the head") << plain << true << 2 << 2 << 4;
}

void TestContextView::split()
{
    QFETCH(QList<Message>, history);
    QFETCH(bool, withCheckpoint);
    QFETCH(int, tail);
    QFETCH(int, headStart);
    QFETCH(int, tailStart);
    ContextOverlays o;
    if (withCheckpoint)
        o.checkpoints << checkpoint(1, 1, u"[Context Compaction]"_s);
    const ContextView v = ContextView::build(u"s"_s, history, o);
    const ContextView::Split s = v.split(tail);
    QCOMPARE(s.bodyStart, 1);
    QCOMPARE(s.headStart, headStart);
    QCOMPARE(s.tailStart, tailStart);
    QVERIFY(s.tailStart >= v.size() || !v.items()[s.tailStart].isResult);
}

void TestContextView::removingCheckpointRestoresView()
{
    const QList<Message> history = HistoryBuilder().user(u"a"_s).assistant(u"b"_s).user(u"c"_s).assistant(u"d"_s);
    ContextOverlays o;
    o.checkpoints << checkpoint(1, 1, u"[Context Compaction] 1"_s);
    const QList<Message> before = ContextView::view(u"s"_s, history, o);
    o.checkpoints << checkpoint(1, 3, u"[Context Compaction] 2"_s);
    QCOMPARE(ContextView::view(u"s"_s, history, o).size(), 3);
    o.checkpoints.removeLast();
    QVERIFY(identical(ContextView::view(u"s"_s, history, o), before));
}

QTEST_GUILESS_MAIN(TestContextView)
void TestContextView::replaceHeadEqualsBuild_data()
{
    QTest::addColumn<QList<Message>>("history");
    QTest::addColumn<QList<Message>>("more"); // the history with the open call answered and one more message
    QTest::addColumn<bool>("earlierCheckpoint");
    HistoryBuilder h;
    h.user(u"q"_s).result(u"orphan"_s, u"dropped"_s);
    h.call(u"c1"_s, u"bash"_s).result(u"c1"_s, big(3000)).result(u"c1"_s, u"duplicate"_s);
    h.calls({{u"c2"_s, u"bash"_s, u"{}"_s, true}, {u"c3"_s, u"read_file"_s, u"{}"_s, true}}).result(u"c3"_s, u"only one"_s);
    h.assistant(u"middle"_s).user(u"again"_s).result(u"late orphan"_s, u"dropped too"_s);
    h.call(u"c4"_s, u"bash"_s).result(u"c4"_s, big(2500)).assistant(u"next"_s);
    h.calls({{u"c5"_s, u"bash"_s, u"{}"_s, true}, {u"c6"_s, u"bash"_s, u"{}"_s, true}}); // open: stubs at the end
    HistoryBuilder more = h;
    more.result(u"c6"_s, u"answer"_s).user(u"go on"_s);
    QTest::newRow("first checkpoint") << QList<Message>(h) << QList<Message>(more) << false;
    QTest::newRow("after another checkpoint") << QList<Message>(h) << QList<Message>(more) << true;
}

void TestContextView::replaceHeadEqualsBuild()
{
    // Replacing the head in place gives exactly the view build() makes with the new checkpoint, for
    // every cut before a message that is not a result: items, bytes, report, and what comes after.
    QFETCH(QList<Message>, history);
    QFETCH(QList<Message>, more);
    QFETCH(bool, earlierCheckpoint);
    ContextOverlays base;
    if (earlierCheckpoint)
        base.checkpoints << checkpoint(1, 1, u"[Context Compaction] first"_s);
    OffloadOverlay off;
    off.messageId = 4;
    off.placeholder = u"[offloaded: c1]"_s;
    base.offloads.insert(off.messageId, off);
    const ContextView before = ContextView::build(u"sys"_s, history, base);
    int cuts = 0;
    for (int to = 2; to < before.size(); ++to) {
        const ViewItem &next = before.items().at(to);
        if (next.isResult || next.kind != Kind::Original)
            continue;
        ContextOverlays o = base;
        Checkpoint cp = checkpoint(1, history.at(next.sourceIndex - 1).id, u"[Context Compaction] ünïcode"_s);
        if (to % 2 == 0) { // as the what-if replay makes them: the size only
            cp.textBytes = 77;
            cp.text.clear();
        }
        o.checkpoints << cp;
        ContextView replaced = before;
        QVERIFY(replaced.replaceHeadWithCheckpoint(to, cp, history));
        const ContextView built = ContextView::build(u"sys"_s, history, o);
        const QByteArray at = "cut at item " + QByteArray::number(to);
        QVERIFY2(replaced.items() == built.items(), at.constData());
        QCOMPARE(replaced.bytes(), built.bytes());
        QCOMPARE(replaced.historyEnd(), built.historyEnd());
        QCOMPARE(replaced.checkpointCoversUpTo(), built.checkpointCoversUpTo());
        QVERIFY(replaced.hasCheckpoint());
        QCOMPARE(replaced.repairReport().resultsDropped, built.repairReport().resultsDropped);
        QCOMPARE(replaced.repairReport().duplicatesDropped, built.repairReport().duplicatesDropped);
        QCOMPARE(replaced.repairReport().droppedCallIds, built.repairReport().droppedCallIds);
        QVERIFY2(identical(replaced.messages(history, o), built.messages(history, o)), at.constData());
        // The open group is still open in the right place: its late result fills its stub.
        replaced.appendUpTo(more, o, more.size());
        const ContextView builtMore = ContextView::build(u"sys"_s, more, o);
        QVERIFY2(replaced.items() == builtMore.items(), at.constData());
        QCOMPARE(replaced.bytes(), builtMore.bytes());
        ++cuts;
    }
    QVERIFY(cuts >= 5);
}

void TestContextView::replaceHeadRefusesUnorderedIds()
{
    // A later message with an id the checkpoint covers would be hidden by build(): not done in place.
    QList<Message> history = HistoryBuilder().user(u"a"_s).assistant(u"b"_s).user(u"c"_s).assistant(u"d"_s);
    history[3].id = 1;
    const ContextView before = ContextView::build(u"sys"_s, history, {});
    ContextView replaced = before;
    QVERIFY(!replaced.replaceHeadWithCheckpoint(3, checkpoint(1, history[1].id, u"[Context Compaction]"_s), history));
    QVERIFY(replaced.items() == before.items());
    QCOMPARE(replaced.bytes(), before.bytes());
    QVERIFY(!replaced.hasCheckpoint());
    // And a cut that is no message boundary of the view is refused too.
    QVERIFY(!replaced.replaceHeadWithCheckpoint(int(before.size()), checkpoint(1, 2, u"[Context Compaction]"_s), history));
}

#include "tst_contextview.moc"
