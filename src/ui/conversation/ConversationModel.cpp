#include "ConversationModel.h"

#include "compaction/CompactionRecord.h"
#include "llm/Redaction.h"

#include "model/Message.h"

#include <QLocale>

#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

const QLatin1StringView kCheckpointMarker("[Context Compaction]");
const QLatin1StringView kOffloadMarker("[offloaded: ");

int kindValue(ConversationRowKind kind)
{
    return int(kind);
}

} // namespace

struct ConversationModel::Item
{
    ConversationRowKind kind = ConversationRowKind::User;
    quint64 itemId = 0;
    QString text;
    qint64 messageId = 0;
    qint64 resultMessageId = 0; // ToolCall: the stored result's message, once known
    QDateTime timestamp;
    bool streaming = false;

    // ToolCall and Approval
    QString callId;
    QString toolName;
    QString arguments;
    ToolCallStatus status = ToolCallStatus::Pending;
    qint64 durationMs = -1;
    QDateTime startedAt;
    qint64 resultLength = 0;
    bool offloaded = false;
    int redacted = 0;
    bool expanded = false;

    // Compaction
    CompactionMarker marker;

    // Error
    QString errorId;
    bool retryable = false;

    // Approval
    QString approvalId;
    bool detailIsDiff = false;
    ApprovalState approvalState = ApprovalState::Pending;
};

struct ConversationModel::Batch
{
    std::vector<Item> items;
    QList<int> changedRows;   // existing rows a result attached to
};

ConversationModel::ConversationModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

ConversationModel::~ConversationModel() = default;

int ConversationModel::itemRowCount() const
{
    return int(m_items.size());
}

int ConversationModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return itemRowCount() + (m_progress ? 1 : 0);
}

QString ConversationModel::tierLabel(Tier tier)
{
    switch (tier) {
    case Tier::None: return tr("None");
    case Tier::Warn: return tr("Warn");
    case Tier::Soft: return tr("Soft");
    case Tier::Full: return tr("Full");
    case Tier::Emergency: return tr("Emergency");
    }
    return {};
}

QString ConversationModel::statusLabel(ToolCallStatus status)
{
    switch (status) {
    case ToolCallStatus::Pending: return tr("pending");
    case ToolCallStatus::Running: return tr("running");
    case ToolCallStatus::Ok: return tr("ok");
    case ToolCallStatus::Error: return tr("error");
    case ToolCallStatus::Denied: return tr("denied");
    }
    return {};
}

QString ConversationModel::approvalStateLabel(ApprovalState state)
{
    switch (state) {
    case ApprovalState::Pending: return tr("Waiting for your decision");
    case ApprovalState::AllowedOnce: return tr("Allowed once");
    case ApprovalState::AllowedForSession: return tr("Allowed for this session");
    case ApprovalState::Denied: return tr("Denied");
    }
    return {};
}

QString ConversationModel::progressLabel(const ConversationProgress &progress, const QDateTime &now)
{
    switch (progress.kind) {
    case ConversationProgress::Kind::Compacting:
        // English forms picked here: the project ships no numerus translations yet.
        if (progress.messageCount == 1)
            return tr("Compacting context (%1 tier, summarising 1 message)").arg(tierLabel(progress.tier));
        return tr("Compacting context (%1 tier, summarising %2 messages)")
            .arg(tierLabel(progress.tier))
            .arg(progress.messageCount);
    case ConversationProgress::Kind::WaitingToRetry: {
        const qint64 ms = progress.nextAttemptAt.isValid() ? now.msecsTo(progress.nextAttemptAt) : 0;
        const qint64 seconds = ms > 0 ? (ms + 999) / 1000 : 0;
        return tr("Waiting to retry (attempt %1, next in %2 s)").arg(progress.attempt).arg(seconds);
    }
    }
    return {};
}

CompactionMarker ConversationModel::compactionMarker(const CompactionRecord &record)
{
    CompactionMarker marker;
    marker.recordId = record.id;
    marker.tier = record.tier;
    marker.tokensBefore = record.tokensBefore;
    marker.tokensAfter = record.tokensAfter;
    marker.anchorsChanged = record.changedAnchorCount();
    marker.offloads = int(record.offloaded.size());
    return marker;
}

