#include "offloads/OffloadsPanel.h"

#include "offloads/OffloadListModel.h"
#include "offloads/DefinitionMenu.h"
#include "offloads/OffloadViewer.h"

#include "model/ToolCall.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/SyntaxHighlighter>

#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>
#include <QToolButton>
#include <QTreeView>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

const char kJson[] = R"({
  "status": "ok",
  "results": [
    {"path": "src/engine/compaction/Tier.h", "line": 12, "match": "enum class Tier"},
    {"path": "src/engine/compaction/Anchors.h", "line": 40, "match": "struct Anchors"},
    {"path": "src/ui/offloads/OffloadViewer.cpp", "line": 7, "match": null}
  ],
  "total": 3,
  "truncated": false
}
)";

const char kDiff[] = R"(diff --git a/src/engine/Paths.cpp b/src/engine/Paths.cpp
index 3f2a1b0..8c9d4e1 100644
--- a/src/engine/Paths.cpp
+++ b/src/engine/Paths.cpp
@@ -12,7 +12,8 @@ QString dataDir()
 {
-    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
+    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
+    return dir.isEmpty() ? QDir::homePath() : dir;
 }
 
 bool isSafePathComponent(const QString &name)
)";

} // namespace

class TestOffloadsPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void selectingARowOpensItsFile();
    void showCallIdSelectsAndOpens();
    void showCallIdClearsAFilterThatHidesIt();
    void locateIsRequestedFromButtonAndDoubleClick();
    void removingTheCurrentRowClosesTheViewer();
    void stateRoundTrips();
    void rowsAreNamedByTheirSource();
    void highlightingFollowsTheFileTheCallRead();
    void languageIsKeptPerEntry();
    void screenshot_data();
    void screenshot();

private:
    OffloadRow makeRow(const QString &callId, const QString &tool, const QByteArray &content, int minute);
    QTemporaryDir m_dir;
    QList<OffloadRow> m_rows;
};

OffloadRow TestOffloadsPanel::makeRow(const QString &callId, const QString &tool, const QByteArray &content, int minute)
{
    OffloadRow row;
    row.entry.callId = callId;
    row.entry.toolName = tool;
    row.entry.relativePath = u".waterline/tool_results/s1/"_s + callId + u".txt"_s;
    row.entry.bytes = content.size();
    row.entry.lines = int(content.count('\n'));
    row.entry.gate = minute % 2 ? 1 : 2;
    row.entry.messageId = 1000 + minute;
    row.time = QDateTime(QDate(2025, 3, 1), QTime(9, minute), QTimeZone::UTC);
    row.readBacks = minute % 3;
    row.absolutePath = m_dir.filePath(callId + u".txt"_s);
    QFile f(row.absolutePath);
    if (f.open(QIODevice::WriteOnly))
        f.write(content);
    return row;
}

void TestOffloadsPanel::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_rows = {makeRow(u"call_grep_1"_s, u"grep"_s, kJson, 1), makeRow(u"call_diff_2"_s, u"git_diff"_s, kDiff, 2),
              makeRow(u"call_log_3"_s, u"bash"_s, "2025-03-01 09:00:01 INFO start\n2025-03-01 09:00:02 ERROR boom\n", 3)};
}

void TestOffloadsPanel::selectingARowOpensItsFile()
{
    OffloadsPanel panel;
    panel.setRows(m_rows);
    QCOMPARE(panel.view()->model()->rowCount(), 3);
    QVERIFY(panel.viewer()->filePath().isEmpty());
    const QModelIndex source = panel.model()->index(panel.model()->rowOfCallId(u"call_diff_2"_s), 0);
    panel.view()->setCurrentIndex(panel.proxyModel()->mapFromSource(source));
    QCOMPARE(panel.viewer()->filePath(), m_rows.at(1).absolutePath);
    QCOMPARE(panel.viewer()->definitionName(), u"Diff"_s);
    QCOMPARE(panel.currentCallId(), u"call_diff_2"_s);
    QVERIFY(panel.viewer()->editor()->toPlainText().startsWith(u"diff --git"_s));
}

