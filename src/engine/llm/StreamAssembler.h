#pragma once

#include "ChatError.h"
#include "ChatUsage.h"
#include "model/Message.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

class QJsonObject;

namespace wl {

struct SseEvent;

// Turns one provider's stream of events into deltas (through the callbacks)
// and, at the end, the assistant message, usage and finish reason. Pure: no
// network, so captured streams can be checked byte for byte.
//
// Tool calls are numbered 0, 1, ... in the order they start in the reply,
// whatever index the provider used.
class StreamAssembler
{
public:
    struct Callbacks
    {
        std::function<void(const QString &)> text;
        std::function<void(const QString &)> thinking;
        std::function<void(int index, const QString &id, const QString &name)> toolCallStarted;
        std::function<void(int index, const QString &argumentsDelta)> toolCallArguments;
    };

    virtual ~StreamAssembler();

    void setCallbacks(Callbacks callbacks) { m_callbacks = std::move(callbacks); }

    // One SSE event from the stream.
    virtual void handleEvent(const SseEvent &event) = 0;
    // A whole (non-streamed) JSON reply: some servers ignore `stream: true`.
    virtual void handleWholeResponse(const QJsonObject &response) = 0;

    // The stream ended (EOF). True when the reply arrived complete; false
    // sets error() unless an error was already set.
    bool endOfStream();

    bool hasError() const { return m_error.has_value(); }
    ChatError error() const { return m_error.value_or(ChatError{}); }
    // True once any callback fired: from then on a retry would repeat output.
    bool deliveredContent() const { return m_delivered; }

    // The assembled assistant message: text and tool calls (empty arguments
    // become "{}"; arguments that are not a JSON object are kept as sent and
    // flagged argumentsValid = false).
    Message message() const;
    QString thinking() const { return m_thinking; }
    ChatUsage usage() const { return m_usage; }
    // Normalised to the OpenAI vocabulary: "stop", "length", "tool_calls",
    // "content_filter"; any other provider value is passed through.
    QString finishReason() const;
    QString rawFinishReason() const { return m_finishReason; }

protected:
    struct Call
    {
        QString id;
        QString name;
        QString arguments;
    };

    virtual bool isComplete() const = 0;

    void emitText(const QString &text);
    void emitThinking(const QString &text);
    int startCall(const QString &id, const QString &name);
    void appendArguments(int call, const QString &delta);
    void fail(const ChatError &error);
    static QString newCallId();

    Callbacks m_callbacks;
    QString m_text;
    QString m_thinking;
    QList<Call> m_calls;
    ChatUsage m_usage;
    QString m_finishReason;
    std::optional<ChatError> m_error;
    bool m_delivered = false;
};

// OpenAI Chat Completions chunks (`chat.completion.chunk`), as sent by OpenAI
// and by OpenAI-compatible servers (Ollama /v1, llama.cpp, vLLM, LM Studio,
// OpenRouter). Tolerates: no usage chunk, usage on the finish chunk, no
// `[DONE]` (complete after a finish_reason), arguments sent whole or in
// pieces, ids and names repeated or missing on later deltas, reasoning in
// `reasoning_content` or `reasoning`, refusals (kept as text). Only choice 0
// is assembled.
class OpenAiStreamAssembler : public StreamAssembler
{
public:
    void handleEvent(const SseEvent &event) override;
    void handleWholeResponse(const QJsonObject &response) override;

protected:
    bool isComplete() const override { return m_done || !m_finishReason.isEmpty(); }

private:
    void handleChunk(const QJsonObject &chunk, bool whole);
    void handleDelta(const QJsonObject &delta);
    void handleToolCallDelta(const QJsonObject &toolCall);
    void readUsage(const QJsonObject &usage);

    QList<int> m_callForIndex; // provider index -> our call, -1 when none
    bool m_done = false;
};

// Anthropic Messages stream: message_start, content_block_start/delta/stop
// (text_delta, input_json_delta, thinking_delta, signature_delta),
// message_delta, message_stop, ping, error. Unknown events and block types
// are ignored, as the API's versioning policy asks.
class AnthropicStreamAssembler : public StreamAssembler
{
public:
    void handleEvent(const SseEvent &event) override;
    void handleWholeResponse(const QJsonObject &response) override;

protected:
    bool isComplete() const override { return m_done; }

private:
    enum class BlockKind { Other, Text, Thinking, ToolUse };
    struct Block
    {
        BlockKind kind = BlockKind::Other;
        int call = -1;
        QString initialInput; // content_block.input when not empty
    };

    void handleObject(const QJsonObject &object);
    void readUsage(const QJsonObject &usage);
    void blockStart(int index, const QJsonObject &block);

    QList<Block> m_blocks;
    QString m_signature;
    qint64 m_rawInput = 0, m_cacheRead = 0, m_cacheWrite = 0;
    bool m_done = false;
};

} // namespace wl
