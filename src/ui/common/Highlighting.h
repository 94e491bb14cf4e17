#pragma once

#include <QByteArrayView>
#include <QString>

class QPalette;
class QTextDocument;
class QWidget;

namespace KSyntaxHighlighting {
class Repository;
class SyntaxHighlighter;
class Theme;
} // namespace KSyntaxHighlighting

// The one seam onto KSyntaxHighlighting: the rest of the UI asks here for the
// repository, a theme and a definition name, and never orders the calls itself.
namespace wl::Highlighting {

// The shared repository (GUI thread only); loading it costs tens of milliseconds, once.
KSyntaxHighlighting::Repository &repository();

// The repository's default dark theme when the palette's window is dark (wl::isDarkWindow()), else its default light theme.
KSyntaxHighlighting::Theme themeFor(const QPalette &palette);

// A definition name for `sample` (the start of a text), always one the repository knows:
// "JSON", "Diff", "Python", "Bash", "C++", "Markdown", "XML", "HTML", "Elixir", "Log File (simplified)", ...
// or "None". A file name hint with a telling extension ("x.json", "y.patch", "z.ex") wins over the content;
// the content is read by its shebang, a telling first line, then its lines, ignoring the line numbers
// file-reading tools put before them ("     1→").
QString guessDefinition(QByteArrayView sample, const QString &fileNameHint = {});

// Attaches a highlighter to `document` in the order that never paints invisible text
// (theme for `paletteSource`'s palette first, then the definition, then rehighlight()),
// and re-applies the theme whenever `paletteSource` gets PaletteChange or ApplicationPaletteChange.
// The document owns the highlighter. `definitionName` empty or unknown means "None".
// With `editor` (the widget showing the document), its colours follow the theme too (applyEditorColors()),
// so unformatted text never sits on a background the theme was not made for.
KSyntaxHighlighting::SyntaxHighlighter *attachHighlighter(QTextDocument *document, QWidget *paletteSource,
                                                          const QString &definitionName, QWidget *editor = nullptr);

// Switches the definition of a highlighter made by attachHighlighter(), keeping its theme, and rehighlights.
void setDefinition(KSyntaxHighlighting::SyntaxHighlighter *highlighter, const QString &definitionName);

// Highlights a document too big to do at once: text up to `immediateCharacters` is highlighted as it
// arrives, the rest a slice of a few milliseconds at a time from the event loop, top down, and nothing
// past `maxCharacters` (negative: no end). Theme and definition changes start again from the top the
// same way. For highlighters made by attachHighlighter(); call it before the text arrives. Meant for
// QPlainTextEdit documents: each background line costs a relayout, cheap there, not in a QTextEdit.
void setIncremental(KSyntaxHighlighting::SyntaxHighlighter *highlighter, qint64 immediateCharacters,
                    qint64 maxCharacters = -1);
// Whether incremental highlighting has caught up with the document (always true when not incremental).
bool isHighlightingDone(const KSyntaxHighlighting::SyntaxHighlighter *highlighter);

// Applies themeFor(palette) to `highlighter` and rehighlights; does nothing when the theme is already that one.
// Returns whether the theme changed.
bool applyTheme(KSyntaxHighlighting::SyntaxHighlighter *highlighter, const QPalette &palette);

// Text and background colours of the highlighter's theme for an editor (so the text never sits on a
// background it was not chosen for): sets Base, Text, Highlight and HighlightedText on `editor`'s palette.
void applyEditorColors(QWidget *editor, const KSyntaxHighlighting::Theme &theme);

} // namespace wl::Highlighting
