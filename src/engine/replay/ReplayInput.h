#pragma once

#include "compaction/Simulator.h"
#include "model/Message.h"
#include "model/ToolSpec.h"

#include <QList>
#include <QString>

#include <optional>

namespace wl {

class SessionStore;
struct ImportedSession;

// A recorded session in the shape a replay needs, whatever it came from (a transcript read in
// memory, or a session in the store):
//   - the system prompt: the first history message when it is a system message (importers put
//     the source's system prompt there), else empty;
//   - the rest of the history, ids ascending (positions + 1 for an in-memory import);
//   - per recorded request, in index order, how many of those history messages it saw: all
//     messages before the one it produced (or, for a stored request that produced none, up to
//     the newest message of its recorded view).
struct ReplayInput
{
    QString sessionId;                 // empty for an in-memory import
    QString systemPrompt;
    qint64 systemMessageId = 0;        // the history message the prompt came from, 0 for none
    QList<Message> history;            // without that system message
    QList<qsizetype> requestEnds;      // per request: history[0, end) was seen
    QList<int> requestIndexes;         // the stored index of each request (0..n-1 for imports)
    QList<QDateTime> requestTimes;     // when each request was made, invalid when unknown
    QList<ToolSpec> tools;             // the schemas offered to the model, when the source says
    QList<qint64> recordedSummaryTokens; // sizes of the source's own summaries (size model default)

    static ReplayInput fromImport(const ImportedSession &session);
    static std::optional<ReplayInput> fromStore(SessionStore &store, const QString &sessionId, QString *error = nullptr);

    Simulator::Input simulatorInput(const CompactionPolicy &policy, const SummaryModel &summaryModel) const;
};

} // namespace wl
