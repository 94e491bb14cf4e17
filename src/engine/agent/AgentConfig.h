#pragma once

#include "compaction/CompactionPolicy.h"
#include "tools/ApprovalPolicy.h"

#include <QString>

#include <optional>

namespace wl {

class ChatClient;
class SessionStore;

// What one AgentRun works with. Pointers are not owned and must outlive the run.
struct AgentConfig
{
    SessionStore *store = nullptr;
    QString sessionId;              // an existing session (SessionStore::createSession)

    ChatClient *client = nullptr;   // the session's main model
    QString model;
    int maxOutputTokens = 4096;

    // The configured summariser (docs/COMPACTION.md section 5, step 1). Empty model: none configured, the
    // chain starts with the main model. A null client with a model: the main client is used.
    ChatClient *summarizerClient = nullptr;
    QString summarizerModel;
    int summaryMaxOutputTokens = 4096;

    // Clients for the review's summary drafted in the background from the Warn tier
    // (policy.reviewSummaries; BackgroundDraft): a second client of the main model's provider
    // profile, since a ChatClient makes one call at a time and the loop keeps sending meanwhile.
    // Null: nothing is drafted ahead, the summary is written when the tier fires.
    ChatClient *draftClient = nullptr;
    // The same for the configured summariser when it has a client of its own (summarizerClient).
    // Null: the draft uses summarizerClient, which only the tiers' summaries use (a draft call is
    // cancelled before a tier asks for its summary).
    ChatClient *draftSummarizerClient = nullptr;

    // Unset: the session's stored settings (or the defaults when it has none).
    std::optional<CompactionPolicy> policy;
    std::optional<ApprovalPolicy> approval;

    int maxTurns = 100;             // LLM requests per prompt before the run gives up
    // The user confirmed a workspace that is "/" or the home folder itself (Workspace::RootScope).
    bool allowBroadWorkspace = false;
    QString auditPath;              // empty: Paths::auditFile(sessionId)
};

} // namespace wl
