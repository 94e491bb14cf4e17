#include "common/Highlighting.h"

#include "UiLogging.h"
#include "common/PaletteColors.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QElapsedTimer>
#include <QEvent>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QPalette>
#include <QPointer>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>
#include <QWidget>

#include <climits>

using namespace Qt::StringLiterals;

namespace wl::Highlighting {

namespace {

// How much of a sample the guess looks at: enough to see a few hundred lines, cheap on a 100 MB file.
constexpr qsizetype kGuessWindow = 32 * 1024;
constexpr int kGuessLines = 300;

const char kNoneDefinition[] = "None";
const char kLogDefinition[] = "Log File (simplified)";

// Milliseconds of highlighting per event-loop turn in incremental mode: short enough to keep the window fluid.
constexpr int kSliceMilliseconds = 8;

// A highlighter that can leave the far end of a large document for later: blocks starting at or past
// the frontier are skipped when the text changes and done from a zero timer, a time slice per turn.
class IncrementalHighlighter : public KSyntaxHighlighting::SyntaxHighlighter
{
public:
    explicit IncrementalHighlighter(QObject *parent)
        : SyntaxHighlighter(parent)
    {
        m_timer.setInterval(0);
        m_timer.callOnTimeout(this, &IncrementalHighlighter::step);
    }

    // Connected before the highlighter's own handler, so the frontier is right when it reformats.
    void watch(QTextDocument *document)
    {
        connect(document, &QTextDocument::contentsChange, this, [this](int position, int removed, int added) {
            if (!m_incremental)
                return;
            // Equal counts are formats being applied (markContentsDirty), not new text: no reason to rewind.
            if (removed != added && position < m_frontier)
                m_frontier = std::max<qint64>(m_immediate, position);
            schedule();
        });
    }

    void configure(qint64 immediate, qint64 max)
    {
        m_incremental = true;
        m_immediate = std::max<qint64>(immediate, 0);
        m_max = max < 0 ? -1 : max;
        restart();
    }

    // Before a full rehighlight(): only the immediate part is done at once, the rest comes back slice by slice.
    void restart()
    {
        if (!m_incremental)
            return;
        m_frontier = m_immediate;
        schedule();
    }

    bool isDone() const
    {
        if (!m_incremental || !document())
            return true;
        qint64 end = document()->characterCount();
        if (m_max >= 0)
            end = std::min(end, m_max);
        return m_frontier >= end;
    }

protected:
    void highlightBlock(const QString &text) override
    {
        if (m_incremental) {
            const qint64 limit = m_max >= 0 ? std::min(m_frontier, m_max) : m_frontier;
            if (currentBlock().position() >= limit)
                return; // left plain for now (or for good, past the maximum)
        }
        SyntaxHighlighter::highlightBlock(text);
    }

private:
    void schedule()
    {
        if (!isDone() && !m_timer.isActive())
            m_timer.start();
    }

    void step()
    {
        QTextDocument *doc = document();
        if (!doc || isDone()) {
            m_timer.stop();
            return;
        }
        QElapsedTimer clock;
        clock.start();
        QTextBlock block = doc->findBlock(int(std::min<qint64>(m_frontier, INT_MAX)));
        if (block.isValid() && block.position() < m_frontier)
            block = block.next(); // starts before the frontier: done already
        // One edit block per slice: the layout hears of the new formats once, not once per line.
        QTextCursor batch(doc);
        batch.beginEditBlock();
        bool finished = true;
        while (block.isValid() && (m_max < 0 || block.position() < m_max)) {
            m_frontier = block.position() + block.length();
            rehighlightBlock(block);
            block = block.next();
            if (clock.elapsed() >= kSliceMilliseconds) {
                finished = false;
                break;
            }
        }
        batch.endEditBlock();
        if (!finished)
            return;
        m_frontier = std::max<qint64>(m_frontier, doc->characterCount());
        m_timer.stop();
    }

