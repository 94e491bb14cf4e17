#include "OpenHandsImporter.h"

#include "EventFolder.h"
#include "ImportContext.h"
#include "model/MessageCodec.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// `field` names the usage object in problems; a number out of range reads as not reported.
TokenUsage chatUsage(ImportContext &context, const QJsonObject &usage, const QString &field)
{
    TokenUsage u;
    u.input = context.count(usage.value("prompt_tokens"_L1), 0, field + u".prompt_tokens"_s);
    u.output = context.count(usage.value("completion_tokens"_L1), 0, field + u".completion_tokens"_s);
    u.cacheRead = context.count(usage.value("prompt_tokens_details"_L1).toObject().value("cached_tokens"_L1), 0,
                                field + u".prompt_tokens_details.cached_tokens"_s);
    u.context = u.input;
    return u;
}

QList<ToolCall> chatToolCalls(const QJsonArray &calls)
{
    QList<ToolCall> out;
    for (const QJsonValue &value : calls) {
        const QJsonObject c = value.toObject();
        const QJsonObject function = c.value("function"_L1).toObject();
        ToolCall call;
        call.id = c.value("id"_L1).toString();
        call.name = function.value("name"_L1).toString();
        call.arguments = ImportJson::compact(function.value("arguments"_L1));
        call.argumentsValid = MessageCodec::argumentsAreValid(call.arguments);
        out.append(call);
    }
    return out;
}

// An assistant turn that may still grow (parallel calls arrive as separate events), with
// the results that arrived meanwhile waiting behind it.
class PendingTurn
{
public:
    explicit PendingTurn(ImportContext &context) : m_context(context) {}

    bool open(const QString &responseId) const { return m_message && !responseId.isEmpty() && responseId == m_request.responseId; }
    bool has() const { return m_message.has_value(); }
    Message &message() { return *m_message; }
    ImportedRequest &request() { return m_request; }

    bool start(Message &&message, const ImportedRequest &request)
    {
        if (!flush())
            return false;
        m_message = std::move(message);
        m_request = request;
        if (!m_message->createdAt.isValid())
            m_message->createdAt = request.timestamp.isValid() ? request.timestamp : m_context.recordTime();
        return true;
    }

    bool addResult(Message &&result)
    {
        if (m_message) {
            if (!result.createdAt.isValid())
                result.createdAt = m_context.recordTime(); // it waits behind the turn
            m_waiting.append(std::move(result));
            return true;
        }
        return m_context.addMessage(std::move(result)) >= 0;
    }

    bool flush()
    {
        if (m_message) {
            const int index = m_context.addMessage(std::move(*m_message));
            m_message.reset();
            if (index < 0)
                return false;
            m_request.messageIndex = index;
            m_context.addRequest(m_request);
        }
        for (Message &m : m_waiting) {
            if (m_context.addMessage(std::move(m)) < 0)
                return false;
        }
        m_waiting.clear();
        return true;
    }

private:
    ImportContext &m_context;
    std::optional<Message> m_message;
    ImportedRequest m_request;
    QList<Message> m_waiting;
};

// V0 events (evaluation output history and trajectory export): actions and observations.
class V0Events
{
public:
    explicit V0Events(ImportContext &context) : m_context(context), m_turn(context) {}

    bool event(const QJsonObject &e, const QString &field, const std::function<void(const QString &, const QString &)> &skip)
    {
        m_context.setRecordTime(ImportJson::timestamp(e.value("timestamp"_L1)));
        if (e.contains("action"_L1))
            return action(e, field, skip);
        if (e.contains("observation"_L1))
            return observation(e);
        skip(field, QCoreApplication::translate("TranscriptImport", "neither an action nor an observation"));
        return true;
    }

    bool finish() { return m_turn.flush(); }

