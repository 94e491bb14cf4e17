#pragma once

// The in-memory result of importing another agent's transcript.
//
// An importer turns one source file (Claude Code, Codex CLI, SWE-agent, OpenHands,
// OpenAI Chat messages) into:
//   - `messages`: the conversation as the source model saw it, in OpenAI chat shape
//     (system first when the source has one; assistant tool calls with ids, names and
//     argument text; tool results with role Tool and toolCallId);
//   - `requests`: one per assistant message (the LLM call that produced it), with the
//     provider-reported usage when the source records it;
//   - `compactions`: compactions the SOURCE agent performed itself;
//   - `issues`: structural problems of the source (calls without results, results for
//     unknown calls). Such messages are kept exactly as they were and flagged, never fixed;
//   - `skippedLines` / `problems`: records that could not be read ("file:line: field 'x': what").
//
// Writing the session into the store is not done here; see TranscriptFormats.h for the
// entry points and ImportSink for streaming very large files without holding them.

#include "model/BoundedLineReader.h"
#include "model/Message.h"
#include "model/ToolSpec.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace wl {

// Token counts as the provider reported them; -1 means "not reported".
struct TokenUsage
{
    qint64 input = -1;       // as reported: Anthropic excludes cached tokens, OpenAI/Codex include them
    qint64 output = -1;
    qint64 cacheRead = -1;
    qint64 cacheWrite = -1;
    qint64 context = -1;     // effective prompt size (Anthropic: input + cache read + cache write)

    bool isKnown() const { return input >= 0 || output >= 0; }
    friend bool operator==(const TokenUsage &, const TokenUsage &) = default;
};

// One LLM call of the source session: the call that produced messages[messageIndex].
struct ImportedRequest
{
    int messageIndex = -1;   // index of the assistant message in ImportedSession::messages
    QString model;           // empty when the source does not say
    TokenUsage usage;        // per-call usage when the source records it
    QDateTime timestamp;     // invalid when unknown
    QString responseId;      // provider response id when known (Claude message.id, OpenAI chat id)
};

// A compaction the source agent performed (not one of Waterline's).
struct ExternalCompaction
{
    int messageIndex = 0;    // index of the first message imported after the compaction
    qint64 tokensBefore = -1; // context size before, when known (Claude preTokens, last Codex usage)
    QString trigger;         // "auto", "manual" or empty
    QString summary;         // the summary text that replaced the history (may be empty)
    QString kind;            // source marker: "compact_boundary", "compacted", "condensation"
    QDateTime timestamp;

    // What it did to what the source agent sent from then on (replay/SourceView):
    //   ReplacesHistory: the requests after it sent `sentInstead` and the messages from
    //     messageIndex on (and a leading system message), not the history before;
    //   ClearsResults: the results of `clearedCallIds` before it were sent as a cleared note;
    //   Unknown: not followed (older imports, OpenHands condensations): the view is the prefix.
    enum class Effect : quint8 { Unknown, ReplacesHistory, ClearsResults };
    Effect effect = Effect::Unknown;
    // What the source sent in place of the history it replaced that is not an imported message
    // (Claude Code's summary, the user messages a Codex replacement history repeats); may be empty.
    QString sentInstead;
    QStringList clearedCallIds;
};

// A structural problem of the source that the importer kept as it was.
struct ImportIssue
{
    enum class Kind {
        CallWithoutResult,      // an assistant tool call that no result answers
        ResultForUnknownCall,   // a tool result whose call id no earlier call has
        DuplicateResult,        // a second result for an already answered call
        Note,                   // anything else worth showing (e.g. an unlinked error observation)
    };
    Kind kind = Kind::Note;
    int messageIndex = -1;   // message holding the call or the result
    QString callId;
    QString text;            // translated, user-visible description
};

struct ImportedSession
{
    QString title;
    QString sourceFormat;    // TranscriptImporter::id() of the importer used
    QString sourcePath;
    QString model;           // the main model, when known
    // The context window the transcript states (Codex: model_context_window), 0 when it states
    // none; `windowField` names where it was read ("model_context_window").
    qint64 contextWindow = 0;
    QString windowField;

    QList<Message> messages; // empty when ImportOptions::sink received them instead
    QList<ToolSpec> tools;   // tool schemas offered to the model, when the source records them
    QList<ImportedRequest> requests;
    QList<ExternalCompaction> compactions;
    QList<ImportIssue> issues;
    TokenUsage totalUsage;   // run totals reported by the source (SWE-agent, OpenHands), if any

    int messageCount = 0;    // messages produced (also counted when a sink took them)
    int toolCallCount = 0;
    int toolResultCount = 0;

    int skippedLines = 0;    // records that could not be read or had an unknown kind
    int rejectedNumbers = 0; // numbers (token counts) out of range or not whole, read as "not reported"
    QStringList numberProblems; // "file:line: field x: what" for them (first 200 kept)
    QStringList problems;    // "file:line: field 'x': what" for skipped records (first 200 kept)
    QMap<QString, int> recordCounts;   // records read per source kind, e.g. "assistant" -> 299
    QMap<QString, int> ignoredRecords; // known records that are not conversation (e.g. "progress")

    // Files that hold several sessions (OpenHands evaluation output, one run per line; a JSON
    // array of {messages, ...} trajectories): which one was imported, how many there are, and
    // their ids (instance_id, run_id; empty when a session has none), at most maxRunIds of them.
    int runIndex = 0;
    int runCount = 1;
    QStringList runIds;
    static constexpr qsizetype maxRunIds = 10000;
};

// Receives messages as they are produced, so a 200 MB transcript never has to sit in
// memory as a whole. Message i is the i-th call. Requests, compactions and issues are small
// and always stay in ImportedSession.
class ImportSink
{
public:
    virtual ~ImportSink() = default;
    // Return false to abort the import (e.g. a write failed); ImportResult then carries `error`.
    virtual bool addMessage(Message &&message, QString *error) = 0;
};

struct ImportOptions
{
    int runIndex = 0;                          // files of several sessions: which one (see ImportedSession::runCount)
    bool countRuns = true;                     // false: stop after that one; runCount/runIds then end there
    qint64 maxRecordBytes = BoundedLineReader::defaultMaxLineBytes; // longest JSONL line or single JSON element
    ImportSink *sink = nullptr;                // not owned; when set, messages go there
    std::function<void(qint64 bytesRead, qint64 bytesTotal)> progress; // bytesTotal -1 if unknown
    const std::atomic_bool *cancel = nullptr;  // checked between records
    bool keepCompactionSummaries = false;      // also keep the source's summary message (Claude Code)
};

struct ImportResult
{
    bool ok = false;
    bool cancelled = false;
    QString error;           // translated; names the file, line (or byte offset) and field
    ImportedSession session;
};

} // namespace wl