    QTimer m_timer;
    bool m_incremental = false;
    qint64 m_immediate = 0;
    qint64 m_max = -1;
    qint64 m_frontier = 0;
};

// Keeps a highlighter's theme in step with the palette of the widget it watches.
// A child of the highlighter, so it goes away with it; a dead widget simply stops sending events.
class PaletteWatcher : public QObject
{
public:
    PaletteWatcher(KSyntaxHighlighting::SyntaxHighlighter *highlighter, QWidget *source, QWidget *editor)
        : QObject(highlighter)
        , m_highlighter(highlighter)
        , m_source(source)
        , m_editor(editor)
    {
        setObjectName(u"wl_PaletteWatcher"_s);
        source->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_source
            && (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
            && !m_pending) {
            // The filter runs before the widget resolves its new palette: look at it once the event is done.
            m_pending = true;
            QMetaObject::invokeMethod(this, &PaletteWatcher::reapply, Qt::QueuedConnection);
        }
        return false;
    }

private:
    void reapply()
    {
        m_pending = false;
        if (m_source && applyTheme(m_highlighter, m_source->palette()) && m_editor)
            applyEditorColors(m_editor, m_highlighter->theme());
    }

    KSyntaxHighlighting::SyntaxHighlighter *m_highlighter;
    QPointer<QWidget> m_source;
    QPointer<QWidget> m_editor;
    bool m_pending = false;
};

KSyntaxHighlighting::Definition definitionOrNone(const QString &name)
{
    auto &repo = repository();
    KSyntaxHighlighting::Definition def = name.isEmpty() ? KSyntaxHighlighting::Definition()
                                                         : repo.definitionForName(name);
    if (!def.isValid())
        def = repo.definitionForName(QString::fromLatin1(kNoneDefinition));
    return def;
}

QString knownOrNone(const QString &name)
{
    return repository().definitionForName(name).isValid() ? name : QString::fromLatin1(kNoneDefinition);
}

// ---- content guessing -------------------------------------------------------------------------------

bool isJsonStart(QStringView text)
{
    if (text.isEmpty() || (text.front() != u'{' && text.front() != u'['))
        return false;
    const QChar open = text.front();
    for (qsizetype i = 1; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c.isSpace())
            continue;
        if (open == u'{')
            return c == u'"' || c == u'}';
        return c == u'{' || c == u'[' || c == u'"' || c == u']' || c == u'-' || c.isDigit() || c == u't'
            || c == u'f' || c == u'n';
    }
    return true; // only an opening bracket so far
}

// A whole sample must parse (JSON Lines: the first value parses and another follows); a sample cut from a
// larger file only has to start like JSON.
bool isJson(QByteArrayView bytes, bool truncated)
{
    if (truncated)
        return true;
    QJsonParseError error;
    QJsonDocument::fromJson(bytes.toByteArray(), &error);
    if (error.error == QJsonParseError::NoError)
        return true;
    if (error.error != QJsonParseError::GarbageAtEnd)
        return false;
    const QByteArrayView rest = bytes.sliced(std::min<qsizetype>(error.offset, bytes.size())).trimmed();
    return rest.startsWith('{') || rest.startsWith('[');
}

QString shebangDefinition(QStringView firstLine)
{
    // "#!/usr/bin/env python3 -u" -> "python3"; "#!/bin/bash" -> "bash"
    const QList<QStringView> words = firstLine.mid(2).trimmed().split(u' ', Qt::SkipEmptyParts);
    if (words.isEmpty())
        return u"Bash"_s;
    QStringView program = words.front();
    program = program.mid(program.lastIndexOf(u'/') + 1);
    if (program == u"env" && words.size() > 1)
        program = words.at(words.size() > 2 && words.at(1).startsWith(u'-') ? 2 : 1);
    if (program.startsWith(u"python"))
        return u"Python"_s;
    if (program == u"zsh")
        return u"Zsh"_s;
    if (program == u"node" || program == u"nodejs" || program == u"deno")
        return u"JavaScript"_s;
    if (program.startsWith(u"perl"))
        return u"Perl"_s;
    if (program.startsWith(u"ruby"))
        return u"Ruby"_s;
    if (program == u"elixir" || program == u"iex" || program == u"mix")
        return u"Elixir"_s;
    return u"Bash"_s; // sh, bash, dash, ksh and the rest of the Bourne family
}

bool looksLikeDiff(const QList<QStringView> &lines)
{
    bool minus = false;
    bool plus = false;
    bool hunk = false;
    for (QStringView line : lines) {
        if (line.startsWith(u"diff --git ") || line.startsWith(u"Index: "))
            return true;
        if (line.startsWith(u"--- "))
            minus = true;
        else if (minus && line.startsWith(u"+++ "))
            plus = true;
        else if (line.startsWith(u"@@ -") && line.indexOf(u" @@", 4) > 0)
            hunk = true;
        if (plus && hunk)
            return true;
    }
    return false;
}

const QRegularExpression &logLineExpression()
{
    static const QRegularExpression logLine(
        uR"(^\[?(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|\d{2}:\d{2}:\d{2}|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2})|^\[?(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\b)"_s);
    return logLine;
}

struct LineScores
{
    int nonEmpty = 0;
    int log = 0;
    int cpp = 0;
    int markdown = 0;
    int shell = 0;
    int python = 0;
    int elixir = 0;
};

LineScores scoreLines(const QList<QStringView> &lines)
{
    const QRegularExpression &logLine = logLineExpression();
    static const QRegularExpression cppLine(
        uR"(^\s*(#include\s*[<"]|#pragma once|#define \w|namespace \w+\s*\{?$|template\s*<|(class|struct) \w+\s*(final\s*)?[:{]|(public|private|protected):$)|std::\w|\w+::\w+\(|->\w+\()"_s);
    static const QRegularExpression markdownLine(
        uR"(^(#{1,6} \S|```|~~~|\s*[-*+] \[[ xX]\] |\|\s*:?-{3,})|\[[^\]]+\]\([^)\s]+\)|\*\*\S[^*]*\*\*|^>\s\S)"_s);
    static const QRegularExpression shellLine(
        uR"(^\s*(if \[|then$|fi$|do$|done$|esac$|else$|export \w+=|set -[euxo]|echo |cd |local \w|for \w+ in |case .* in$|\w+\(\)\s*\{|\$ \S)|\$\{\w+|\$\(\w)"_s);
    static const QRegularExpression pythonLine(
        uR"(^\s*(def \w+\(|import \w|from [\w.]+ import |class \w+(\(.*\))?:$|elif |if __name__ ==|print\())"_s);
    static const QRegularExpression elixirLine(
        uR"(^\s*(defp? \w+[!?]?(\(.*\))?(\s+when .*)?,? do:?( |$)|defmodule |@(moduledoc|doc|spec|impl|behaviour|type) |(use|alias|import|require) [A-Z]\w*(\.\w+)*|\|> |end$))"_s);

    LineScores s;
    for (QStringView line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        ++s.nonEmpty;
        if (logLine.matchView(line).hasMatch())
            ++s.log;
        if (cppLine.matchView(line).hasMatch())
            ++s.cpp;
        if (markdownLine.matchView(line).hasMatch())
            ++s.markdown;
        if (shellLine.matchView(line).hasMatch())
            ++s.shell;
        if (pythonLine.matchView(line).hasMatch())
            ++s.python;
        if (elixirLine.matchView(line).hasMatch())
            ++s.elixir;
    }
    return s;
}

// A file as file-reading tools return it, each line behind its number ("     1→text" from Claude
// Code's Read, "     1\ttext" from cat -n), without the numbers: they would hide what the lines say.
// The text as it is when fewer than nine in ten of its first lines are numbered so.
QString withoutLineNumbers(const QString &text)
{
    static const QRegularExpression numbered(uR"(^ *\d+(\x{2192}|\t))"_s);
    const QList<QStringView> lines = QStringView(text).split(u'\n');
    int checked = 0;
    int matched = 0;
    for (QStringView line : lines) {
        if (checked == 50)
            break;
        if (line.trimmed().isEmpty())
            continue;
        ++checked;
        if (numbered.matchView(line).hasMatch())
            ++matched;
    }
    if (checked == 0 || matched * 10 < checked * 9)
        return text;
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            out += u'\n';
        const QRegularExpressionMatch m = numbered.matchView(lines.at(i));
        out += m.hasMatch() ? lines.at(i).sliced(m.capturedLength()) : lines.at(i);
    }
    return out;
}