    // Per-call cache figures from metrics.token_usages, matched by response id.
    void applyMetrics(const QJsonObject &metrics)
    {
        QHash<QString, QJsonObject> byResponse;
        for (const QJsonValue &v : metrics.value("token_usages"_L1).toArray())
            byResponse.insert(v.toObject().value("response_id"_L1).toString(), v.toObject());
        for (ImportedRequest &r : m_context.session().requests) {
            const auto it = byResponse.constFind(r.responseId);
            if (r.responseId.isEmpty() || it == byResponse.cend())
                continue;
            const QString field = u"metrics.token_usages[%1]."_s.arg(r.responseId);
            r.usage.cacheRead = m_context.count(it->value("cache_read_tokens"_L1), 0, field + u"cache_read_tokens"_s);
            r.usage.cacheWrite = m_context.count(it->value("cache_write_tokens"_L1), 0, field + u"cache_write_tokens"_s);
            if (r.usage.input < 0) {
                r.usage.input = m_context.count(it->value("prompt_tokens"_L1), 0, field + u"prompt_tokens"_s);
                r.usage.output = m_context.count(it->value("completion_tokens"_L1), 0, field + u"completion_tokens"_s);
                r.usage.context = r.usage.input;
            }
        }
        const QJsonObject total = metrics.value("accumulated_token_usage"_L1).toObject();
        if (!total.isEmpty()) {
            TokenUsage &u = m_context.session().totalUsage;
            const QString field = u"metrics.accumulated_token_usage."_s;
            u.input = m_context.count(total.value("prompt_tokens"_L1), 0, field + u"prompt_tokens"_s);
            u.output = m_context.count(total.value("completion_tokens"_L1), 0, field + u"completion_tokens"_s);
            u.cacheRead = m_context.count(total.value("cache_read_tokens"_L1), 0, field + u"cache_read_tokens"_s);
            u.cacheWrite = m_context.count(total.value("cache_write_tokens"_L1), 0, field + u"cache_write_tokens"_s);
        }
    }

private:
    bool action(const QJsonObject &e, const QString &field, const std::function<void(const QString &, const QString &)> &skip)
    {
        const QString kind = e.value("action"_L1).toString();
        const QJsonValue argsValue = e.value("args"_L1);
        if (!argsValue.isObject() && !argsValue.isUndefined()) {
            skip(field + u".args"_s, QCoreApplication::translate("TranscriptImport", "expected an object, got %1").arg(ImportJson::typeName(argsValue)));
            return true;
        }
        // The older resolver output writes the arguments into the event itself and no source.
        const QJsonObject args = argsValue.isObject() ? argsValue.toObject() : inlineArguments(e);
        const QString source = e.contains("source"_L1) ? e.value("source"_L1).toString() : inferredSource(kind);
        m_context.countRecord(u"action/"_s + kind);
        const QJsonObject meta = e.value("tool_call_metadata"_L1).toObject();
        if (!meta.isEmpty())
            return toolCall(e, kind, args, meta);
        if (kind == "system"_L1) {
            for (const QJsonValue &tool : args.value("tools"_L1).toArray()) {
                if (auto spec = MessageCodec::toolSpecFromJson(tool.toObject()))
                    m_context.session().tools.append(*spec);
            }
            return m_turn.flush() && m_context.addMessage(Message::system(args.value("content"_L1).toString())) >= 0;
        }
        if (kind == "message"_L1) {
            const QString text = args.value("content"_L1).toString();
            if (source == "user"_L1) {
                m_context.offerTitle(text);
                return m_turn.flush() && m_context.addMessage(Message::user(text)) >= 0;
            }
            ImportedRequest request;
            request.timestamp = ImportJson::timestamp(e.value("timestamp"_L1));
            return m_turn.start(Message::assistant(text), request) && m_turn.flush();
        }
        if (source == "agent"_L1 && isToolAction(kind))
            return positionalCall(e, kind, args);
        if (kind == "condensation"_L1) {
            if (!m_turn.flush())
                return false;
            ExternalCompaction compaction;
            compaction.messageIndex = m_context.messageCount();
            compaction.summary = args.value("summary"_L1).toString();
            compaction.kind = u"condensation"_s;
            compaction.timestamp = ImportJson::timestamp(e.value("timestamp"_L1));
            const auto &requests = m_context.session().requests;
            if (!requests.isEmpty())
                compaction.tokensBefore = requests.last().usage.context;
            m_context.addCompaction(compaction);
            return true;
        }
        m_context.ignoreRecord(u"action/"_s + kind);
        return true;
    }