void TestOffloadsPanel::showCallIdSelectsAndOpens()
{
    OffloadsPanel panel;
    panel.setRows(m_rows);
    QVERIFY(panel.showCallId(u"call_grep_1"_s));
    QCOMPARE(panel.currentCallId(), u"call_grep_1"_s);
    QCOMPARE(panel.viewer()->filePath(), m_rows.at(0).absolutePath);
    QCOMPARE(panel.viewer()->definitionName(), u"JSON"_s);
    QVERIFY(panel.view()->selectionModel()->isRowSelected(panel.view()->currentIndex().row(), {}));
    QVERIFY(!panel.showCallId(u"no_such_call"_s));
    QCOMPARE(panel.currentCallId(), u"call_grep_1"_s); // unchanged
}

void TestOffloadsPanel::showCallIdClearsAFilterThatHidesIt()
{
    OffloadsPanel panel;
    panel.setRows(m_rows);
    auto *filter = panel.findChild<QLineEdit *>(u"offloadsFilter"_s);
    QVERIFY(filter);
    filter->setText(u"git_diff"_s);
    QCOMPARE(panel.proxyModel()->rowCount(), 1);
    QVERIFY(panel.showCallId(u"call_log_3"_s));
    QVERIFY(filter->text().isEmpty());
    QCOMPARE(panel.proxyModel()->rowCount(), 3);
    QCOMPARE(panel.currentCallId(), u"call_log_3"_s);
    QCOMPARE(panel.viewer()->filePath(), m_rows.at(2).absolutePath);
}

