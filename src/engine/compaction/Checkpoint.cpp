#include "Checkpoint.h"

#include "OffloadStore.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr QStringView kMarker = u"[Context Compaction]";
constexpr QStringView kOffloadedHeading = u"## Offloaded References";

QString offloadedLine(const OffloadEntry &entry)
{
    return u"- "_s + entry.relativePath + u" ("_s + QString::number(entry.lines) + u" lines, "_s
        + QString::number(entry.bytes) + u" bytes)"_s;
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
    QString text = kMarker.toString() + u'\n' + formatAnchors(anchors) + u"\n## Summary\n"_s + summary.trimmed() + u'\n';
    if (!offloaded.isEmpty()) {
        text += u'\n' + kOffloadedHeading.toString() + u'\n';
        for (const OffloadEntry &entry : offloaded) {
            text += offloadedLine(entry);
            text += u'\n';
        }
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
