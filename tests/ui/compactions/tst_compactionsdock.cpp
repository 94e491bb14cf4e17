#include "compactions/CompactionLogModel.h"
#include "compactions/CompactionsPanel.h"

#include "compaction/AuditLog.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QFile>
#include <QSignalSpy>
#include <QTableView>
#include <QTextBrowser>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

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
    void detailShowsWhatTheRecordDid();
    void detailWithoutCheckpoint();
    void emptyColumnsHidden();
    void reviewAndEditControls();
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

void TestCompactionsDock::detailShowsWhatTheRecordDid()
{
    CompactionLogModel model;
    CompactionsPanel panel(&model);
    QList<CompactionRecord> records = sample();
    CompactionRecord &full = records[1];
    full.summarized = 12;
    full.preservedTail = 4;
    full.anchors.setValue(AnchorKind::UserIntent, u"Fix the flaky CI build"_s);
    full.anchors.setValue(AnchorKind::NextStep, u"Rerun the pipeline"_s);
    full.anchorChanges = {AnchorChange::New, AnchorChange::Kept, AnchorChange::Unchanged, AnchorChange::Kept, AnchorChange::Updated};
    full.offloaded = {OffloadEntry{u"call_a"_s, u"bash"_s, u".waterline/tool_results/s1/a.txt"_s, 40000, 900, 2, 31},
                      OffloadEntry{u"call_b"_s, u"read_file"_s, u".waterline/tool_results/s1/b.txt"_s, 1200, 30, 2, 35}};
    full.reason.contextWindow = 10000;
    full.reason.ratio = 0.82;
    model.setRecords(records);
    Checkpoint checkpoint;
    checkpoint.recordId = u"rec-7"_s;
    checkpoint.coversFromMessageId = 20;
    checkpoint.coversUpToMessageId = 44;
    checkpoint.text = u"[Context Compaction]\n## Summary\nThe build fails on GCC 12."_s;
    panel.setCheckpoints({checkpoint});
    QVERIFY(panel.detailText().isEmpty());

    panel.showRecord(u"rec-7"_s);
    const QString text = panel.detailText();
    QVERIFY2(text.contains(u"Full compaction before request 7"_s), qPrintable(text));
    QVERIFY(text.contains(u"8,200 → 2,100 tokens"_s));
    QVERIFY(text.contains(u"82.0 % of the 10,000-token window"_s));
    QVERIFY(text.contains(u"12 messages, history #20 to #44"_s));
    QVERIFY(text.contains(u"last 4 messages were kept"_s));
    QVERIFY(text.contains(u"bash (call call_a): .waterline/tool_results/s1/a.txt, 900 lines, 40,000 bytes"_s));
    QVERIFY(text.contains(u"read_file (call call_b)"_s));
    QVERIFY(text.contains(u"User Intent (new): Fix the flaky CI build"_s));
    QVERIFY(text.contains(u"Next Steps (updated): Rerun the pipeline"_s));
    QVERIFY(text.contains(u"As before: Execution Progress (kept), Key Decisions (unchanged), Tried Solutions (kept)."_s));
    QVERIFY(text.contains(u"The build fails on GCC 12."_s));
    QVERIFY(text.contains(u"summary failed: timeout, with a comma"_s)); // the error, whole

    // A row the user picks shows its own.
    panel.table()->setCurrentIndex(panel.table()->model()->index(0, 0));
    QVERIFY(panel.detailText().contains(u"Warn compaction before request 3"_s));
    QVERIFY(!panel.detailText().contains(u"GCC 12"_s));
}

