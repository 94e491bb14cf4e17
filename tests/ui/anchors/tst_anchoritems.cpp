#include "anchors/AnchorItemsModel.h"
#include "anchors/AnchorLineageView.h"
#include "anchors/AnchorsPanel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

struct Fixture
{
    QList<AnchorSnapshot> snapshots;
    QList<LineageItem> items;
};

// Three compactions: "chi" added, reworded, dropped; "Postgres" kept throughout; "Deploy" added last.
Fixture threeCompactions()
{
    Fixture f;
    QList<LineageStep> steps;
    const QStringList decisions{u"- Use the chi router\n- Store data in Postgres"_s,
                                u"- Use the chi router and sqlc\n- Store data in Postgres"_s,
                                u"- Store data in Postgres"_s};
    const QStringList next{u"N/A"_s, u"N/A"_s, u"- Deploy to staging"_s};
    for (int i = 0; i < 3; ++i) {
        AnchorSnapshot s;
        s.recordId = u"r%1"_s.arg(i + 1);
        s.requestIndex = 4 + 5 * i;
        s.tier = Tier::Full;
        s.anchors.setValue(AnchorKind::KeyDecision, decisions.at(i));
        s.anchors.setValue(AnchorKind::NextStep, next.at(i));
        f.snapshots.append(s);
        LineageStep step;
        step.recordId = s.recordId;
        step.anchors = s.anchors;
        steps.append(step);
    }
    f.items = traceAnchorLineage(steps);
    f.items[0].sourceMessageId = 17; // "chi", as if found in message 17
    return f;
}

QModelIndex decisions(const AnchorItemsModel &model)
{
    return model.index(int(AnchorKind::KeyDecision), 0);
}

} // namespace

class TestAnchorItems : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelTester();
    void treeShape();
    void fateCells();
    void onlyDropped();
    void lineageMismatchIsRefused();
    void selectingAnItemShowsItsLineage();
    void sourceLinkSelectsTheMessage();
    void panelHasBothTabs();
    void lineageHtmlEscapes();
};

void TestAnchorItems::modelTester()
{
    AnchorItemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Fixture f = threeCompactions();
    model.setLineage(f.items, f.snapshots);
    model.setOnlyDropped(true);
    model.setOnlyDropped(false);
    model.setLineage({}, {});
    QCOMPARE(model.columnCount(), 1);
    QCOMPARE(model.rowCount(decisions(model)), 0);
}

void TestAnchorItems::treeShape()
{
    AnchorItemsModel model;
    const Fixture f = threeCompactions();
    model.setLineage(f.items, f.snapshots);
    QCOMPARE(model.rowCount(), kAnchorCount);
    QCOMPARE(model.columnCount(), 4); // the item, then three compactions
    QCOMPARE(model.rowCount(decisions(model)), 2);
    QCOMPARE(model.rowCount(model.index(int(AnchorKind::NextStep), 0)), 1);
    QCOMPARE(model.rowCount(model.index(int(AnchorKind::UserIntent), 0)), 0);
    QVERIFY(decisions(model).data().toString().contains(u"Key Decisions"_s));
    const QModelIndex chi = model.index(0, 0, decisions(model));
    QCOMPARE(chi.parent(), decisions(model));
    QCOMPARE(chi.data().toString(), u"Use the chi router and sqlc"_s); // its latest wording
    QCOMPARE(chi.data(AnchorItemsModel::ItemRole).toInt(), 0);
    QCOMPARE(chi.data(AnchorItemsModel::SourceMessageRole).toLongLong(), 17);
    QCOMPARE(model.rowCount(chi), 0);
    QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), u"#2"_s);
    QVERIFY(model.headerData(3, Qt::Horizontal, Qt::ToolTipRole).toString().contains(u"14"_s));
    QCOMPARE(model.indexOfItem(0), chi);
    QVERIFY(!model.indexOfItem(99).isValid());
}

void TestAnchorItems::fateCells()
{
    AnchorItemsModel model;
    const Fixture f = threeCompactions();
    model.setLineage(f.items, f.snapshots);
    const QModelIndex parent = decisions(model);
    auto fate = [&](int row, int column) {
        return ItemFate(model.index(row, column, parent).data(AnchorItemsModel::FateRole).toInt());
    };
    QCOMPARE(fate(0, 1), ItemFate::Added);
    QCOMPARE(fate(0, 2), ItemFate::Reworded);
    QCOMPARE(fate(0, 3), ItemFate::Dropped);
    QCOMPARE(fate(1, 3), ItemFate::Kept);
    QCOMPARE(model.index(0, 3, parent).data().toString(), u"dropped"_s);
    QVERIFY(model.index(0, 3, parent).data(Qt::BackgroundRole).isValid());
    QVERIFY(!model.index(1, 2, parent).data(Qt::BackgroundRole).isValid()); // kept: plain
    QCOMPARE(model.index(0, 2, parent).data(AnchorItemsModel::RecordIdRole).toString(), u"r2"_s);
    // The dropped cell's tooltip names what was dropped.
    QVERIFY(model.index(0, 3, parent).data(Qt::ToolTipRole).toString().contains(u"and sqlc"_s));
}

void TestAnchorItems::onlyDropped()
{
    AnchorItemsModel model;
    const Fixture f = threeCompactions();
    model.setLineage(f.items, f.snapshots);
    model.setOnlyDropped(true);
    QCOMPARE(model.rowCount(decisions(model)), 1);
    QCOMPARE(model.index(0, 0, decisions(model)).data().toString(), u"Use the chi router and sqlc"_s);
    QCOMPARE(model.rowCount(model.index(int(AnchorKind::NextStep), 0)), 0);
    QVERIFY(!model.indexOfItem(1).isValid()); // Postgres is filtered out
    model.setOnlyDropped(false);
    QCOMPARE(model.rowCount(decisions(model)), 2);
}

