#include "common/Highlighting.h"
#include "common/PaletteColors.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QApplication>
#include <QPlainTextDocumentLayout>
#include <QPlainTextEdit>
#include <QTest>
#include <QTextCursor>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using namespace Qt::StringLiterals;
namespace HL = wl::Highlighting;

namespace {

QPalette lightPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0xef, 0xf0, 0xf1));
    p.setColor(QPalette::WindowText, QColor(0x23, 0x26, 0x29));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::Text, Qt::black);
    return p;
}

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2a, 0x2e, 0x32));
    p.setColor(QPalette::WindowText, QColor(0xfc, 0xfc, 0xfc));
    p.setColor(QPalette::Base, QColor(0x1b, 0x1e, 0x20));
    p.setColor(QPalette::Text, QColor(0xfc, 0xfc, 0xfc));
    return p;
}

// Every format range the highlighter put on the document's blocks.
QList<QTextLayout::FormatRange> formatsOf(const QTextDocument *doc)
{
    QList<QTextLayout::FormatRange> all;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        all += b.layout()->formats();
    return all;
}

// The foreground of the format covering `position` in the first block, invalid when there is none.
QColor foregroundAt(const QTextDocument *doc, int position)
{
    const auto formats = doc->firstBlock().layout()->formats();
    for (const auto &range : formats) {
        if (position >= range.start && position < range.start + range.length && range.format.hasProperty(QTextFormat::ForegroundBrush))
            return range.format.foreground().color();
    }
    return {};
}

const char kJson[] = "{\"name\": \"waterline\", \"count\": 42, \"ok\": true}\n";

} // namespace

class TestHighlighting : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void repositoryIsShared();
    void themeForPalette_data();
    void themeForPalette();
    void guessDefinition_data();
    void guessDefinition();
    void guessedNamesAreKnown();
    void attachSetsThemeBeforeDefinition();
    void textIsNeverInvisible_data();
    void textIsNeverInvisible();
    void widgetPaletteChangeSwitchesTheme();
    void applicationPaletteChangeSwitchesTheme();
    void setDefinitionSwitchesAndKeepsTheme();
    void unknownDefinitionFallsBackToNone();
    void incrementalHighlightingCatchesUp();
    void incrementalHighlightingStopsAtTheMaximum();
    void themeChangeRestartsIncrementalHighlighting();
};

void TestHighlighting::repositoryIsShared()
{
    QCOMPARE(&HL::repository(), &HL::repository());
    QVERIFY(HL::repository().definitionForName(u"JSON"_s).isValid());
}

void TestHighlighting::themeForPalette_data()
{
    QTest::addColumn<QPalette>("palette");
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << lightPalette() << false;
    QTest::newRow("dark") << darkPalette() << true;
    QPalette blackWindow;
    blackWindow.setColor(QPalette::Window, Qt::black);
    QTest::newRow("black window") << blackWindow << true;
    QPalette whiteWindow;
    whiteWindow.setColor(QPalette::Window, Qt::white);
    QTest::newRow("white window") << whiteWindow << false;
}

void TestHighlighting::themeForPalette()
{
    QFETCH(QPalette, palette);
    QFETCH(bool, dark);
    const auto expected = HL::repository().defaultTheme(dark ? KSyntaxHighlighting::Repository::DarkTheme
                                                             : KSyntaxHighlighting::Repository::LightTheme);
    const auto theme = HL::themeFor(palette);
    QVERIFY(theme.isValid());
    QCOMPARE(theme.name(), expected.name());
    QCOMPARE(wl::isDarkWindow(palette), dark);
    // A dark theme's background is dark and a light one's light: the choice is not arbitrary.
    const QColor background = QColor::fromRgba(theme.editorColor(KSyntaxHighlighting::Theme::BackgroundColor));
    QCOMPARE(background.lightness() < 128, dark);
}

