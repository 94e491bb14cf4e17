#include "RowText.h"

#include "conversation/ConversationDelegate.h"

#include <QAbstractTextDocumentLayout>
#include <QDateTime>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

std::unique_ptr<QTextDocument> makeRowDocument(const QFont &font, int width)
{
    auto doc = std::make_unique<QTextDocument>();
    doc->setDocumentMargin(0);
    doc->setDefaultFont(font);
    doc->setUndoRedoEnabled(false);
    doc->setTextWidth(std::max(20, width));
    return doc;
}

void drawRowDocument(QPainter *painter, QTextDocument *doc, const QPoint &pos, const QPalette &palette,
                     const QColor &textColour)
{
    painter->save();
    painter->translate(pos);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette = palette;
    if (textColour.isValid())
        context.palette.setColor(QPalette::Text, textColour);
    doc->documentLayout()->draw(painter, context);
    painter->restore();
}

void capHeadingSizes(QTextDocument *doc, qreal maxScale)
{
    const QFont base = doc->defaultFont();
    const qreal lineHeight = QFontMetricsF(base).lineSpacing();
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat blockFormat = block.blockFormat();
        if (blockFormat.headingLevel() <= 0)
            continue;
        blockFormat.setTopMargin(std::min(blockFormat.topMargin(), lineHeight / 2));
        blockFormat.setBottomMargin(std::min(blockFormat.bottomMargin(), lineHeight / 4));
        QTextCursor cursor(block);
        cursor.setBlockFormat(blockFormat);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat size;
        size.setProperty(QTextFormat::FontSizeAdjustment, 0);
        if (base.pointSizeF() > 0)
            size.setFontPointSize(base.pointSizeF() * (blockFormat.headingLevel() <= 2 ? maxScale : 1.0));
        else
            size.setProperty(QTextFormat::FontPixelSize, qRound(base.pixelSize() * (blockFormat.headingLevel() <= 2 ? maxScale : 1.0)));
        size.setFontWeight(QFont::Bold);
        cursor.mergeCharFormat(size);
    }
}

int rowDocumentHeight(const QTextDocument *doc)
{
    return int(std::ceil(doc->size().height()));
}

int estimateLines(const QString &text, int textWidth, qreal charWidth)
{
    if (text.isEmpty())
        return 1;
    const qsizetype newlines = text.count(u'\n');
    const qreal perLine = std::max<qreal>(1, textWidth / std::max<qreal>(1, charWidth));
    return int(newlines + 1 + qreal(text.size()) / perLine);
}

QString firstLines(const QString &text, int maxLines, bool *cut)
{
    qsizetype pos = 0;
    for (int i = 0; i < maxLines; ++i) {
        pos = text.indexOf(u'\n', pos);
        if (pos < 0)
            return text;
        ++pos;
    }
    *cut = true;
    return text.left(pos - 1);
}

// In ConversationDelegate's translation context, where these strings have always been.
QString formatDuration(qint64 ms)
{
    if (ms < 0)
        return {};
    if (ms < 1000)
        return ConversationDelegate::tr("%1 ms").arg(ms);
    if (ms < 60000)
        return ConversationDelegate::tr("%1 s").arg(QLocale().toString(ms / 1000.0, 'f', 1));
    const qint64 seconds = ms / 1000;
    return ConversationDelegate::tr("%1:%2 min").arg(seconds / 60).arg(seconds % 60, 2, 10, QChar(u'0'));
}

QString formatRowTime(const QDateTime &when, const QDate &today)
{
    const QDateTime local = when.toLocalTime();
    if (local.date() == today)
        return QLocale().toString(local.time(), QLocale::ShortFormat);
    return QLocale().toString(local, QLocale::ShortFormat);
}

QString formatElapsed(const QDateTime &since)
{
    const qint64 seconds = std::max<qint64>(0, since.secsTo(QDateTime::currentDateTime()));
    return u"%1:%2"_s.arg(seconds / 60).arg(seconds % 60, 2, 10, QChar(u'0'));
}

} // namespace wl
