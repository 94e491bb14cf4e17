#include "Checkpoint.h"

#include "OffloadStore.h"

#include <QRegularExpression>

#include <algorithm>
#include <iterator>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr QStringView kMarker = u"[Context Compaction]";
constexpr QStringView kOffloadedHeading = u"## Offloaded References";

// Writes pieces into a string sized once (checkpoints list up to 40 files each and a what-if
// replay makes hundreds of checkpoints: appending piece by piece cost more than the summary).
class TextWriter
{
public:
    explicit TextWriter(qsizetype capacity)
        : m_text(capacity, Qt::Uninitialized)
        , m_out(m_text.data())
    {
    }

    void put(QStringView piece)
    {
        std::copy_n(piece.data(), piece.size(), m_out);
        m_out += piece.size();
    }

    void put(QChar c) { *m_out++ = c; }

    // The decimal digits of n (at most 20 characters).
    void putNumber(qint64 n)
    {
        QChar digits[20];
        qsizetype at = std::size(digits);
        const bool negative = n < 0;
        quint64 u = negative ? 0 - quint64(n) : quint64(n);
        do {
            digits[--at] = QChar(char16_t(u'0' + u % 10));
            u /= 10;
        } while (u != 0);
        if (negative)
            put(u'-');
        put(QStringView(digits + at, std::size(digits) - at));
    }

    QString take()
    {
        m_text.truncate(m_out - m_text.constData());
        return std::move(m_text);
    }

private:
    QString m_text;
    QChar *m_out;
};

// Splits a trailing offloaded-references block (as written by checkpointMessageText) off `summary`.
QString takeOffloadedBlock(QString *summary)
{
    static const QRegularExpression entryLine(u"^- .+ \\(\\d+ lines, \\d+ bytes\\)$"_s);
    qsizetype at = summary->lastIndexOf(kOffloadedHeading);
    if (at < 0 || (at > 0 && summary->at(at - 1) != u'\n'))
        return {};
    const QString block = summary->sliced(at + kOffloadedHeading.size()).trimmed();
    if (block.isEmpty())
        return {};
    for (QStringView line : QStringView(block).tokenize(u'\n')) {
        if (!entryLine.matchView(line.trimmed()).hasMatch())
            return {};
    }
    *summary = summary->left(at).trimmed();
    return block;
}
} // namespace

QString checkpointMessageText(const Anchors &anchors, const QString &summary, const QList<OffloadEntry> &offloaded)
{
    constexpr QStringView summaryHeading = u"\n## Summary\n";
    constexpr qsizetype kMaxLineExtras = 2 + 2 + 21 + 8 + 20 + 7 + 1; // "- ", " (", lines, " lines, ", bytes, " bytes)", "\n"
    const QString anchorText = formatAnchors(anchors);
    const QStringView summaryText = QStringView(summary).trimmed();
    qsizetype size = kMarker.size() + 1 + anchorText.size() + summaryHeading.size() + summaryText.size() + 1
        + 1 + kOffloadedHeading.size() + 1;
    for (const OffloadEntry &entry : offloaded)
        size += entry.relativePath.size() + kMaxLineExtras;
    TextWriter text(size);
    text.put(kMarker);
    text.put(u'\n');
    text.put(anchorText);
    text.put(summaryHeading);
    text.put(summaryText);
    text.put(u'\n');
    if (!offloaded.isEmpty()) {
        text.put(u'\n');
        text.put(kOffloadedHeading);
        text.put(u'\n');
        for (const OffloadEntry &entry : offloaded) {
            text.put(u"- ");
            text.put(entry.relativePath);
            text.put(u" (");
            text.putNumber(entry.lines);
            text.put(u" lines, ");
            text.putNumber(entry.bytes);
            text.put(u" bytes)\n");
        }
    }
    return text.take();
}

bool isCheckpointText(const QString &text)
{
    return QStringView(text).trimmed().startsWith(kMarker);
}

ParsedSummary parseCheckpointText(const QString &text, QString *offloadedReferences)
{
    QStringView body = QStringView(text).trimmed();
    if (body.startsWith(kMarker))
        body = body.sliced(kMarker.size());
    ParsedSummary parsed = parseAnchorsAndSummary(body.toString());
    const QString block = takeOffloadedBlock(&parsed.summary);
    if (offloadedReferences)
        *offloadedReferences = block;
    return parsed;
}

} // namespace wl
