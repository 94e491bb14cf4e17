#pragma once

#include <QList>
#include <QObject>
#include <QString>

namespace wl {

struct Checkpoint;
struct Message;

// An LLM that writes compaction summaries. Asynchronous: summarize() returns at once
// and exactly one of finished()/failed() follows for the request, unless it is cancelled.
// Implementations may answer before summarize() returns; callers must be ready for that.
class Summarizer : public QObject
{
    Q_OBJECT
public:
    explicit Summarizer(QObject *parent = nullptr);
    ~Summarizer() override;

    virtual void summarize(quint64 requestId, const QString &systemPrompt, const QString &userPrompt) = 0;
    // After cancel() no signal is emitted for the request.
    virtual void cancel(quint64 requestId) = 0;
    virtual QString modelName() const { return {}; }

    static quint64 nextRequestId();

    // The two messages of docs/COMPACTION.md section 5.
    static QString systemInstruction();
    // `[tool_result <id>]: ...`, `[<role>]: ...`, then `[tool_call <name>(<id>)]: <arguments>` per call.
    static QString renderConversation(const QList<const Message *> &messages);
    // First compaction when `previous` is null; otherwise the previous anchors and summary
    // travel inside <previous-compaction> ... </previous-compaction> and the answer merges them.
    static QString userPrompt(const QList<const Message *> &messages, const Checkpoint *previous);

Q_SIGNALS:
    void finished(quint64 requestId, const QString &text);
    void failed(quint64 requestId, const QString &error);
};

} // namespace wl
