#include "ChatClientSummarizer.h"

#include "LoggingCategories.h"
#include "llm/ChatClient.h"

#include <QCoreApplication>

namespace wl {

ChatClientSummarizer::ChatClientSummarizer(ChatClient *client, const QString &model, QObject *parent)
    : Summarizer(parent)
    , m_client(client)
    , m_model(model)
{
    if (m_client) {
        connect(m_client, &ChatClient::finished, this, &ChatClientSummarizer::onFinished);
        connect(m_client, &ChatClient::failed, this, &ChatClientSummarizer::onFailed);
    }
}

ChatClientSummarizer::~ChatClientSummarizer()
{
    if (m_current != 0 && m_client)
        m_client->cancel();
}

void ChatClientSummarizer::summarize(quint64 requestId, const QString &systemPrompt, const QString &userPrompt)
{
    if (!m_client) {
        Q_EMIT failed(requestId, QCoreApplication::translate("wl::ChatClientSummarizer", "no LLM client"));
        return;
    }
    m_current = requestId;
    qCDebug(lcAgent) << "summary request" << requestId << "to model" << m_model;
    m_client->send(request(m_model, m_maxOutputTokens, systemPrompt, userPrompt));
}

ChatRequest ChatClientSummarizer::request(const QString &model, int maxOutputTokens, const QString &systemPrompt,
                                          const QString &userPrompt)
{
    ChatRequest r;
    r.messages = {Message::system(systemPrompt), Message::user(userPrompt)};
    r.model = model;
    r.maxOutputTokens = maxOutputTokens;
    r.promptCaching = false;
    return r;
}

void ChatClientSummarizer::cancel(quint64 requestId)
{
    if (requestId == 0 || requestId != m_current)
        return;
    m_current = 0;
    if (m_client)
        m_client->cancel();
}

void ChatClientSummarizer::onFinished(const Message &assistant, const ChatUsage &, const QString &finishReason)
{
    if (m_current == 0)
        return;
    const quint64 id = m_current;
    m_current = 0;
    // A summary cut off by the output limit lacks its end (often the whole Summary section): a
    // failure for the fallback chain, not a checkpoint.
    if (finishReason == u"length") {
        Q_EMIT failed(id, QCoreApplication::translate("wl::ChatClientSummarizer",
                                                      "the answer was cut off at the output limit (finish reason: length)"));
        return;
    }
    Q_EMIT finished(id, assistant.content);
}

void ChatClientSummarizer::onFailed(const ChatError &error)
{
    if (m_current == 0)
        return;
    const quint64 id = m_current;
    m_current = 0;
    Q_EMIT failed(id, error.displayText());
}

} // namespace wl