QString ConversationModel::compactionLabel(const CompactionMarker &marker)
{
    const QLocale locale;
    if (!marker.sourceAgent.isEmpty()) {
        const QString before = marker.tokensBefore > 0 ? tr("%1 tokens before").arg(locale.toString(marker.tokensBefore)) : tr("size before unknown");
        return marker.summary.isEmpty()
            ? tr("%1 compacted its own context: %2").arg(marker.sourceAgent, before)
            : tr("%1 compacted its own context: %2 · sent its summary instead (hover to read)").arg(marker.sourceAgent, before);
    }
    return tr("Context compacted (%1 tier): %2 → %3 tokens · %4 · %5")
        .arg(tierLabel(marker.tier), locale.toString(marker.tokensBefore), locale.toString(marker.tokensAfter),
             marker.anchorsChanged == 1 ? tr("1 anchor changed") : tr("%1 anchors changed").arg(marker.anchorsChanged),
             marker.offloads == 1 ? tr("1 offload") : tr("%1 offloads").arg(marker.offloads));
}

QVariant ConversationModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    if (row == itemRowCount()) {
        // The progress row.
        const ConversationProgress &progress = *m_progress;
        switch (role) {
        case Qt::DisplayRole:
            return progressLabel(progress, QDateTime::currentDateTime());
        case KindRole: return kindValue(ConversationRowKind::Progress);
        case ItemIdRole: return m_progressItemId;
        case ProgressRole: return QVariant::fromValue(progress);
        case StartedAtRole:
        case TimestampRole: return progress.startedAt;
        case DeadlineRole: return progress.nextAttemptAt;
        case SkippableRole: return progress.skippable;
        case TierRole: return int(progress.tier);
        default: return {};
        }
    }

    const Item &item = m_items[size_t(row)];
    switch (role) {
    case Qt::DisplayRole:
        switch (item.kind) {
        case ConversationRowKind::ToolCall: {
            QString text = item.toolName % u'(' % item.arguments % u')';
            if (item.status != ToolCallStatus::Pending && item.status != ToolCallStatus::Running)
                text += u'\n' % statusLabel(item.status) % u": "_s % item.text;
            return text;
        }
        case ConversationRowKind::Compaction:
            return compactionLabel(item.marker);
        case ConversationRowKind::Approval:
            return tr("Approval for %1 (%2):\n%3").arg(item.toolName, approvalStateLabel(item.approvalState), item.text);
        default:
            return item.text;
        }
    case Qt::ToolTipRole:
        switch (item.kind) {
        case ConversationRowKind::Compaction:
            if (!item.marker.sourceAgent.isEmpty())
                return item.marker.summary.isEmpty() ? compactionLabel(item.marker) : item.marker.summary;
            return tr("Open compaction record %1").arg(item.marker.recordId);
        case ConversationRowKind::ToolCall: return tr("Tool call %1 (%2)").arg(item.callId, statusLabel(item.status));
        default: return {};
        }
    case KindRole: return kindValue(item.kind);
    case ItemIdRole: return item.itemId;
    case TextRole: return item.text;
    case MessageIdRole: return item.messageId;
    case TimestampRole: return item.timestamp;
    case StreamingRole: return item.streaming;
    case CallIdRole: return item.callId;
    case ToolNameRole: return item.toolName;
    case ToolArgumentsRole: return item.arguments;
    case ToolStatusRole: return int(item.status);
    case ToolDurationRole: return item.durationMs;
    case ToolResultLengthRole: return item.resultLength;
    case ToolResultTruncatedRole: return item.resultLength > item.text.size();
    case OffloadedRole: return item.offloaded;
    case RedactedRole: return item.redacted;
    case ResultMessageIdRole: return item.resultMessageId;
    case PinnedRole:
        return m_pinnedMessages.contains(item.messageId)
            || (item.resultMessageId != 0 && m_pinnedMessages.contains(item.resultMessageId));
    case ExpandedRole: return item.expanded;
    case StartedAtRole: return item.startedAt;
    case RecordIdRole: return item.marker.recordId;
    case TierRole: return int(item.marker.tier);
    case TokensBeforeRole: return item.marker.tokensBefore;
    case TokensAfterRole: return item.marker.tokensAfter;
    case AnchorsChangedRole: return item.marker.anchorsChanged;
    case OffloadCountRole: return item.marker.offloads;
    case SourceAgentRole: return item.marker.sourceAgent;
    case ErrorIdRole: return item.errorId;
    case RetryableRole: return item.retryable;
    case ApprovalIdRole: return item.approvalId;
    case DetailIsDiffRole: return item.detailIsDiff;
    case ApprovalStateRole: return int(item.approvalState);
    default: return {};
    }
}

