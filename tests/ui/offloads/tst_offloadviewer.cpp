#include "offloads/OffloadViewer.h"

#include "common/Highlighting.h"
#include "offloads/DefinitionMenu.h"
#include "offloads/FindBar.h"

#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QTimer>
#include <QVBoxLayout>

using namespace wl;
using namespace Qt::StringLiterals;
namespace HL = wl::Highlighting;

namespace {

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
        return {};
    return path;
}

QByteArray jsonLines(qint64 atLeast)
{
    QByteArray out;
    for (int i = 0; out.size() < atLeast; ++i)
        out += "{\"id\": " + QByteArray::number(i) + ", \"name\": \"item " + QByteArray::number(i) + "\", \"ok\": true}\n";
    return out;
}

QPalette paletteWithWindow(const QColor &window)
{
    QPalette p;
    p.setColor(QPalette::Window, window);
    return p;
}

// The foreground of the first formatted range in the first block.
QColor firstTokenColour(const QPlainTextEdit *editor)
{
    const auto formats = editor->document()->firstBlock().layout()->formats();
    for (const auto &range : formats) {
        if (range.format.hasProperty(QTextFormat::ForegroundBrush))
            return range.format.foreground().color();
    }
    return {};
}

QAction *findAction(QMenu *menu, const QString &data)
{
    const auto actions = menu->findChildren<QAction *>();
    for (QAction *a : actions) {
        if (a->isCheckable() && a->data().toString() == data)
            return a;
    }
    return nullptr;
}

} // namespace

class TestOffloadViewer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void hundredMegabytesReadsOnlyTheFirstChunk();
    void loadMoreAppendsTheNextChunkOnALineBoundary();
    void loadAllRunsInTheBackgroundAndCanStop();
    void scrollingToTheEndLoadsMore();
    void findBarFindsInTheLoadedText();
    void themeFollowsThePalette();
    void guessesTheDefinitionAndTheMenuOverridesIt_data();
    void guessesTheDefinitionAndTheMenuOverridesIt();
    void binaryContentIsANotice();
    void missingFileIsANotice();
    void longLinesAreBrokenForDisplay();
    void clearForgetsTheFile();
    void clearLeavesTheFocusWhereItIs();
    void fileNameHintChoosesTheDefinition();
    void overrideIsKeptPerFile();
    void languageMenuSearchFilters();
    void languageMenuSearchEnterTakesTheFirstMatch();
    void findShowsTheNumberOfMatches();
    void findCountFollowsLoadedText();

private:
    QTemporaryDir m_dir;
};

void TestOffloadViewer::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestOffloadViewer::hundredMegabytesReadsOnlyTheFirstChunk()
{
    // 100 MB written in 1 MB pieces, so the test itself never holds it all.
    const QString path = m_dir.filePath(u"huge.txt"_s);
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray piece = jsonLines(1024 * 1024);
        while (f.size() < 100LL * 1024 * 1024)
            QCOMPARE(f.write(piece), piece.size());
    }
    OffloadViewer viewer;
    viewer.resize(820, 360);
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    QVERIFY(viewer.openFile(path));
    QVERIFY(viewer.fileSize() >= 100LL * 1024 * 1024);
    QVERIFY(viewer.grab().save(u"/tmp/waterline_offload_viewer_huge.png"_s));
    QVERIFY2(viewer.bytesReadFromDisk() <= 2 * 1024 * 1024, qPrintable(QString::number(viewer.bytesReadFromDisk())));
    QVERIFY(viewer.loadedBytes() <= viewer.firstChunkSize());
    QVERIFY(viewer.loadedBytes() > viewer.firstChunkSize() / 2);
    QVERIFY(!viewer.isFullyLoaded());

    // The document holds exactly the first chunk, cut after a complete line.
    const QString shown = viewer.editor()->toPlainText();
    QVERIFY(shown.endsWith(u'\n'));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(shown, QString::fromUtf8(f.read(viewer.loadedBytes())));
    QVERIFY(viewer.statusText().contains(u"Showing the first"_s));
    QVERIFY(viewer.findChild<QPushButton *>(u"loadMoreButton"_s)->isVisibleTo(&viewer));
    QVERIFY(viewer.findChild<QPushButton *>(u"loadAllButton"_s)->isVisibleTo(&viewer));
    QCOMPARE(viewer.definitionName(), u"JSON"_s);
}

