#pragma once

#include "model/Message.h"

#include <QList>
#include <QString>

namespace wl {

// One tool result moved out of the context into a file (docs/COMPACTION.md section 6).
struct OffloadEntry
{
    QString callId;
    QString toolName;
    QString relativePath;  // ".waterline/tool_results/<session>/<file id>.txt", relative to the workspace
    qint64 bytes = 0;      // UTF-8 bytes of the original content
    int lines = 0;
    int gate = 0;          // 1: at tool time, 2: at compaction, 3: a message Emergency cut (kCutGate)
    qint64 messageId = 0;  // the history message whose content it holds

    static constexpr int kCutGate = 3;

    friend bool operator==(const OffloadEntry &, const OffloadEntry &) = default;
};

// Writes offloaded results under <workspace>/.waterline/tool_results/<session>/,
// directories 0700, files 0600, atomically; never overwrites a file already
// written for a call id (each result with a repeated call id has a file of its
// own); never lets a model-supplied id reach the file system raw.
class OffloadStore
{
public:
    OffloadStore(const QString &workspaceDir, const QString &sessionId);

    struct Result
    {
        bool ok = false;       // false: nothing changed, keep the original content (fail open)
        bool reused = false;   // the file already existed for this call id
        bool notSmaller = false; // not offloaded because the placeholder would not be smaller (not an error)
        QString placeholder;   // the text the model reads instead of the content
        qint64 placeholderBytes = -1; // its UTF-8 bytes, when already counted (-1: not)
        OffloadEntry entry;
        QString error;         // why it failed, for the compaction record
    };

    // `message` must be a tool result (non-empty toolCallId) that is not a placeholder already.
    // `occurrence`: how many results with the same call id came before it in the session
    // (occurrenceOf()); each gets a file of its own.
    Result offload(const Message &message, const QString &toolName, int gate, int previewLines, int occurrence = 0) const;

    // The whole of a message Emergency cut (docs/COMPACTION.md section 4), `text` as
    // EmergencyCut::wholeText makes it, in "message-<id>.txt" beside the results: written once,
    // reused when it exists. The entry's gate is 3 and its call id empty.
    Result saveWholeMessage(const Message &message, const QString &text) const;
    // The entry saveWholeMessage() gives, without writing anything (the what-if replay).
    OffloadEntry wholeMessageEntry(const Message &message, const QString &text) const;
    // The earlier context Emergency's last step replaced (the checkpoint and the messages before the
    // newest user message, as the view showed them) in "context-<coversUpTo>.txt", on the same terms:
    // the entry's message id is `coversUpTo`, the newest history id it stands for.
    Result saveWholeContext(qint64 coversUpTo, const QString &text) const;
    OffloadEntry wholeContextEntry(qint64 coversUpTo, const QString &text) const;

    // The raw id when it matches [A-Za-z0-9_-]{1,128} (with "." and 12 hex digits of its hash
    // added when it has capitals, so that names stay distinct where case is ignored), else "h." +
    // a hash of it; then ".<n>" for the n-th result (n >= 2) with that call id.
    static QString fileIdFor(const QString &callId, int occurrence = 0);
    // Creates <workspace>/.waterline/tool_results/<session> (0700 each, .gitignore in .waterline),
    // refusing a level that resolves outside the workspace.
    bool prepareFolder(QString *error) const;
    // Moves a session's offloaded results from one workspace to another (a continued import):
    // a rename, or a copy of its regular files and removal of the original across file systems.
    // Links are never followed; no folder to move is success.
    static bool moveSessionFolder(const QString &fromWorkspace, const QString &toWorkspace, const QString &sessionId,
                                  QString *error);
    QString relativePathFor(const QString &callId, int occurrence = 0) const;
    QString absolutePathFor(const QString &callId, int occurrence = 0) const;
    // How many messages before history[index] are results of the same call id.
    static int occurrenceOf(const QList<Message> &history, qsizetype index);
    // How many of history[0, end) are results of `callId` (for a result about to be appended: end = size).
    static int resultsBefore(const QList<Message> &history, qsizetype end, const QString &callId);
    // True when the placeholder of `message` is smaller than its content: an offload must never
    // make the view larger (a 2-byte "ok" stays as it is).
    bool shrinks(const Message &message, int previewLines, int occurrence = 0) const;
    QString sessionDir() const;

    static bool isPlaceholder(const QString &content);  // starts with "[offloaded: "
    // The header with the entry's path, lines and bytes, the first min(previewLines, entry.lines)
    // '\n'-separated parts of `content` (each without a trailing '\r', cut to 500 UTF-8 bytes, never
    // inside a sequence, with an ellipsis) and the footer.
    // `utf8Bytes`, when given, receives the text's UTF-8 size as utf8ByteCount() counts it.
    static QString placeholderText(const OffloadEntry &entry, QStringView content, int previewLines,
                                   qint64 *utf8Bytes = nullptr);

    // Gate 1 (tool time): size above threshold and the tool not one that reads or edits files
    // (toolKindOf: Read or Edit), whichever agent's names it has (read_file, Read, apply_patch...).
    static bool gate1Applies(const QString &toolName, qint64 bytes, qint64 threshold);

private:
    OffloadEntry wholeEntry(const QString &name, qint64 messageId, const QString &text) const;
    Result saveWhole(const OffloadEntry &entry, const QString &text) const;
    QString m_workspace;
    QString m_sessionId;
    QString m_relativeDir; // Paths::offloadRelativeDir(m_sessionId), empty when the id is not safe
};

} // namespace wl
