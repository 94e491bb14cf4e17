#include "CodexImporter.h"

#include "ImportContext.h"
#include "ImportTitle.h"
#include "model/MessageCodec.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <optional>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Rollout lines hold Responses API items, one item per line. An assistant turn is the run
// of items one model response produced (text, function calls); it ends at a tool output,
// a user message, the next response's reasoning item, or the response's token_count event.
class CodexReader
{
public:
    explicit CodexReader(ImportContext &context) : m_context(context) {}

    bool record(const QByteArray &line, qint64 lineNumber)
    {
        QJsonObject record;
        if (!m_context.parseObjectLine(line, lineNumber, &record))
            return true;
        const QJsonValue typeValue = record.value("type"_L1);
        if (!typeValue.isString()) {
            m_context.skipRecord(lineNumber, u"type"_s, QCoreApplication::translate("TranscriptImport", "missing or not a string (%1)").arg(ImportJson::typeName(typeValue)));
            return true;
        }
        const QString type = typeValue.toString();
        const QJsonValue payloadValue = record.value("payload"_L1);
        if (!payloadValue.isObject()) {
            m_context.skipRecord(lineNumber, u"payload"_s, QCoreApplication::translate("TranscriptImport", "expected an object, got %1").arg(ImportJson::typeName(payloadValue)));
            return true;
        }
        const QJsonObject payload = payloadValue.toObject();
        m_timestamp = ImportJson::timestamp(record.value("timestamp"_L1));
        m_context.setRecordTime(m_timestamp);
        if (type == "response_item"_L1) {
            m_context.countRecord(type);
            return responseItem(payload, lineNumber);
        }
        if (type == "event_msg"_L1) {
            m_context.countRecord(type);
            return event(payload, lineNumber);
        }
        if (type == "session_meta"_L1) {
            m_context.countRecord(type);
            const QString instructions = payload.value("base_instructions"_L1).toObject().value("text"_L1).toString();
            if (!instructions.isEmpty() && m_context.messageCount() == 0 && !m_pending)
                return m_context.addMessage(Message::system(instructions)) >= 0;
            return true;
        }
        if (type == "turn_context"_L1) {
            m_context.countRecord(type);
            if (payload.value("model"_L1).isString()) {
                m_model = payload.value("model"_L1).toString();
                if (m_context.session().model.isEmpty())
                    m_context.session().model = m_model;
            }
            return true;
        }
        if (type == "compacted"_L1) {
            m_context.countRecord(type);
            if (!flush())
                return false;
            ExternalCompaction compaction;
            compaction.messageIndex = m_context.messageCount();
            compaction.tokensBefore = m_lastContextTokens;
            compaction.summary = payload.value("message"_L1).toString();
            compaction.kind = u"compacted"_s;
            compaction.timestamp = m_timestamp;
            // From here on Codex sent the history that replaced the old one: newer rollouts carry
            // it (replacement_history); its compaction items (often only encrypted_content) become
            // messages here, what it repeats of earlier messages is sent instead of them. An older
            // line carries only the summary, which Codex sent after the user's messages.
            compaction.effect = ExternalCompaction::Effect::ReplacesHistory;
            const QJsonValue replacement = payload.value("replacement_history"_L1);
            if (!replacement.isArray()) {
                compaction.sentInstead = compaction.summary;
                m_context.addCompaction(compaction);
                return true;
            }
            QList<QJsonObject> summaries;
            for (const QJsonValue &value : replacement.toArray()) {
                const QJsonObject item = value.toObject();
                const QString itemType = item.value("type"_L1).toString();
                if (itemType == "compaction"_L1 || itemType == "compaction_summary"_L1) {
                    summaries.append(item);
                } else if (itemType == "message"_L1) {
                    const QString text = ImportJson::contentText(item.value("content"_L1));
                    if (!text.isEmpty())
                        compaction.sentInstead += (compaction.sentInstead.isEmpty() ? QString() : u"\n"_s) + text;
                }
            }
            if (summaries.isEmpty() && !compaction.summary.isEmpty())
                compaction.sentInstead += (compaction.sentInstead.isEmpty() ? QString() : u"\n"_s) + compaction.summary;
            m_context.addCompaction(compaction);
            for (const QJsonObject &item : std::as_const(summaries)) {
                if (!summaryMessage(item, !compaction.summary.isEmpty()))
                    return false;
            }
            return true;
        }
        m_context.skipRecord(lineNumber, u"type"_s, QCoreApplication::translate("TranscriptImport", "unknown record kind '%1'").arg(type));
        return true;
    }

    bool finish()
    {
        if (!flush())
            return false;
        if (m_context.session().title.isEmpty())
            m_context.offerTitle(m_fallbackTitle);
        return true;
    }

private:
    Message &pending()
    {
        if (!m_pending) {
            m_pending = Message::assistant(QString());
            m_pendingTimestamp = m_timestamp;
            m_pending->createdAt = m_timestamp;
        }
        m_userSinceModel = false;
        return *m_pending;
    }