void TestOffloadViewer::loadMoreAppendsTheNextChunkOnALineBoundary()
{
    const QByteArray content = jsonLines(200 * 1024);
    const QString path = writeFile(m_dir, u"more.txt"_s, content);
    OffloadViewer viewer;
    viewer.setChunkSizes(16 * 1024, 32 * 1024);
    QVERIFY(viewer.openFile(path));
    const qint64 first = viewer.loadedBytes();
    QVERIFY(first <= 16 * 1024);
    viewer.loadMore();
    const qint64 second = viewer.loadedBytes();
    QVERIFY(second > first);
    QVERIFY(second - first <= 32 * 1024);
    const QString shown = viewer.editor()->toPlainText();
    QVERIFY(shown.endsWith(u'\n'));
    QCOMPARE(shown, QString::fromUtf8(content.first(second)));
    // No line is split across the two chunks: every block is a whole JSON line.
    for (QTextBlock b = viewer.editor()->document()->begin(); b.isValid() && b.next().isValid(); b = b.next())
        QVERIFY2(b.text().startsWith(u'{') && b.text().endsWith(u'}'), qPrintable(b.text()));
    QVERIFY(viewer.bytesReadFromDisk() <= second + 32 * 1024);
}

void TestOffloadViewer::loadAllRunsInTheBackgroundAndCanStop()
{
    const QByteArray content = jsonLines(1024 * 1024);
    const QString path = writeFile(m_dir, u"all.txt"_s, content);
    OffloadViewer viewer;
    viewer.setChunkSizes(32 * 1024, 64 * 1024);
    QVERIFY(viewer.openFile(path));

    viewer.loadAll();
    QVERIFY(viewer.isLoadingAll());
    QVERIFY(viewer.loadedBytes() < content.size()); // returned at once: the rest comes from the event loop
    QVERIFY(viewer.findChild<QPushButton *>(u"stopLoadingButton"_s)->isVisibleTo(&viewer));
    QTRY_VERIFY(viewer.loadedBytes() > 128 * 1024);
    viewer.stopLoading();
    QVERIFY(!viewer.isLoadingAll());
    const qint64 stoppedAt = viewer.loadedBytes();
    QTest::qWait(50);
    QCOMPARE(viewer.loadedBytes(), stoppedAt);
    QVERIFY(!viewer.isFullyLoaded());

    viewer.loadAll();
    QTRY_VERIFY(viewer.isFullyLoaded());
    QVERIFY(!viewer.isLoadingAll());
    QCOMPARE(viewer.editor()->toPlainText(), QString::fromUtf8(content));
    QCOMPARE(viewer.bytesReadFromDisk(), content.size());
    QVERIFY(viewer.statusText().contains(u"Showing all"_s));
    QVERIFY2(viewer.statusText().contains(u"(%1 lines)"_s.arg(QLocale().toString(content.count('\n')))),
             qPrintable(viewer.statusText()));
    QCOMPARE(viewer.editor()->textCursor().position(), 0); // appending never moved the reader's place
    QVERIFY(!viewer.findChild<QPushButton *>(u"loadMoreButton"_s)->isVisibleTo(&viewer));
}

void TestOffloadViewer::scrollingToTheEndLoadsMore()
{
    const QString path = writeFile(m_dir, u"scroll.txt"_s, jsonLines(400 * 1024));
    OffloadViewer viewer;
    viewer.resize(600, 300);
    viewer.setChunkSizes(8 * 1024, 8 * 1024);
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    QVERIFY(viewer.openFile(path));
    const qint64 before = viewer.loadedBytes();
    QScrollBar *bar = viewer.editor()->verticalScrollBar();
    QTRY_VERIFY(bar->maximum() > 0);
    bar->setValue(bar->maximum());
    QTRY_VERIFY(viewer.loadedBytes() > before);
    QVERIFY(!viewer.isFullyLoaded()); // one chunk per arrival at the end, not everything
}

