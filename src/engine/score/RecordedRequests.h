#pragma once

#include "compaction/CompactionPolicy.h"
#include "compaction/Tier.h"
#include "compaction/ViewComposition.h"
#include "store/SessionInfo.h"
#include "whatif/ReplayInput.h"

#include <QList>
#include <QString>

#include <optional>

namespace wl {

class ContextView;
class SessionStore;
struct CompactionRecord;
struct ContextOverlays;
struct RequestRecord;

// One recorded request as the workbench shows it: the gauge, the Context dock and
// `waterline-cli show` read these rows (issue 31), so they agree by construction.
struct RecordedRequestRow
{
    int index = -1;                  // the stored request index
    Tier tier = Tier::None;
    qint64 window = 0;               // the window it is measured against
    ViewComposition composition;     // by category (ViewComposition::of, as the Context dock shows it)
    qint64 gaugeTokens = 0;          // the total the gauge shows: composition.used(), reserved output included
    qint64 sentTokens = 0;           // what went to the provider: gaugeTokens less the reserved output
    bool sourceCompacted = false;    // the source agent's own compaction was in force for it (imports)
    int viewMessages = 0;            // the session's messages the view holds (ViewComposition::viewMessages)
    int historyMessages = 0;         // the session's messages by then
    std::optional<qint64> providerInputTokens; // reported input, cached tokens included
};

namespace RecordedRequests {

// The policy a stored session is shown with: its own when it has a valid one, else the replay's
// default (the window of window()).
CompactionPolicy policyOf(const SessionInfo &info, const ReplayInput &replay);
// The window a stored session's requests are measured against and where it comes from: the
// session's own policy's when it names another window ("session policy"), else the replay's
// (ReplayInput::window: the profile, the transcript, the model table, the default).
ReplayInput::Window windowOf(const ReplayInput &replay, const CompactionPolicy &policy);

// Every recorded request of a stored session, its view replayed from the stored overlays and the
// source agent's own compactions (RecordedRun). O(history) per compaction.
QList<RecordedRequestRow> of(const ReplayInput &replay, const QList<RequestRecord> &requests,
                             const ContextOverlays &overlays, const QList<CompactionRecord> &records,
                             const CompactionPolicy &policy);

// A stored session read for its rows, as the window's loader and `waterline-cli show` read it.
struct StoredRequests
{
    SessionInfo info;
    ReplayInput replay;
    CompactionPolicy policy;
    QList<RecordedRequestRow> rows;
};
std::optional<StoredRequests> ofStored(SessionStore &store, const QString &sessionId, QString *error);

} // namespace RecordedRequests
} // namespace wl
