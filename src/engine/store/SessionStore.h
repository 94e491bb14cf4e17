#pragma once

#include "AnchorHistoryEntry.h"
#include "RequestContext.h"
#include "RequestRecord.h"
#include "SessionInfo.h"
#include "SessionSource.h"
#include "StepAppend.h"
#include "compaction/CompactionRecord.h"
#include "compaction/ContextOverlays.h"
#include "model/Message.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace wl {

class SqlConnection;

// The session database (SQLite through QtSql): every message ever added, in order, the
// requests, the compaction overlays and records. History is append-only: nothing here edits
// or deletes a message except deleting its whole session.
//
// Threads: one SessionStore may be used from any number of threads; each thread gets its own
// named connection ("waterline-store-<n>-thread-<id>"), opened on first use and closed when
// the thread ends (or by releaseThreadConnection()). open(), close() and destruction must not
// overlap with calls from other threads: worker threads must be done with the store first.
//
// GUI thread: the calls the UI makes while painting are cheap and bounded (listSessions,
// messageCount, messages() pages, overlays, requests/records of one session). The long ones —
// exportSession, importSession, deleteSession of a big session, history() of a long session —
// are meant for a worker thread (QtConcurrent or a QThread), where they work the same.
//
// Every call reports failure through its `error` out-parameter (translated, with SQLite's own
// words where SQLite failed) and returns false / nothing / an empty list.
class SessionStore
{
public:
    SessionStore();
    ~SessionStore();
    SessionStore(const SessionStore &) = delete;
    SessionStore &operator=(const SessionStore &) = delete;

    // Opens (creating if missing) and migrates the database. Refuses, leaving the file
    // untouched: a file from a newer Waterline, a file that is not a Waterline database, a
    // corrupt file (with SQLite's words). Closes any database opened before.
    bool open(const QString &path, QString *error = nullptr);
    void close();
    bool isOpen() const;
    QString path() const;
    int schemaVersion(QString *error = nullptr);
    // PRAGMA quick_check: empty when the file is sound, else SQLite's findings. Reads the whole
    // file: for a "check database" command on a worker thread, not for every start.
    QStringList integrityProblems(QString *error = nullptr);

    // Closes this thread's connection now (a worker thread that keeps running but is done).
    void releaseThreadConnection();

    // Sessions ------------------------------------------------------------------------------
    std::optional<SessionInfo> createSession(const SessionInfo &fields, QString *error = nullptr);
    QList<SessionInfo> listSessions(QString *error = nullptr);     // most recent activity first
    std::optional<SessionInfo> session(const QString &id, QString *error = nullptr);
    bool renameSession(const QString &id, const QString &title, QString *error = nullptr);
    // When the session began: an import keeps its transcript's first time.
    bool setSessionCreatedAt(const QString &id, const QDateTime &createdAt, QString *error = nullptr);
    bool setSessionPolicy(const QString &id, const QJsonObject &policy, QString *error = nullptr);
    bool setProviderProfile(const QString &id, const QString &name, const QJsonObject &profile,
                            QString *error = nullptr);
    bool setSummarizerProfile(const QString &id, const QJsonObject &profile, QString *error = nullptr);
    bool setApprovalPolicy(const QString &id, const QString &policy, QString *error = nullptr);
    bool setSystemPrompt(const QString &id, const QString &systemPrompt, QString *error = nullptr);
    // The tools an agent run of the session offers (MessageCodec::toJson of each spec; schema 5).
    bool setToolSchemas(const QString &id, const QJsonArray &schemas, QString *error = nullptr);
    // Removes the rows (ON DELETE CASCADE), then <workspace>/.waterline/tool_results/<id> and
    // Paths::auditFile(id). Ids that are not a safe path component are refused.
    bool deleteSession(const QString &id, QString *error = nullptr);

    // Steps and history ---------------------------------------------------------------------
    std::optional<StepIds> appendStep(const QString &sessionId, const StepAppend &step, QString *error = nullptr);
    // Messages with seq in [offset, offset + limit), in order: a page for a view of any length.
    QList<Message> messages(const QString &sessionId, qint64 offset, int limit, QString *error = nullptr);
    qint64 messageCount(const QString &sessionId, QString *error = nullptr);
    QList<Message> history(const QString &sessionId, QString *error = nullptr);
    std::optional<Message> message(qint64 id, QString *error = nullptr);
    // The tool result that answers `callId` in the session (the first, if a call id repeats).
    std::optional<Message> toolResult(const QString &sessionId, const QString &callId, QString *error = nullptr);

