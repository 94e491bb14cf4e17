#pragma once

#include "compaction/CompactionPolicy.h"

#include <QString>

#include <atomic>
#include <functional>

namespace wl {

class SessionStore;

// The bundled demo: a real Claude Code transcript, imported and replayed with Waterline's own
// compaction (extractive summariser, no model, no network) under a policy whose window makes
// every tier occur. Built once into <folder>/demo-v<version>.db with its workspace beside it, and
// reused while its version stamp matches. The demo's database is read-only to the window
// (SessionLifecycle keeps it beside the user's own): nothing but the demo is ever written there.
//
// A demo database file is deleted only when it holds nothing but the demo's own session (one
// imported from the demo transcript of that folder). Older Waterlines wrote the user's work into
// the demo's database: moveUserSessions() copies it into the user's store first, and a file that
// still holds such sessions is never deleted.
class DemoSession
{
public:
    struct Result
    {
        bool ok = false;
        bool built = false;     // false: an existing demo was reused
        QString databasePath;
        QString sessionId;
        QString error;
    };

    // The demo of this version, built when missing.
    static Result ensure(const QString &folder, const std::function<void(const QString &stage, int percent)> &progress = {},
                         const std::atomic_bool *cancel = nullptr);
    // The demo of this version when it is built already; never builds, never deletes anything.
    static Result find(const QString &folder);

    struct Moved
    {
        int count = 0;          // sessions now in the user's store
        QString error;          // why a session could not be moved (its file is left as it was)
    };
    // Sessions in the folder's demo databases that are not the demo's (imports, proxy recordings
    // and live sessions an older Waterline wrote there), copied into `userStore` with their ids,
    // fields, sources and offloaded results. Each database is done once (a ".moved" note beside
    // it); the databases themselves are never changed or deleted here.
    static Moved moveUserSessions(const QString &folder, SessionStore &userStore);

    static QString defaultFolder();          // <data dir>/demo
    static CompactionPolicy policy();        // the replay policy of the demo
    static QString transcriptResource();     // the bundled transcript (a Qt resource path)
    static QString sourceNote();             // attribution, for the About box
};

} // namespace wl