    bool toolCall(const QJsonObject &e, const QString &kind, const QJsonObject &args, const QJsonObject &meta)
    {
        const QJsonObject response = meta.value("model_response"_L1).toObject();
        const QString responseId = response.value("id"_L1).toString();
        const QString callId = meta.value("tool_call_id"_L1).toString();
        if (m_turn.open(responseId) || (!responseId.isEmpty() && m_seenResponses.contains(responseId))) {
            // A further call of a response already imported: its calls came with the response.
            if (m_turn.open(responseId) && !callId.isEmpty()) {
                bool present = false;
                for (const ToolCall &c : std::as_const(m_turn.message().toolCalls))
                    present = present || c.id == callId;
                if (!present)
                    m_turn.message().toolCalls.append(fallbackCall(kind, args, meta));
            }
            return true;
        }
        const QJsonObject choice = response.value("choices"_L1).toArray().at(0).toObject().value("message"_L1).toObject();
        Message message = Message::assistant(ImportJson::contentText(choice.value("content"_L1)),
                                             chatToolCalls(choice.value("tool_calls"_L1).toArray()));
        bool present = false;
        for (const ToolCall &c : std::as_const(message.toolCalls))
            present = present || c.id == callId;
        if (!present)
            message.toolCalls.append(fallbackCall(kind, args, meta));
        ImportedRequest request;
        request.model = response.value("model"_L1).toString();
        request.responseId = responseId;
        request.usage = chatUsage(m_context, response.value("usage"_L1).toObject(), u"tool_call_metadata.model_response.usage"_s);
        request.timestamp = ImportJson::timestamp(e.value("timestamp"_L1));
        if (!responseId.isEmpty())
            m_seenResponses.insert(responseId);
        return m_turn.start(std::move(message), request);
    }

    // An event without `args` (older resolver output): its own fields are the arguments.
    static QJsonObject inlineArguments(const QJsonObject &e)
    {
        static const QLatin1StringView envelope[] = {"action"_L1, "observation"_L1, "source"_L1, "id"_L1, "timestamp"_L1,
                                                     "message"_L1, "cause"_L1, "tool_call_metadata"_L1, "llm_metrics"_L1,
                                                     "security_risk"_L1, "is_confirmed"_L1, "confirmation_state"_L1};
        QJsonObject args = e;
        for (QLatin1StringView key : envelope)
            args.remove(key);
        return args;
    }

    // An event without a source (older resolver output): the first message is the user's task,
    // every later action the agent's.
    QString inferredSource(const QString &kind) const
    {
        if (!m_notedSourceless) {
            m_notedSourceless = true;
            m_context.note(m_context.messageCount(), QCoreApplication::translate("TranscriptImport", "events carry no source: the first message is read as the user's, every other action as the agent's"));
        }
        if (kind == "message"_L1 && !m_userSeen) {
            m_userSeen = true;
            return u"user"_s;
        }
        return u"agent"_s;
    }

    // Agent actions that run a tool; the rest (messages, state changes, recalls) are not calls.
    static bool isToolAction(const QString &kind)
    {
        static const QLatin1StringView notTools[] = {"message"_L1, "system"_L1, "condensation"_L1, "recall"_L1,
                                                     "change_agent_state"_L1, "null"_L1, "condensation_request"_L1};
        for (QLatin1StringView n : notTools) {
            if (kind == n)
                return false;
        }
        return !kind.isEmpty();
    }

    // Older evaluation output: no tool_call_metadata and often no ids. The action becomes an
    // assistant turn with one call under a made-up id; the next observation without a link
    // answers it (or the one whose `cause` names the action's id).
    bool positionalCall(const QJsonObject &e, const QString &kind, const QJsonObject &args)
    {
        if (!m_turn.flush())
            return false;
        ToolCall call;
        const QJsonValue eventId = e.value("id"_L1);
        call.id = eventId.isDouble() ? u"openhands-%1"_s.arg(ImportJson::compact(eventId)) : u"openhands-pos-%1"_s.arg(m_positional);
        ++m_positional;
        call.name = kind;
        QJsonObject arguments = args;
        const QString thought = arguments.take("thought"_L1).toString();
        call.arguments = ImportJson::compact(arguments);
        call.argumentsValid = true;
        if (!m_notedPositional) {
            m_notedPositional = true;
            m_context.note(m_context.messageCount(), QCoreApplication::translate("TranscriptImport", "events carry no tool call ids: actions and observations are paired by position"));
        }
        ImportedRequest request;
        request.timestamp = ImportJson::timestamp(e.value("timestamp"_L1));
        const int index = m_context.addMessage(Message::assistant(thought, {call}));
        if (index < 0)
            return false;
        request.messageIndex = index;
        m_context.addRequest(request);
        if (eventId.isDouble())
            m_positionalById.insert(ImportJson::compact(eventId), call.id);
        m_openPositional = call.id;
        return true;
    }