void TestAnchorItems::lineageMismatchIsRefused()
{
    // Items traced over three compactions do not fit two: none is shown, nothing indexes past the end.
    AnchorItemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Fixture f = threeCompactions();
    model.setLineage(f.items, f.snapshots.mid(0, 2));
    QVERIFY(model.items().isEmpty());
    QCOMPARE(model.rowCount(decisions(model)), 0);
}

void TestAnchorItems::selectingAnItemShowsItsLineage()
{
    AnchorItemsModel model;
    AnchorLineageView view(&model);
    QSignalSpy records(&view, &AnchorLineageView::recordSelected);
    const Fixture f = threeCompactions();
    model.setLineage(f.items, f.snapshots);
    // Shown without a choice: the item dropped last, and no selection reported for it.
    QCOMPARE(view.tree()->currentIndex(), model.index(0, 0, decisions(model)));
    QCOMPARE(records.size(), 0);
    const QString html = view.lineageHtml();
    QVERIFY2(html.contains(u"Added by compaction #1"_s), qPrintable(html));
    QVERIFY(html.contains(u"Reworded by compaction #2"_s));
    QVERIFY(html.contains(u"#c6f6d5"_s)); // the rewording's inserted words are highlighted
    QVERIFY(html.contains(u"Dropped by compaction #3"_s));
    QVERIFY(html.contains(u"message #17"_s));

    view.tree()->setCurrentIndex(model.index(1, 0, decisions(model)));
    QCOMPARE(records.size(), 1);
    QCOMPARE(records.at(0).at(0).toString(), u"r1"_s); // the text cell: the compaction that added it
    QVERIFY(view.lineageHtml().contains(u"Kept by #2 to #3"_s));
    view.tree()->setCurrentIndex(model.index(0, 2, decisions(model)));
    QCOMPARE(records.constLast().at(0).toString(), u"r2"_s); // a fate cell: its compaction

    // The checkbox drives the filter, and the item shown stays shown through it.
    view.onlyDroppedBox()->setChecked(true);
    QVERIFY(model.onlyDropped());
    QCOMPARE(model.rowCount(decisions(model)), 1);
    QCOMPARE(view.tree()->currentIndex(), model.index(0, 2, decisions(model)));
    QCOMPARE(records.size(), 2);

    const QString postgres = AnchorLineageView::lineageHtml(f.items.at(1), f.snapshots);
    QVERIFY(postgres.contains(u"Still in the latest anchors"_s));
    QVERIFY(postgres.contains(u"No message"_s));
}

void TestAnchorItems::sourceLinkSelectsTheMessage()
{
    AnchorItemsModel model;
    AnchorLineageView view(&model);
    const Fixture f = threeCompactions();
    model.setLineage(f.items, f.snapshots);
    auto *browser = view.findChild<QTextBrowser *>(u"AnchorLineage"_s);
    QVERIFY(browser);
    QSignalSpy messages(&view, &AnchorLineageView::messageSelected);
    Q_EMIT browser->anchorClicked(QUrl(u"message:17"_s));
    QCOMPARE(messages.size(), 1);
    QCOMPARE(messages.at(0).at(0).toLongLong(), 17);
    Q_EMIT browser->anchorClicked(QUrl(u"https://example.com/x"_s));
    Q_EMIT browser->anchorClicked(QUrl(u"message:-3"_s));
    QCOMPARE(messages.size(), 1);
}

void TestAnchorItems::panelHasBothTabs()
{
    AnchorHistoryModel history;
    AnchorItemsModel items;
    AnchorsPanel panel(&history, &items);
    QCOMPARE(panel.tabs()->count(), 2);
    QCOMPARE(panel.tabs()->currentWidget(), panel.lineageView());
    const Fixture f = threeCompactions();
    items.setLineage(f.items, f.snapshots);
    QSignalSpy messages(&panel, &AnchorsPanel::messageSelected);
    Q_EMIT panel.lineageView()->messageSelected(5);
    QCOMPARE(messages.size(), 1);
    QVERIFY(panel.lineageView()->tree()->isExpanded(decisions(items)));
    auto *summary = panel.findChild<QLabel *>(u"AnchorItemsSummary"_s);
    QVERIFY(summary);
    QCOMPARE(summary->text(), u"Items: 3 over 3 compactions, 1 dropped"_s);
    QCOMPARE(decisions(items).data().toString(), u"Key Decisions (2)"_s);
}

void TestAnchorItems::lineageHtmlEscapes()
{
    // Anchor text is model output: it is shown as text, never as markup.
    QList<AnchorSnapshot> snapshots(2);
    QList<LineageStep> steps(2);
    const QStringList values{u"- <img src=x> run <b>make</b> now"_s, u"- <img src=x> run <b>make</b> now please"_s};
    for (int i = 0; i < 2; ++i) {
        snapshots[i].recordId = steps[i].recordId = u"r%1"_s.arg(i);
        snapshots[i].anchors.setValue(AnchorKind::NextStep, values.at(i));
        steps[i].anchors = snapshots[i].anchors;
    }
    const QList<LineageItem> items = traceAnchorLineage(steps);
    QCOMPARE(items.size(), 1);
    QCOMPARE(items.at(0).fates.at(1), ItemFate::Reworded);
    const QString html = AnchorLineageView::lineageHtml(items.at(0), snapshots);
    QVERIFY(!html.contains(u"<img"_s));
    QVERIFY(!html.contains(u"<b>make"_s));
    QVERIFY2(html.contains(u"&lt;img src=x&gt;"_s), qPrintable(html));
}

QTEST_MAIN(TestAnchorItems)
#include "tst_anchoritems.moc"
