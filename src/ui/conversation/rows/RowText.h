#pragma once

#include <QColor>
#include <QString>

#include <memory>

class QDate;
class QDateTime;
class QFont;
class QPainter;
class QPalette;
class QPoint;
class QTextDocument;

// Text layout helpers the conversation's row painters share.
namespace wl {

// An empty document for `font`, wrapping at `width`, without margin or undo.
std::unique_ptr<QTextDocument> makeRowDocument(const QFont &font, int width);
// Draws `doc` with its top left at `pos`; `textColour`, when valid, replaces the palette's Text.
void drawRowDocument(QPainter *painter, QTextDocument *doc, const QPoint &pos, const QPalette &palette,
                     const QColor &textColour = {});
// Markdown headings no larger than `maxScale` times the document's font, with at most half a line
// above them: a "# title" in a message reads as emphasis, not as a banner across the conversation.
void capHeadingSizes(QTextDocument *doc, qreal maxScale = 1.15);
// The laid-out height of `doc`, rounded up.
int rowDocumentHeight(const QTextDocument *doc);

// Roughly how many lines `text` wraps to at `textWidth` with characters `charWidth` wide (at least 1).
int estimateLines(const QString &text, int textWidth, qreal charWidth);
// The first `maxLines` lines of `text`; sets *cut when lines were left out.
QString firstLines(const QString &text, int maxLines, bool *cut);

// "85 ms", "2.5 s", "3:07 min"; empty for a negative duration.
QString formatDuration(qint64 ms);
// When a message was written: its time on `today`, else its date and time (an imported session's
// messages are from the day the transcript was recorded).
QString formatRowTime(const QDateTime &when, const QDate &today);
// Minutes and seconds since `since`, "m:ss".
QString formatElapsed(const QDateTime &since);

} // namespace wl
