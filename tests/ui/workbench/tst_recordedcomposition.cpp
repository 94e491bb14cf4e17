// The recorded requests' compositions, as the loader computes them for the demo session.
#include "context/ContextModels.h"
#include "timeline/TimelineModel.h"
#include "whatif/RecordedTotals.h"
#include "workbench/DemoSession.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLoader.h"

#include "store/SessionStore.h"

#include <QFile>
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
    void anEditedCheckpointAsEachRequestSentIt();

private:
    QTemporaryDir m_dir;
    LoadedSession m_session;
    QString m_databasePath;
};

void TestRecordedComposition::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const DemoSession::Result demo = DemoSession::ensure(m_dir.filePath(u"demo"_s));
    QVERIFY2(demo.ok, qPrintable(demo.error));
    QString error;
    QVERIFY2(SessionLoader::loadNow(demo.databasePath, demo.sessionId, &m_session, &error), qPrintable(error));
    m_databasePath = demo.databasePath;
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

// A checkpoint edited at request k (a new version for the requests from k on): the requests before
// k carried the text the compaction made, and the Context dock and the compositions say so.
void TestRecordedComposition::anEditedCheckpointAsEachRequestSentIt()
{
    const QString copy = m_dir.filePath(u"edited.db"_s);
    QVERIFY(QFile::copy(m_databasePath, copy));
    // A checkpoint still the newest two requests after it was made (only the newest is in a view).
    auto madeAt = [this](const Checkpoint &cp) {
        for (const CompactionRecord &r : m_session.records)
            if (r.id == cp.recordId)
                return r.requestIndex;
        return -1;
    };
    Checkpoint original;
    int made = -1;
    const QList<Checkpoint> &all = m_session.overlays.checkpoints;
    for (qsizetype i = 0; i + 1 < all.size() && made < 0; ++i) {
        const int at = madeAt(all[i]);
        if (at >= 0 && madeAt(all[i + 1]) > at + 3) {
            original = all[i];
            made = at;
        }
    }
    QVERIFY(made >= 0);
    const int editedFrom = made + 2;
    {
        SessionStore store;
        QString error;
        QVERIFY2(store.open(copy, &error), qPrintable(error));
        CheckpointVersion edit;
        edit.anchors = original.anchors;
        edit.summary = u"EDITED: a much longer summary than the one the compaction made. "_s.repeated(20);
        edit.text = checkpointMessageText(edit.anchors, edit.summary, {});
        edit.fromRequestIndex = editedFrom;
        QCOMPARE(store.addCheckpointVersion(original.id, edit, &error).value_or(-1), 2);
    }
    LoadedSession edited;
    QString error;
    QVERIFY2(SessionLoader::loadNow(copy, m_session.info.id, &edited, &error), qPrintable(error));
    auto shownAt = [&edited, &original](int request) {
        for (const Checkpoint &cp : edited.contextSnapshot(request).overlays.checkpoints)
            if (cp.id == original.id)
                return cp;
        return Checkpoint{};
    };
    for (int i = made; i < editedFrom; ++i) {
        QCOMPARE(shownAt(i).version, 1);
        QCOMPARE(shownAt(i).text, original.text);
        // What those requests sent is what their records say: the composition has not moved.
        QCOMPARE(edited.compositions.at(i), m_session.compositions.at(i));
    }
    QCOMPARE(shownAt(editedFrom).version, 2);
    QVERIFY(shownAt(editedFrom).summary.startsWith(u"EDITED"_s));
    // From the edit on, the composition counts the edited text (it lists no offloaded references).
    QVERIFY(edited.compositions.at(editedFrom).tokens(ViewComposition::Part::Checkpoint)
            != m_session.compositions.at(editedFrom).tokens(ViewComposition::Part::Checkpoint));
    QCOMPARE(edited.compositions.at(editedFrom).tokens(ViewComposition::Part::Checkpoint),
             edited.compositionOf(ContextView::build(edited.systemPrompt, edited.history, edited.overlaysAt(editedFrom),
                                                     edited.historyEndOf(editedFrom)), editedFrom)
                 .tokens(ViewComposition::Part::Checkpoint));
    // The newest version is the checkpoint's own (the docks that list checkpoints show it).
    QCOMPARE(edited.overlays.checkpoints.at(m_session.overlays.checkpoints.indexOf(original)).version, 2);
}

QTEST_MAIN(TestRecordedComposition)
#include "tst_recordedcomposition.moc"
