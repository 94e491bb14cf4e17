#pragma once

#include "ImportedSession.h"
#include "compaction/ContextOverlays.h"

#include <QList>

#include <functional>
#include <utility>

namespace wl {

// What the source agent sent with each of its requests, by its own compactions (issue 31): the
// one rule the import's stored views, the recorded run and the fit of the fixed overhead follow.
// The request that produced imported message `end` sent
//   - a leading system message (message 0, when it is one), always;
//   - after the newest compaction with effect ReplacesHistory whose messageIndex k <= end: its
//     `sentInstead` text, then messages [k, end);  without one: messages [0, end);
//   - for every ClearsResults compaction with k <= end: the results of its cleared calls that lie
//     before k shown as kClearedText (with their call id), not their content.
// Compactions with an unknown effect are not followed.
class SourceView
{
public:
    SourceView() = default;
    explicit SourceView(const QList<ExternalCompaction> &compactions);

    // The text a cleared result is sent as (Claude Code's own words).
    static const QString kClearedText;
    // Token-estimate bytes of a cleared result in a view: the note and the call id (as ContextView
    // counts an offload placeholder).
    static qint64 clearedBytes(const QString &callId);

    struct Span
    {
        int replaced = -1;  // index into replacing() of the compaction in force, -1 for none
        int from = 0;       // the first imported message the view holds after a leading system message
        int clearing = 0;   // how many of clearing() are in force (the first ones)
        bool compacted() const { return replaced >= 0 || clearing > 0; }
    };
    Span at(int end) const;

    // The compactions followed, each kind by messageIndex.
    const QList<ExternalCompaction> &replacing() const { return m_replacing; }
    const QList<ExternalCompaction> &clearing() const { return m_clearing; }
    bool isEmpty() const { return m_replacing.isEmpty() && m_clearing.isEmpty(); }

    // A cleared call's result: its message index (-1: none in the history) and its bytes.
    struct Result
    {
        int index = -1;
        qint64 bytes = 0;
    };
    using BytesBefore = std::function<qint64(int)>;            // bytes of messages [0, i)
    using ResultOf = std::function<Result(const QString &callId)>;
    // Token-estimate bytes of the view of the request that produced message `end`; `lead` is 1 when
    // message 0 is a system message the source always sends.
    qint64 viewBytes(int end, int lead, const BytesBefore &bytesBefore, const ResultOf &resultOf) const;
    // How many imported messages that view holds (the leading system message included).
    static int viewMessages(const Span &span, int end, int lead);

    // The same views as overlays over an in-memory history (without the leading system message,
    // so message i of the import is history[i - lead]), each with the first request (a position in
    // `requestEnds`, ascending history ends) it is in force for: a checkpoint holding sentInstead
    // and covering what the compaction replaced, and a placeholder for each cleared result.
    struct Overlays
    {
        QList<std::pair<qsizetype, Checkpoint>> checkpoints;
        QList<std::pair<qsizetype, OffloadOverlay>> offloads;
    };
    Overlays overlays(const QList<Message> &history, int lead, const QList<qsizetype> &requestEnds) const;
    // The first request position of each replacing compaction (where a new segment of the fixed
    // overhead begins), ascending.
    QList<qsizetype> segmentStarts(int lead, const QList<qsizetype> &requestEnds) const;

private:
    QList<ExternalCompaction> m_replacing;
    QList<ExternalCompaction> m_clearing;
};

} // namespace wl
