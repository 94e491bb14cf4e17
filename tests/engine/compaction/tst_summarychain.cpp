#include "compaction/Checkpoint.h"
#include "compaction/ExtractiveSummarizer.h"
#include "compaction/SummaryChain.h"
#include "model/Message.h"

#include "ScriptedSummarizer.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
QList<const Message *> pointers(const QList<Message> &history)
{
    QList<const Message *> out;
    for (const Message &m : history)
        out << &m;
    return out;
}

QList<Message> someHistory()
{
    QList<Message> h{Message::user(u"Please fix the parser."_s), Message::assistant(u"I will use a table-driven lexer."_s)};
    h[0].id = 7;
    h[1].id = 8;
    return h;
}
} // namespace

class TestSummaryChain : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void extractiveKeepsEarlierSummary_data();
    void extractiveKeepsEarlierSummary();
    void structurallyEmptyAnswerMovesOn_data();
    void structurallyEmptyAnswerMovesOn();
    void timeoutBoundsWholeChain();
    void repeatedExtractiveKeepsNewestEarlierSummary();
};

void TestSummaryChain::extractiveKeepsEarlierSummary_data()
{
    QTest::addColumn<QString>("previous");   // the previous checkpoint's summary
    QTest::addColumn<bool>("newMessages");   // whether there is anything new to summarise
    QTest::addColumn<QString>("earlier");    // what the new summary must start with

    const QString pair = u"\U0001F600"_s; // a surrogate pair
    const QString exact = QString(2000, u'a');
    // The newest 2,000 characters are kept: the cut is at the front.
    const QString straddling = u"head"_s + pair + QString(1999, u'b'); // the pair sits across the cut
    for (bool fresh : {false, true}) {
        const char *tag = fresh ? "+new" : "+nothing new";
        QTest::addRow("none%s", tag) << QString() << fresh << QString();
        QTest::addRow("blank%s", tag) << u" \n\t "_s << fresh << QString();
        QTest::addRow("short, trimmed%s", tag) << u"  Earlier work.\n"_s << fresh << u"Earlier work."_s;
        QTest::addRow("exactly the bound%s", tag) << u"\n"_s + exact + u"  "_s << fresh << exact;
        QTest::addRow("one over%s", tag) << u"z"_s + exact << fresh << u"\u2026"_s + exact;
        QTest::addRow("pair across the cut%s", tag) << straddling << fresh << u"\u2026"_s + QString(1999, u'b');
        QTest::addRow("pair after the cut%s", tag) << u"more"_s + pair + QString(1998, u'c') << fresh
                                                   << u"\u2026"_s + pair + QString(1998, u'c');
    }
}

void TestSummaryChain::extractiveKeepsEarlierSummary()
{
    QFETCH(QString, previous);
    QFETCH(bool, newMessages);
    QFETCH(QString, earlier);
    QList<Message> history;
    if (newMessages) {
        history << Message::user(u"Please fix the parser."_s);
        history.last().id = 7;
    }
    QList<const Message *> messages;
    for (const Message &m : history)
        messages << &m;
    const QString fresh = ExtractiveSummarizer::summarize(history).summary;
    QCOMPARE(fresh.isEmpty(), !newMessages);

    Checkpoint cp;
    cp.summary = previous;
    const ParsedSummary withPrevious = SummaryChain::extractive(messages, &cp);
    const QString expected = earlier.isEmpty() ? fresh : fresh.isEmpty() ? earlier : earlier + u"\n\n"_s + fresh;
    QCOMPARE(withPrevious.summary, expected);
    QCOMPARE(SummaryChain::extractive(messages, nullptr).summary, fresh);
}

void TestSummaryChain::structurallyEmptyAnswerMovesOn_data()
{
    QTest::addColumn<QString>("answer");
    QTest::newRow("headings only") << u"## Anchors\n### User Intent\n### Execution Progress\n### Key Decisions\n"
                                      "### Tried Solutions\n### Next Steps\n## Summary\n"_s;
    QTest::newRow("every anchor N/A, no summary")
        << u"## Anchors\n### User Intent\n- N/A\n### Execution Progress\nN/A\n### Key Decisions\nnone\n"
           "### Tried Solutions\n-\n### Next Steps\nN/A\n## Summary\n   \n"_s;
    QTest::newRow("summary heading alone") << u"## Summary\n"_s;
}

