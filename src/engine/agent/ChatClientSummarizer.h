#pragma once

#include "compaction/Summarizer.h"

#include <QPointer>

namespace wl {

class ChatClient;
struct ChatError;
struct ChatRequest;
struct ChatUsage;
struct Message;

// A Summarizer that asks an LLM through a ChatClient: the two messages of docs/COMPACTION.md section 5,
// no tools. The client may be shared with the agent loop (the loop never sends while a
// preflight waits for a summary): this adapter only reacts to the client's signals while
// one of its own requests is in flight.
class ChatClientSummarizer : public Summarizer
{
    Q_OBJECT
public:
    // `client` is not owned and must outlive the summariser's requests.
    ChatClientSummarizer(ChatClient *client, const QString &model, QObject *parent = nullptr);
    ~ChatClientSummarizer() override;

    void setMaxOutputTokens(int tokens) { m_maxOutputTokens = tokens; }

    void summarize(quint64 requestId, const QString &systemPrompt, const QString &userPrompt) override;
    void cancel(quint64 requestId) override;
    QString modelName() const override { return m_model; }

    // What summarize() sends: the system and user messages, no tools, no prompt caching.
    static ChatRequest request(const QString &model, int maxOutputTokens, const QString &systemPrompt,
                               const QString &userPrompt);

private:
    void onFinished(const wl::Message &assistant, const wl::ChatUsage &usage, const QString &finishReason);
    void onFailed(const wl::ChatError &error);

    QPointer<ChatClient> m_client;
    QString m_model;
    int m_maxOutputTokens = 4096;
    quint64 m_current = 0;   // the request in flight, 0 for none
};

} // namespace wl