bool ConversationModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != ExpandedRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
        || index.row() >= itemRowCount())
        return false;
    Item &item = m_items[size_t(index.row())];
    if (item.kind != ConversationRowKind::ToolCall)
        return false;
    const bool expanded = value.toBool();
    if (item.expanded != expanded) {
        item.expanded = expanded;
        emitRowChanged(index.row(), {ExpandedRole});
    }
    return true;
}

Qt::ItemFlags ConversationModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

QHash<int, QByteArray> ConversationModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{KindRole, "kind"}, {ItemIdRole, "itemId"}, {TextRole, "text"}, {MessageIdRole, "messageId"},
                  {TimestampRole, "timestamp"}, {StreamingRole, "streaming"}, {CallIdRole, "callId"},
                  {ToolNameRole, "toolName"}, {ToolArgumentsRole, "toolArguments"}, {ToolStatusRole, "toolStatus"},
                  {ToolDurationRole, "toolDuration"}, {ToolResultLengthRole, "toolResultLength"},
                  {ToolResultTruncatedRole, "toolResultTruncated"}, {OffloadedRole, "offloaded"}, {PinnedRole, "pinned"},
                  {ExpandedRole, "expanded"}, {RecordIdRole, "recordId"}, {TierRole, "tier"},
                  {TokensBeforeRole, "tokensBefore"}, {TokensAfterRole, "tokensAfter"},
                  {AnchorsChangedRole, "anchorsChanged"}, {OffloadCountRole, "offloadCount"}, {SourceAgentRole, "sourceAgent"},
                  {ErrorIdRole, "errorId"}, {RetryableRole, "retryable"}, {ApprovalIdRole, "approvalId"},
                  {DetailIsDiffRole, "detailIsDiff"}, {ApprovalStateRole, "approvalState"},
                  {ProgressRole, "progress"}, {StartedAtRole, "startedAt"}, {DeadlineRole, "deadline"},
                  {SkippableRole, "skippable"}, {RedactedRole, "redacted"},
                  {ResultMessageIdRole, "resultMessageId"}});
    return names;
}

void ConversationModel::applyOutcome(Item &item, const ToolCallOutcome &outcome) const
{
    item.status = outcome.status;
    item.resultLength = outcome.text.size();
    item.text = outcome.text.size() > kResultPreviewChars ? outcome.text.left(kResultPreviewChars) : outcome.text;
    if (outcome.messageId != 0)
        item.resultMessageId = outcome.messageId;
    item.offloaded = outcome.offloaded || outcome.text.startsWith(kOffloadMarker)
        || (item.resultMessageId != 0 && m_offloadedResults.contains(item.resultMessageId));
    item.redacted = Redaction::scrubbedCount(outcome.text);
    if (outcome.durationMs >= 0)
        item.durationMs = outcome.durationMs;
    else if (item.startedAt.isValid())
        item.durationMs = item.startedAt.msecsTo(QDateTime::currentDateTime());
}