void TestOffloadsPanel::locateIsRequestedFromButtonAndDoubleClick()
{
    OffloadsPanel panel;
    panel.resize(800, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setRows(m_rows);
    QSignalSpy located(&panel, &OffloadsPanel::locateMessageRequested);
    auto *button = panel.findChild<QToolButton *>(u"locateMessageButton"_s);
    QVERIFY(button);
    QVERIFY(!button->isEnabled()); // nothing selected yet
    QVERIFY(panel.showCallId(u"call_diff_2"_s));
    QVERIFY(button->isEnabled());
    button->click();
    QCOMPARE(located.size(), 1);
    QCOMPARE(located.at(0).at(0).toString(), u"call_diff_2"_s);
    QCOMPARE(located.at(0).at(1).toLongLong(), 1002);

    const QModelIndex grep = panel.proxyModel()->mapFromSource(panel.model()->index(panel.model()->rowOfCallId(u"call_grep_1"_s), 0));
    const QRect rect = panel.view()->visualRect(grep);
    QVERIFY(panel.view()->viewport()->rect().contains(rect.center()));
    QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(panel.currentCallId(), u"call_grep_1"_s);
    QCOMPARE(located.size(), 1); // a single click selects, it does not locate
    QTest::mouseDClick(panel.view()->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(located.size(), 2);
    QCOMPARE(located.at(1).at(0).toString(), u"call_grep_1"_s);
    QCOMPARE(located.at(1).at(1).toLongLong(), 1001);
}

void TestOffloadsPanel::removingTheCurrentRowClosesTheViewer()
{
    OffloadsPanel panel;
    panel.setRows(m_rows);
    QVERIFY(panel.showCallId(u"call_log_3"_s));
    panel.setRows({m_rows.at(0), m_rows.at(1)});
    QVERIFY(panel.currentCallId() != u"call_log_3"_s);
    QVERIFY(panel.viewer()->filePath() != m_rows.at(2).absolutePath);
    // Keeping the current row keeps it open.
    QVERIFY(panel.showCallId(u"call_grep_1"_s));
    panel.setRows({m_rows.at(0)});
    QCOMPARE(panel.currentCallId(), u"call_grep_1"_s);
    QCOMPARE(panel.viewer()->filePath(), m_rows.at(0).absolutePath);
}

void TestOffloadsPanel::stateRoundTrips()
{
    QByteArray state;
    QList<int> sizes;
    {
        OffloadsPanel panel;
        panel.resize(800, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.splitter()->sizes().at(0) < panel.splitter()->sizes().at(1)); // the text gets more room
        panel.splitter()->setSizes({300, 300});
        sizes = panel.splitter()->sizes();
        panel.view()->sortByColumn(OffloadListModel::SizeColumn, Qt::AscendingOrder);
        state = panel.saveState();
    }
    OffloadsPanel panel;
    panel.resize(800, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(panel.splitter()->sizes() != sizes);
    QVERIFY(panel.restoreState(state));
    QCOMPARE(panel.splitter()->sizes(), sizes);
    QCOMPARE(panel.view()->header()->sortIndicatorSection(), int(OffloadListModel::SizeColumn));
    QCOMPARE(panel.view()->header()->sortIndicatorOrder(), Qt::AscendingOrder);
    QVERIFY(!panel.restoreState(QByteArray("garbage")));
    QVERIFY(!panel.restoreState(QByteArray()));
}

void TestOffloadsPanel::rowsAreNamedByTheirSource()
{
    OffloadsPanel panel;
    QList<OffloadRow> rows = m_rows;
    rows[2].source = OffloadSource::of(ToolCall{u"call_log_3"_s, u"bash"_s, uR"({"command": "mix test --trace"})"_s});
    panel.setRows(rows);
    const int row = panel.model()->rowOfCallId(u"call_log_3"_s);
    QCOMPARE(panel.model()->index(row, OffloadListModel::SourceColumn).data().toString(), u"mix test --trace"_s);
    // The source has the room, the long call ids a glimpse; a refresh keeps widths the user set.
    QTreeView *view = panel.view();
    QVERIFY(view->columnWidth(OffloadListModel::SourceColumn) > 2 * view->columnWidth(OffloadListModel::CallIdColumn));
    view->setColumnWidth(OffloadListModel::SourceColumn, 123);
    panel.setRows(rows);
    QCOMPARE(view->columnWidth(OffloadListModel::SourceColumn), 123);
    QVERIFY(panel.showCallId(u"call_log_3"_s));
    QCOMPARE(panel.viewer()->findChild<QLabel *>(u"offloadTitle"_s)->text(), u"bash · mix test --trace"_s);
    // The filter finds a result by its command.
    auto *filter = panel.findChild<QLineEdit *>(u"offloadsFilter"_s);
    filter->setText(u"mix test"_s);
    QCOMPARE(panel.proxyModel()->rowCount(), 1);
    QCOMPARE(panel.proxyModel()->index(0, 0).data(OffloadListModel::CallIdRole).toString(), u"call_log_3"_s);
}

void TestOffloadsPanel::highlightingFollowsTheFileTheCallRead()
{
    // An Elixir file read by a tool: the offload is "<call>.txt", its lines carry Read's numbers.
    OffloadRow elixir = makeRow(u"call_read_4"_s, u"Read"_s,
                                "     1\xe2\x86\x92  def parse(path), do: path\n     2\xe2\x86\x92  # more\n", 4);
    elixir.source = OffloadSource::of(ToolCall{u"call_read_4"_s, u"Read"_s, uR"({"file_path": "/repo/lib/spotter/transcript.ex"})"_s});
    OffloadRow script = makeRow(u"call_read_5"_s, u"read_file"_s, "make all\n", 5);
    script.source = OffloadSource::of(ToolCall{u"call_read_5"_s, u"read_file"_s, uR"({"path": "scripts/deploy.sh"})"_s});
    OffloadsPanel panel;
    panel.setRows({elixir, script});
    QVERIFY(panel.showCallId(u"call_read_4"_s));
    QCOMPARE(panel.viewer()->definitionName(), u"Elixir"_s);
    QCOMPARE(panel.viewer()->findChild<QLabel *>(u"offloadTitle"_s)->text(), u"Read · /repo/lib/spotter/transcript.ex"_s);
    QVERIFY(panel.showCallId(u"call_read_5"_s));
    QCOMPARE(panel.viewer()->definitionName(), u"Bash"_s);
}

void TestOffloadsPanel::languageIsKeptPerEntry()
{
    OffloadsPanel panel;
    panel.setRows(m_rows);
    QVERIFY(panel.showCallId(u"call_grep_1"_s));
    QCOMPARE(panel.viewer()->definitionName(), u"JSON"_s);
    DefinitionMenu *menu = panel.viewer()->definitionMenu();
    menu->setFilterText(u"yaml"_s);
    QVERIFY(menu->matches().contains(u"YAML"_s));
    const auto actions = menu->actions();
    for (QAction *a : actions) {
        if (a->isVisible() && a->data().toString() == u"YAML")
            a->trigger();
    }
    QCOMPARE(panel.viewer()->definitionName(), u"YAML"_s);

    QVERIFY(panel.showCallId(u"call_diff_2"_s));
    QCOMPARE(panel.viewer()->definitionName(), u"Diff"_s); // the other entry keeps its own
    QVERIFY(panel.showCallId(u"call_grep_1"_s));
    QCOMPARE(panel.viewer()->definitionName(), u"YAML"_s);
    QCOMPARE(panel.viewer()->highlighter()->definition().name(), u"YAML"_s);
    // A refresh of the rows (the agent stored more) keeps it too.
    panel.setRows(m_rows);
    QVERIFY(panel.showCallId(u"call_diff_2"_s));
    QVERIFY(panel.showCallId(u"call_grep_1"_s));
    QCOMPARE(panel.viewer()->definitionName(), u"YAML"_s);
}

void TestOffloadsPanel::screenshot_data()
{
    QTest::addColumn<QString>("callId");
    QTest::addColumn<QString>("definition");
    QTest::addColumn<bool>("dark");
    QTest::newRow("json") << u"call_grep_1"_s << u"JSON"_s << false;
    QTest::newRow("diff") << u"call_diff_2"_s << u"Diff"_s << false;
    QTest::newRow("json-dark") << u"call_grep_1"_s << u"JSON"_s << true;
}

void TestOffloadsPanel::screenshot()
{
    QFETCH(QString, callId);
    QFETCH(QString, definition);
    QFETCH(bool, dark);
    OffloadsPanel panel;
    if (dark) {
        QPalette p;
        p.setColor(QPalette::Window, QColor(0x2a, 0x2e, 0x32));
        p.setColor(QPalette::WindowText, QColor(0xfc, 0xfc, 0xfc));
        p.setColor(QPalette::Base, QColor(0x1b, 0x1e, 0x20));
        p.setColor(QPalette::Text, QColor(0xfc, 0xfc, 0xfc));
        p.setColor(QPalette::Button, QColor(0x31, 0x36, 0x3b));
        p.setColor(QPalette::ButtonText, QColor(0xfc, 0xfc, 0xfc));
        panel.setPalette(p);
    }
    panel.resize(900, 640);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setRows(m_rows);
    QVERIFY(panel.showCallId(callId));
    QCOMPARE(panel.viewer()->definitionName(), definition);
    QTest::qWait(50);
    const QImage image = panel.grab().toImage();
    const QString file = u"/tmp/waterline_offloads_%1.png"_s.arg(QString::fromLatin1(QTest::currentDataTag()));
    QVERIFY(image.save(file));

    // The text area is not blank: it holds several distinct colours (highlighted tokens on a background).
    QPlainTextEdit *editor = panel.viewer()->editor();
    const QRect area(editor->viewport()->mapTo(&panel, QPoint(0, 0)), editor->viewport()->size());
    const QImage text = image.copy(area.intersected(image.rect()));
    QSet<QRgb> colours;
    for (int y = 0; y < text.height(); y += 2) {
        for (int x = 0; x < text.width(); x += 2)
            colours.insert(text.pixel(x, y));
    }
    QVERIFY2(colours.size() > 8, qPrintable(QString::number(colours.size())));
}

QTEST_MAIN(TestOffloadsPanel)
#include "tst_offloadspanel.moc"
