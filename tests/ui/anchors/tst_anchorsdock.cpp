#include "anchors/AnchorHistoryModel.h"
#include "anchors/AnchorsPanel.h"
#include "anchors/WordDiff.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(wl::DiffSegment::Kind)

namespace {
QList<AnchorSnapshot> threeCompactions()
{
    AnchorSnapshot first;
    first.recordId = u"r1"_s;
    first.requestIndex = 4;
    first.tier = Tier::Full;
    first.anchors.setValue(AnchorKind::UserIntent, u"Build a REST API in Go"_s);
    first.anchors.setValue(AnchorKind::KeyDecision, u"Use the chi router"_s);
    first.changes = {AnchorChange::New, AnchorChange::Kept, AnchorChange::New, AnchorChange::Kept, AnchorChange::Kept};

    AnchorSnapshot second = first;
    second.recordId = u"r2"_s;
    second.requestIndex = 9;
    second.anchors.setValue(AnchorKind::KeyDecision, u"Use the chi router and sqlc"_s);
    second.changes = {AnchorChange::Unchanged, AnchorChange::Kept, AnchorChange::Updated, AnchorChange::Kept, AnchorChange::Kept};

    AnchorSnapshot third = second;
    third.recordId = u"r3"_s;
    third.requestIndex = 15;
    third.tier = Tier::Emergency;
    third.anchors.setValue(AnchorKind::NextStep, u"Write the handler tests"_s);
    third.changes = {AnchorChange::Unchanged, AnchorChange::Kept, AnchorChange::Kept, AnchorChange::Kept, AnchorChange::New};
    return {first, second, third};
}
} // namespace

class TestAnchorsDock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void diff_data();
    void diff();
    void diffHtmlEscapes();
    void modelTester();
    void modelCells();
    void selectingACellShowsTheDiff();
    void showRecordSelectsColumn();
};

void TestAnchorsDock::diff_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::addColumn<QString>("removed");
    QTest::addColumn<QString>("inserted");
    QTest::newRow("append") << u"Use the chi router"_s << u"Use the chi router and sqlc"_s << u""_s << u" and sqlc"_s;
    QTest::newRow("replace-middle") << u"fix the parser today"_s << u"fix the lexer today"_s << u"parser"_s << u"lexer"_s;
    QTest::newRow("from-unknown") << u"N/A"_s << u"Deploy"_s << u"N/A"_s << u"Deploy"_s;
    QTest::newRow("same") << u"a b c"_s << u"a b c"_s << u""_s << u""_s;
    QTest::newRow("cjk-words") << u"使用 chi 路由"_s << u"使用 gin 路由"_s << u"chi"_s << u"gin"_s;
}

void TestAnchorsDock::diff()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    QFETCH(QString, removed);
    QFETCH(QString, inserted);
    const QList<DiffSegment> segments = wordDiff(before, after);
    QString oldText, newText, gotRemoved, gotInserted;
    for (const DiffSegment &s : segments) {
        if (s.kind != DiffSegment::Inserted)
            oldText += s.text;
        if (s.kind != DiffSegment::Removed)
            newText += s.text;
        if (s.kind == DiffSegment::Removed)
            gotRemoved += s.text;
        if (s.kind == DiffSegment::Inserted)
            gotInserted += s.text;
    }
    // The segments rebuild both texts exactly, and only the changed words are marked.
    QCOMPARE(oldText, before);
    QCOMPARE(newText, after);
    QCOMPARE(gotRemoved, removed);
    QCOMPARE(gotInserted, inserted);
}

void TestAnchorsDock::diffHtmlEscapes()
{
    const QString html = diffToHtml(wordDiff(u"<b>x</b>"_s, u"<i>y</i>"_s));
    QVERIFY(!html.contains(u"<b>x"_s));
    QVERIFY(html.contains(u"&lt;b&gt;x&lt;/b&gt;"_s));
}

void TestAnchorsDock::modelTester()
{
    AnchorHistoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshots(threeCompactions());
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.columnCount(), 3);
    model.setSnapshots({});
    QCOMPARE(model.columnCount(), 0);
}

void TestAnchorsDock::modelCells()
{
    AnchorHistoryModel model;
    model.setSnapshots(threeCompactions());
    const QModelIndex decision2 = model.index(int(AnchorKind::KeyDecision), 1);
    QCOMPARE(decision2.data().toString(), u"Use the chi router and sqlc"_s);
    QCOMPARE(decision2.data(AnchorHistoryModel::ChangeRole).toInt(), int(AnchorChange::Updated));
    QCOMPARE(decision2.data(AnchorHistoryModel::PreviousValueRole).toString(), u"Use the chi router"_s);
    QVERIFY(decision2.data(Qt::BackgroundRole).isValid());
    QVERIFY(!model.index(int(AnchorKind::UserIntent), 1).data(Qt::BackgroundRole).isValid()); // unchanged: plain
    QCOMPARE(model.headerData(int(AnchorKind::TriedSolution), Qt::Vertical).toString(), u"Tried Solutions"_s);
    QVERIFY(model.headerData(2, Qt::Horizontal).toString().contains(u"15"_s));
    QCOMPARE(model.columnForRecord(u"r3"_s), 2);
    QCOMPARE(model.columnForRecord(u"nope"_s), -1);
}

void TestAnchorsDock::selectingACellShowsTheDiff()
{
    AnchorHistoryModel model;
    AnchorsPanel panel(&model);
    model.setSnapshots(threeCompactions());
    QSignalSpy spy(&panel, &AnchorsPanel::recordSelected);
    panel.table()->setCurrentIndex(model.index(int(AnchorKind::KeyDecision), 1));
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), u"r2"_s);
    const QString html = panel.diffHtml();
    QVERIFY2(html.contains(u"and sqlc"_s), qPrintable(html));
    QVERIFY(html.contains(u"#c6f6d5"_s)); // the inserted words are highlighted
}

void TestAnchorsDock::showRecordSelectsColumn()
{
    AnchorHistoryModel model;
    AnchorsPanel panel(&model);
    model.setSnapshots(threeCompactions());
    panel.showRecord(u"r3"_s);
    QCOMPARE(panel.table()->currentIndex().column(), 2);
    panel.showRecord(u"unknown"_s);
    QCOMPARE(panel.table()->currentIndex().column(), 2);
}

QTEST_MAIN(TestAnchorsDock)
#include "tst_anchorsdock.moc"