void TestCompactionsDock::detailWithoutCheckpoint()
{
    CompactionLogModel model;
    CompactionsPanel panel(&model);
    QList<CompactionRecord> records = sample();
    records[3].summarizerStep = SummarizerStep::Extractive;
    records[3].summarized = 3;
    records[3].summaryText = u"Checked the log."_s;
    records[1].strategy = CompactionStrategy::Mask;
    model.setRecords(records);
    // A Warn record: offloads only.
    panel.showRecord(u"rec-3"_s);
    QVERIFY(panel.detailText().contains(u"This compaction wrote no checkpoint."_s));
    QVERIFY(!panel.detailText().contains(u"Strategy:"_s)); // summarise, as before strategies
    panel.showRecord(u"rec-7"_s);
    QVERIFY(panel.detailText().contains(u"Strategy: Mask."_s));
    panel.showRecord(u"rec-3"_s);
    QVERIFY(panel.detailText().contains(u"Nothing: this compaction wrote no summary."_s));
    // A summary whose checkpoint the session does not hold: its text is made from the record.
    panel.showRecord(u"rec-12"_s);
    QVERIFY(panel.detailText().contains(u"[Context Compaction]"_s));
    QVERIFY(panel.detailText().contains(u"Checked the log."_s));
    // Issue #31: a summary that was written but refused (not smaller) made no checkpoint: the pane
    // never shows a checkpoint text beside "wrote no summary".
    records[3].summarized = 0;
    records[3].error = u"not compacted: the summary (900 bytes) is not smaller than the 800 bytes it would replace"_s;
    model.setRecords(records);
    panel.showRecord(u"rec-12"_s);
    QVERIFY(panel.detailText().contains(u"Nothing: this compaction wrote no summary."_s));
    QVERIFY(panel.detailText().contains(u"This compaction wrote no checkpoint."_s));
    QVERIFY(!panel.detailText().contains(u"[Context Compaction]"_s));
    // Another session empties the pane.
    model.setRecords({});
    QVERIFY(panel.detailText().isEmpty());
}

void TestCompactionsDock::emptyColumnsHidden()
{
    CompactionLogModel model;
    CompactionsPanel panel(&model);
    model.setRecords(sample());
    for (int column = 0; column < CompactionLogModel::ColumnCount; ++column)
        QVERIFY(!panel.table()->isColumnHidden(column));
    // Without any error the Error column says nothing: hidden; Summariser too when no record summarised.
    QList<CompactionRecord> quiet = sample();
    for (CompactionRecord &r : quiet) {
        r.error.clear();
        r.summarizerStep = SummarizerStep::None;
    }
    model.setRecords(quiet);
    QVERIFY(panel.table()->isColumnHidden(CompactionLogModel::ErrorColumn));
    QVERIFY(panel.table()->isColumnHidden(CompactionLogModel::SummarizerColumn));
    QVERIFY(!panel.table()->isColumnHidden(CompactionLogModel::TokensColumn));
    // A record that fails brings it back.
    model.appendRecord(record(30, Tier::Full, 9000, 3000, u"timeout"_s));
    QVERIFY(!panel.table()->isColumnHidden(CompactionLogModel::ErrorColumn));
}

// Review of summaries (issue #22 items 7, 8): the session's check box reports only the user's
// toggles, and Edit / Undo Edit follow the selected record's checkpoint and its version.
void TestCompactionsDock::reviewAndEditControls()
{
    CompactionLogModel model;
    CompactionsPanel panel(&model);
    model.setRecords(sample());
    QSignalSpy toggled(&panel, &CompactionsPanel::reviewSummariesToggled);
    panel.setReviewSummaries(true);
    QVERIFY(panel.reviewCheck()->isChecked());
    QCOMPARE(toggled.size(), 0);
    panel.reviewCheck()->click();
    QCOMPARE(toggled.size(), 1);
    QCOMPARE(toggled.at(0).at(0).toBool(), false);

    Checkpoint checkpoint;
    checkpoint.id = 5;
    checkpoint.recordId = u"rec-7"_s;
    checkpoint.text = u"[Context Compaction]\n## Summary\nfirst"_s;
    checkpoint.version = 1;
    panel.setCheckpoints({checkpoint});
    QVERIFY(!panel.editButton()->isEnabled()); // nothing selected
    panel.showRecord(u"rec-3"_s);              // a Warn record: no checkpoint
    QVERIFY(!panel.editButton()->isEnabled());
    panel.showRecord(u"rec-7"_s);
    QVERIFY(panel.editButton()->isEnabled());
    QVERIFY(!panel.undoEditButton()->isEnabled()); // version 1 is the compaction itself
    QList<qint64> edited;
    connect(&panel, &CompactionsPanel::editCheckpointRequested, this,
            [&edited](const Checkpoint &cp) { edited.append(cp.id); });
    panel.editButton()->click();
    QCOMPARE(edited, QList<qint64>{5});

    checkpoint.version = 2;
    panel.setCheckpoints({checkpoint});
    QVERIFY(panel.undoEditButton()->isEnabled());
    QSignalSpy undo(&panel, &CompactionsPanel::undoCheckpointEditRequested);
    panel.undoEditButton()->click();
    QCOMPARE(undo.size(), 1);
    QCOMPARE(undo.at(0).at(0).toLongLong(), qint64(5));
    QVERIFY(panel.detailText().contains(u"version 2, edited"_s));
}

QTEST_MAIN(TestCompactionsDock)
#include "tst_compactionsdock.moc"