    bool flush()
    {
        if (!m_pending)
            return true;
        const int index = m_context.addMessage(std::move(*m_pending));
        m_pending.reset();
        if (index < 0)
            return false;
        ImportedRequest request;
        request.messageIndex = index;
        request.model = m_model;
        request.timestamp = m_pendingTimestamp;
        m_context.addRequest(request);
        return true;
    }

    bool responseItem(const QJsonObject &item, qint64 lineNumber)
    {
        const QString type = item.value("type"_L1).toString();
        if (type == "message"_L1) {
            const QString role = item.value("role"_L1).toString();
            const QJsonValue content = item.value("content"_L1);
            if (!content.isArray() && !content.isString()) {
                m_context.skipRecord(lineNumber, u"payload.content"_s, QCoreApplication::translate("TranscriptImport", "expected an array, got %1").arg(ImportJson::typeName(content)));
                return true;
            }
            const QString text = ImportJson::contentText(content);
            if (role == "assistant"_L1) {
                Message &m = pending();
                if (!m.content.isEmpty())
                    m.content += u'\n';
                m.content += text;
                return true;
            }
            if (role == "user"_L1 || role == "developer"_L1 || role == "system"_L1) {
                if (!flush())
                    return false;
                if (role == "user"_L1) {
                    m_userSinceModel = true;
                    if (m_fallbackTitle.isEmpty())
                        m_fallbackTitle = ImportTitle::fromUserText(text);
                }
                return m_context.addMessage(role == "user"_L1 ? Message::user(text) : Message::system(text)) >= 0;
            }
            m_context.skipRecord(lineNumber, u"payload.role"_s, QCoreApplication::translate("TranscriptImport", "unknown role '%1'").arg(role));
            return true;
        }
        if (type == "function_call"_L1 || type == "custom_tool_call"_L1 || type == "local_shell_call"_L1) {
            const QJsonValue callId = item.value("call_id"_L1);
            if (!callId.isString()) {
                m_context.skipRecord(lineNumber, u"payload.call_id"_s, QCoreApplication::translate("TranscriptImport", "missing or not a string"));
                return true;
            }
            ToolCall call;
            call.id = callId.toString();
            if (type == "function_call"_L1) {
                call.name = item.value("name"_L1).toString();
                call.arguments = ImportJson::compact(item.value("arguments"_L1));
                call.argumentsValid = MessageCodec::argumentsAreValid(call.arguments);
            } else if (type == "custom_tool_call"_L1) {
                // Free-form tools (apply_patch) take raw text, kept as sent.
                call.name = item.value("name"_L1).toString();
                call.arguments = item.value("input"_L1).toString();
                call.argumentsValid = false;
            } else {
                call.name = u"local_shell"_s;
                call.arguments = ImportJson::compact(item.value("action"_L1));
                call.argumentsValid = item.value("action"_L1).isObject();
            }
            pending().toolCalls.append(call);
            return true;
        }
        if (type == "function_call_output"_L1 || type == "custom_tool_call_output"_L1 || type == "local_shell_call_output"_L1) {
            const QJsonValue callId = item.value("call_id"_L1);
            if (!callId.isString()) {
                m_context.skipRecord(lineNumber, u"payload.call_id"_s, QCoreApplication::translate("TranscriptImport", "missing or not a string"));
                return true;
            }
            if (!flush())
                return false;
            const QJsonValue output = item.value("output"_L1);
            QString text;
            if (output.isString())
                text = output.toString();
            else if (output.isArray())
                text = ImportJson::contentText(output);
            else if (output.isObject() && output.toObject().value("content"_L1).isString())
                text = output.toObject().value("content"_L1).toString();
            else
                text = ImportJson::compact(output);
            return m_context.addMessage(Message::toolResult(callId.toString(), text)) >= 0;
        }
        if (type == "reasoning"_L1) {
            // Opaque (encrypted); it opens a new model response.
            if (!flush())
                return false;
            m_userSinceModel = false;
            m_context.ignoreRecord(u"reasoning"_s);
            return true;
        }
        if (type == "compaction"_L1 || type == "compaction_summary"_L1)
            return compactionItem(item, type);
        if (type == "web_search_call"_L1 || type == "ghost_snapshot"_L1 || type == "image_generation_call"_L1) {
            m_context.ignoreRecord(type);
            return true;
        }
        m_context.skipRecord(lineNumber, u"payload.type"_s, QCoreApplication::translate("TranscriptImport", "unknown response item '%1'").arg(type));
        return true;
    }

    // A compaction the provider did: its summary may be readable text or an opaque blob
    // (encrypted_content) that only the provider can read. Either way it stands in the history
    // where the model saw it; an opaque one as a message saying what it was and how big.
    bool compactionItem(const QJsonObject &item, const QString &type)
    {
        if (!flush())
            return false;
        ExternalCompaction compaction;
        compaction.messageIndex = m_context.messageCount();
        compaction.tokensBefore = m_lastContextTokens;
        compaction.kind = type;
        compaction.timestamp = m_timestamp;
        compaction.summary = readableSummary(item);
        m_context.addCompaction(compaction);
        return summaryMessage(item, false);
    }

