// The recorded requests' compositions, as the loader computes them for the demo session.
#include "context/ContextModels.h"
#include "timeline/TimelineModel.h"
#include "whatif/RecordedTotals.h"
#include "workbench/DemoSession.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLoader.h"

#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestRecordedComposition : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void eachRequestAsItWasSent();
    void theDocksReadTheSame();

private:
    QTemporaryDir m_dir;
    LoadedSession m_session;
};

void TestRecordedComposition::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const DemoSession::Result demo = DemoSession::ensure(m_dir.filePath(u"demo"_s));
    QVERIFY2(demo.ok, qPrintable(demo.error));
    QString error;
    QVERIFY2(SessionLoader::loadNow(demo.databasePath, demo.sessionId, &m_session, &error), qPrintable(error));
    QVERIFY(m_session.requestCount() > 100);
}

void TestRecordedComposition::eachRequestAsItWasSent()
{
    const CompactionPolicy &policy = m_session.policy;
    QCOMPARE(m_session.compositions.size(), m_session.requests.size());
    bool sawCheckpoint = false, sawOffload = false;
    for (qsizetype i = 0; i < m_session.requests.size(); ++i) {
        const ViewComposition &c = m_session.compositions.at(i);
        const RequestRecord &r = m_session.requests.at(i);
        const QByteArray at = QByteArray("request ") + QByteArray::number(i);
        // What the request's record says it sent, with the reserved output: the timeline's sent line.
        const qint64 sent = RecordedTotals::sentTokens(r, policy, m_session.replay.overheadTokens) + policy.reservedOutput;
        const QByteArray why = at + ": " + QByteArray::number(c.used()) + " != " + QByteArray::number(sent);
        QVERIFY2(c.used() == sent, why.constData());
        QVERIFY2(c.total() == std::max(policy.contextWindow, c.used()), at.constData());
        sawCheckpoint = sawCheckpoint || c.tokens(ViewComposition::Part::Checkpoint) > 0;
        sawOffload = sawOffload || c.tokens(ViewComposition::Part::Offloaded) > 0;
    }
    QVERIFY(sawCheckpoint);
    QVERIFY(sawOffload);
}

void TestRecordedComposition::theDocksReadTheSame()
{
    const QList<TimelineRow> rows = m_session.timelineRows();
    for (int i : {0, int(rows.size()) / 2, int(rows.size()) - 1}) {
        QCOMPARE(rows.at(i).composition, m_session.compositions.at(i));
        // The Context dock's snapshot, and a view built from scratch from its overlays, agree.
        const ContextSnapshot s = m_session.contextSnapshot(i);
        QCOMPARE(s.composition, m_session.compositions.at(i));
        const ViewComposition built = m_session.compositionOf(ContextView::build(s.systemPrompt, s.history, s.overlays, s.historyEnd), i);
        QCOMPARE(built, s.composition);
    }
}

QTEST_MAIN(TestRecordedComposition)
#include "tst_recordedcomposition.moc"
