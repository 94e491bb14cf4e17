#include "offloads/OffloadListModel.h"

#include "model/ToolCall.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QTimeZone>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

OffloadRow row(const QString &callId, const QString &tool, qint64 bytes, int lines, int gate, int minutes, int readBacks = 0)
{
    OffloadRow r;
    r.entry.callId = callId;
    r.entry.toolName = tool;
    r.entry.bytes = bytes;
    r.entry.lines = lines;
    r.entry.gate = gate;
    r.entry.relativePath = u".waterline/tool_results/s1/"_s + callId + u".txt"_s;
    r.entry.messageId = minutes + 100;
    r.time = QDateTime(QDate(2025, 3, 1), QTime(10, minutes), QTimeZone::UTC);
    r.readBacks = readBacks;
    r.absolutePath = u"/work/space/"_s + r.entry.relativePath;
    return r;
}

QStringList callIds(const OffloadListModel &model)
{
    QStringList ids;
    for (int i = 0; i < model.rowCount(); ++i)
        ids << model.index(i, OffloadListModel::CallIdColumn).data().toString();
    return ids;
}

} // namespace

class TestOffloadListModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void testerThroughAddRemoveReset();
    void setRowsKeepsSurvivorsInPlace();
    void duplicateCallIdsAreDropped();
    void displayAndSortValues_data();
    void displayAndSortValues();
    void tooltipIsFullPath();
    void updateReadBacksTouchesOnlyThatCell();
    void proxySortsOnRawValues_data();
    void proxySortsOnRawValues();
    void headersAreNamed();
    void namesTheSourceByToolKind_data();
    void namesTheSourceByToolKind();
    void titleFallsBackToTheCallId();
};

void TestOffloadListModel::testerThroughAddRemoveReset()
{
    OffloadListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    // First rows into an empty model: a reset (nothing in common).
    model.setRows({row(u"a"_s, u"bash"_s, 10, 1, 1, 1), row(u"b"_s, u"grep"_s, 20, 2, 1, 2)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(reset.size(), 1);

    // Added: a superset appends.
    model.setRows({row(u"a"_s, u"bash"_s, 10, 1, 1, 1), row(u"b"_s, u"grep"_s, 20, 2, 1, 2),
                   row(u"c"_s, u"web_fetch"_s, 30, 3, 2, 3), row(u"d"_s, u"bash"_s, 40, 4, 2, 4)});
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(callIds(model), (QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s}));

    // Removed: two non-adjacent rows go.
    model.setRows({row(u"b"_s, u"grep"_s, 20, 2, 1, 2), row(u"d"_s, u"bash"_s, 40, 4, 2, 4)});
    QCOMPARE(removed.size(), 2);
    QCOMPARE(callIds(model), (QStringList{u"b"_s, u"d"_s}));

    // addRow appends a new one, updates an existing one.
    model.addRow(row(u"e"_s, u"bash"_s, 50, 5, 1, 5));
    QCOMPARE(inserted.size(), 2);
    model.addRow(row(u"e"_s, u"bash"_s, 55, 5, 1, 5));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(2, OffloadListModel::SizeColumn).data(OffloadListModel::SortRole).toLongLong(), 55);

    // Reset: a set with nothing in common.
    model.setRows({row(u"x"_s, u"read"_s, 1, 1, 1, 6)});
    QCOMPARE(reset.size(), 2);
    QCOMPARE(callIds(model), (QStringList{u"x"_s}));

    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(reset.size(), 3);
    QCOMPARE(model.rowOfCallId(u"x"_s), -1);
}

void TestOffloadListModel::setRowsKeepsSurvivorsInPlace()
{
    OffloadListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows({row(u"a"_s, u"bash"_s, 10, 1, 1, 1), row(u"b"_s, u"grep"_s, 20, 2, 1, 2)});
    const QPersistentModelIndex b = model.index(1, 0);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    // "a" goes, "b" changes size, "c" arrives: b's persistent index follows it to row 0.
    model.setRows({row(u"c"_s, u"x"_s, 1, 1, 1, 3), row(u"b"_s, u"grep"_s, 99, 2, 1, 2)});
    QVERIFY(b.isValid());
    QCOMPARE(b.row(), 0);
    QCOMPARE(b.data(OffloadListModel::CallIdRole).toString(), u"b"_s);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(model.index(0, OffloadListModel::SizeColumn).data(OffloadListModel::SortRole).toLongLong(), 99);
    QCOMPARE(callIds(model), (QStringList{u"b"_s, u"c"_s}));
    QCOMPARE(model.rowOfCallId(u"c"_s), 1);
    // Same rows again: nothing to report.
    changed.clear();
    model.setRows({row(u"c"_s, u"x"_s, 1, 1, 1, 3), row(u"b"_s, u"grep"_s, 99, 2, 1, 2)});
    QCOMPARE(changed.size(), 0);
}