ConversationModel::Batch ConversationModel::buildItems(const QList<Message> &messages, bool attachToExisting)
{
    Batch batch;
    batch.items.reserve(size_t(messages.size()));
    QHash<QString, size_t> localCalls;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const Message &message = messages[i];
        auto newItem = [&](ConversationRowKind kind) -> Item & {
            Item &item = batch.items.emplace_back();
            item.kind = kind;
            item.itemId = m_nextItemId++;
            item.messageId = message.id;
            item.timestamp = message.createdAt;
            return item;
        };
        switch (message.role) {
        case wl::Role::System:
            // The system prompt at the very start is configuration, not conversation.
            if (i == 0 && (!attachToExisting || m_items.empty()))
                break;
            newItem(ConversationRowKind::System).text = message.content;
            break;
        case wl::Role::User:
            newItem(message.content.startsWith(kCheckpointMarker) ? ConversationRowKind::System
                                                                  : ConversationRowKind::User)
                .text = message.content;
            break;
        case wl::Role::Assistant:
            if (!message.content.isEmpty() || message.toolCalls.isEmpty())
                newItem(ConversationRowKind::Assistant).text = message.content;
            for (const ToolCall &call : message.toolCalls) {
                Item &card = newItem(ConversationRowKind::ToolCall);
                card.callId = call.id;
                card.toolName = call.name;
                card.arguments = call.arguments;
                localCalls.insert(call.id, batch.items.size() - 1);
            }
            break;
        case wl::Role::Tool: {
            const ToolCallOutcome outcome{message.isError ? ToolCallStatus::Error : ToolCallStatus::Ok,
                                          message.content, -1, false, message.id};
            if (const auto it = localCalls.constFind(message.toolCallId); it != localCalls.cend()) {
                applyOutcome(batch.items[*it], outcome);
                break;
            }
            if (attachToExisting) {
                int row = -1;
                if (Item *existing = itemForCall(message.toolCallId, &row)) {
                    applyOutcome(*existing, outcome);
                    batch.changedRows.append(row);
                    break;
                }
            }
            // A result whose call is not loaded: a card of its own.
            Item &card = newItem(ConversationRowKind::ToolCall);
            card.callId = message.toolCallId;
            card.toolName = tr("(unknown tool)");
            applyOutcome(card, outcome);
            localCalls.insert(message.toolCallId, batch.items.size() - 1);
            break;
        }
        }
    }
    return batch;
}

void ConversationModel::insertItems(int row, std::vector<Item> &&items)
{
    if (items.empty())
        return;
    const int count = int(items.size());
    const bool append = row == itemRowCount();
    beginInsertRows({}, row, row + count - 1);
    m_items.insert(m_items.begin() + row, std::make_move_iterator(items.begin()), std::make_move_iterator(items.end()));
    if (m_streamRow >= row)
        m_streamRow += count;
    if (append) {
        reindexFrom(row);
    } else {
        // Rows moved: rebuild the id -> row maps (linear, and only for prepends). Where an id
        // occurs twice the later row wins.
        m_callRows.clear();
        m_approvalRows.clear();
        m_errorRows.clear();
        reindexFrom(0);
    }
    endInsertRows();
}

void ConversationModel::reindexFrom(int row)
{
    for (int r = row; r < itemRowCount(); ++r) {
        const Item &item = m_items[size_t(r)];
        switch (item.kind) {
        case ConversationRowKind::ToolCall:
            if (!item.callId.isEmpty())
                m_callRows.insert(item.callId, r);
            break;
        case ConversationRowKind::Approval:
            m_approvalRows.insert(item.approvalId, r);
            break;
        case ConversationRowKind::Error:
            if (!item.errorId.isEmpty())
                m_errorRows.insert(item.errorId, r);
            break;
        default:
            break;
        }
    }
}

void ConversationModel::appendMessages(const QList<Message> &messages)
{
    Batch batch = buildItems(messages, true);
    insertItems(itemRowCount(), std::move(batch.items));
    for (int row : std::as_const(batch.changedRows))
        emitRowChanged(row);
}

void ConversationModel::prependMessages(const QList<Message> &messages)
{
    Batch batch = buildItems(messages, false);
    insertItems(0, std::move(batch.items));
}

void ConversationModel::clear()
{
    beginResetModel();
    m_items.clear();
    m_progress.reset();
    m_callRows.clear();
    m_approvalRows.clear();
    m_errorRows.clear();
    m_streamRow = -1;
    endResetModel();
}