    static ToolCall fallbackCall(const QString &kind, const QJsonObject &args, const QJsonObject &meta)
    {
        ToolCall call;
        call.id = meta.value("tool_call_id"_L1).toString();
        call.name = meta.value("function_name"_L1).toString();
        if (call.name.isEmpty())
            call.name = kind;
        call.arguments = ImportJson::compact(args);
        return call;
    }

    bool observation(const QJsonObject &e)
    {
        const QString kind = e.value("observation"_L1).toString();
        m_context.countRecord(u"observation/"_s + kind);
        const QString callId = e.value("tool_call_metadata"_L1).toObject().value("tool_call_id"_L1).toString();
        const QString content = e.value("content"_L1).toString();
        if (!callId.isEmpty())
            return m_turn.addResult(Message::toolResult(callId, content, kind == "error"_L1));
        if (!m_openPositional.isEmpty() && kind != "agent_state_changed"_L1 && kind != "null"_L1 && kind != "recall"_L1) {
            const QString cause = ImportJson::compact(e.value("cause"_L1));
            QString answers = m_positionalById.value(cause);
            if (answers.isEmpty() || !m_context.hasOpenCall(answers))
                answers = m_openPositional;
            if (answers == m_openPositional)
                m_openPositional.clear();
            return m_context.addMessage(Message::toolResult(answers, content, kind == "error"_L1)) >= 0;
        }
        if (kind == "error"_L1) {
            // A malformed call that left no action behind: the error goes back to the model
            // as a user turn after the preceding agent turn.
            if (!m_turn.flush())
                return false;
            const int index = m_context.addMessage(Message::user(content));
            if (index < 0)
                return false;
            m_context.note(index, QCoreApplication::translate("TranscriptImport", "error observation without a call, kept as a user message"));
            return true;
        }
        m_context.ignoreRecord(u"observation/"_s + kind);
        return true;
    }

    ImportContext &m_context;
    PendingTurn m_turn;
    QSet<QString> m_seenResponses;
    // Position-paired calls of older output (no tool_call_metadata).
    qint64 m_positional = 0;
    QString m_openPositional;             // the last such call still waiting for its observation
    QHash<QString, QString> m_positionalById; // event id -> made-up call id
    bool m_notedPositional = false;
    mutable bool m_notedSourceless = false;
    mutable bool m_userSeen = false;
};

// "owner/repo#number: title" of a resolver output's issue.
QString issueTitle(const QJsonObject &issue)
{
    const QString where = u"%1/%2#%3"_s.arg(issue.value("owner"_L1).toString(), issue.value("repo"_L1).toString(),
                                            ImportJson::compact(issue.value("number"_L1)));
    const QString title = issue.value("title"_L1).toString();
    return title.isEmpty() ? where : where + u": "_s + title;
}

// Evaluation output (one run per line) and trajectory export (one bare event array).
class V0Handler : public JsonStreamScanner::Handler
{
public:
    V0Handler(ImportContext &context, bool output) : m_context(context), m_events(context), m_output(output) {}

    bool beginTop(int topIndex, char type) override
    {
        if (!m_output) {
            if (topIndex > 0)
                m_context.skipRecord(0, {}, QCoreApplication::translate("TranscriptImport", "extra JSON value after the event array"));
            return topIndex == 0 && type == '[';
        }
        if (type != '{') {
            m_context.skipRecord(0, {}, QCoreApplication::translate("TranscriptImport", "run %1: expected an object").arg(topIndex));
            if (m_context.session().runIds.size() < ImportedSession::maxRunIds)
                m_context.session().runIds.append(QString());
            return false;
        }
        // Every run is walked for its instance_id (the list of runs); only the chosen one is read.
        m_idSeen = false;
        return true;
    }

    JsonStreamScanner::MemberMode member(int topIndex, const QString &key) override
    {
        if (m_output && topIndex != m_context.options().runIndex) {
            const bool listing = m_context.options().countRuns && key == "instance_id"_L1;
            return listing ? JsonStreamScanner::MemberMode::Value : JsonStreamScanner::MemberMode::Skip;
        }
        if (key == "history"_L1) {
            m_sawHistory = true;
            return JsonStreamScanner::MemberMode::Elements;
        }
        if (key == "instance_id"_L1 || key == "metadata"_L1 || key == "metrics"_L1 || key == "issue"_L1)
            return JsonStreamScanner::MemberMode::Value;
        return JsonStreamScanner::MemberMode::Skip;
    }