void TestHighlighting::guessDefinition_data()
{
    QTest::addColumn<QByteArray>("sample");
    QTest::addColumn<QString>("hint");
    QTest::addColumn<QString>("expected");

    QTest::newRow("json object") << QByteArray("{\n  \"id\": \"call_1\",\n  \"items\": [1, 2, 3]\n}\n") << QString()
                                 << u"JSON"_s;
    QTest::newRow("json array, leading space") << QByteArray("  \n[{\"a\": 1}, {\"a\": 2}]") << QString() << u"JSON"_s;
    QTest::newRow("json lines") << QByteArray("{\"t\":1}\n{\"t\":2}\n") << QString() << u"JSON"_s;
    QTest::newRow("unified diff") << QByteArray("diff --git a/src/x.cpp b/src/x.cpp\nindex 1..2 100644\n--- a/src/x.cpp\n"
                                                "+++ b/src/x.cpp\n@@ -1,3 +1,3 @@\n-int a;\n+int b;\n")
                                  << QString() << u"Diff"_s;
    QTest::newRow("diff without git header") << QByteArray("--- old.txt\n+++ new.txt\n@@ -1 +1 @@\n-a\n+b\n")
                                             << QString() << u"Diff"_s;
    QTest::newRow("python traceback")
        << QByteArray("Traceback (most recent call last):\n  File \"/app/main.py\", line 12, in <module>\n    run()\n"
                      "  File \"/app/main.py\", line 8, in run\n    1 / 0\nZeroDivisionError: division by zero\n")
        << QString() << u"Python"_s;
    QTest::newRow("shell with shebang") << QByteArray("#!/bin/bash\nset -euo pipefail\nfor f in *.txt; do\n  echo \"$f\"\ndone\n")
                                        << QString() << u"Bash"_s;
    QTest::newRow("env python shebang") << QByteArray("#!/usr/bin/env python3\nprint('hi')\n") << QString() << u"Python"_s;
    QTest::newRow("shell without shebang")
        << QByteArray("export PATH=/opt/bin:$PATH\nif [ -f x ]; then\n  echo yes\nfi\n") << QString() << u"Bash"_s;
    QTest::newRow("c++ source") << QByteArray("#include <vector>\n#include \"x.h\"\n\nnamespace wl {\n\nclass Foo : public Bar\n{\n"
                                              "    std::vector<int> m_items;\n};\n\n} // namespace wl\n")
                                << QString() << u"C++"_s;
    QTest::newRow("markdown") << QByteArray("# Title\n\nSome text with a [link](https://example.org).\n\n## Usage\n\n"
                                            "```sh\nmake\n```\n\n- one\n- two\n")
                              << QString() << u"Markdown"_s;
    QTest::newRow("xml declaration") << QByteArray("<?xml version=\"1.0\"?>\n<root><a x=\"1\"/></root>\n") << QString()
                                     << u"XML"_s;
    QTest::newRow("xml without declaration") << QByteArray("<project name=\"x\">\n  <target/>\n</project>\n") << QString()
                                             << u"XML"_s;
    QTest::newRow("html") << QByteArray("<!DOCTYPE html>\n<html><body><p>x</p></body></html>\n") << QString()
                          << u"HTML"_s;
    QTest::newRow("log with timestamps")
        << QByteArray("2024-05-01 12:00:01 INFO  server started on :8080\n2024-05-01 12:00:02 WARN  slow request /api\n"
                      "2024-05-01 12:00:03 ERROR connection reset\n")
        << QString() << u"Log File (simplified)"_s;
    QTest::newRow("log with iso timestamps and brackets")
        << QByteArray("[2024-05-01T12:00:01Z] starting\n[2024-05-01T12:00:02Z] ready\n[2024-05-01T12:00:09Z] done\n")
        << QString() << u"Log File (simplified)"_s;
    QTest::newRow("plain text") << QByteArray("The quick brown fox jumps over the lazy dog.\nNothing else to see here.\n")
                                << QString() << u"None"_s;
    QTest::newRow("empty") << QByteArray() << QString() << u"None"_s;
    QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << QString() << u"None"_s;
    QTest::newRow("bracket that is not json") << QByteArray("[1, 2, oops\nmore text\n") << QString() << u"None"_s;
    QTest::newRow("large json cut mid-way") << (QByteArray("[") + QByteArray("{\"k\": \"value\"},\n").repeated(4000))
                                            << QString() << u"JSON"_s;
    QTest::newRow("python dict repr is not json") << QByteArray("{'a': 1, 'b': 2}\n") << QString() << u"None"_s;
    QTest::newRow("hint wins over content") << QByteArray("plain words\n") << u"patch.diff"_s << u"Diff"_s;
    QTest::newRow("hint json") << QByteArray("not json at all\n") << u"result.json"_s << u"JSON"_s;
    QTest::newRow("hint .txt says nothing") << QByteArray(kJson) << u"call_1.txt"_s << u"JSON"_s;
    // An Elixir file: by its name, its first line, its shebang, its lines; and behind line numbers.
    const QByteArray elixir = "defmodule Spotter.Transcript do\n  @moduledoc \"Reads transcripts.\"\n\n"
                              "  alias Spotter.Event\n\n  def parse(path) do\n    path\n    |> File.stream!()\n"
                              "    |> Enum.map(&Event.decode/1)\n  end\nend\n";
    QTest::newRow("elixir by name") << QByteArray("words\n") << u"lib/spotter/transcript.ex"_s << u"Elixir"_s;
    QTest::newRow("elixir script by name") << QByteArray("words\n") << u"mix.exs"_s << u"Elixir"_s;
    QTest::newRow("elixir by first line") << elixir << QString() << u"Elixir"_s;
    QTest::newRow("elixir first line behind a .txt") << elixir << u"call_1.txt"_s << u"Elixir"_s;
    QTest::newRow("elixir shebang") << QByteArray("#!/usr/bin/env elixir\nIO.puts(\"hi\")\n") << QString() << u"Elixir"_s;
    QTest::newRow("elixir lines without defmodule")
        << QByteArray("  use GenServer\n  alias Spotter.Repo\n\n  def handle_call(:get, _from, state), do: {:reply, state, state}\n"
                      "  def init(arg) do\n    {:ok, arg}\n  end\n")
        << QString() << u"Elixir"_s;
    QTest::newRow("elixir behind Read's line numbers")
        << QByteArray("     1\xe2\x86\x92" "defmodule Spotter.Transcript do\n     2\xe2\x86\x92  def parse(path) do\n"
                      "     3\xe2\x86\x92    path\n     4\xe2\x86\x92  end\n     5\xe2\x86\x92" "end\n")
        << QString() << u"Elixir"_s;
    QTest::newRow("shell behind cat -n's line numbers")
        << QByteArray("     1\t#!/bin/sh\n     2\tset -e\n     3\techo \"deploying\"\n") << QString() << u"Bash"_s;
    QTest::newRow("shell script by name") << QByteArray("make all\n") << u"scripts/deploy.sh"_s << u"Bash"_s;
    QTest::newRow("shell script by shebang") << QByteArray("#!/bin/sh\nmake all\n") << u"call_2.txt"_s << u"Bash"_s;
    QTest::newRow("numbers that are data stay data") << QByteArray("1\tapple\n2\tpear\nthree\tplum\n")
                                                     << QString() << u"None"_s;
}

