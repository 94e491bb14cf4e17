#pragma once

#include "compaction/CompactionPolicy.h"
#include "score/PriceTable.h"
#include "score/RecordedRun.h"
#include "whatif/ReplayInput.h"

#include <QList>
#include <QString>

#include <optional>

namespace wl::cli {

// A recorded session as `evaluate` scores it: the replay input, the views it really sent, the
// output each request reported and the policy it ran under (its own, else its default).
struct LoadedSession
{
    QString name;
    ReplayInput replay;
    RecordedRun recorded;
    QList<qint64> reportedOutput;
    CompactionPolicy policy;
};

// A transcript file (or an event folder); nothing with `error` when it does not import.
std::optional<LoadedSession> loadTranscript(const QString &path, const QString &format, int runIndex, QString *error);

// Session `id` of the store at `dbPath`. Returns the exit code to stop with, or nothing.
std::optional<int> loadStored(const QString &dbPath, const QString &id, LoadedSession *out);

// The built-in price table with the user's overrides from the Settings (a bad override: a warning
// on stderr).
PriceTable settingsPrices();

} // namespace wl::cli
