#pragma once

#include "RequestRecord.h"
#include "SessionInfo.h"
#include "compaction/Checkpoint.h"
#include "compaction/CompactionRecord.h"
#include "compaction/ContextOverlays.h"
#include "model/BoundedLineReader.h"
#include "model/Message.h"

#include <QHash>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace wl {

// A whole session in memory. Ids only need to be consistent inside the document: messages are
// referred to by Message::id (origin, views, checkpoints, offloads), requests by RequestRecord::id,
// checkpoints by Checkpoint::id. SessionStore fills one from its rows; SessionExport::read fills one
// with ids 1..n by position.
struct SessionDocument
{
    SessionInfo session;
    QList<Message> messages;          // history order
    QList<RequestRecord> requests;    // by index
    QList<Checkpoint> checkpoints;    // oldest first
    QList<OffloadOverlay> offloads;
    QList<CompactionRecord> records;
    QList<Pin> pins;                  // oldest first (schema 8)
    // Set by SessionExport::read when the messages went to Streaming::message instead of
    // `messages`: how many there were, and the request each came from (message id -> request id).
    qsizetype streamedMessages = 0;
    QHash<qint64, qint64> streamedOrigins;
};

// The portable "waterline-session" JSONL format, one JSON object per line, each with "type":
//   header      {"format": "waterline-session", "version", "exported_at", "generator", "session": {...}}
//   message*    {"seq", "role", "content", "tool_calls", "tool_call_id", "is_error", "bytes", "created_at", "origin"}
//   checkpoint* {"ordinal", "covers_from", "covers_up_to", "text", "summary", "anchors", "record_id", "tier", "created_at",
//                "versions": [{"version", "text", "summary", "anchors", "from_request", "created_at", "undone_at"}]?}
//                (text, summary and anchors are version 1's, what the compaction made; "versions" its edits)
//   offload*    {"message", "call_id", "tool_name", "path", "bytes", "lines", "gate", "placeholder", "record_id"}
//   request*    {"index", "view": {"checkpoint", "messages"}, "estimate_tokens", "tool_schema_tokens", "tool_schema_bytes",
//                "usage": {"input", "output", "cache_read", "cache_write"}, "tier", "model", "started_at", "finished_at", "error"}
//   record*     {"record": <CompactionRecord JSON>}
//   pin*        {"kind": "message"|"selection"|"note", "source": "user"|"model", "message": seq|null, "text",
//                "reason", "created_at"}
//   end         {"counts": {"messages", "checkpoints", "offloads", "requests", "records", "pins"}}
// The header's session has "tool_schemas" (an array) and a request "tool_schema_bytes" (a number
// or null) since schema 5; files without them read as "not recorded". Pin lines and the "pins"
// count exist since schema 8; a file without them has no pins.
// Inside the file a message is named by its "seq" (0-based position), a request by its "index", a
// checkpoint by its "ordinal", so a file does not depend on the database it came from. The end
// line makes a cut-off file detectable. API keys are never written (profiles pass SecretFilter).
class SessionExport
{
public:
    static QString formatName();                 // "waterline-session"
    static constexpr int kFormatVersion = 1;

    // Writes atomically (QSaveFile): the old file stays if anything fails.
    static bool write(const SessionDocument &document, const QString &path, QString *error = nullptr);

    // Where read() hands over what it finds as it goes, so that a file of any size is read in
    // bounded memory: the header's session once, then each message in file order (ids 1..n,
    // origin not yet set). A callback returning false ends the read with its error.
    struct Streaming
    {
        std::function<bool(const SessionInfo &session, QString *error)> session;
        std::function<bool(Message &&message, QString *error)> message;
    };

    // Reads and checks the whole file; any damaged or missing line is an error naming the line,
    // and a number out of its field's range (1e300, -5, 1.5) one naming the line and the field.
    // The file is read line by line; a line longer than maxLineBytes (the importers' record cap)
    // ends the read with an error before more of it is read.
    static std::optional<SessionDocument> read(const QString &path, QString *error = nullptr,
                                               qint64 maxLineBytes = BoundedLineReader::defaultMaxLineBytes);
    // The same, with the messages streamed when `streaming.message` is set (the document then
    // holds none: see SessionDocument::streamedMessages). What was streamed before an error
    // is the caller's to drop. Memory: the longest line plus the small rows (requests' views,
    // checkpoints, offloads, records) and two integers per message.
    static std::optional<SessionDocument> read(const QString &path, const Streaming &streaming, QString *error = nullptr,
                                               qint64 maxLineBytes = BoundedLineReader::defaultMaxLineBytes);
};

} // namespace wl