void TestOffloadViewer::findBarFindsInTheLoadedText()
{
    QByteArray content = "first line\nthe needle_early is here\n" + jsonLines(300 * 1024) + "needle_late at the end\n";
    const QString path = writeFile(m_dir, u"find.txt"_s, content);
    OffloadViewer viewer;
    viewer.resize(700, 400);
    viewer.setChunkSizes(64 * 1024, 64 * 1024);
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    QVERIFY(viewer.openFile(path));
    FindBar *bar = viewer.findBar();
    QVERIFY(!bar->isVisible());

    viewer.editor()->setFocus();
    QTest::keyClick(viewer.editor(), Qt::Key_F, Qt::ControlModifier);
    QVERIFY(bar->isVisible());
    auto *field = bar->findChild<QLineEdit *>(u"findField"_s);
    QVERIFY(field);
    QTRY_VERIFY(field->hasFocus());

    QTest::keyClicks(field, u"needle_early"_s); // find as you type
    QCOMPARE(viewer.editor()->textCursor().selectedText(), u"needle_early"_s);
    QCOMPARE(viewer.editor()->textCursor().selectionStart(), int(content.indexOf("needle_early")));

    bar->setText(u"needle_late"_s);
    QVERIFY(!bar->findNext()); // only in the part not loaded yet
    QVERIFY(bar->statusText().contains(u"Not found"_s));

    bar->setText(u"NEEDLE_EARLY"_s);
    bar->setCaseSensitive(true);
    QVERIFY(!bar->findNext());
    bar->setCaseSensitive(false);
    QVERIFY(bar->findNext());
    QCOMPARE(viewer.editor()->textCursor().selectedText().toLower(), u"needle_early"_s);

    // Next wraps round to the only match; previous too.
    QVERIFY(bar->findNext());
    QCOMPARE(viewer.editor()->textCursor().selectionStart(), int(content.indexOf("needle_early")));
    QVERIFY(bar->findPrevious());
    QCOMPARE(viewer.editor()->textCursor().selectionStart(), int(content.indexOf("needle_early")));

    QTest::keyClick(field, Qt::Key_Escape);
    QVERIFY(!bar->isVisible());
}

void TestOffloadViewer::themeFollowsThePalette()
{
    const QString path = writeFile(m_dir, u"theme.json"_s, "{\"key\": \"value\", \"n\": 12}\n");
    OffloadViewer viewer;
    viewer.setPalette(paletteWithWindow(QColor(0xef, 0xf0, 0xf1)));
    QVERIFY(viewer.openFile(path));
    auto *h = viewer.highlighter();
    const QString lightName = HL::repository().defaultTheme(KSyntaxHighlighting::Repository::LightTheme).name();
    const QString darkName = HL::repository().defaultTheme(KSyntaxHighlighting::Repository::DarkTheme).name();
    QCOMPARE(h->theme().name(), lightName);
    const QColor lightToken = firstTokenColour(viewer.editor());
    const QColor lightBase = viewer.editor()->palette().color(QPalette::Base);
    QVERIFY(lightToken.isValid());
    QVERIFY(lightToken != lightBase);

    viewer.setPalette(paletteWithWindow(QColor(0x23, 0x26, 0x29)));
    QTRY_COMPARE(h->theme().name(), darkName);
    QTRY_VERIFY(firstTokenColour(viewer.editor()) != lightToken);
    const QColor darkToken = firstTokenColour(viewer.editor());
    const QColor darkBase = viewer.editor()->palette().color(QPalette::Base);
    QVERIFY(darkBase.lightness() < 128);
    QVERIFY(darkToken != darkBase);
    QVERIFY(std::abs(darkToken.lightness() - darkBase.lightness()) > 60); // readable, not just different
    QVERIFY(std::abs(viewer.editor()->palette().color(QPalette::Text).lightness() - darkBase.lightness()) > 60);
}

void TestOffloadViewer::guessesTheDefinitionAndTheMenuOverridesIt_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("guess");
    QTest::newRow("json") << QByteArray("{\n  \"a\": [1, 2]\n}\n") << u"JSON"_s;
    QTest::newRow("diff") << QByteArray("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n") << u"Diff"_s;
    QTest::newRow("plain") << QByteArray("just some words\n") << u"None"_s;
}

void TestOffloadViewer::guessesTheDefinitionAndTheMenuOverridesIt()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, guess);
    const QString path = writeFile(m_dir, u"guess.txt"_s, content);
    OffloadViewer viewer;
    QVERIFY(viewer.openFile(path));
    QCOMPARE(viewer.guessedDefinition(), guess);
    QCOMPARE(viewer.definitionName(), guess);
    QCOMPARE(viewer.highlighter()->definition().name(), guess);

    QMenu *menu = viewer.definitionMenu();
    QAction *automatic = findAction(menu, QString());
    QVERIFY(automatic);
    QVERIFY(automatic->isChecked());
    QVERIFY(automatic->text().contains(guess));
    // Every definition of the repository is offered, grouped by section.
    QMenu *markup = menu->findChild<QMenu *>(u"definitionSection:Markup"_s);
    QVERIFY(markup);
    QVERIFY(findAction(markup, u"XML"_s));
    QVERIFY(findAction(menu, u"Python"_s));

    findAction(menu, u"Python"_s)->trigger();
    QCOMPARE(viewer.definitionOverride(), u"Python"_s);
    QCOMPARE(viewer.definitionName(), u"Python"_s);
    QCOMPARE(viewer.highlighter()->definition().name(), u"Python"_s);
    QCOMPARE(viewer.findChild<QToolButton *>(u"definitionButton"_s)->text(), u"Python"_s);

    automatic->trigger();
    QCOMPARE(viewer.definitionName(), guess);
    QCOMPARE(viewer.highlighter()->definition().name(), guess);
}