void TestHighlighting::guessDefinition()
{
    QFETCH(QByteArray, sample);
    QFETCH(QString, hint);
    QFETCH(QString, expected);
    QCOMPARE(HL::guessDefinition(sample, hint), expected);
}

void TestHighlighting::guessedNamesAreKnown()
{
    // Whatever the guess, it names a definition the repository holds, or "None" (no highlighting).
    const QByteArray samples[] = {QByteArray(kJson), QByteArray("#!/bin/zsh\necho hi\n"),
                                  QByteArray("#!/usr/bin/perl\nprint 1;\n"), QByteArray("random")};
    int known = 0;
    for (const QByteArray &sample : samples) {
        const QString name = HL::guessDefinition(sample);
        if (name == u"None")
            continue;
        QVERIFY2(HL::repository().definitionForName(name).isValid(), qPrintable(name));
        ++known;
    }
    QCOMPARE(known, 3);
}

void TestHighlighting::attachSetsThemeBeforeDefinition()
{
    QWidget host;
    host.setPalette(lightPalette());
    QTextDocument doc;
    doc.setPlainText(QString::fromUtf8(kJson)); // text already there: the pitfall case
    auto *h = HL::attachHighlighter(&doc, &host, u"JSON"_s);
    QCOMPARE(h->parent(), &doc);
    QVERIFY(h->theme().isValid());
    QCOMPARE(h->theme().name(), HL::themeFor(lightPalette()).name());
    QCOMPARE(h->definition().name(), u"JSON"_s);
    // Highlighted synchronously: formats are there without running the event loop.
    QVERIFY(!formatsOf(&doc).isEmpty());
}

void TestHighlighting::textIsNeverInvisible_data()
{
    QTest::addColumn<QPalette>("palette");
    QTest::newRow("light") << lightPalette();
    QTest::newRow("dark") << darkPalette();
}

