// The Compare policies window (issue 21 item 9): the table model under QAbstractItemModelTester,
// sorting by value, a real sweep of a transcript off the GUI thread, the chart's Pareto line and
// selection following the table and back, Apply, Cancel and a bad grid.
#include "compare/ComparePoliciesWindow.h"
#include "compare/SweepChart.h"
#include "compare/SweepTableModel.h"

#include "score/PriceTable.h"
#include "score/RecordedSession.h"
#include "score/SessionScoring.h"
#include "whatif/WhatIfSession.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

const QString kSwe = QStringLiteral(WATERLINE_TEST_DATA "/replay/swe-agent/marshmallow-code__marshmallow-1867.traj");

SweepRow row(const QString &tail, double coverage, double usd, bool pareto)
{
    SweepRow r;
    r.settings = {{u"tail"_s, tail}};
    r.coverage.needed = 100;
    r.coverage.lost = 100 - int(coverage * 100);
    r.coverage.verbatim = 100 - r.coverage.lost;
    r.usd = usd;
    r.pareto = pareto;
    return r;
}

} // namespace

class TestComparePolicies : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void modelSortsByValue();
    void sweepFillsTableAndChart();
    void selectionFollowsBothWaysAndApplies();
    void badGridAndCancel();

private:
    SweepSession m_session;
    std::unique_ptr<ComparePoliciesWindow> m_window;
};

void TestComparePolicies::initTestCase()
{
    QString error;
    const std::optional<RecordedSession> s = RecordedSession::importFile(kSwe, {}, 0, &error);
    QVERIFY2(s, qPrintable(error));
    CompactionPolicy base = s->replay.defaultPolicy();
    base.contextWindow = 16000; // small enough that the grid's policies differ
    m_session = SweepSession::prepare(u"marshmallow"_s, s->replay, s->recorded, s->reportedOutput, base, SummaryModel::extractive(),
                                      PriceTable::builtIn());
}

void TestComparePolicies::modelSortsByValue()
{
    SweepTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(SweepTableModel::SortRole);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // "10" sorts after "9" by value, not as text; the not-run row sorts lowest.
    QList<SweepRow> rows{row(u"9"_s, 0.9, 10.0, true), row(u"10"_s, 0.75, 2.5, true), row(u"4"_s, 0.8, 12.0, false)};
    SweepRow bad = row(u"2"_s, 0, 0, false);
    bad.problem = u"--soft: too high"_s;
    rows << bad;
    model.setRows(rows, 0);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), int(SweepTableModel::ColumnCount));
    QCOMPARE(model.index(0, SweepTableModel::PolicyColumn).data().toString(), u"current policy"_s);
    QCOMPARE(model.index(1, SweepTableModel::PolicyColumn).data().toString(), u"tail=10"_s);
    QVERIFY(model.index(0, 0).data(SweepTableModel::CurrentRole).toBool());
    QCOMPARE(model.index(3, SweepTableModel::CoverageColumn).data().toString(), u"not run"_s);
    QVERIFY(model.index(3, 0).data(Qt::ToolTipRole).toString().contains(u"--soft"_s));

    proxy.sort(SweepTableModel::UsdColumn, Qt::AscendingOrder);
    QCOMPARE(proxy.mapToSource(proxy.index(0, 0)).row(), 3);
    QCOMPARE(proxy.mapToSource(proxy.index(1, 0)).row(), 1);
    QCOMPARE(proxy.mapToSource(proxy.index(2, 0)).row(), 0);
    QCOMPARE(proxy.mapToSource(proxy.index(3, 0)).row(), 2);
    proxy.sort(SweepTableModel::CoverageColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.mapToSource(proxy.index(0, 0)).row(), 0);
    QCOMPARE(proxy.mapToSource(proxy.index(1, 0)).row(), 2);
    proxy.sort(SweepTableModel::ParetoColumn, Qt::DescendingOrder);
    QVERIFY(proxy.index(0, 0).data(SweepTableModel::ParetoRole).toBool());
    QVERIFY(proxy.index(1, 0).data(SweepTableModel::ParetoRole).toBool());
    QVERIFY(!proxy.index(2, 0).data(SweepTableModel::ParetoRole).toBool());

    model.setRows({}, -1);
    QCOMPARE(proxy.rowCount(), 0);
}

