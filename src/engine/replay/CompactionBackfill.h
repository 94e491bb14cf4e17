#pragma once

#include "compaction/CompactionPolicy.h"
#include "compaction/Tier.h"

#include <QString>

#include <array>
#include <atomic>
#include <functional>

namespace wl {

class SessionStore;

// Fills in the compaction a stored (typically just imported) session never had: re-runs
// Waterline's own compaction over it, request by request, with Preflight::runWithoutLlm (the
// extractive summariser, no network), and stores what it did as if Waterline had run the
// session (gate 1 offloads each result above the tool-time threshold as the agent would have
// when the tool finished; every ratio counts ReplayInput's overhead unless told otherwise):
//   - checkpoints, offload overlays and compaction records (anchor history follows from them),
//     each request's in one appendStep transaction;
//   - real offload files under <workspace>/.waterline/tool_results/<session>/;
//   - the records also appended to the audit JSONL (Paths::auditFile(session) or a given path);
//   - each RequestRecord's view ids, view checkpoint, estimate, schema tokens and tier rewritten
//     to what Waterline would have sent; usage, model and times stay the source's;
//   - the policy saved as the session's policy.
// The history is never touched. Deterministic: the same session and policy give the same
// tiers, views, checkpoints, offloads and records; record ids are derived from the session id
// and request index (UUID v5), and times from the request's recorded time (only duration_ms is
// measured). The session must not have overlays or records yet (replay starts from the raw
// history). Used by the demo session and `waterline-cli import --replay`. Not the what-if replay
// (whatif/Simulator), which stores nothing.
class CompactionBackfill
{
public:
    struct Options
    {
        CompactionPolicy policy;
        // Tokens every request carried besides its view and schemas; -1: ReplayInput's estimate
        // (imports without a system prompt or tool schemas), 0: none.
        qint64 overheadTokens = -1;
        QString workspace;         // empty: the session's workspace
        QString auditPath;         // empty: Paths::auditFile(session)
        std::function<void(int done, int total)> progress;
        const std::atomic_bool *cancel = nullptr;
    };

    struct Result
    {
        bool ok = false;
        bool cancelled = false;
        QString error;             // translated
        int requests = 0;
        std::array<int, 5> tiers{}; // requests per tier, by Tier value
        int checkpoints = 0;
        int offloads = 0;
        int records = 0;
    };

    // A failed or cancelled replay leaves the steps stored so far (each is atomic); callers
    // that need all or nothing delete the session (SessionImporter's --replay does).
    static Result run(SessionStore &store, const QString &sessionId, const Options &options);
};

} // namespace wl
