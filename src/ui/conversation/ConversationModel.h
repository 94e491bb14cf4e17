#pragma once

#include "conversation/ConversationTypes.h"

#include <QAbstractListModel>
#include <QHash>
#include <QSet>
#include <QList>

#include <optional>
#include <vector>

namespace wl {

struct CompactionRecord;
struct Message;

// The rows of the central conversation: messages, tool call cards, compaction markers,
// errors, approval requests and the long-work progress row. Holds no widgets and no
// painting; ConversationDelegate draws it. Rows are only ever added at the end (appends)
// or at the start (prependMessages(), for paging in older history), so per-row item ids
// stay stable while row numbers shift.
//
// Roles (all rows):
//   Qt::DisplayRole       QString  plain text of the row (what Ctrl+C copies)
//   Qt::ToolTipRole       QString  for markers and tool cards: a one-line description
//   KindRole              int      ConversationRowKind
//   ItemIdRole            quint64  stable id of the row, never reused (layout caches key on it)
//   TextRole              QString  message Markdown, error text, tool result preview, approval detail
//   MessageIdRole         qint64   wl::Message::id of the message the row came from (0 for none)
//   TimestampRole         QDateTime when the row's message was made / the event happened
// User / Assistant / System:
//   StreamingRole         bool     assistant text still arriving
// ToolCall:
//   CallIdRole            QString
//   ToolNameRole          QString
//   ToolArgumentsRole     QString  arguments exactly as sent (JSON text)
//   ToolStatusRole        int      ToolCallStatus
//   ToolDurationRole      qint64   milliseconds; -1 while unknown
//   ToolResultLengthRole  qint64   characters of the full result (the preview may be shorter)
//   ToolResultTruncatedRole bool   the preview is shorter than the result
//   OffloadedRole         bool     the result is an offload placeholder ("[offloaded: ...") or said so
//   RedactedRole          int      secrets removed from the result before it was stored ("[redacted: ...]")
//   ResultMessageIdRole   qint64   wl::Message::id of the stored result (0 while unknown)
//   PinnedRole            bool     the row's message (a card: its result) is pinned whole (setPinnedMessages)
//   StartedAtRole         QDateTime when setToolRunning() was called (invalid otherwise)
//   ExpandedRole          bool     card shows arguments and result (settable with setData)
// Compaction:
//   RecordIdRole          QString
//   TierRole              int      wl::Tier
//   TokensBeforeRole, TokensAfterRole qint64
//   AnchorsChangedRole, OffloadCountRole int
//   SourceAgentRole       QString  the source agent whose own compaction it is (imports), else empty;
//                                  TextRole and the tooltip then hold the summary it sent
// Error:
//   ErrorIdRole           QString
//   RetryableRole         bool
// Approval:
//   ApprovalIdRole        QString
//   ToolNameRole, CallIdRole, TextRole (the exact command or diff)
//   DetailIsDiffRole      bool
//   ApprovalStateRole     int      ApprovalState
// Progress:
//   ProgressRole          ConversationProgress
//   StartedAtRole         QDateTime
//   DeadlineRole          QDateTime next retry (WaitingToRetry only)
//   SkippableRole         bool
//   Qt::DisplayRole       the label, e.g. "Compacting context (Full tier, summarising 42 messages)";
//                         retry countdowns are computed at the time of the call.
class ConversationModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        KindRole = Qt::UserRole + 1,
        ItemIdRole,
        TextRole,
        MessageIdRole,
        TimestampRole,
        StreamingRole,
        CallIdRole,
        ToolNameRole,
        ToolArgumentsRole,
        ToolStatusRole,
        ToolDurationRole,
        ToolResultLengthRole,
        ToolResultTruncatedRole,
        OffloadedRole,
        ExpandedRole,
        RecordIdRole,
        TierRole,
        TokensBeforeRole,
        TokensAfterRole,
        AnchorsChangedRole,
        OffloadCountRole,
        ErrorIdRole,
        RetryableRole,
        ApprovalIdRole,
        DetailIsDiffRole,
        ApprovalStateRole,
        ProgressRole,
        StartedAtRole,
        DeadlineRole,
        SkippableRole,
        RedactedRole,
        ResultMessageIdRole,
        PinnedRole,
        SourceAgentRole,
    };
    Q_ENUM(Role)

    // Tool results longer than this keep only their first characters in the model.
    static constexpr qsizetype kResultPreviewChars = 4000;

    explicit ConversationModel(QObject *parent = nullptr);
    ~ConversationModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Messages in conversation order. A user message that starts with "[Context Compaction]"
    // (a compaction checkpoint) is shown as a System note. Assistant tool calls become cards; tool results attach
    // to their card (a result whose call is unknown gets a card of its own). System messages
    // are shown as notes except a leading system prompt. One insert for the whole list.
    void appendMessages(const QList<Message> &messages);
    // Older history at the top (paging). Results inside the page attach to calls inside it.
    void prependMessages(const QList<Message> &messages);
    void clear();
    // A recorded conversation replaces the rows: `history` in order, with each marker placed
    // before history[at] (at == history.size(): after the last message). Markers in order of `at`.
    void setTranscript(const QList<Message> &history, const QList<std::pair<qsizetype, CompactionMarker>> &markers);
    // The stored results (by message id) that compaction offloaded: the history keeps their full
    // text, so only this says which cards show the "offloaded" badge. Cards whose stored result is
    // known follow the set (now and when added later); the others keep what the live agent said.
    void setOffloadedResults(const QSet<qint64> &messageIds);
    // The messages pinned whole (docs/COMPACTION.md section 12): their rows say so (PinnedRole).
    void setPinnedMessages(const QSet<qint64> &messageIds);

    // Streaming: one assistant row that grows; appendStreamText() changes that row only.
    // Returns the row. A stream already open is finished with the text it has.
    int beginAssistantStream();
    void appendStreamText(const QString &text);
    // The final message replaces the streamed text and adds its tool call cards. With empty
    // content and tool calls the streamed row is removed (only the cards remain).
    void finishAssistantStream(const Message &message);
    // The stream broke and will be sent again: its row goes.
    void discardAssistantStream();
    bool isStreaming() const { return m_streamRow >= 0; }

    // Tool call cards, found by call id. False when no card has that id.
    bool setToolRunning(const QString &callId);
    bool setToolResult(const QString &callId, const ToolCallOutcome &outcome);

    int addCompactionMarker(const CompactionMarker &marker);
    // The marker the conversation shows for `record`: the one place a record becomes a marker.
    static CompactionMarker compactionMarker(const CompactionRecord &record);
    int addError(const ConversationError &error);
    bool setErrorRetryable(const QString &errorId, bool retryable);
    int addApprovalRequest(const ApprovalPrompt &request);
    bool resolveApproval(const QString &approvalId, ApprovalDecision decision);

    // The progress row is a single transient row kept after every other row.
    void setProgress(const ConversationProgress &progress);
    void clearProgress();
    bool hasProgress() const { return m_progress.has_value(); }
    QModelIndex progressIndex() const;

    // Row lookups (invalid index when unknown).
    QModelIndex indexForCallId(const QString &callId) const;
    QModelIndex indexForApproval(const QString &approvalId) const;

    // Labels shared with the delegate.
    static QString tierLabel(Tier tier);
    static QString statusLabel(ToolCallStatus status);
    static QString approvalStateLabel(ApprovalState state);
    static QString progressLabel(const ConversationProgress &progress, const QDateTime &now);
    static QString compactionLabel(const CompactionMarker &marker);

Q_SIGNALS:
    void progressChanged(bool active);

private:
    struct Item;
    struct Batch;
    Batch buildItems(const QList<Message> &messages, bool attachToExisting);
    void insertItems(int row, std::vector<Item> &&items);
    void reindexFrom(int row);
    void removeStreamRow();
    int itemRowCount() const;
    Item *itemForCall(const QString &callId, int *row);
    void emitRowChanged(int row, const QList<int> &roles = {});
    void applyOutcome(Item &item, const ToolCallOutcome &outcome) const;

    std::vector<Item> m_items;
    std::optional<ConversationProgress> m_progress;
    quint64 m_progressItemId = 0;
    QHash<QString, int> m_callRows;       // call id -> row
    QHash<QString, int> m_approvalRows;   // approval id -> row
    QHash<QString, int> m_errorRows;      // error id -> row
    QSet<qint64> m_pinnedMessages;
    QSet<qint64> m_offloadedResults;      // result message ids compaction offloaded
    int m_streamRow = -1;
    quint64 m_nextItemId = 1;
};

} // namespace wl
