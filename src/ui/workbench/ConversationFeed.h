#pragma once

#include "compaction/Tier.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

namespace wl {

class AgentRun;
class ConversationModel;
class ConversationView;
struct ApprovalRequest;
struct CompactionRecord;
struct Message;
struct ToolCall;
struct ToolResult;

// Turns one agent run's signals into conversation rows: the streamed answer, tool cards and
// their results, approval prompts (and the decisions taken on them in the view), compaction
// progress and markers, retry countdowns, and the error rows of a stop or failure.
// It knows nothing of providers or the prompt box (AgentController and ProviderConnection do).
class ConversationFeed : public QObject
{
    Q_OBJECT
public:
    ConversationFeed(ConversationModel *model, ConversationView *view, QObject *parent = nullptr);

    // Follows `run` (null: none) from now; the rows already in the model stay.
    void follow(AgentRun *run);
    // A prompt is about to be sent: a new answer starts.
    void beginTurn();
    // Set once a command of the run went unsandboxed: what the status bar says about it.
    QString unsandboxedNote() const { return m_unsandboxedNote; }
    void clearNotes();

Q_SIGNALS:
    void notice(const QString &text);
    void unsandboxedChanged();
    // A message was shown: the gauge counts it.
    void messageShown();
    // A request or compaction was stored or undone: the docks read the store again.
    void dataChanged();

private:
    void onTextDelta(const QString &text);
    void onMessageStored(const wl::Message &message);
    void onApprovalRequested(const wl::ApprovalRequest &request);
    void onToolFinished(const wl::ToolCall &call, const wl::ToolResult &result, qint64 durationMs);
    void onCompactionStarted(wl::Tier tier, int messages, const QDateTime &started);
    void onCompactionRecorded(const wl::CompactionRecord &record);
    void onRetrying(int attempt, int delayMs, const QString &error);
    void onStateChanged();
    void onStopped();
    void onFailed(const QString &text);
    void endStream();
    void addErrorRow(const QString &text);

    ConversationModel *m_model;
    QPointer<AgentRun> m_run;
    QString m_streamText;                     // the text of the stream in flight, for a stop or failure
    QSet<QString> m_deniedCalls;
    QHash<QString, QString> m_approvalIds;    // call id -> approval row id
    QString m_unsandboxedNote;
    int m_errorCount = 0;
};

} // namespace wl