void TestOffloadViewer::binaryContentIsANotice()
{
    const QString path = writeFile(m_dir, u"blob.bin"_s, QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16).repeated(100));
    OffloadViewer viewer;
    QVERIFY(viewer.openFile(path));
    QVERIFY(viewer.isBinary());
    QVERIFY(viewer.editor()->document()->isEmpty());
    auto *notice = viewer.findChild<QLabel *>(u"offloadNotice"_s);
    QVERIFY(notice->isVisibleTo(&viewer));
    QVERIFY(notice->text().contains(u"binary"_s));
    viewer.showBinaryAsText();
    QVERIFY(!viewer.isBinary());
    QVERIFY(!viewer.editor()->document()->isEmpty());
    QVERIFY(!notice->isVisibleTo(&viewer));
}

void TestOffloadViewer::missingFileIsANotice()
{
    const QString path = m_dir.filePath(u"gone.txt"_s);
    OffloadViewer viewer;
    QVERIFY(!viewer.openFile(path));
    QVERIFY(viewer.errorString().contains(path));
    QVERIFY(viewer.findChild<QLabel *>(u"offloadNotice"_s)->text().contains(path));
    QVERIFY(viewer.editor()->document()->isEmpty());
}

void TestOffloadViewer::longLinesAreBrokenForDisplay()
{
    const int length = 5 * OffloadViewer::kMaxLineLength + 17;
    const QString path = writeFile(m_dir, u"long.txt"_s, QByteArray(length, 'x') + "\nshort\n");
    OffloadViewer viewer;
    viewer.setChunkSizes(7000, 7000); // the long line arrives in several chunks
    QVERIFY(viewer.openFile(path));
    viewer.loadAll();
    QTRY_VERIFY(viewer.isFullyLoaded());
    QTextDocument *doc = viewer.editor()->document();
    QCOMPARE(doc->blockCount(), 6 + 2); // 5 full pieces + the 17-char rest, "short", the empty last block
    for (int i = 0; i < 5; ++i)
        QCOMPARE(doc->findBlockByNumber(i).length() - 1, OffloadViewer::kMaxLineLength);
    QCOMPARE(doc->findBlockByNumber(5).text(), QString(17, u'x'));
    QCOMPARE(doc->findBlockByNumber(6).text(), u"short"_s);
    QVERIFY(viewer.brokeLongLines());
    QVERIFY(viewer.statusText().contains(u"broken"_s));
}

void TestOffloadViewer::clearForgetsTheFile()
{
    const QString path = writeFile(m_dir, u"c.txt"_s, "hello\n");
    OffloadViewer viewer;
    QVERIFY(viewer.openFile(path));
    QCOMPARE(viewer.filePath(), path);
    viewer.clear();
    QVERIFY(viewer.filePath().isEmpty());
    QVERIFY(viewer.editor()->document()->isEmpty());
    QCOMPARE(viewer.loadedBytes(), 0);
    QVERIFY(viewer.findChild<QLabel *>(u"offloadNotice"_s)->isVisibleTo(&viewer));
}

// The viewer is cleared when another view selects something (a compaction, a message): the focus
// stays with the view the user is in, and goes back to the text only from the find bar.
void TestOffloadViewer::clearLeavesTheFocusWhereItIs()
{
    const QString path = writeFile(m_dir, u"f.txt"_s, "hello\n");
    QWidget window;
    auto *elsewhere = new QLineEdit(&window);
    auto *viewer = new OffloadViewer(&window);
    auto *layout = new QVBoxLayout(&window);
    layout->addWidget(elsewhere);
    layout->addWidget(viewer);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(viewer->openFile(path));
    elsewhere->setFocus();
    QTRY_COMPARE(QApplication::focusWidget(), elsewhere);
    viewer->clear();
    QCOMPARE(QApplication::focusWidget(), elsewhere);
    // From the find bar, clearing closes it and the focus stays in the viewer.
    QVERIFY(viewer->openFile(path));
    viewer->showFindBar();
    QTRY_VERIFY(viewer->findBar()->isAncestorOf(QApplication::focusWidget()));
    viewer->clear();
    QVERIFY(viewer->findBar()->isHidden());
    QVERIFY(viewer->isAncestorOf(QApplication::focusWidget()));
}