    bool element(JsonStreamScanner::Element &element) override
    {
        if (!m_context.keepGoing(element.offset))
            return false;
        if (!m_output || element.member == "history"_L1) {
            QJsonObject e;
            if (element.index < 0) {
                m_context.skipElement(element, element.member, QCoreApplication::translate("TranscriptImport", "expected an array of events"));
                return true;
            }
            const QString field = m_output ? u"history[%1]"_s.arg(element.index) : u"[%1]"_s.arg(element.index);
            auto skip = [&](const QString &f, const QString &what) { m_context.skipElement(element, f, what); };
            if (element.bytes.startsWith('[')) {
                // Early evaluation output: history is a list of [action, observation] pairs.
                const QJsonArray pair = QJsonDocument::fromJson(element.bytes).array();
                if (pair.isEmpty()) {
                    skip(field, QCoreApplication::translate("TranscriptImport", "expected an event or an [action, observation] pair"));
                    return true;
                }
                for (qsizetype i = 0; i < pair.size(); ++i) {
                    if (!pair.at(i).isObject()) {
                        skip(u"%1[%2]"_s.arg(field).arg(i), QCoreApplication::translate("TranscriptImport", "expected an object, got %1").arg(ImportJson::typeName(pair.at(i))));
                        continue;
                    }
                    if (!m_events.event(pair.at(i).toObject(), u"%1[%2]"_s.arg(field).arg(i), skip))
                        return false;
                }
                return true;
            }
            if (!m_context.parseElement(element, &e))
                return true;
            return m_events.event(e, field, skip);
        }
        if (element.member == "instance_id"_L1) {
            const QString id = ImportJson::compact(QJsonDocument::fromJson("[" + element.bytes + "]").array().at(0));
            if (!m_idSeen && m_context.session().runIds.size() < ImportedSession::maxRunIds)
                m_context.session().runIds.append(id);
            m_idSeen = true;
            if (element.topIndex == m_context.options().runIndex)
                m_context.session().title = id;
            return true;
        }
        QJsonObject object;
        if (!m_context.parseElement(element, &object))
            return true;
        if (element.member == "metadata"_L1)
            m_context.session().model = object.value("llm_config"_L1).toObject().value("model"_L1).toString();
        else if (element.member == "issue"_L1 && m_context.session().title.isEmpty())
            m_context.session().title = issueTitle(object); // resolver output: the issue it resolved
        else if (element.member == "metrics"_L1)
            m_metrics = object;
        return true;
    }

    bool endTop(int topIndex) override
    {
        if (m_output && !m_idSeen && m_context.session().runIds.size() < ImportedSession::maxRunIds)
            m_context.session().runIds.append(QString());
        if (topIndex == m_context.options().runIndex || !m_output) {
            m_done = true;
            if (!m_events.finish())
                return false;
            m_events.applyMetrics(m_metrics);
            // Not listing the runs: nothing after the chosen one is needed (stops the scan).
            return !m_output || m_context.options().countRuns;
        }
        return true;
    }

    bool done() const { return m_done; }
    bool sawHistory() const { return m_sawHistory || !m_output; }

private:
    ImportContext &m_context;
    V0Events m_events;
    bool m_output;
    bool m_done = false;
    bool m_sawHistory = false;
    bool m_idSeen = false;
    QJsonObject m_metrics;
};

// V1 (software-agent-sdk) events.jsonl: one `kind`-typed event per line.
class V1Reader
{
public:
    explicit V1Reader(ImportContext &context) : m_context(context), m_turn(context) {}

    bool record(const QByteArray &line, qint64 lineNumber)
    {
        QJsonObject e;
        if (!m_context.parseObjectLine(line, lineNumber, &e))
            return true;
        return event(e, lineNumber);
    }