void TestSummaryChain::structurallyEmptyAnswerMovesOn()
{
    QFETCH(QString, answer);
    ScriptedSummarizer configured(u"small-model"_s);
    ScriptedSummarizer main(u"main-model"_s);
    configured.addAnswer(answer);
    main.addAnswer(ScriptedSummarizer::answer(u"Fix the parser"_s, u"- table-driven lexer"_s, u"MAIN-SUMMARY"_s));
    const QList<Message> history = someHistory();
    SummaryChain chain(&configured, &main, 5000);
    QSignalSpy spy(&chain, &SummaryChain::finished);
    chain.start(pointers(history), std::nullopt);
    QVERIFY(chain.isFinished() || spy.wait(5000));
    QCOMPARE(chain.outcome().step, SummarizerStep::MainModel);
    QCOMPARE(chain.outcome().parsed.summary, u"MAIN-SUMMARY"_s);
    QCOMPARE(chain.outcome().errors.size(), 1);
    QVERIFY2(chain.outcome().errors.first().startsWith(u"configured (small-model): empty answer"_s),
             qPrintable(chain.outcome().errors.first()));
}

void TestSummaryChain::timeoutBoundsWholeChain()
{
    // Two LLM steps that never answer: the timeout is for both together, then the extractive step.
    ScriptedSummarizer configured(u"small-model"_s);
    ScriptedSummarizer main(u"main-model"_s);
    configured.addHang();
    main.addHang();
    const QList<Message> history = someHistory();
    constexpr int kTimeoutMs = 400;
    SummaryChain chain(&configured, &main, kTimeoutMs);
    QSignalSpy spy(&chain, &SummaryChain::finished);
    QElapsedTimer clock;
    clock.start();
    chain.start(pointers(history), std::nullopt);
    QVERIFY(spy.wait(5000));
    const qint64 elapsed = clock.elapsed();
    QVERIFY2(elapsed < kTimeoutMs + kTimeoutMs / 2, qPrintable(QString::number(elapsed)));
    QCOMPARE(chain.outcome().step, SummarizerStep::Extractive);
    QCOMPARE(configured.cancelled().size(), 1);
    QCOMPARE(main.callCount(), 0); // no time was left for it
    QCOMPARE(chain.outcome().errors.size(), 2);
    QVERIFY2(chain.outcome().errors[0].contains(u"timeout after 400 ms"_s), qPrintable(chain.outcome().errors[0]));
    QVERIFY2(chain.outcome().errors[1].startsWith(u"main_model (main-model): "_s), qPrintable(chain.outcome().errors[1]));
}

void TestSummaryChain::repeatedExtractiveKeepsNewestEarlierSummary()
{
    // Three extractive compactions in a row, each of a range long enough to fill its summary.
    std::optional<Checkpoint> previous;
    qint64 id = 1;
    QString third;
    for (int range = 1; range <= 3; ++range) {
        QList<Message> history;
        for (int turn = 1; turn <= 40; ++turn) {
            history << Message::user(u"RANGE-%1 turn %2: please rename the handler and rerun the checks"_s.arg(range).arg(turn));
            history.last().id = id++;
            history << Message::assistant(u"Renamed it for turn %1 and the checks pass."_s.arg(turn));
            history.last().id = id++;
        }
        const ParsedSummary s = SummaryChain::extractive(pointers(history), previous ? &*previous : nullptr);
        Checkpoint cp;
        cp.anchors = s.anchors;
        cp.summary = s.summary;
        previous = cp;
        third = s.summary;
    }
    // The summary just before the third compaction (range 2's) leads it, not the start of range 1's.
    const qsizetype fresh = third.lastIndexOf(u"\n\nMessages "_s);
    QVERIFY(fresh > 0);
    const QString earlier = third.left(fresh);
    QVERIFY2(earlier.contains(u"RANGE-2"_s), qPrintable(earlier.left(300)));
    QVERIFY2(earlier.startsWith(u"\u2026"_s), qPrintable(earlier.left(50)));
    QVERIFY(earlier.size() <= 2001);
}

QTEST_GUILESS_MAIN(TestSummaryChain)
#include "tst_summarychain.moc"