    static QString readableSummary(const QJsonObject &item)
    {
        const QJsonValue summary = item.value("summary"_L1);
        return summary.isString() ? summary.toString() : ImportJson::contentText(summary);
    }

    // The message a compaction item stands for in the history: its readable summary and, for
    // an encrypted one, what it is and how big. An item with neither is noted unless `quietIfEmpty`.
    bool summaryMessage(const QJsonObject &item, bool quietIfEmpty)
    {
        QString text = readableSummary(item);
        const QJsonValue encrypted = item.value("encrypted_content"_L1);
        if (encrypted.isString() && !encrypted.toString().isEmpty()) {
            // Not translated: this text is part of the history a replay sends to a model.
            const QString opaque = u"[compaction summary: encrypted by the provider, %1 bytes, not readable here]"_s
                                       .arg(encrypted.toString().toUtf8().size());
            text = text.isEmpty() ? opaque : text + u"\n"_s + opaque;
        }
        if (text.isEmpty()) {
            if (!quietIfEmpty)
                m_context.note(m_context.messageCount(), QCoreApplication::translate("TranscriptImport", "a compaction item with no summary"));
            return true;
        }
        return m_context.addMessage(Message::user(text)) >= 0;
    }

    bool event(const QJsonObject &payload, qint64 lineNumber)
    {
        const QString type = payload.value("type"_L1).toString();
        if (type == "token_count"_L1) {
            const QJsonObject info = payload.value("info"_L1).toObject();
            if (m_context.session().contextWindow <= 0 && info.contains("model_context_window"_L1))
                readWindow(info.value("model_context_window"_L1), lineNumber);
            const QJsonObject last = info.value("last_token_usage"_L1).toObject();
            if (last.isEmpty())
                return true;
            if (!flush())
                return false;
            auto &requests = m_context.session().requests;
            if (requests.isEmpty() || requests.last().usage.isKnown())
                return true; // repeated event for the same response
            TokenUsage &u = requests.last().usage;
            u.input = m_context.count(last.value("input_tokens"_L1), lineNumber, u"payload.info.last_token_usage.input_tokens"_s);
            u.output = m_context.count(last.value("output_tokens"_L1), lineNumber, u"payload.info.last_token_usage.output_tokens"_s);
            u.cacheRead = m_context.count(last.value("cached_input_tokens"_L1), lineNumber, u"payload.info.last_token_usage.cached_input_tokens"_s);
            u.context = u.input;
            m_lastContextTokens = u.input;
            return true;
        }
        if (type == "user_message"_L1) {
            const QString text = payload.value("message"_L1).toString();
            m_context.offerTitle(text);
            if (m_userSinceModel)
                return true; // the response_item user message already holds it
            // Trimmed rollouts keep user turns only as events.
            if (!flush())
                return false;
            m_userSinceModel = true;
            return m_context.addMessage(Message::user(text)) >= 0;
        }
        m_context.ignoreRecord(u"event_msg/"_s + type);
        return true;
    }

    // The window Codex measured the session against: a whole number of tokens in a plausible
    // range, else noted and left out (the window then comes from the model).
    void readWindow(const QJsonValue &value, qint64 lineNumber)
    {
        const qint64 window = m_context.count(value, lineNumber, u"payload.info.model_context_window"_s);
        if (window >= kMinWindow && window <= kMaxWindow) {
            m_context.session().contextWindow = window;
            m_context.session().windowField = u"model_context_window"_s;
        } else if (window >= 0) {
            m_context.note(m_context.messageCount(), QCoreApplication::translate("TranscriptImport", "%1: model_context_window %2 is not a plausible window (%3 to %4 tokens): not used")
                                                         .arg(m_context.location(lineNumber)).arg(window).arg(kMinWindow).arg(kMaxWindow));
        }
    }
    static constexpr qint64 kMinWindow = 1024;
    static constexpr qint64 kMaxWindow = 100'000'000;

    ImportContext &m_context;
    std::optional<Message> m_pending;
    QDateTime m_pendingTimestamp;
    QDateTime m_timestamp;
    QString m_model;
    QString m_fallbackTitle;
    qint64 m_lastContextTokens = -1;
    bool m_userSinceModel = false;
};

} // namespace

CodexImporter::CodexImporter()
    : TranscriptImporter(u"codex"_s, QT_TRANSLATE_NOOP("TranscriptImport", "OpenAI Codex CLI rollout"))
{
}

int CodexImporter::canRead(const TranscriptSample &sample) const
{
    const QJsonObject &r = sample.firstRecord;
    if (r.isEmpty()) {
        if (sample.firstChar == '{' && sample.head.contains("\"type\":\"session_meta\"") && sample.head.contains("\"payload\""))
            return 70;
        return 0;
    }
    const QString type = r.value("type"_L1).toString();
    if (!r.value("payload"_L1).isObject())
        return 0;
    if (type == "session_meta"_L1)
        return 95;
    if (type == "response_item"_L1 || type == "event_msg"_L1 || type == "turn_context"_L1 || type == "compacted"_L1)
        return 85;
    return 0;
}

bool CodexImporter::read(ImportContext &context) const
{
    CodexReader reader(context);
    return context.readRecords(reader);
}

} // namespace wl