    bool event(const QJsonObject &e, qint64 lineNumber)
    {
        const QJsonValue kindValue = e.value("kind"_L1);
        if (!kindValue.isString()) {
            m_context.skipRecord(lineNumber, u"kind"_s, QCoreApplication::translate("TranscriptImport", "missing or not a string (%1)").arg(ImportJson::typeName(kindValue)));
            return true;
        }
        const QString kind = kindValue.toString();
        const QDateTime timestamp = ImportJson::timestamp(e.value("timestamp"_L1));
        m_context.setRecordTime(timestamp);
        if (kind == "ActionEvent"_L1) {
            m_context.countRecord(kind);
            const QJsonValue toolCall = e.value("tool_call"_L1);
            if (!toolCall.isObject()) {
                m_context.skipRecord(lineNumber, u"tool_call"_s, QCoreApplication::translate("TranscriptImport", "expected an object, got %1").arg(ImportJson::typeName(toolCall)));
                return true;
            }
            const QJsonObject tc = toolCall.toObject();
            ToolCall call;
            call.id = tc.value("id"_L1).toString();
            if (call.id.isEmpty())
                call.id = e.value("tool_call_id"_L1).toString();
            call.name = tc.value("name"_L1).toString();
            call.arguments = ImportJson::compact(tc.value("arguments"_L1));
            call.argumentsValid = MessageCodec::argumentsAreValid(call.arguments);
            const QString thought = ImportJson::contentText(e.value("thought"_L1));
            const QString responseId = e.value("llm_response_id"_L1).toString();
            if (m_turn.open(responseId)) {
                Message &m = m_turn.message();
                if (!thought.isEmpty())
                    m.content += (m.content.isEmpty() ? QString() : u"\n"_s) + thought;
                m.toolCalls.append(call);
                return true;
            }
            ImportedRequest request;
            request.responseId = responseId;
            request.timestamp = timestamp;
            return m_turn.start(Message::assistant(thought, {call}), request);
        }
        if (kind == "ObservationEvent"_L1 || kind == "AgentErrorEvent"_L1 || kind == "UserRejectObservation"_L1) {
            m_context.countRecord(kind);
            const QJsonValue callId = e.value("tool_call_id"_L1);
            if (!callId.isString() || callId.toString().isEmpty()) {
                m_context.skipRecord(lineNumber, u"tool_call_id"_s, QCoreApplication::translate("TranscriptImport", "missing or not a string"));
                return true;
            }
            QString text;
            bool isError = true;
            if (kind == "ObservationEvent"_L1) {
                const QJsonObject observation = e.value("observation"_L1).toObject();
                text = ImportJson::contentText(observation.value("content"_L1));
                isError = observation.value("is_error"_L1).toBool(false);
            } else if (kind == "AgentErrorEvent"_L1) {
                text = e.value("error"_L1).toString();
            } else {
                text = e.value("rejection_reason"_L1).toString();
            }
            return m_turn.addResult(Message::toolResult(callId.toString(), text, isError));
        }
        if (kind == "MessageEvent"_L1) {
            m_context.countRecord(kind);
            const QJsonObject message = e.value("llm_message"_L1).toObject();
            Role role;
            if (!roleFromName(message.value("role"_L1).toString(), &role)) {
                m_context.skipRecord(lineNumber, u"llm_message.role"_s, QCoreApplication::translate("TranscriptImport", "missing or unknown"));
                return true;
            }
            const QString text = ImportJson::contentText(message.value("content"_L1));
            if (role == Role::Assistant) {
                ImportedRequest request;
                request.timestamp = timestamp;
                return m_turn.start(Message::assistant(text), request) && m_turn.flush();
            }
            if (role == Role::User)
                m_context.offerTitle(text);
            Message m;
            m.role = role;
            m.content = text;
            return m_turn.flush() && m_context.addMessage(std::move(m)) >= 0;
        }
        if (kind == "SystemPromptEvent"_L1) {
            m_context.countRecord(kind);
            for (const QJsonValue &tool : e.value("tools"_L1).toArray()) {
                if (auto spec = MessageCodec::toolSpecFromJson(tool.toObject()))
                    m_context.session().tools.append(*spec);
            }
            const QJsonValue prompt = e.value("system_prompt"_L1);
            const QString text = prompt.isObject() ? prompt.toObject().value("text"_L1).toString() : ImportJson::contentText(prompt);
            return m_turn.flush() && m_context.addMessage(Message::system(text)) >= 0;
        }
        if (kind == "Condensation"_L1 || kind == "CondensationSummaryEvent"_L1) {
            m_context.countRecord(kind);
            if (!m_turn.flush())
                return false;
            auto &compactions = m_context.session().compactions;
            if (kind == "CondensationSummaryEvent"_L1 && !compactions.isEmpty() && compactions.last().summary.isEmpty()) {
                compactions.last().summary = e.value("summary"_L1).toString();
                return true;
            }
            ExternalCompaction compaction;
            compaction.messageIndex = m_context.messageCount();
            compaction.summary = e.value("summary"_L1).toString();
            compaction.kind = u"condensation"_s;
            compaction.timestamp = timestamp;
            compaction.tokensBefore = m_lastPromptTokens;
            m_context.addCompaction(compaction);
            return true;
        }
        if (kind == "ConversationStateUpdateEvent"_L1) {
            m_context.countRecord(kind);
            if (e.value("key"_L1).toString() == "stats"_L1)
                stats(e.value("value"_L1).toObject(), lineNumber);
            else
                m_context.ignoreRecord(kind);
            return true;
        }
        if (kind == "PauseEvent"_L1 || kind == "CondensationRequest"_L1 || kind == "TokenEvent"_L1
            || kind == "ConversationErrorEvent"_L1) {
            m_context.countRecord(kind);
            m_context.ignoreRecord(kind);
            return true;
        }
        m_context.skipRecord(lineNumber, u"kind"_s, QCoreApplication::translate("TranscriptImport", "unknown event kind '%1'").arg(kind));
        return true;
    }

