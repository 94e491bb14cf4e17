#include "RecordedSession.h"

#include "replay/ImportedSession.h"
#include "replay/TranscriptFormats.h"

#include <QFileInfo>

#include <algorithm>

namespace wl {

std::optional<RecordedSession> RecordedSession::importFile(const QString &path, const QString &format, int runIndex, QString *error)
{
    ImportOptions options;
    options.runIndex = runIndex;
    const ImportResult imported = TranscriptFormats::importFile(path, format, options);
    if (!imported.ok) {
        *error = imported.error;
        return std::nullopt;
    }
    RecordedSession session;
    session.name = QFileInfo(path).fileName();
    session.replay = ReplayInput::fromImport(imported.session);
    session.recorded = RecordedRun::fromImport(imported.session, session.replay);
    QList<ImportedRequest> requests = imported.session.requests;
    std::stable_sort(requests.begin(), requests.end(),
                     [](const ImportedRequest &a, const ImportedRequest &b) { return a.messageIndex < b.messageIndex; });
    for (const ImportedRequest &r : std::as_const(requests))
        session.reportedOutput.append(r.usage.output);
    return session;
}

} // namespace wl