void ConversationModel::setTranscript(const QList<Message> &history, const QList<std::pair<qsizetype, CompactionMarker>> &markers)
{
    clear();
    qsizetype cursor = 0;
    for (const auto &[at, marker] : markers) {
        const qsizetype end = std::clamp<qsizetype>(at, cursor, history.size());
        if (end > cursor)
            appendMessages(history.mid(cursor, end - cursor));
        cursor = end;
        addCompactionMarker(marker);
    }
    if (cursor < history.size())
        appendMessages(history.mid(cursor));
}

void ConversationModel::setOffloadedResults(const QSet<qint64> &messageIds)
{
    m_offloadedResults = messageIds;
    for (int row = 0; row < itemRowCount(); ++row) {
        Item &item = m_items[size_t(row)];
        if (item.kind != ConversationRowKind::ToolCall || item.resultMessageId == 0)
            continue;
        const bool offloaded = messageIds.contains(item.resultMessageId) || item.text.startsWith(kOffloadMarker);
        if (item.offloaded != offloaded) {
            item.offloaded = offloaded;
            emitRowChanged(row, {OffloadedRole});
        }
    }
}

void ConversationModel::setPinnedMessages(const QSet<qint64> &messageIds)
{
    if (messageIds == m_pinnedMessages)
        return;
    m_pinnedMessages = messageIds;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0), index(rowCount() - 1), {PinnedRole});
}

void ConversationModel::emitRowChanged(int row, const QList<int> &roles)
{
    const QModelIndex idx = index(row);
    Q_EMIT dataChanged(idx, idx, roles);
}

int ConversationModel::beginAssistantStream()
{
    if (m_streamRow >= 0) {
        Item &open = m_items[size_t(m_streamRow)];
        open.streaming = false;
        emitRowChanged(m_streamRow, {StreamingRole});
    }
    std::vector<Item> items(1);
    Item &item = items.front();
    item.kind = ConversationRowKind::Assistant;
    item.itemId = m_nextItemId++;
    item.streaming = true;
    item.timestamp = QDateTime::currentDateTime();
    const int row = itemRowCount();
    insertItems(row, std::move(items));
    m_streamRow = row;
    return row;
}

void ConversationModel::appendStreamText(const QString &text)
{
    if (m_streamRow < 0 || text.isEmpty())
        return;
    m_items[size_t(m_streamRow)].text += text;
    emitRowChanged(m_streamRow, {Qt::DisplayRole, TextRole});
}

void ConversationModel::removeStreamRow()
{
    const int row = m_streamRow;
    m_streamRow = -1;
    beginRemoveRows({}, row, row);
    m_items.erase(m_items.begin() + row);
    m_callRows.clear();
    m_approvalRows.clear();
    m_errorRows.clear();
    reindexFrom(0);
    endRemoveRows();
}

void ConversationModel::discardAssistantStream()
{
    if (m_streamRow >= 0)
        removeStreamRow();
}

void ConversationModel::finishAssistantStream(const Message &message)
{
    if (m_streamRow < 0) {
        appendMessages({message});
        return;
    }
    const int row = m_streamRow;
    if (message.content.isEmpty() && message.hasToolCalls()) {
        removeStreamRow();
    } else {
        m_streamRow = -1;
        Item &item = m_items[size_t(row)];
        item.text = message.content;
        item.streaming = false;
        item.messageId = message.id;
        if (message.createdAt.isValid())
            item.timestamp = message.createdAt;
        emitRowChanged(row);
    }
    if (message.hasToolCalls()) {
        Message calls = message;
        calls.content.clear();
        appendMessages({calls});
    }
}

ConversationModel::Item *ConversationModel::itemForCall(const QString &callId, int *row)
{
    const auto it = m_callRows.constFind(callId);
    if (it == m_callRows.cend())
        return nullptr;
    *row = *it;
    return &m_items[size_t(*it)];
}

bool ConversationModel::setToolRunning(const QString &callId)
{
    int row = -1;
    Item *item = itemForCall(callId, &row);
    if (!item)
        return false;
    item->status = ToolCallStatus::Running;
    item->startedAt = QDateTime::currentDateTime();
    item->durationMs = -1;
    emitRowChanged(row, {ToolStatusRole, StartedAtRole, ToolDurationRole, Qt::DisplayRole, Qt::ToolTipRole});
    return true;
}