void TestOffloadListModel::duplicateCallIdsAreDropped()
{
    OffloadListModel model;
    model.setRows({row(u"a"_s, u"first"_s, 10, 1, 1, 1), row(u"a"_s, u"second"_s, 20, 2, 1, 2)});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, OffloadListModel::ToolColumn).data().toString(), u"first"_s);
}

void TestOffloadListModel::displayAndSortValues_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<QVariant>("sortValue");
    QTest::addColumn<QString>("display");
    const QLocale locale;
    QTest::newRow("tool") << int(OffloadListModel::ToolColumn) << QVariant(u"web_fetch"_s) << u"web_fetch"_s;
    QTest::newRow("call id") << int(OffloadListModel::CallIdColumn) << QVariant(u"call_9"_s) << u"call_9"_s;
    QTest::newRow("gate") << int(OffloadListModel::GateColumn) << QVariant(2) << u"Compaction"_s;
    QTest::newRow("size") << int(OffloadListModel::SizeColumn) << QVariant(qint64(3 * 1024 * 1024))
                          << locale.formattedDataSize(3 * 1024 * 1024, 1, QLocale::DataSizeTraditionalFormat);
    QTest::newRow("lines") << int(OffloadListModel::LinesColumn) << QVariant(12345) << locale.toString(12345);
    QTest::newRow("read backs") << int(OffloadListModel::ReadBacksColumn) << QVariant(7) << u"7"_s;
}

void TestOffloadListModel::displayAndSortValues()
{
    QFETCH(int, column);
    QFETCH(QVariant, sortValue);
    QFETCH(QString, display);
    OffloadListModel model;
    model.setRows({row(u"call_9"_s, u"web_fetch"_s, 3 * 1024 * 1024, 12345, 2, 7, 7)});
    const QModelIndex cell = model.index(0, column);
    QCOMPARE(cell.data(OffloadListModel::SortRole), sortValue);
    QCOMPARE(cell.data(Qt::DisplayRole).toString(), display);
    QCOMPARE(cell.data(OffloadListModel::CallIdRole).toString(), u"call_9"_s);
    QCOMPARE(cell.data(OffloadListModel::MessageIdRole).toLongLong(), 107);
}

void TestOffloadListModel::tooltipIsFullPath()
{
    OffloadListModel model;
    model.setRows({row(u"call_1"_s, u"bash"_s, 1, 1, 1, 1)});
    for (int c = 0; c < OffloadListModel::ColumnCount; ++c) {
        QCOMPARE(model.index(0, c).data(Qt::ToolTipRole).toString(),
                 QDir::toNativeSeparators(u"/work/space/.waterline/tool_results/s1/call_1.txt"_s));
    }
    QCOMPARE(model.index(0, 0).data(OffloadListModel::PathRole).toString(),
             u"/work/space/.waterline/tool_results/s1/call_1.txt"_s);
}

void TestOffloadListModel::updateReadBacksTouchesOnlyThatCell()
{
    OffloadListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows({row(u"a"_s, u"bash"_s, 1, 1, 1, 1), row(u"b"_s, u"bash"_s, 1, 1, 1, 2)});
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.updateReadBacks({{u"b"_s, 3}, {u"unknown"_s, 9}, {u"a"_s, 0}}); // a: unchanged
    QCOMPARE(changed.size(), 1);
    const QModelIndex topLeft = changed.at(0).at(0).value<QModelIndex>();
    const QModelIndex bottomRight = changed.at(0).at(1).value<QModelIndex>();
    QCOMPARE(topLeft, model.index(1, OffloadListModel::ReadBacksColumn));
    QCOMPARE(bottomRight, topLeft);
    QCOMPARE(model.index(1, OffloadListModel::ReadBacksColumn).data(OffloadListModel::SortRole).toInt(), 3);
    QCOMPARE(model.index(0, OffloadListModel::ReadBacksColumn).data(OffloadListModel::SortRole).toInt(), 0);
}

void TestOffloadListModel::proxySortsOnRawValues_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    QTest::addColumn<QStringList>("expected");
    // Sizes 900 B, 2 KB, 10 KB and 1 MB: as display strings "900 bytes" would sort after "10.0 KB".
    QTest::newRow("size ascending") << int(OffloadListModel::SizeColumn) << int(Qt::AscendingOrder)
                                    << QStringList{u"small"_s, u"two_k"_s, u"ten_k"_s, u"mega"_s};
    QTest::newRow("size descending") << int(OffloadListModel::SizeColumn) << int(Qt::DescendingOrder)
                                     << QStringList{u"mega"_s, u"ten_k"_s, u"two_k"_s, u"small"_s};
    QTest::newRow("lines ascending") << int(OffloadListModel::LinesColumn) << int(Qt::AscendingOrder)
                                     << QStringList{u"mega"_s, u"small"_s, u"ten_k"_s, u"two_k"_s};
    QTest::newRow("time descending") << int(OffloadListModel::TimeColumn) << int(Qt::DescendingOrder)
                                     << QStringList{u"small"_s, u"ten_k"_s, u"mega"_s, u"two_k"_s};
    QTest::newRow("read backs descending") << int(OffloadListModel::ReadBacksColumn) << int(Qt::DescendingOrder)
                                           << QStringList{u"ten_k"_s, u"two_k"_s, u"mega"_s, u"small"_s};
}

