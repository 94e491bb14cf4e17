#include "Checkpoint.h"

#include "OffloadStore.h"

#include <QRegularExpression>

#include <iterator>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr QStringView kMarker = u"[Context Compaction]";
constexpr QStringView kOffloadedHeading = u"## Offloaded References";

// Appends the decimal digits of n (no allocation: checkpoints list up to 40 of these per text).
void appendNumber(QString &text, qint64 n)
{
    char16_t digits[24];
    qsizetype at = std::size(digits);
    const bool negative = n < 0;
    quint64 u = negative ? 0 - quint64(n) : quint64(n);
    do {
        digits[--at] = char16_t(u'0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (negative)
        digits[--at] = u'-';
    text.append(QStringView(digits + at, std::size(digits) - at));
}

// "- <path> (<lines> lines, <bytes> bytes)\n"
void appendOffloadedLine(QString &text, const OffloadEntry &entry)
{
    text += u"- "_s;
    text += entry.relativePath;
    text += u" ("_s;
    appendNumber(text, entry.lines);
    text += u" lines, "_s;
    appendNumber(text, entry.bytes);
    text += u" bytes)\n"_s;
}

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
    const QString anchorText = formatAnchors(anchors);
    const QStringView summaryText = QStringView(summary).trimmed();
    qsizetype size = kMarker.size() + anchorText.size() + summaryText.size() + 16 + kOffloadedHeading.size() + 4;
    for (const OffloadEntry &entry : offloaded)
        size += entry.relativePath.size() + 48;
    QString text;
    text.reserve(size);
    text += kMarker;
    text += u'\n';
    text += anchorText;
    text += u"\n## Summary\n"_s;
    text += summaryText;
    text += u'\n';
    if (!offloaded.isEmpty()) {
        text += u'\n';
        text += kOffloadedHeading;
        text += u'\n';
        for (const OffloadEntry &entry : offloaded)
            appendOffloadedLine(text, entry);
    }
    return text;
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
