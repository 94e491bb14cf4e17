#include "context/ContextModels.h"
#include "context/ContextPanel.h"

#include <QAbstractItemModelTester>
#include <QTableView>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
// ids 1..8: user, call, result(5 KB), assistant, user, call, result, assistant.
ContextSnapshot snapshotWithOverlays(bool withCheckpoint, bool withOffload)
{
    ContextSnapshot s;
    s.requestIndex = 3;
    s.systemPrompt = u"You are a careful agent."_s;
    QList<Message> h{
        Message::user(u"Build a web server"_s),
        Message::assistant(QString(), {{u"c1"_s, u"bash"_s, uR"({"command":"ls"})"_s, true}}),
        Message::toolResult(u"c1"_s, QString(5000, u'x')),
        Message::assistant(u"I will use Go."_s),
        Message::user(u"Add a health endpoint"_s),
        Message::assistant(QString(), {{u"c2"_s, u"write_file"_s, uR"({"path":"main.go"})"_s, true}}),
        Message::toolResult(u"c2"_s, u"wrote 40 lines"_s),
        Message::assistant(u"Done."_s),
    };
    for (qsizetype i = 0; i < h.size(); ++i) {
        h[i].id = i + 1;
        h[i].cacheBytes();
    }
    s.history = h;
    s.historyEnd = h.size();
    if (withCheckpoint) {
        Checkpoint cp;
        cp.coversFromMessageId = 1;
        cp.coversUpToMessageId = 4;
        cp.text = u"[Context Compaction]\n## Anchors\n### User Intent\nBuild a web server\n## Summary\nStarted in Go."_s;
        s.overlays.checkpoints.append(cp);
    }
    if (withOffload) {
        OffloadOverlay o;
        o.messageId = withCheckpoint ? 7 : 3;
        o.placeholder = u"[offloaded: .waterline/tool_results/s/c.txt | 1 lines, 5000 bytes]"_s;
        s.overlays.offloads.insert(o.messageId, o);
    }
    return s;
}
} // namespace

class TestContextDock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelTesters();
    void viewRowsAndMarkers();
    void historyStatuses();
    void selectingCheckpointSelectsItsRange();
    void rowForMessageId();
};

void TestContextDock::modelTesters()
{
    ContextViewModel view;
    ContextHistoryModel history;
    QAbstractItemModelTester t1(&view, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&history, QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.setSnapshot(snapshotWithOverlays(true, true));
    history.setSnapshot(snapshotWithOverlays(true, true));
    QVERIFY(view.rowCount() > 0);
    QCOMPARE(history.rowCount(), 8);
    view.setSnapshot({});
    history.setSnapshot({});
    QCOMPARE(view.rowCount(), 0);
    QCOMPARE(history.rowCount(), 0);
}

void TestContextDock::viewRowsAndMarkers()
{
    ContextViewModel model;
    model.setSnapshot(snapshotWithOverlays(true, true));
    // system, checkpoint, then ids 5..8 with 7 as a placeholder.
    QCOMPARE(model.rowCount(), 6);
    auto kind = [&](int row) { return ViewItem::Kind(model.index(row, 0).data(ContextViewModel::KindRole).toInt()); };
    QCOMPARE(kind(0), ViewItem::Kind::System);
    QCOMPARE(kind(1), ViewItem::Kind::Checkpoint);
    QCOMPARE(model.index(1, 0).data(ContextViewModel::CoversFromRole).toLongLong(), 1);
    QCOMPARE(model.index(1, 0).data(ContextViewModel::CoversToRole).toLongLong(), 4);
    QVERIFY(model.index(1, ContextViewModel::KindColumn).data().toString().contains(u"1–4"_s));
    QCOMPARE(kind(2), ViewItem::Kind::Original);
    QCOMPARE(kind(4), ViewItem::Kind::Placeholder);
    QVERIFY(model.index(4, ContextViewModel::ContentColumn).data().toString().startsWith(u"[offloaded:"_s));
    QVERIFY(model.index(4, 0).data(Qt::BackgroundRole).isValid());
    QVERIFY(!model.index(2, 0).data(Qt::BackgroundRole).isValid());
    QCOMPARE(model.index(1, ContextViewModel::RoleColumn).data().toString(), u"user"_s);
}

void TestContextDock::historyStatuses()
{
    ContextHistoryModel model;
    model.setSnapshot(snapshotWithOverlays(true, true));
    QCOMPARE(model.statusAt(0), ContextHistoryModel::Summarized);
    QCOMPARE(model.statusAt(3), ContextHistoryModel::Summarized);
    QCOMPARE(model.statusAt(4), ContextHistoryModel::Sent);
    QCOMPARE(model.statusAt(6), ContextHistoryModel::Offloaded);
    QVERIFY(model.index(0, 0).data(Qt::BackgroundRole).isValid());
    QVERIFY(!model.index(4, 0).data(Qt::BackgroundRole).isValid());
    // Without overlays everything was sent verbatim.
    model.setSnapshot(snapshotWithOverlays(false, false));
    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(model.statusAt(row), ContextHistoryModel::Sent);
}

void TestContextDock::selectingCheckpointSelectsItsRange()
{
    ContextPanel panel;
    panel.showSnapshot(snapshotWithOverlays(true, true));
    QVERIFY(panel.summaryText().contains(u"Request 3"_s));
    panel.viewTable()->setCurrentIndex(panel.viewModel()->index(1, 0));
    const QModelIndexList rows = panel.historyTable()->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 4);
    QCOMPARE(rows.first().data(ContextHistoryModel::MessageIdRole).toLongLong() + rows.last().data(ContextHistoryModel::MessageIdRole).toLongLong(), 5);
    QVERIFY(panel.detailText().startsWith(u"[Context Compaction]"_s));
    // A verbatim item selects exactly its message.
    panel.viewTable()->setCurrentIndex(panel.viewModel()->index(2, 0));
    const QModelIndexList one = panel.historyTable()->selectionModel()->selectedRows();
    QCOMPARE(one.size(), 1);
    QCOMPARE(one.first().data(ContextHistoryModel::MessageIdRole).toLongLong(), 5);
}

void TestContextDock::rowForMessageId()
{
    ContextHistoryModel model;
    ContextSnapshot s = snapshotWithOverlays(false, false);
    s.historyEnd = 5; // the request saw only the first five messages
    model.setSnapshot(s);
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.rowForMessageId(5), 4);
    QCOMPARE(model.rowForMessageId(6), -1);
    QCOMPARE(model.rowForMessageId(0), -1);
}

QTEST_MAIN(TestContextDock)
#include "tst_contextdock.moc"
