#pragma once

#include "compaction/CompactionPolicy.h"

#include <QString>

#include <atomic>
#include <functional>

namespace wl {

// The bundled demo: a real Claude Code transcript, imported and replayed with
// Waterline's own compaction (extractive summariser, no model, no network) under a
// policy whose window makes every tier occur. Built once into <folder>/demo.db with
// its workspace beside it, and reused while its version stamp matches.
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

    static Result ensure(const QString &folder, const std::function<void(const QString &stage, int percent)> &progress = {},
                         const std::atomic_bool *cancel = nullptr);

    static QString defaultFolder();          // <data dir>/demo
    static CompactionPolicy policy();        // the replay policy of the demo
    static QString transcriptResource();     // the bundled transcript (a Qt resource path)
    static QString sourceNote();             // attribution, for the About box
};

} // namespace wl