void TestHighlighting::textIsNeverInvisible()
{
    QFETCH(QPalette, palette);
    QPlainTextEdit editor;
    editor.setPalette(palette);
    editor.setPlainText(QString::fromUtf8(kJson));
    auto *h = HL::attachHighlighter(editor.document(), &editor, u"JSON"_s, &editor);
    const QColor background = editor.palette().color(QPalette::Base);
    QCOMPARE(background, QColor::fromRgba(h->theme().editorColor(KSyntaxHighlighting::Theme::BackgroundColor)));
    const auto formats = formatsOf(editor.document());
    QVERIFY(!formats.isEmpty());
    for (const auto &range : formats) {
        if (!range.format.hasProperty(QTextFormat::ForegroundBrush))
            continue;
        const QColor fg = range.format.foreground().color();
        QVERIFY2(fg.isValid() && fg != background, qPrintable(fg.name() + u" on "_s + background.name()));
        // Not just different: readable (a clear lightness gap).
        QVERIFY2(std::abs(fg.lightness() - background.lightness()) > 60, qPrintable(fg.name() + u" on "_s + background.name()));
    }
    // Unformatted text uses the palette's Text, which must stand out from Base too.
    QVERIFY(std::abs(editor.palette().color(QPalette::Text).lightness() - background.lightness()) > 60);
}

void TestHighlighting::widgetPaletteChangeSwitchesTheme()
{
    QPlainTextEdit editor;
    editor.setPalette(lightPalette());
    editor.setPlainText(QString::fromUtf8(kJson));
    auto *h = HL::attachHighlighter(editor.document(), &editor, u"JSON"_s, &editor);
    const QString lightName = HL::themeFor(lightPalette()).name();
    const QString darkName = HL::themeFor(darkPalette()).name();
    QVERIFY(lightName != darkName);
    QCOMPARE(h->theme().name(), lightName);
    const int keyPos = 2; // inside "name", a JSON key
    const QColor keyLight = foregroundAt(editor.document(), keyPos);
    QVERIFY(keyLight.isValid());
    const QColor baseLight = editor.palette().color(QPalette::Base);

    QPalette dark = editor.palette();
    dark.setColor(QPalette::Window, darkPalette().color(QPalette::Window));
    editor.setPalette(dark);
    QTRY_COMPARE(h->theme().name(), darkName);
    const QColor keyDark = foregroundAt(editor.document(), keyPos);
    QVERIFY(keyDark.isValid());
    QVERIFY(keyDark != keyLight); // rehighlighted with the new theme
    QVERIFY(editor.palette().color(QPalette::Base) != baseLight);
    QVERIFY(keyDark != editor.palette().color(QPalette::Base));
}

void TestHighlighting::applicationPaletteChangeSwitchesTheme()
{
    const QPalette original = QApplication::palette();
    QApplication::setPalette(lightPalette());
    QPlainTextEdit editor;
    editor.setPlainText(QString::fromUtf8(kJson));
    auto *h = HL::attachHighlighter(editor.document(), &editor, u"JSON"_s, &editor);
    QCOMPARE(h->theme().name(), HL::themeFor(lightPalette()).name());

    QApplication::setPalette(darkPalette());
    QTRY_COMPARE(h->theme().name(), HL::themeFor(darkPalette()).name());
    QApplication::setPalette(lightPalette());
    QTRY_COMPARE(h->theme().name(), HL::themeFor(lightPalette()).name());
    QApplication::setPalette(original);
}

void TestHighlighting::setDefinitionSwitchesAndKeepsTheme()
{
    QWidget host;
    host.setPalette(darkPalette());
    QTextDocument doc;
    doc.setPlainText(u"--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n"_s);
    auto *h = HL::attachHighlighter(&doc, &host, u"JSON"_s);
    const QString themeName = h->theme().name();
    HL::setDefinition(h, u"Diff"_s);
    QCOMPARE(h->definition().name(), u"Diff"_s);
    QCOMPARE(h->theme().name(), themeName);
    // The removed line now carries the diff definition's colour, which differs from the added line's.
    const QTextBlock removed = doc.findBlockByNumber(3);
    const QTextBlock added = doc.findBlockByNumber(4);
    QVERIFY(!removed.layout()->formats().isEmpty());
    QVERIFY(!added.layout()->formats().isEmpty());
    QVERIFY(removed.layout()->formats().constFirst().format.foreground().color()
            != added.layout()->formats().constFirst().format.foreground().color());
}

void TestHighlighting::unknownDefinitionFallsBackToNone()
{
    QWidget host;
    QTextDocument doc;
    auto *h = HL::attachHighlighter(&doc, &host, u"No Such Language"_s);
    QCOMPARE(h->definition().name(), u"None"_s);
    HL::setDefinition(h, u"JSON"_s);
    QCOMPARE(h->definition().name(), u"JSON"_s);
    HL::setDefinition(h, QString());
    QCOMPARE(h->definition().name(), u"None"_s);
}