void TestOffloadListModel::proxySortsOnRawValues()
{
    QFETCH(int, column);
    QFETCH(int, order);
    QFETCH(QStringList, expected);
    OffloadListModel model;
    model.setRows({row(u"two_k"_s, u"t"_s, 2048, 100, 1, 1, 5), row(u"mega"_s, u"t"_s, 1024 * 1024, 2, 1, 3, 1),
                   row(u"small"_s, u"t"_s, 900, 9, 1, 9, 0), row(u"ten_k"_s, u"t"_s, 10240, 50, 1, 5, 8)});
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(OffloadListModel::SortRole);
    proxy.sort(column, Qt::SortOrder(order));
    QStringList actual;
    for (int i = 0; i < proxy.rowCount(); ++i)
        actual << proxy.index(i, 0).data(OffloadListModel::CallIdRole).toString();
    QCOMPARE(actual, expected);
}

void TestOffloadListModel::headersAreNamed()
{
    OffloadListModel model;
    const QStringList expected{u"Tool"_s, u"Source"_s, u"Call ID"_s, u"Gate"_s, u"Size"_s, u"Lines"_s, u"Time"_s, u"Read Back"_s};
    QCOMPARE(model.columnCount(), int(expected.size()));
    for (int c = 0; c < model.columnCount(); ++c) {
        QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), expected.at(c));
        QVERIFY(!model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }
}

void TestOffloadListModel::namesTheSourceByToolKind_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("fileName");
    QTest::newRow("read_file path") << u"read_file"_s << uR"({"path": "lib/spotter/transcript.ex"})"_s
                                    << u"lib/spotter/transcript.ex"_s << u"lib/spotter/transcript.ex"_s;
    QTest::newRow("Claude Code Read") << u"Read"_s << uR"({"file_path": "/repo/mix.exs", "offset": 10, "limit": 40})"_s
                                      << u"/repo/mix.exs"_s << u"/repo/mix.exs"_s;
    QTest::newRow("bash command") << u"bash"_s << uR"({"command": "mix test --failed\n  --trace"})"_s
                                  << u"mix test --failed --trace"_s << QString();
    QTest::newRow("bash cat") << u"bash"_s << uR"({"command": "cat scripts/deploy.sh"})"_s
                              << u"cat scripts/deploy.sh"_s << u"scripts/deploy.sh"_s;
    QTest::newRow("bash pipeline") << u"bash"_s << uR"({"command": "cat a.log | grep ERROR"})"_s
                                   << u"cat a.log | grep ERROR"_s << QString();
    QTest::newRow("unknown tool") << u"fetch_weather"_s << uR"({"units": "metric", "city": "Paris", "days": 3})"_s
                                  << u"city: Paris, units: metric"_s << QString();
}

void TestOffloadListModel::namesTheSourceByToolKind()
{
    QFETCH(QString, tool);
    QFETCH(QString, arguments);
    QFETCH(QString, label);
    QFETCH(QString, fileName);
    const OffloadSource source = OffloadSource::of(ToolCall{u"call_7"_s, tool, arguments});
    QCOMPARE(source.label, label);
    QCOMPARE(source.fileName, fileName);

    OffloadListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    OffloadRow r = row(u"call_7"_s, tool, 10, 1, 1, 1);
    r.source = source;
    model.setRows({r});
    const QModelIndex cell = model.index(0, OffloadListModel::SourceColumn);
    QCOMPARE(cell.data().toString(), label);
    QCOMPARE(cell.data(OffloadListModel::SortRole).toString(), label);
    QCOMPARE(cell.data(OffloadListModel::SourceFileRole).toString(), fileName);
    QCOMPARE(cell.data(OffloadListModel::TitleRole).toString(), tool + u" · "_s + label);
    QVERIFY(cell.data(Qt::ToolTipRole).toString().startsWith(label + u'\n'));
}

void TestOffloadListModel::titleFallsBackToTheCallId()
{
    // A tool with no string argument says nothing worth a label: the call id names the result.
    const OffloadSource source = OffloadSource::of(ToolCall{u"call_8"_s, u"roll_dice"_s, uR"({"sides": 6})"_s});
    QVERIFY(source.label.isEmpty());
    OffloadListModel model;
    OffloadRow r = row(u"call_8"_s, u"roll_dice"_s, 10, 1, 1, 1);
    r.source = source;
    model.setRows({r});
    QCOMPARE(model.index(0, 0).data(OffloadListModel::TitleRole).toString(), u"roll_dice · call_8"_s);
    QVERIFY(model.index(0, OffloadListModel::SourceColumn).data().toString().isEmpty());
    // Unparsable arguments too.
    QVERIFY(OffloadSource::of(ToolCall{u"c"_s, u"roll_dice"_s, u"{not json"_s, false}).label.isEmpty());
}

QTEST_MAIN(TestOffloadListModel)
#include "tst_offloadlistmodel.moc"