    // Overlays, requests, records -----------------------------------------------------------
    ContextOverlays overlays(const QString &sessionId, QString *error = nullptr);
    // Undo of a compaction: the checkpoint and the offloads made by the same compaction (same
    // record id) go, in one transaction, so the view before that compaction comes back. Offloads
    // of other compactions and of tool time (gate 1) stay.
    bool removeCheckpoint(qint64 checkpointId, QString *error = nullptr);
    // Pins (docs/COMPACTION.md section 12; overlays() carries them too) ------------------------
    QList<Pin> pins(const QString &sessionId, QString *error = nullptr);
    // Adds `pin` to the session in one transaction, refused (with PinnedSection::refusal's words)
    // when the session's pins with it would take more than `budgetTokens` (PinBudget). A message
    // pin takes its text from the stored message; a selection must be a part of its message's text;
    // a note must not be blank. Returns the pin as stored (id, text, time).
    std::optional<Pin> addPin(const QString &sessionId, const Pin &pin, qint64 budgetTokens, QString *error = nullptr);
    // Unpin: one call, one row.
    bool removePin(qint64 pinId, QString *error = nullptr);
    // Versions of a checkpoint (schema 9, issue #22 items 7, 8). overlays() gives each checkpoint
    // its newest version not undone. Every version, version 1 (what the compaction made) first,
    // undone ones included with their undoneAt.
    QList<CheckpointVersion> checkpointVersions(qint64 checkpointId, QString *error = nullptr);
    // A new version of the checkpoint for the requests from `fromRequestIndex` on; its number.
    std::optional<int> addCheckpointVersion(qint64 checkpointId, const CheckpointVersion &version, QString *error = nullptr);
    // Undo of an edit: the newest version not undone is marked undone (its text kept); returns the
    // version now in effect. Version 1 cannot be undone (removeCheckpoint undoes the compaction).
    std::optional<int> undoCheckpointVersion(qint64 checkpointId, QString *error = nullptr);
    QList<RequestRecord> requests(const QString &sessionId, QString *error = nullptr);
    QList<CompactionRecord> records(const QString &sessionId, QString *error = nullptr);
    QList<AnchorHistoryEntry> anchorHistory(const QString &sessionId, QString *error = nullptr);

    // Imports (schema 3) ---------------------------------------------------------------------
    // Requests for messages already stored (a transcript import writes the history first, in
    // batches, then its requests), in one transaction. `producedBy[i]`, when given and > 0, is the
    // id of the message requests[i] produced: its origin is set to the new request. Returns the
    // new rows' ids. The view ids must be messages of the session.
    std::optional<QList<qint64>> appendRequests(const QString &sessionId, const QList<RequestRecord> &requests,
                                                const QList<qint64> &producedBy, QString *error = nullptr);
    // Where an imported session came from; replaces an earlier one.
    bool setSessionSource(const QString &sessionId, const SessionSource &source, QString *error = nullptr);
    // Nothing (and no error) when the session was not imported.
    std::optional<SessionSource> sessionSource(const QString &sessionId, QString *error = nullptr);

    // Continuing an import (schema 6) -------------------------------------------------------
    // Where an import keeps its offloaded results until it is continued: "imported" next to the
    // database, created 0700. An imported session's workspace until the user picks one.
    QString importFolder(QString *error = nullptr) const;
    // What the user chose, never the file, when continuing an imported session.
    struct Continuation
    {
        QString workspace;          // an existing folder (the caller checks broad roots with the user)
        QString providerName;
        QJsonObject providerProfile; // no secrets (filtered again here)
        QString systemPrompt;       // empty: Waterline's default at the first request
    };
    // Makes a read-only session runnable: moves its offloaded results into the chosen workspace,
    // then sets the workspace, provider and system prompt and clears read-only. A session that is
    // not read-only is an error (it already runs where its user chose).
    bool continueSession(const QString &id, const Continuation &choice, QString *error = nullptr);

    // Imports in progress (schema 10) ----------------------------------------------------------
    // A session created with SessionInfo::importing is left out of listSessions() until its
    // import calls finishImport (for every session of a file at once, in one transaction).
    bool finishImport(const QStringList &ids, QString *error = nullptr);
    // Removes the sessions whose import never finished and whose importing process is gone
    // (killed, crashed, out of disk), a few hundred rows per transaction so that it also works on
    // a nearly full disk; an import another running process is writing stays. How many went.
    std::optional<int> removeAbandonedImports(QString *error = nullptr);

    // Recorded traffic (schema 7) --------------------------------------------------------------
    // The system prompt and tool schemas request `requestIndex` of the session was sent with. The
    // same pair is stored once per session however many requests name it. Not filtered: they are
    // what the model read, like the messages.
    bool setRequestContext(const QString &sessionId, int requestIndex, const RequestContext &context,
                           QString *error = nullptr);
    // Nothing (and no error) when the request has none recorded.
    std::optional<RequestContext> requestContext(const QString &sessionId, int requestIndex, QString *error = nullptr);

    // Export / import (JSONL, see SessionExport) ---------------------------------------------
    bool exportSession(const QString &sessionId, const QString &path, QString *error = nullptr);
    // Reads an export into a new, read-only session whose offloads live in `workspace`; returns its
    // id. The file is never trusted with what a continued session would act on: its workspace,
    // provider and summariser profiles (a key reference among them) and approval policy are not
    // taken, and its system prompt is kept for replays only (continueSession() sets the one that runs).
    std::optional<QString> importSession(const QString &path, const QString &workspace, QString *error = nullptr);
    // A session of another database of this user's, exported to `exportPath` by exportSession:
    // stored here under its own id with its own fields (`original`, as the other database has
    // them: workspace, provider, read-only or not), the opposite of importSession's stranger's
    // file. For moving the user's sessions out of an old demo database (DemoSession).
    bool adoptSession(const QString &exportPath, const SessionInfo &original, QString *error = nullptr);

private:
    std::optional<SessionInfo> insertSession(const QString &id, const SessionInfo &fields, QString *error);
    std::optional<QString> importDocument(const QString &path, const std::function<SessionInfo(const SessionInfo &)> &fieldsOf,
                                          const QString &id, QString *error);
    SqlConnection *connection(QString *error);
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace wl
