#pragma once

// Internal to the importers: shared bookkeeping while one file is read. Not part of the
// public API (see TranscriptFormats.h and ImportedSession.h).

#include "ImportedSession.h"
#include "JsonStreamScanner.h"

#include <QHash>
#include <QJsonObject>
#include <QSet>

class QIODevice;

namespace wl {

struct TranscriptSample;

class ImportContext
{
public:
    ImportContext(QIODevice *device, const QString &sourceName, const ImportOptions &options, ImportedSession *session);

    QIODevice *device() const { return m_device; }
    const ImportOptions &options() const { return m_options; }
    ImportedSession &session() { return *m_session; }
    const QString &sourceName() const { return m_source; }
    // Sources of several files (a folder of events): problems then name the file being read.
    void setSourceName(const QString &name) { m_source = name; }
    qint64 totalBytes() const { return m_total; }
    void setTotalBytes(qint64 total) { m_total = total; }

    // Fatal error; returns false so callers can `return context.fail(...)`.
    bool fail(const QString &error);
    bool failAt(qint64 line, const QString &field, const QString &what);
    bool failAtOffset(qint64 offset, qint64 line, const QString &what);
    const QString &error() const { return m_error; }
    bool wasCancelled() const { return m_cancelled; }

    // "file:line" (line > 0) for messages.
    QString location(qint64 line) const;
    // A record that cannot be used: counted in skippedLines, described in problems.
    void skipRecord(qint64 line, const QString &field, const QString &what);
    // A token count or size from the source: a whole number in [0, BoundedInteger::maxTokens],
    // else -1 ("not reported"); a value that is present but out of range or not whole is
    // counted in rejectedNumbers and described in numberProblems (the record itself is kept).
    // Every importer reads its numbers through this: a documented clamp rather than a failed
    // import, since these are reported usage figures, and a hostile one must not cost the user
    // the conversation (the import result and `waterline-cli import` say how many were rejected).
    qint64 count(const QJsonValue &value, qint64 line, const QString &field);
    void countRecord(const QString &kind) { ++m_session->recordCounts[kind]; }
    void ignoreRecord(const QString &kind) { ++m_session->ignoredRecords[kind]; }

    // Appends a message (to the sink or the session) and tracks call/result pairing.
    // Returns its index, or -1 when the sink refused it (error() is then set).
    int addMessage(Message &&message);
    int messageCount() const { return m_session->messageCount; }
    void addRequest(ImportedRequest request) { m_session->requests.append(std::move(request)); }
    void addCompaction(ExternalCompaction compaction) { m_session->compactions.append(std::move(compaction)); }
    void note(int messageIndex, const QString &text, const QString &callId = {});
    bool hasOpenCall(const QString &id) const { return m_openCalls.contains(id); }

    // Sets the title from the request in a user message (ImportTitle) unless one is set.
    void offerTitle(const QString &text);
    // The source's time of the record being read: addMessage() gives it to messages that carry
    // no time of their own, so an import keeps the transcript's times (invalid: none known).
    void setRecordTime(const QDateTime &time) { m_recordTime = time; }
    const QDateTime &recordTime() const { return m_recordTime; }
    // The start of the remaining input, for importers that handle several layouts.
    TranscriptSample peekSample() const;

    // Flags calls left without results, orders issues; call once at the end.
    void finish();

    // Progress and cancel, called between records with the device position.
    bool keepGoing(qint64 position);

    // JSON Lines: calls `record` for each non-blank line (1-based numbers). Lines longer
    // than maxRecordBytes end the import with an error. Returns false on error/cancel/stop.
    bool readLines(const std::function<bool(const QByteArray &line, qint64 lineNumber)> &record);
    // readLines() into `reader.record(line, lineNumber)`, then `reader.finish()` when all went well.
    template<typename Reader>
    bool readRecords(Reader &reader)
    {
        return readLines([&reader](const QByteArray &line, qint64 lineNumber) { return reader.record(line, lineNumber); })
            && reader.finish();
    }
    // Single JSON documents: runs the streaming scanner with progress and cancel. A handler
    // that stops the scan early without an error counts as success.
    // `tolerable`, when given and true at the time of a syntax error, turns the error into
    // a skipped record (e.g. a broken run after the chosen one in OpenHands output).
    bool scanJson(JsonStreamScanner::Handler &handler, int *topLevelValues = nullptr,
                  const std::function<bool()> &tolerable = {});
    // Parses a scanned element into an object; on failure records a skipped record
    // located by line and byte offset, and returns false.
    bool parseElement(const JsonStreamScanner::Element &element, QJsonObject *object);
    void skipElement(const JsonStreamScanner::Element &element, const QString &field, const QString &what);

    // Parses one line into an object; on failure records a skipped line and returns false.
    bool parseObjectLine(const QByteArray &line, qint64 lineNumber, QJsonObject *object);

private:
    QIODevice *m_device;
    QString m_source;
    const ImportOptions &m_options;
    ImportedSession *m_session;
    qint64 m_total = -1;
    qint64 m_lastProgress = 0;
    QDateTime m_recordTime;
    QString m_error;
    bool m_cancelled = false;
    QHash<QString, int> m_openCalls;   // call id -> index of the assistant message
    QSet<QString> m_answeredCalls;
};

// Small JSON helpers shared by the importers.
namespace ImportJson {
QString string(const QJsonObject &object, QLatin1StringView key);
QDateTime timestamp(const QJsonValue &value);   // ISO 8601 string or Unix seconds
// Text of a content value: string, or array of {type:"text"|"input_text"|"output_text", text}.
QString contentText(const QJsonValue &value);
// Compact JSON text of a value (arguments given as objects).
QString compact(const QJsonValue &value);
QString typeName(const QJsonValue &value);      // "string", "object", ... for error messages
} // namespace ImportJson

} // namespace wl
