#pragma once

#include "RecordedRun.h"

#include "whatif/ReplayInput.h"

#include <QList>
#include <QString>

#include <optional>

namespace wl {

// A transcript read for scoring: its replay input, the views it really sent and the output tokens
// each request reported (-1: not reported), in request order.
struct RecordedSession
{
    QString name; // the file's name
    ReplayInput replay;
    RecordedRun recorded;
    QList<qint64> reportedOutput;

    // A transcript file (or an event folder); nothing with `error` when it does not import.
    // `format` empty or "auto" detects; `runIndex` picks one session of a file of several.
    static std::optional<RecordedSession> importFile(const QString &path, const QString &format, int runIndex, QString *error);
};

} // namespace wl
