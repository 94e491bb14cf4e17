#include "compactions/CompactionLogModel.h"
#include "compactions/CompactionsPanel.h"

#include "compaction/AuditLog.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QFile>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
CompactionRecord record(int request, Tier tier, qint64 before, qint64 after, const QString &error = {})
{
    CompactionRecord r;
    r.id = u"rec-%1"_s.arg(request);
    r.sessionId = u"s1"_s;
    r.requestIndex = request;
    r.timestamp = QDateTime(QDate(2026, 11, 30), QTime(10, request), QTimeZone::fromSecondsAheadOfUtc(3600));
    r.tier = tier;
    r.tokensBefore = before;
    r.tokensAfter = after;
    r.compressionRatio = double(after) / double(before);
    r.changed = true;
    r.error = error;
    r.summarizerStep = tier == Tier::Full ? SummarizerStep::Extractive : SummarizerStep::None;
    return r;
}

QList<CompactionRecord> sample()
{
    return {record(3, Tier::Warn, 6000, 5200), record(7, Tier::Full, 8200, 2100, u"summary failed: timeout, with a comma"_s),
            record(9, Tier::Soft, 7100, 4000), record(12, Tier::Emergency, 9600, 1500)};
}
} // namespace

class TestCompactionsDock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelTester();
    void cells();
    void tierFilter();
    void exportJsonlReadsBackAsAudit();
    void exportCsvQuotes();
    void selectionEmitsRecord();
};

void TestCompactionsDock::modelTester()
{
    CompactionLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    CompactionTierFilter filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester filterTester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRecords(sample());
    model.appendRecord(record(20, Tier::Warn, 6100, 6000));
    filter.setTierVisible(Tier::Warn, false);
    QCOMPARE(filter.rowCount(), 3);
    model.setRecords({});
    QCOMPARE(filter.rowCount(), 0);
}

void TestCompactionsDock::cells()
{
    CompactionLogModel model;
    model.setRecords(sample());
    QCOMPARE(model.index(1, CompactionLogModel::TokensColumn).data().toString(), u"8,200 → 2,100"_s);
    QCOMPARE(model.index(1, CompactionLogModel::ErrorColumn).data().toString(), u"summary failed: timeout, with a comma"_s);
    QVERIFY(model.index(1, CompactionLogModel::SummarizerColumn).data().toString().contains(u"extractive"_s));
    QCOMPARE(model.index(3, CompactionLogModel::TierColumn).data(CompactionLogModel::TierRole).toInt(), int(Tier::Emergency));
    QCOMPARE(model.rowForRecord(u"rec-9"_s), 2);
}

void TestCompactionsDock::tierFilter()
{
    CompactionLogModel model;
    CompactionsPanel panel(&model);
    model.setRecords(sample());
    QCOMPARE(panel.table()->model()->rowCount(), 4);
    auto *full = panel.findChild<QCheckBox *>(u"TierFilter_full"_s);
    QVERIFY(full);
    full->setChecked(false);
    QCOMPARE(panel.table()->model()->rowCount(), 3);
    QVERIFY(!panel.filter()->isTierVisible(Tier::Full));
    full->setChecked(true);
    QCOMPARE(panel.table()->model()->rowCount(), 4);
}

void TestCompactionsDock::exportJsonlReadsBackAsAudit()
{
    CompactionLogModel model;
    CompactionsPanel panel(&model);
    model.setRecords(sample());
    panel.findChild<QCheckBox *>(u"TierFilter_warn"_s)->setChecked(false);
    panel.table()->sortByColumn(CompactionLogModel::TokensColumn, Qt::DescendingOrder);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"out.jsonl"_s);
    QString error;
    QVERIFY2(panel.exportVisible(path, false, &error), qPrintable(error));
    // The export is the audit format: the audit reader takes it back, in time order, filtered.
    const AuditLog::ReadResult back = AuditLog::read(path);
    QCOMPARE(back.skipped, 0);
    QCOMPARE(back.records.size(), 3);
    QCOMPARE(back.records.at(0).id, u"rec-7"_s);
    QCOMPARE(back.records.at(2).tier, Tier::Emergency);
    QCOMPARE(back.records.at(0).error, sample().at(1).error);
    QVERIFY(!panel.exportVisible(dir.filePath(u"no/such/dir/x.jsonl"_s), false, &error));
    QVERIFY(error.contains(u"no/such/dir"_s));
}

void TestCompactionsDock::exportCsvQuotes()
{
    CompactionLogModel model;
    model.setRecords(sample());
    const QList<QByteArray> lines = model.toCsv(model.allRows()).split('\n');
    QCOMPARE(lines.size(), 6); // header, four rows, final newline
    QVERIFY(lines.at(0).startsWith("id,timestamp,request_index,tier"));
    QVERIFY(lines.at(2).startsWith("rec-7,2026-11-30T10:07:00.000+01:00,7,full,true,8200,2100"));
    QVERIFY(lines.at(2).endsWith(",\"summary failed: timeout, with a comma\""));
}

void TestCompactionsDock::selectionEmitsRecord()
{
    CompactionLogModel model;
    CompactionsPanel panel(&model);
    model.setRecords(sample());
    QSignalSpy spy(&panel, &CompactionsPanel::recordSelected);
    panel.table()->setCurrentIndex(panel.table()->model()->index(2, 0));
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), u"rec-9"_s);
    QCOMPARE(spy.at(0).at(1).toInt(), 9);
    // Selecting from elsewhere does not echo back.
    panel.showRecord(u"rec-12"_s);
    QCOMPARE(spy.size(), 1);
    QCOMPARE(panel.table()->currentIndex().row(), 3);
}

QTEST_MAIN(TestCompactionsDock)
#include "tst_compactionsdock.moc"