void TestOffloadViewer::fileNameHintChoosesTheDefinition()
{
    // The offload file is "<call>.txt" and its content says little: the name of the file the call read decides.
    const QString path = writeFile(m_dir, u"call_ex.txt"_s, "  x\n  |> y\n");
    OffloadViewer viewer;
    QVERIFY(viewer.openFile(path, u"read_file · lib/spotter/app.ex"_s, u"lib/spotter/app.ex"_s));
    QCOMPARE(viewer.guessedDefinition(), u"Elixir"_s);
    QCOMPARE(viewer.highlighter()->definition().name(), u"Elixir"_s);
    QCOMPARE(viewer.findChild<QLabel *>(u"offloadTitle"_s)->text(), u"read_file · lib/spotter/app.ex"_s);
    // Without the hint: the offload file's own name, which says nothing.
    QVERIFY(viewer.openFile(path));
    QCOMPARE(viewer.guessedDefinition(), u"None"_s);
}

void TestOffloadViewer::overrideIsKeptPerFile()
{
    const QString json = writeFile(m_dir, u"keep_a.txt"_s, "{\"a\": 1}\n");
    const QString diff = writeFile(m_dir, u"keep_b.txt"_s, "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    OffloadViewer viewer;
    QVERIFY(viewer.openFile(json));
    viewer.setDefinitionOverride(u"Python"_s);
    QVERIFY(viewer.openFile(diff));
    QVERIFY(viewer.definitionOverride().isEmpty());
    QCOMPARE(viewer.definitionName(), u"Diff"_s);
    QVERIFY(viewer.openFile(json));
    QCOMPARE(viewer.definitionOverride(), u"Python"_s);
    QCOMPARE(viewer.highlighter()->definition().name(), u"Python"_s);
    QCOMPARE(viewer.findChild<QToolButton *>(u"definitionButton"_s)->text(), u"Python"_s);
    QVERIFY(findAction(viewer.definitionMenu(), u"Python"_s)->isChecked());
    // Back to automatic is remembered too.
    viewer.setDefinitionOverride(QString());
    QVERIFY(viewer.openFile(diff));
    QVERIFY(viewer.openFile(json));
    QCOMPARE(viewer.definitionName(), u"JSON"_s);
}

void TestOffloadViewer::languageMenuSearchFilters()
{
    const QString path = writeFile(m_dir, u"menu.txt"_s, "words\n");
    OffloadViewer viewer;
    QVERIFY(viewer.openFile(path));
    DefinitionMenu *menu = viewer.definitionMenu();
    QMenu *markup = menu->findChild<QMenu *>(u"definitionSection:Markup"_s);
    QVERIFY(markup);
    QVERIFY(markup->menuAction()->isVisible());
    QVERIFY(menu->matches().isEmpty());

    QTest::keyClicks(menu->searchField(), u"elix"_s);
    QVERIFY(menu->matches().contains(u"Elixir"_s));
    QVERIFY(!menu->matches().contains(u"Python"_s));
    QVERIFY(!markup->menuAction()->isVisible()); // the sections step aside while searching
    QList<QAction *> shown;
    const auto actions = menu->actions();
    for (QAction *a : actions) {
        if (a->isVisible() && a->isCheckable() && !a->data().toString().isEmpty() && a->data().toString() != u"None")
            shown << a;
    }
    QCOMPARE(int(shown.size()), int(menu->matches().size()));
    QCOMPARE(shown.front()->data().toString(), menu->matches().front());

    // By file extension.
    menu->setFilterText(u".exs"_s);
    QVERIFY(menu->matches().contains(u"Elixir"_s));
    menu->setFilterText(u"sh"_s);
    QVERIFY(menu->matches().contains(u"Bash"_s));
    QVERIFY(menu->matches().size() <= DefinitionMenu::kMaxMatches);

    // Nothing matches: a note, no choice.
    menu->setFilterText(u"qqqzzz"_s);
    QVERIFY(menu->matches().isEmpty());
    bool note = false;
    const auto afterMiss = menu->actions();
    for (QAction *a : afterMiss)
        note |= a->isVisible() && !a->isEnabled() && !a->text().isEmpty();
    QVERIFY(note);

    // A match chosen from the list sets the override like the sections do.
    menu->setFilterText(u"python"_s);
    QCOMPARE(menu->matches().front(), u"Python"_s);
    findAction(menu, u"Python"_s)->trigger();
    QCOMPARE(viewer.definitionOverride(), u"Python"_s);

    menu->setFilterText(QString());
    QVERIFY(menu->matches().isEmpty());
    QVERIFY(markup->menuAction()->isVisible());
}

void TestOffloadViewer::languageMenuSearchEnterTakesTheFirstMatch()
{
    const QString path = writeFile(m_dir, u"menu_enter.txt"_s, "words\n");
    OffloadViewer viewer;
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    QVERIFY(viewer.openFile(path));
    auto *button = viewer.findChild<QToolButton *>(u"definitionButton"_s);
    DefinitionMenu *menu = viewer.definitionMenu();
    bool typedIntoTheField = false;
    QTimer::singleShot(0, menu, [menu, &typedIntoTheField] {
        // The field has the focus as the menu opens: typing searches at once.
        typedIntoTheField = QApplication::focusWidget() == menu->searchField();
        QTest::keyClicks(menu->searchField(), u"elixir"_s);
        QTest::keyClick(menu->searchField(), Qt::Key_Return);
    });
    button->showMenu(); // returns when the menu closes
    QVERIFY(typedIntoTheField);
    QCOMPARE(viewer.definitionOverride(), u"Elixir"_s);
    QCOMPARE(button->text(), u"Elixir"_s);
    QVERIFY(!menu->isVisible());
}

void TestOffloadViewer::findShowsTheNumberOfMatches()
{
    const QByteArray content = "alpha needle\nneedle needle beta\nNEEDLE gamma\nnothing\n";
    const QString path = writeFile(m_dir, u"count.txt"_s, content);
    OffloadViewer viewer;
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    QVERIFY(viewer.openFile(path));
    viewer.showFindBar();
    FindBar *bar = viewer.findBar();
    auto *field = bar->findChild<QLineEdit *>(u"findField"_s);
    QTest::keyClicks(field, u"needle"_s);
    QCOMPARE(bar->matchCount(), 4);
    QVERIFY(bar->isCountExact());
    QCOMPARE(bar->currentMatch(), 1);
    QCOMPARE(bar->statusText(), u"1 of 4"_s);
    QVERIFY(bar->findNext());
    QVERIFY(bar->findNext());
    QCOMPARE(bar->currentMatch(), 3);
    QCOMPARE(bar->statusText(), u"3 of 4"_s);
    QVERIFY(bar->findNext());
    QVERIFY(bar->findNext()); // wraps round to the first
    QCOMPARE(bar->currentMatch(), 1);
    QVERIFY(bar->statusText().startsWith(u"1 of 4"_s));
    QVERIFY(bar->statusText().contains(u"Wrapped"_s));
    QVERIFY(bar->findPrevious()); // wraps back to the last
    QCOMPARE(bar->currentMatch(), 4);

    bar->setCaseSensitive(true);
    QVERIFY(bar->findNext());
    QCOMPARE(bar->matchCount(), 3);

    bar->setText(u"absent"_s);
    QVERIFY(!bar->findNext());
    QCOMPARE(bar->matchCount(), 0);
    QVERIFY(bar->statusText().contains(u"Not found"_s));
}

void TestOffloadViewer::findCountFollowsLoadedText()
{
    QByteArray content;
    for (int i = 0; i < 4000; ++i)
        content += "line " + QByteArray::number(i) + " marker\n";
    const QString path = writeFile(m_dir, u"count_more.txt"_s, content);
    OffloadViewer viewer;
    viewer.setChunkSizes(8 * 1024, 8 * 1024);
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    QVERIFY(viewer.openFile(path));
    viewer.showFindBar();
    FindBar *bar = viewer.findBar();
    bar->setText(u"marker"_s);
    QVERIFY(bar->findNext());
    const int loadedLines = int(viewer.editor()->toPlainText().count(u'\n'));
    QCOMPARE(bar->matchCount(), loadedLines); // the loaded text only
    QVERIFY(loadedLines < 4000);
    viewer.loadAll();
    QTRY_VERIFY(viewer.isFullyLoaded());
    QTRY_COMPARE(bar->matchCount(), 4000);
    QVERIFY(bar->statusText().startsWith(u"1 of "_s));
}

QTEST_MAIN(TestOffloadViewer)
#include "tst_offloadviewer.moc"
