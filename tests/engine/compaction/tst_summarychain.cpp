#include "compaction/Checkpoint.h"
#include "compaction/ExtractiveSummarizer.h"
#include "compaction/SummaryChain.h"
#include "model/Message.h"

#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestSummaryChain : public QObject
{
    Q_OBJECT
private slots:
    void extractiveKeepsEarlierSummary_data();
    void extractiveKeepsEarlierSummary();
};

void TestSummaryChain::extractiveKeepsEarlierSummary_data()
{
    QTest::addColumn<QString>("previous");   // the previous checkpoint's summary
    QTest::addColumn<bool>("newMessages");   // whether there is anything new to summarise
    QTest::addColumn<QString>("earlier");    // what the new summary must start with

    const QString pair = u"\U0001F600"_s; // a surrogate pair
    const QString exact = QString(2000, u'a');
    const QString straddling = QString(1999, u'b') + pair + u"tail"_s; // the pair sits across the cut
    for (bool fresh : {false, true}) {
        const char *tag = fresh ? "+new" : "+nothing new";
        QTest::addRow("none%s", tag) << QString() << fresh << QString();
        QTest::addRow("blank%s", tag) << u" \n\t "_s << fresh << QString();
        QTest::addRow("short, trimmed%s", tag) << u"  Earlier work.\n"_s << fresh << u"Earlier work."_s;
        QTest::addRow("exactly the bound%s", tag) << u"\n"_s + exact + u"  "_s << fresh << exact;
        QTest::addRow("one over%s", tag) << exact + u"z"_s << fresh << exact + u"\u2026"_s;
        QTest::addRow("pair across the cut%s", tag) << straddling << fresh << QString(1999, u'b') + u"\u2026"_s;
        QTest::addRow("pair before the cut%s", tag) << QString(1998, u'c') + pair + u"more"_s << fresh
                                                    << QString(1998, u'c') + pair + u"\u2026"_s;
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

QTEST_GUILESS_MAIN(TestSummaryChain)
#include "tst_summarychain.moc"