bool ConversationModel::setToolResult(const QString &callId, const ToolCallOutcome &outcome)
{
    int row = -1;
    Item *item = itemForCall(callId, &row);
    if (!item)
        return false;
    applyOutcome(*item, outcome);
    emitRowChanged(row);
    return true;
}

int ConversationModel::addCompactionMarker(const CompactionMarker &marker)
{
    std::vector<Item> items(1);
    Item &item = items.front();
    item.kind = ConversationRowKind::Compaction;
    item.itemId = m_nextItemId++;
    item.marker = marker;
    item.text = marker.summary; // a source agent's summary: readable (and copied) as the row's text
    item.timestamp = QDateTime::currentDateTime();
    const int row = itemRowCount();
    insertItems(row, std::move(items));
    return row;
}

int ConversationModel::addError(const ConversationError &error)
{
    std::vector<Item> items(1);
    Item &item = items.front();
    item.kind = ConversationRowKind::Error;
    item.itemId = m_nextItemId++;
    item.text = error.text;
    item.errorId = error.id;
    item.retryable = error.retryable;
    item.timestamp = QDateTime::currentDateTime();
    const int row = itemRowCount();
    insertItems(row, std::move(items));
    return row;
}

bool ConversationModel::setErrorRetryable(const QString &errorId, bool retryable)
{
    const auto it = m_errorRows.constFind(errorId);
    if (it == m_errorRows.cend())
        return false;
    Item &item = m_items[size_t(*it)];
    if (item.retryable != retryable) {
        item.retryable = retryable;
        emitRowChanged(*it, {RetryableRole});
    }
    return true;
}

int ConversationModel::addApprovalRequest(const ApprovalPrompt &request)
{
    std::vector<Item> items(1);
    Item &item = items.front();
    item.kind = ConversationRowKind::Approval;
    item.itemId = m_nextItemId++;
    item.approvalId = request.id;
    item.toolName = request.tool;
    item.callId = request.callId;
    item.text = request.detail;
    item.detailIsDiff = request.detailIsDiff;
    item.timestamp = QDateTime::currentDateTime();
    const int row = itemRowCount();
    insertItems(row, std::move(items));
    return row;
}

bool ConversationModel::resolveApproval(const QString &approvalId, ApprovalDecision decision)
{
    const auto it = m_approvalRows.constFind(approvalId);
    if (it == m_approvalRows.cend())
        return false;
    Item &item = m_items[size_t(*it)];
    switch (decision) {
    case ApprovalDecision::AllowOnce: item.approvalState = ApprovalState::AllowedOnce; break;
    case ApprovalDecision::AllowForSession: item.approvalState = ApprovalState::AllowedForSession; break;
    case ApprovalDecision::Deny: item.approvalState = ApprovalState::Denied; break;
    }
    emitRowChanged(*it, {ApprovalStateRole, Qt::DisplayRole});
    return true;
}

void ConversationModel::setProgress(const ConversationProgress &progress)
{
    ConversationProgress value = progress;
    if (!value.startedAt.isValid())
        value.startedAt = QDateTime::currentDateTime();
    const int row = itemRowCount();
    if (m_progress) {
        m_progress = value;
        emitRowChanged(row);
        return;
    }
    beginInsertRows({}, row, row);
    m_progress = value;
    m_progressItemId = m_nextItemId++;
    endInsertRows();
    Q_EMIT progressChanged(true);
}

void ConversationModel::clearProgress()
{
    if (!m_progress)
        return;
    const int row = itemRowCount();
    beginRemoveRows({}, row, row);
    m_progress.reset();
    endRemoveRows();
    Q_EMIT progressChanged(false);
}

QModelIndex ConversationModel::progressIndex() const
{
    return m_progress ? index(itemRowCount()) : QModelIndex();
}

QModelIndex ConversationModel::indexForCallId(const QString &callId) const
{
    const auto it = m_callRows.constFind(callId);
    return it == m_callRows.cend() ? QModelIndex() : index(*it);
}

QModelIndex ConversationModel::indexForApproval(const QString &approvalId) const
{
    const auto it = m_approvalRows.constFind(approvalId);
    return it == m_approvalRows.cend() ? QModelIndex() : index(*it);
}

} // namespace wl