namespace {

QString manyJsonLines(int count)
{
    QString text;
    for (int i = 0; i < count; ++i)
        text += u"{\"id\": "_s + QString::number(i) + u", \"name\": \"item\"}\n"_s;
    return text;
}

QColor firstForeground(const QTextBlock &block)
{
    const auto formats = block.layout()->formats();
    return formats.isEmpty() ? QColor() : formats.constFirst().format.foreground().color();
}

} // namespace

void TestHighlighting::incrementalHighlightingCatchesUp()
{
    QWidget host;
    host.setPalette(lightPalette());
    QTextDocument doc;
    // As in a QPlainTextEdit: a document reports changes (and so gets highlighted) once it has a layout.
    doc.setDocumentLayout(new QPlainTextDocumentLayout(&doc));
    auto *h = HL::attachHighlighter(&doc, &host, u"JSON"_s);
    HL::setIncremental(h, 1000);
    QTextCursor(&doc).insertText(manyJsonLines(20000)); // about 600 KB
    const QTextBlock last = doc.lastBlock().previous();
    QVERIFY(!formatsOf(&doc).isEmpty());                       // the head at once...
    QVERIFY(!doc.firstBlock().layout()->formats().isEmpty());
    QVERIFY(last.layout()->formats().isEmpty());               // ...the tail later
    QVERIFY(!HL::isHighlightingDone(h));
    QTRY_VERIFY(HL::isHighlightingDone(h));
    QVERIFY(!last.layout()->formats().isEmpty());
    QCOMPARE(firstForeground(last), firstForeground(doc.firstBlock()));

    // Appended text is highlighted in the background too.
    QTextCursor end(&doc);
    end.movePosition(QTextCursor::End);
    end.insertText(manyJsonLines(5000));
    QVERIFY(doc.lastBlock().previous().layout()->formats().isEmpty());
    QTRY_VERIFY(HL::isHighlightingDone(h));
    QVERIFY(!doc.lastBlock().previous().layout()->formats().isEmpty());
    // Not incremental: done by definition.
    QTextDocument other;
    QVERIFY(HL::isHighlightingDone(HL::attachHighlighter(&other, &host, u"JSON"_s)));
}

void TestHighlighting::incrementalHighlightingStopsAtTheMaximum()
{
    QWidget host;
    QTextDocument doc;
    // As in a QPlainTextEdit: a document reports changes (and so gets highlighted) once it has a layout.
    doc.setDocumentLayout(new QPlainTextDocumentLayout(&doc));
    auto *h = HL::attachHighlighter(&doc, &host, u"JSON"_s);
    HL::setIncremental(h, 1000, 50000);
    QTextCursor(&doc).insertText(manyJsonLines(5000));
    QVERIFY(doc.characterCount() > 100000);
    QTRY_VERIFY(HL::isHighlightingDone(h));
    QVERIFY(!doc.findBlock(40000).layout()->formats().isEmpty());
    QVERIFY(doc.findBlock(60000).layout()->formats().isEmpty());
    QVERIFY(doc.lastBlock().previous().layout()->formats().isEmpty());
}

void TestHighlighting::themeChangeRestartsIncrementalHighlighting()
{
    QPlainTextEdit editor;
    editor.setPalette(lightPalette());
    auto *h = HL::attachHighlighter(editor.document(), &editor, u"JSON"_s, &editor);
    HL::setIncremental(h, 1000);
    QTextCursor(editor.document()).insertText(manyJsonLines(5000));
    QTRY_VERIFY(HL::isHighlightingDone(h));
    const QTextBlock last = editor.document()->lastBlock().previous();
    const QColor lightColour = firstForeground(last);
    QVERIFY(lightColour.isValid());

    QPalette dark = editor.palette();
    dark.setColor(QPalette::Window, darkPalette().color(QPalette::Window));
    editor.setPalette(dark);
    QTRY_COMPARE(h->theme().name(), HL::themeFor(darkPalette()).name());
    QTRY_VERIFY(HL::isHighlightingDone(h));
    // The far end is redone with the new theme, like the head.
    QCOMPARE(firstForeground(last), firstForeground(editor.document()->firstBlock()));
    QVERIFY(firstForeground(last) != lightColour);
}

QTEST_MAIN(TestHighlighting)
#include "tst_highlighting.moc"