    bool finish() { return m_turn.flush(); }

private:
    // Running totals only; the last one is the run's total.
    void stats(const QJsonObject &value, qint64 lineNumber)
    {
        const QJsonObject metrics = value.value("usage_to_metrics"_L1).toObject().value("default"_L1).toObject();
        const QJsonObject usage = metrics.value("accumulated_token_usage"_L1).toObject();
        if (metrics.value("model_name"_L1).isString() && m_context.session().model.isEmpty())
            m_context.session().model = metrics.value("model_name"_L1).toString();
        if (usage.isEmpty())
            return;
        TokenUsage &u = m_context.session().totalUsage;
        const QString field = u"value.usage_to_metrics.default.accumulated_token_usage."_s;
        u.input = m_context.count(usage.value("prompt_tokens"_L1), lineNumber, field + u"prompt_tokens"_s);
        u.output = m_context.count(usage.value("completion_tokens"_L1), lineNumber, field + u"completion_tokens"_s);
        u.cacheRead = m_context.count(usage.value("cache_read_tokens"_L1), lineNumber, field + u"cache_read_tokens"_s);
        u.cacheWrite = m_context.count(usage.value("cache_write_tokens"_L1), lineNumber, field + u"cache_write_tokens"_s);
        m_lastPromptTokens = m_context.count(usage.value("per_turn_token"_L1), lineNumber, field + u"per_turn_token"_s);
    }

    ImportContext &m_context;
    PendingTurn m_turn;
    qint64 m_lastPromptTokens = -1;
};

bool isV1(const TranscriptSample &sample)
{
    return sample.firstRecord.value("kind"_L1).isString();
}

} // namespace

OpenHandsImporter::OpenHandsImporter()
    : TranscriptImporter(u"openhands"_s, QT_TRANSLATE_NOOP("TranscriptImport", "OpenHands events"))
{
}

int OpenHandsImporter::canRead(const TranscriptSample &sample) const
{
    const QByteArray &head = sample.head;
    if (isV1(sample)) {
        const QString kind = sample.firstRecord.value("kind"_L1).toString();
        return kind.endsWith("Event"_L1) || kind.startsWith("Condensation"_L1) ? 90 : 40;
    }
    if (sample.firstChar == '[')
        return (head.contains("\"observation\"") || head.contains("\"action\"")) && head.contains("\"source\"") ? 85 : 0;
    if (sample.firstChar == '{') {
        const QJsonObject &r = sample.firstRecord;
        // Evaluation output names its benchmark instance; the older resolver output its issue.
        if (!r.isEmpty())
            return (r.contains("instance_id"_L1) || r.value("issue"_L1).isObject()) && r.value("history"_L1).isArray() ? 90 : 0;
        if (head.contains("\"instance_id\"") && (head.contains("\"history\"") || head.contains("\"instruction\""))
            && !head.contains("\"trajectory\""))
            return 75;
        if (head.contains("\"issue\"") && head.contains("\"history\"") && (head.contains("\"action\"") || head.contains("\"observation\""))
            && !head.contains("\"trajectory\""))
            return 70;
    }
    return 0;
}

