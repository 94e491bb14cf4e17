// The facts cache must not change a single byte of an extractive summary: summaries over ranges of
// a real transcript with a cache (empty, then filled) equal those without one.
#include "compaction/Anchors.h"
#include "compaction/ExtractiveSummarizer.h"
#include "model/Message.h"
#include "replay/ImportedSession.h"
#include "replay/TranscriptFormats.h"

#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestExtractiveFacts : public QObject
{
    Q_OBJECT

private:
    QList<Message> m_history;

    static void compare(const ParsedSummary &actual, const ParsedSummary &expected)
    {
        for (AnchorKind kind : kAllAnchorKinds)
            QCOMPARE(actual.anchors.value(kind), expected.anchors.value(kind));
        QCOMPARE(actual.summary, expected.summary);
        QCOMPARE(actual.structured, expected.structured);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const ImportResult r = TranscriptFormats::importFile(
            QStringLiteral(WATERLINE_TEST_DATA "/replay/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl"));
        QVERIFY2(r.ok, qPrintable(r.error));
        m_history = r.session.messages;
        QVERIFY(m_history.size() > 100);
        for (qsizetype i = 0; i < m_history.size(); ++i)
            m_history[i].id = i + 1;
    }

    void sameAsUncached_data()
    {
        QTest::addColumn<int>("parts"); // the history cut into this many consecutive ranges
        QTest::newRow("whole history") << 1;
        QTest::newRow("halves") << 2;
        QTest::newRow("tenths") << 10;
        QTest::newRow("fiftieths") << 50;
    }

    void sameAsUncached()
    {
        QFETCH(int, parts);
        ExtractiveFacts facts;
        const qsizetype step = (m_history.size() + parts - 1) / parts;
        for (int pass = 0; pass < 2; ++pass) { // cold, then warm
            for (qsizetype from = 0; from < m_history.size(); from += step) {
                const QList<Message> range = m_history.mid(from, step);
                compare(ExtractiveSummarizer::summarize(range, &facts), ExtractiveSummarizer::summarize(range));
            }
        }
        // The cache was used: most messages (all but those no fact is asked of) have facts recorded.
        QVERIFY2(facts.size() > m_history.size() / 2 && facts.size() <= m_history.size(),
                 qPrintable(QString::number(facts.size())));
    }

    // A message with a known id but other text (an offload placeholder) is not served the facts
    // of the original, whichever of the two is seen first.
    void changedMessageIsSummarizedAfresh_data()
    {
        QTest::addColumn<bool>("originalFirst");
        QTest::newRow("original first") << true;
        QTest::newRow("changed copy first") << false;
    }

    void changedMessageIsSummarizedAfresh()
    {
        QFETCH(bool, originalFirst);
        QList<Message> changed = m_history;
        int edits = 0;
        for (Message &m : changed) {
            if (m.isToolResult() || (m.role == Role::User && !m.content.isEmpty())) {
                m.content = u"Error: replaced text %1\nexit code 3"_s.arg(m.id);
                m.isError = !m.isError;
                ++edits;
            }
        }
        QVERIFY(edits > 0);
        ExtractiveFacts facts;
        const QList<Message> &first = originalFirst ? m_history : changed;
        const QList<Message> &second = originalFirst ? changed : m_history;
        compare(ExtractiveSummarizer::summarize(first, &facts), ExtractiveSummarizer::summarize(first));
        const ParsedSummary expected = ExtractiveSummarizer::summarize(second);
        compare(ExtractiveSummarizer::summarize(second, &facts), expected);
        QVERIFY(ExtractiveSummarizer::summarize(first).summary != expected.summary
                || ExtractiveSummarizer::summarize(first).anchors.value(AnchorKind::TriedSolution)
                       != expected.anchors.value(AnchorKind::TriedSolution));
    }

    // What-if replays make the same placeholders again and again (equal text, new data): the
    // facts of such a version are kept by value and served to the next copy; a few versions of one
    // message can be kept side by side, more are summarised afresh. Summaries never change.
    void otherVersionsAreKeptByValue()
    {
        auto versionOf = [this](int version) {
            QList<Message> copy = m_history;
            for (Message &m : copy) {
                if (m.isToolResult()) // built here, so every call gives new string data
                    m.content = u"[offloaded: v%1 | 3 lines]\nError: preview of %2\n"_s.arg(version).arg(m.id);
            }
            return copy;
        };
        qsizetype firstResult = -1;
        for (qsizetype i = 0; i < m_history.size() && firstResult < 0; ++i)
            firstResult = m_history.at(i).isToolResult() ? i : -1;
        QVERIFY(firstResult >= 0);

        ExtractiveFacts facts;
        compare(ExtractiveSummarizer::summarize(m_history, &facts), ExtractiveSummarizer::summarize(m_history));
        const qsizetype originals = facts.versionCount();
        QCOMPARE(originals, facts.size());

        const QList<Message> first = versionOf(1);
        compare(ExtractiveSummarizer::summarize(first, &facts), ExtractiveSummarizer::summarize(first));
        const qsizetype kept = facts.versionCount() - originals; // one per result whose facts were asked for
        QVERIFY(kept > 0);

        const QList<Message> again = versionOf(1); // equal text, other data: served from the cache
        QVERIFY(again.at(firstResult).content.constData() != first.at(firstResult).content.constData());
        compare(ExtractiveSummarizer::summarize(again, &facts), ExtractiveSummarizer::summarize(again));
        QCOMPARE(facts.versionCount(), originals + kept);

        for (int version = 2; version <= 6; ++version) { // more versions than are kept per message
            const QList<Message> other = versionOf(version);
            compare(ExtractiveSummarizer::summarize(other, &facts), ExtractiveSummarizer::summarize(other));
        }
        QVERIFY(facts.versionCount() > originals + kept);
        QVERIFY(facts.versionCount() < originals + 6 * kept);
        compare(ExtractiveSummarizer::summarize(m_history, &facts), ExtractiveSummarizer::summarize(m_history));
        QCOMPARE(facts.size(), originals);
    }
};

QTEST_GUILESS_MAIN(TestExtractiveFacts)
#include "tst_extractivefacts.moc"
