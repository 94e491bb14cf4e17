#pragma once

#include "compaction/CompactionPolicy.h"

#include <QString>
#include <QStringList>

#include <array>
#include <atomic>
#include <functional>

namespace wl {

class SessionStore;

// Writes a transcript into a NEW store session (issue 5):
//   - title (given, else the importer's); the session is read-only until the user continues it
//     (SessionStore::continueSession), and keeps offloads in the given folder, else the store's
//     import folder: never the file's folder, and nothing the file says;
//   - the history, streamed from the importer through ImportOptions::sink into appendStep
//     batches (one transaction per batch), so a 200 MB file never sits in memory;
//   - one RequestRecord per imported request: view = what the source agent sent (SourceView:
//     the history before the assistant message it produced, from its newest own compaction on),
//     estimateTokens from those bytes / 4 (the compaction's summary and cleared results included), tool-schema tokens
//     of the source's tools, the provider usage, model and time from the source, tier None;
//     the produced message's origin points at it;
//   - the source's own compactions and structural issues as SessionSource details
//     (ImportMetadata JSON, store schema 3);
//   - a Waterline export ("waterline" format) goes through SessionStore::importSession whole,
//     overlays and records included.
// With Options::replay the session is then replayed (CompactionBackfill). Progress is reported in bytes of the file. A failed or cancelled import deletes the session
// it had started: nothing half-written stays behind. Each session is created marked as an
// import in progress (SessionInfo::importing) and listed only once all of the file is stored
// (SessionStore::finishImport), so one killed part way is never shown and is removed at the
// next open (SessionStore::removeAbandonedImports). Synchronous and long for big files: the
// GUI runs it on a worker thread (the store works from any thread; `cancel` is an atomic and
// `progress` is called on that worker thread).
class SessionImporter
{
public:
    struct Options
    {
        QString format;             // empty or "auto": detect
        QString workspace;          // where replays offload to; empty: SessionStore::importFolder()
        QString title;              // empty: the importer's title
        // Files of several sessions (OpenHands evaluation output, a JSON array of trajectories):
        // which one; allRuns imports each into its own store session (all or none of them).
        int runIndex = 0;
        static constexpr int allRuns = -1;
        int batchMessages = 1000;   // messages per transaction
        qint64 batchBytes = 16ll * 1024 * 1024; // ... or fewer when they are this large together
        std::function<void(qint64 bytesRead, qint64 bytesTotal)> progress;
        const std::atomic_bool *cancel = nullptr;
        // Then re-run Waterline's compaction over it (CompactionBackfill) under this policy; a
        // failed or cancelled replay deletes the session too.
        bool replay = false;
        CompactionPolicy replayPolicy;
        qint64 replayOverheadTokens = -1; // see CompactionBackfill::Options::overheadTokens
        QString auditPath;          // for the replay; empty: Paths::auditFile(session)
    };

    struct Result
    {
        bool ok = false;
        bool cancelled = false;
        bool badInput = false;      // the file could not be read as a transcript (vs. a store failure)
        QString error;              // translated; names file, line and field for bad input
        QString sessionId;          // the (first) new session
        QStringList sessionIds;     // every new session, in file order (allRuns: one per session)
        int runs = 1;               // sessions the file holds
        QString format;
        // The counts below are those of the first new session.
        int messages = 0;
        int requests = 0;
        int compactions = 0;        // the source's own
        int issues = 0;             // calls without results, results without calls, notes
        int skipped = 0;            // records that could not be read
        QStringList problems;       // "file:line: field 'x': what", the first ones
        int rejectedNumbers = 0;    // token counts no integer holds, read as not reported
        QString firstRejectedNumber; // "file:line: field x: what" of the first of them
        std::array<int, 5> replayTiers{}; // with `replay`: requests per tier, by Tier value
    };

    static Result importFile(SessionStore &store, const QString &path, const Options &options);
    static Result importFile(SessionStore &store, const QString &path) { return importFile(store, path, Options{}); }
};

} // namespace wl