QString guessFromContent(QByteArrayView sample)
{
    QByteArrayView window = sample.first(std::min(sample.size(), kGuessWindow));
    if (window.startsWith("\xEF\xBB\xBF"))
        window = window.sliced(3);
    const bool truncated = window.size() < sample.size() - (sample.startsWith("\xEF\xBB\xBF") ? 3 : 0);
    if (window.contains('\0'))
        return QString::fromLatin1(kNoneDefinition);
    const QString decoded = withoutLineNumbers(QString::fromUtf8(window));
    const QStringView text = QStringView(decoded).trimmed();
    if (text.isEmpty())
        return QString::fromLatin1(kNoneDefinition);

    if (isJsonStart(text) && !logLineExpression().matchView(text).hasMatch() && isJson(window, truncated))
        return u"JSON"_s;
    if (text.startsWith(u"<?xml"))
        return u"XML"_s;
    if (text.startsWith(u"<!doctype html", Qt::CaseInsensitive) || text.startsWith(u"<html", Qt::CaseInsensitive))
        return u"HTML"_s;
    if (text.startsWith(u'<') && text.size() > 1 && (text.at(1).isLetter() || text.at(1) == u'!')
        && (text.contains(u"</") || text.contains(u"/>")))
        return u"XML"_s;
    if (text.startsWith(u"#!")) {
        const qsizetype end = text.indexOf(u'\n');
        return shebangDefinition(end < 0 ? text : text.first(end));
    }
    // A first line no other language starts with.
    static const QRegularExpression elixirModule(uR"(^defmodule [A-Z][\w.]* do\b)"_s);
    if (elixirModule.matchView(text).hasMatch())
        return u"Elixir"_s;

    QList<QStringView> lines = text.split(u'\n');
    if (lines.size() > kGuessLines)
        lines.resize(kGuessLines);
    for (QStringView &line : lines) {
        if (line.endsWith(u'\r'))
            line.chop(1);
    }
    if (looksLikeDiff(lines))
        return u"Diff"_s;
    if (text.contains(u"Traceback (most recent call last):"))
        return u"Python"_s;

    const LineScores s = scoreLines(lines);
    if (s.log >= 2 && s.log * 10 >= s.nonEmpty * 3)
        return QString::fromLatin1(kLogDefinition);

    struct Candidate
    {
        int score;
        const char16_t *name;
    };
    const Candidate candidates[] = {{s.cpp, u"C++"}, {s.markdown, u"Markdown"}, {s.shell, u"Bash"},
                                    {s.python, u"Python"}, {s.elixir, u"Elixir"}};
    const Candidate *best = &candidates[0];
    for (const Candidate &c : candidates) {
        if (c.score > best->score)
            best = &c;
    }
    if (best->score >= 2)
        return QString::fromUtf16(best->name);
    return QString::fromLatin1(kNoneDefinition);
}

} // namespace