void TestComparePolicies::sweepFillsTableAndChart()
{
    m_window = std::make_unique<ComparePoliciesWindow>();
    QAbstractItemModelTester tester(m_window->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_window->setCurrentPolicy(m_session.base);
    m_window->setOpenSession(m_session.name, m_session.whatIf, m_session.scoring);
    m_window->gridEdit()->setPlainText(u"{\"full\": [0.75, 0.9], \"tail\": [2, 12]}"_s);
    QSignalSpy finished(m_window.get(), &ComparePoliciesWindow::finished);
    m_window->run();
    QVERIFY(finished.wait(120000));
    SweepTableModel *model = m_window->model();
    // The grid's four policies and the current one, last.
    QCOMPARE(model->rowCount(), 5);
    QCOMPARE(model->currentRow(), 4);
    QVERIFY(model->row(4).settings.isEmpty());
    QCOMPARE(model->row(4).policy, m_session.base);
    int front = 0;
    for (const SweepRow &r : model->rows()) {
        QVERIFY(r.problem.isEmpty());
        QVERIFY(r.coverage.needed > 0);
        front += r.pareto;
    }
    QVERIFY(front >= 1);
    // The chart: every policy a point, the front a line rising left to right.
    SweepChart *chart = m_window->chart();
    QCOMPARE(chart->pointCount(), 5);
    const QList<QPointF> line = chart->frontLine();
    QCOMPARE(line.size(), front);
    for (qsizetype i = 1; i < line.size(); ++i) {
        QVERIFY(line[i].x() >= line[i - 1].x());
        QVERIFY(line[i].y() >= line[i - 1].y());
    }
    // The current policy is selected after a sweep.
    QCOMPARE(m_window->selectedRow(), 4);
    QVERIFY(m_window->statusText().contains(u"5"_s));
}

void TestComparePolicies::selectionFollowsBothWaysAndApplies()
{
    QVERIFY(m_window);
    SweepTableModel *model = m_window->model();
    SweepChart *chart = m_window->chart();
    // Table to chart: sort by coverage, select the top row: its point is ringed.
    m_window->table()->sortByColumn(SweepTableModel::CoverageColumn, Qt::DescendingOrder);
    const QModelIndex top = m_window->proxy()->index(0, 0);
    m_window->table()->selectionModel()->select(top, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const int source = m_window->proxy()->mapToSource(top).row();
    QCOMPARE(m_window->selectedRow(), source);
    QCOMPARE(chart->selectedRow(), source);
    QCOMPARE(chart->selectedPoints().size(), 1);
    QCOMPARE(chart->selectedPoints().constFirst().y(), model->row(source).coverage.coverage() * 100);
    // The point nearest a row's own point is that row (when no other lies on it).
    const QPointF at(model->row(source).usd, model->row(source).coverage.coverage() * 100);
    const int near = chart->rowNear(at);
    QCOMPARE(QPointF(model->row(near).usd, model->row(near).coverage.coverage() * 100), at);
    // Chart to table: a click on row 1's point selects row 1.
    Q_EMIT chart->rowClicked(1);
    QCOMPARE(m_window->selectedRow(), 1);
    QCOMPARE(chart->selectedRow(), 1);

    // Apply: row 1's settings over the current policy.
    QSignalSpy applied(m_window.get(), &ComparePoliciesWindow::applyRequested);
    QVERIFY(m_window->applyButton()->isEnabled());
    m_window->applyButton()->click();
    QCOMPARE(applied.size(), 1);
    const CompactionPolicy policy = applied.constFirst().constFirst().value<CompactionPolicy>();
    CompactionPolicy expected = m_session.base;
    QString error;
    QVERIFY(PolicyGrid::apply(model->row(1).settings, expected, &error));
    QCOMPARE(policy, expected);
    QCOMPARE(policy.full, 0.75);
    QCOMPARE(policy.tailMessages, 12);
}

void TestComparePolicies::badGridAndCancel()
{
    QVERIFY(m_window);
    const int rowsBefore = m_window->model()->rowCount();
    m_window->gridEdit()->setPlainText(u"{\"tail\": [0]}"_s);
    m_window->run();
    QVERIFY(!m_window->isRunning());
    QVERIFY2(m_window->statusText().contains(u"'tail'"_s), qPrintable(m_window->statusText()));

    // Cancelled at once: the rows shown before stay.
    // 4,096 policies: far longer than the moment between run() and cancel().
    QStringList windows, tails;
    for (int i = 0; i < 64; ++i) {
        windows << QString::number(6000 + 500 * i);
        tails << QString::number(1 + i);
    }
    m_window->gridEdit()->setPlainText(u"{\"window\": [%1], \"tail\": [%2]}"_s.arg(windows.join(u','), tails.join(u',')));
    QSignalSpy finished(m_window.get(), &ComparePoliciesWindow::finished);
    m_window->run();
    QVERIFY(m_window->isRunning());
    m_window->cancel();
    QVERIFY(finished.wait(120000));
    QVERIFY2(m_window->statusText().contains(u"Cancelled"_s), qPrintable(m_window->statusText()));
    QCOMPARE(m_window->model()->rowCount(), rowsBefore);
    m_window.reset();
}

QTEST_MAIN(TestComparePolicies)
#include "tst_comparepolicies.moc"
