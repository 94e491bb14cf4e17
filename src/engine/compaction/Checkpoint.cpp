#include "Checkpoint.h"

#include "OffloadStore.h"
#include "TextSink.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr QStringView kMarker = u"[Context Compaction]";
constexpr QStringView kOffloadedHeading = u"## Offloaded References";

// Splits a trailing offloaded-references block (as written by checkpointMessageText) off `summary`.
QString takeOffloadedBlock(QString *summary)
{
    static const QRegularExpression entryLine(u"^- .+ \\(\\d+ lines, \\d+ bytes\\)$|^- .+/ holds the \\d+ offloaded results? "_s);
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

constexpr QStringView kSummaryHeading = u"\n## Summary\n";

// "- <path> (<lines> lines, <bytes> bytes)\n"
template<typename Sink>
void writeReference(Sink &out, const OffloadEntry &entry)
{
    out.putAscii(u"- ");
    out.put(entry.relativePath);
    out.putAscii(u" (");
    text::putNumber(out, entry.lines);
    out.putAscii(u" lines, ");
    text::putNumber(out, entry.bytes);
    out.putAscii(u" bytes)\n");
}

// "- <dir>/ holds the <n> offloaded results this summary replaced: ...\n"
template<typename Sink>
void writeFolder(Sink &out, const OffloadFolder &folder)
{
    out.putAscii(u"- ");
    out.put(folder.relativeDir);
    out.putAscii(u"/ holds the ");
    text::putNumber(out, folder.files);
    out.putAscii(folder.files == 1 ? QStringView(u" offloaded result") : QStringView(u" offloaded results"));
    out.putAscii(u" this summary replaced, more than are listed: find one with grep or glob on that folder, read it with read_file\n");
}

// The checkpoint message around its anchors (written by `putAnchors`) and its references
// (written by `putReferences`, when there are any).
template<typename Sink, typename PutAnchors, typename PutReferences>
void writeCheckpoint(Sink &out, PutAnchors putAnchors, QStringView summaryText, bool hasReferences, PutReferences putReferences,
                     const OffloadFolder &folder)
{
    out.putAscii(kMarker);
    out.put(u'\n');
    putAnchors(out);
    out.putAscii(kSummaryHeading);
    out.put(summaryText);
    out.put(u'\n');
    if (hasReferences || !folder.isEmpty()) {
        out.put(u'\n');
        out.putAscii(kOffloadedHeading);
        out.put(u'\n');
        if (hasReferences)
            putReferences(out);
        if (!folder.isEmpty())
            writeFolder(out, folder);
    }
}
} // namespace

Checkpoint Checkpoint::asSent(int requestIndex, const QDateTime &sentAt) const
{
    const CheckpointVersion *sent = nullptr;
    for (const CheckpointVersion &v : versions) {
        const bool undoneBefore = v.undoneAt.isValid() && (!sentAt.isValid() || v.undoneAt <= sentAt);
        if (v.fromRequestIndex <= requestIndex && !undoneBefore && (!sent || v.version > sent->version))
            sent = &v;
    }
    if (!sent || sent->version == version)
        return *this;
    Checkpoint out = *this;
    out.version = sent->version;
    out.text = sent->text;
    out.textBytes = -1;
    out.anchors = sent->anchors;
    out.summary = sent->summary;
    return out;
}

QString checkpointMessageText(const Anchors &anchors, const QString &summary, const QList<OffloadEntry> &offloaded,
                              const OffloadFolder &folder)
{
    // Written into a string sized once: checkpoints list up to 40 files each and a what-if replay
    // makes hundreds of them.
    constexpr qsizetype kMaxLineExtras = 2 + 2 + 21 + 8 + 20 + 7 + 1; // "- ", " (", lines, " lines, ", bytes, " bytes)", "\n"
    const QString anchorText = formatAnchors(anchors);
    const QStringView summaryText = QStringView(summary).trimmed();
    qsizetype size = kMarker.size() + 1 + anchorText.size() + kSummaryHeading.size() + summaryText.size() + 1
        + 1 + kOffloadedHeading.size() + 1;
    for (const OffloadEntry &entry : offloaded)
        size += entry.relativePath.size() + kMaxLineExtras;
    if (!folder.isEmpty()) {
        text::ByteCounter folderLine; // ASCII apart from the folder's name: its bytes bound its characters
        writeFolder(folderLine, folder);
        size += folderLine.bytes();
    }
    text::TextWriter text(size);
    writeCheckpoint(text, [&](text::TextWriter &out) { out.put(anchorText); }, summaryText, !offloaded.isEmpty(),
                    [&](text::TextWriter &out) {
                        for (const OffloadEntry &entry : offloaded)
                            writeReference(out, entry);
                    },
                    folder);
    return text.take();
}

qint64 checkpointMessageBytes(const Anchors &anchors, const QString &summary, qsizetype references, qint64 referenceBytes,
                              const OffloadFolder &folder)
{
    text::ByteCounter counter;
    writeCheckpoint(counter, [&](text::ByteCounter &out) { out.add(formattedAnchorsBytes(anchors)); },
                    QStringView(summary).trimmed(), references > 0,
                    [&](text::ByteCounter &out) { out.add(referenceBytes); }, folder);
    return counter.bytes();
}

qint64 offloadReferenceBytes(const OffloadEntry &entry)
{
    text::ByteCounter counter;
    writeReference(counter, entry);
    return counter.bytes();
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