int OpenHandsImporter::canReadFolder(const QString &path) const
{
    const QFileInfoList files = EventFolder::files(path);
    if (files.isEmpty() || files.first().size() > TranscriptSample::sampleBytes)
        return 0;
    QFile first(files.first().filePath());
    if (!first.open(QIODevice::ReadOnly))
        return 0;
    const QJsonObject e = QJsonDocument::fromJson(first.read(TranscriptSample::sampleBytes)).object();
    if (e.value("kind"_L1).isString())
        return 90;
    return e.contains("action"_L1) || e.contains("observation"_L1) ? 85 : 0;
}

bool OpenHandsImporter::readFolder(ImportContext &context, const QString &path) const
{
    const QFileInfoList files = EventFolder::files(path);
    if (files.isEmpty())
        return context.fail(QCoreApplication::translate("TranscriptImport", "%1: no event files (*.json) in the folder").arg(EventFolder::eventsDir(path)));
    qint64 total = 0;
    for (const QFileInfo &info : files)
        total += info.size();
    context.setTotalBytes(total);
    const qint64 limit = context.options().maxRecordBytes;
    std::optional<V1Reader> v1;
    std::optional<V0Events> v0;
    qint64 done = 0;
    for (const QFileInfo &info : files) {
        context.setSourceName(path);
        if (!context.keepGoing(done))
            return false;
        // Problems name the event's file; one event per file, so no line number.
        context.setSourceName(info.filePath());
        if (info.size() > limit)
            return context.failAt(0, {}, QCoreApplication::translate("TranscriptImport", "file is larger than %1 bytes; this is not one event").arg(limit));
        QFile file(info.filePath());
        if (!file.open(QIODevice::ReadOnly)) {
            context.skipRecord(0, {}, QCoreApplication::translate("TranscriptImport", "cannot open: %1").arg(file.errorString()));
            continue;
        }
        // Never more than the limit, even if the file grew since the listing (QIODevice::read
        // allocates what it is asked for).
        const QByteArray bytes = file.read(std::min(info.size(), limit) + 1);
        done += info.size();
        if (bytes.size() > limit)
            return context.failAt(0, {}, QCoreApplication::translate("TranscriptImport", "file is larger than %1 bytes; this is not one event").arg(limit));
        QJsonObject e;
        if (!context.parseObjectLine(bytes, 0, &e))
            continue;
        if (!v0 && !v1) {
            if (e.value("kind"_L1).isString())
                v1.emplace(context);
            else
                v0.emplace(context);
        }
        const bool ok = v1 ? v1->event(e, 0)
                           : v0->event(e, QString(), [&context](const QString &field, const QString &what) { context.skipRecord(0, field, what); });
        if (!ok)
            return false;
    }
    context.setSourceName(path);
    if (v1 && !v1->finish())
        return false;
    if (v0 && !v0->finish())
        return false;
    if (context.options().progress)
        context.options().progress(total, total);
    return true;
}

bool OpenHandsImporter::read(ImportContext &context) const
{
    const TranscriptSample sample = context.peekSample();
    if (isV1(sample)) {
        V1Reader reader(context);
        return context.readRecords(reader);
    }
    if (sample.firstChar != '[' && sample.firstChar != '{')
        return context.failAt(1, {}, QCoreApplication::translate("TranscriptImport", "expected OpenHands events (a JSON array, JSON lines of runs, or events.jsonl)"));
    const bool output = sample.firstChar == '{';
    if (output && context.options().runIndex < 0)
        return context.fail(QCoreApplication::translate("TranscriptImport", "%1: run index %2 is not valid").arg(context.sourceName()).arg(context.options().runIndex));
    V0Handler handler(context, output);
    int runs = 0;
    if (!context.scanJson(handler, &runs, [&] { return handler.done(); }))
        return false;
    if (output) {
        context.session().runCount = context.options().countRuns ? runs : std::max(runs, context.options().runIndex + 1);
        context.session().runIndex = context.options().runIndex;
        if (!handler.done())
            return context.fail(QCoreApplication::translate("TranscriptImport", "%1: run %2 does not exist; the file holds %n run(s)", nullptr, runs)
                                    .arg(context.sourceName()).arg(context.options().runIndex));
        if (!handler.sawHistory())
            return context.fail(QCoreApplication::translate("TranscriptImport", "%1: field 'history': missing in run %2").arg(context.sourceName()).arg(context.options().runIndex));
    }
    return true;
}

} // namespace wl
