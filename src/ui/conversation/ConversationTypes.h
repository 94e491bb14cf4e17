#pragma once

#include "compaction/Tier.h"
#include "tools/ApprovalPolicy.h" // wl::ApprovalDecision, the engine's answer type

#include <QDateTime>
#include <QMetaType>
#include <QString>

// Small value types the conversation model takes in besides wl::Message.
namespace wl {

// What one row of the conversation shows.
enum class ConversationRowKind {
    User,
    Assistant,
    System,       // a system note (e.g. an injected summary); the system prompt itself is not shown
    ToolCall,     // the assistant's call and, once it arrives, its result
    Compaction,   // one-line marker of a compaction event
    Error,
    Approval,
    Progress,     // the single transient "long work" row, always last
};

enum class ToolCallStatus { Pending, Running, Ok, Error, Denied };

// The result of a tool call as the conversation shows it.
struct ToolCallOutcome
{
    ToolCallStatus status = ToolCallStatus::Ok;
    QString text;               // the result; only a preview is kept
    qint64 durationMs = -1;     // -1: measured from setToolRunning() when it was called
    bool offloaded = false;     // the full result lives in the offload store (opened by call id)
    qint64 messageId = 0;       // the stored result message, when stored (ConversationModel::setOffloadedResults)
};

struct CompactionMarker
{
    QString recordId;
    Tier tier = Tier::None;
    qint64 tokensBefore = 0;
    qint64 tokensAfter = 0;
    int anchorsChanged = 0;
    int offloads = 0;
    // The source agent's own compaction (an import): who made it and the summary it sent instead
    // of the history (recordId, tier and anchors are then empty).
    QString sourceAgent;
    QString summary;
};

struct ConversationError
{
    QString id;                 // optional; handed back by ConversationView::retryRequested
    QString text;
    bool retryable = false;
};

enum class ApprovalState { Pending, AllowedOnce, AllowedForSession, Denied };

// An approval row as the conversation shows it (the engine's wl::ApprovalRequest is turned into one).
struct ApprovalPrompt
{
    QString id;                 // unique; resolveApproval() and ConversationView::approvalDecided use it
    QString tool;               // e.g. "bash", "write_file"
    QString callId;             // the tool call it guards, if any
    QString detail;             // the exact command or diff
    bool detailIsDiff = false;  // unified diff: lines are coloured by +/-
};

// The long-work row: a compaction summary being made or a request waiting to retry.
struct ConversationProgress
{
    enum class Kind { Compacting, WaitingToRetry };
    Kind kind = Kind::Compacting;
    Tier tier = Tier::Full;     // Compacting
    int messageCount = 0;       // Compacting: messages being summarised
    int attempt = 0;            // WaitingToRetry: the attempt that comes next
    QDateTime nextAttemptAt;    // WaitingToRetry
    QDateTime startedAt;        // defaults to now when empty
    bool skippable = true;      // shows Skip (next fallback / retry now)
};

// Interactive spots of a row, painted by the delegate and handled by the view.
enum class ConversationAction {
    None,
    ToggleExpanded,   // tool card header
    OpenOffload,      // "offloaded" badge of a tool card
    OpenCompaction,   // compaction marker
    AllowOnce,
    AllowForSession,
    Deny,
    Retry,
    Skip,
};

} // namespace wl

Q_DECLARE_METATYPE(wl::ConversationProgress)