KSyntaxHighlighting::Repository &repository()
{
    static KSyntaxHighlighting::Repository repo;
    return repo;
}

KSyntaxHighlighting::Theme themeFor(const QPalette &palette)
{
    return repository().defaultTheme(isDarkWindow(palette) ? KSyntaxHighlighting::Repository::DarkTheme
                                                           : KSyntaxHighlighting::Repository::LightTheme);
}

QString guessDefinition(QByteArrayView sample, const QString &fileNameHint)
{
    if (!fileNameHint.isEmpty()) {
        const auto def = repository().definitionForFileName(fileNameHint);
        if (def.isValid() && def.name() != QLatin1StringView(kNoneDefinition))
            return def.name();
    }
    return knownOrNone(guessFromContent(sample));
}

KSyntaxHighlighting::SyntaxHighlighter *attachHighlighter(QTextDocument *document, QWidget *paletteSource,
                                                          const QString &definitionName, QWidget *editor)
{
    Q_ASSERT(document);
    Q_ASSERT(paletteSource);
    // Theme and definition while no document is attached, so nothing is ever formatted without a theme.
    auto *highlighter = new IncrementalHighlighter(static_cast<QObject *>(document));
    highlighter->setObjectName(u"wl_SyntaxHighlighter"_s);
    highlighter->setTheme(themeFor(paletteSource->palette()));
    highlighter->setDefinition(definitionOrNone(definitionName));
    highlighter->watch(document);
    highlighter->setDocument(document);
    highlighter->rehighlight();
    if (editor)
        applyEditorColors(editor, highlighter->theme());
    new PaletteWatcher(highlighter, paletteSource, editor);
    qCDebug(lcUi) << "highlighter attached:" << highlighter->definition().name() << highlighter->theme().name();
    return highlighter;
}

void setDefinition(KSyntaxHighlighting::SyntaxHighlighter *highlighter, const QString &definitionName)
{
    Q_ASSERT(highlighter);
    const auto def = definitionOrNone(definitionName);
    if (highlighter->definition() == def)
        return;
    if (!highlighter->theme().isValid()) // never format without a theme
        highlighter->setTheme(repository().defaultTheme());
    if (auto *incremental = dynamic_cast<IncrementalHighlighter *>(highlighter))
        incremental->restart();
    highlighter->setDefinition(def); // rehighlights, as the definition changed
}

void setIncremental(KSyntaxHighlighting::SyntaxHighlighter *highlighter, qint64 immediateCharacters,
                    qint64 maxCharacters)
{
    if (auto *incremental = dynamic_cast<IncrementalHighlighter *>(highlighter))
        incremental->configure(immediateCharacters, maxCharacters);
}

bool isHighlightingDone(const KSyntaxHighlighting::SyntaxHighlighter *highlighter)
{
    const auto *incremental = dynamic_cast<const IncrementalHighlighter *>(highlighter);
    return !incremental || incremental->isDone();
}

bool applyTheme(KSyntaxHighlighting::SyntaxHighlighter *highlighter, const QPalette &palette)
{
    Q_ASSERT(highlighter);
    const auto theme = themeFor(palette);
    if (highlighter->theme().isValid() && highlighter->theme().name() == theme.name())
        return false;
    highlighter->setTheme(theme);
    if (auto *incremental = dynamic_cast<IncrementalHighlighter *>(highlighter))
        incremental->restart();
    highlighter->rehighlight();
    qCDebug(lcUi) << "highlighter theme now" << theme.name();
    return true;
}

void applyEditorColors(QWidget *editor, const KSyntaxHighlighting::Theme &theme)
{
    Q_ASSERT(editor);
    if (!theme.isValid())
        return;
    QPalette pal = editor->palette();
    pal.setColor(QPalette::Base, QColor::fromRgba(theme.editorColor(KSyntaxHighlighting::Theme::BackgroundColor)));
    pal.setColor(QPalette::Text, QColor::fromRgba(theme.textColor(KSyntaxHighlighting::Theme::Normal)));
    pal.setColor(QPalette::Highlight,
                 QColor::fromRgba(theme.editorColor(KSyntaxHighlighting::Theme::TextSelection)));
    pal.setColor(QPalette::HighlightedText, QColor::fromRgba(theme.textColor(KSyntaxHighlighting::Theme::Normal)));
    editor->setPalette(pal);
}

} // namespace wl::Highlighting
