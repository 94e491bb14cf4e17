#include "SweAgentImporter.h"

#include "ImportContext.h"
#include "model/MessageCodec.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <optional>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Reads the top-level `history` array (the chat as sent to the model) one element at a
// time; `trajectory` (which in 1.0 repeats the whole history per step) is skipped unread.
class TrajHandler : public JsonStreamScanner::Handler
{
public:
    explicit TrajHandler(ImportContext &context) : m_context(context) {}

    bool beginTop(int topIndex, char type) override
    {
        if (topIndex > 0) {
            m_context.skipRecord(0, {}, QCoreApplication::translate("TranscriptImport", "extra JSON value after the trajectory"));
            return false;
        }
        if (type != '{')
            m_context.fail(QCoreApplication::translate("TranscriptImport", "%1: expected a JSON object with a 'history' array").arg(m_context.sourceName()));
        return type == '{';
    }

    JsonStreamScanner::MemberMode member(int, const QString &key) override
    {
        if (key == "history"_L1) {
            m_sawHistory = true;
            return JsonStreamScanner::MemberMode::Elements;
        }
        if (key == "info"_L1 || key == "replay_config"_L1)
            return JsonStreamScanner::MemberMode::Value;
        return JsonStreamScanner::MemberMode::Skip;
    }

    bool element(JsonStreamScanner::Element &element) override
    {
        if (!m_context.keepGoing(element.offset))
            return false;
        if (element.member == "history"_L1)
            return historyElement(element);
        QJsonObject object;
        if (element.member == "replay_config"_L1 && element.bytes.startsWith('"')) {
            // Some 1.x versions store the run config as a JSON string.
            const QJsonValue text = QJsonDocument::fromJson("[" + element.bytes + "]").array().at(0);
            object = QJsonDocument::fromJson(text.toString().toUtf8()).object();
        } else if (!m_context.parseElement(element, &object)) {
            return true;
        }
        if (element.member == "info"_L1) {
            const QJsonObject stats = object.value("model_stats"_L1).toObject();
            const qint64 sent = m_context.count(stats.value("tokens_sent"_L1), element.line, u"info.model_stats.tokens_sent"_s);
            const qint64 received = m_context.count(stats.value("tokens_received"_L1), element.line, u"info.model_stats.tokens_received"_s);
            if (sent > 0 || received > 0) { // demonstrations and replays report zeros
                m_context.session().totalUsage.input = sent;
                m_context.session().totalUsage.output = received;
            }
        } else if (element.member == "replay_config"_L1) {
            const QString model = object.value("agent"_L1).toObject().value("model"_L1).toObject().value("name"_L1).toString();
            if (!model.isEmpty())
                m_context.session().model = model;
        }
        return true;
    }

    bool sawHistory() const { return m_sawHistory; }

private:
    bool historyElement(const JsonStreamScanner::Element &element)
    {
        if (element.index < 0) {
            m_context.skipElement(element, u"history"_s, QCoreApplication::translate("TranscriptImport", "expected an array"));
            return true;
        }
        QJsonObject object;
        if (!m_context.parseElement(element, &object))
            return true;
        const QString field = u"history[%1]."_s.arg(element.index);
        const QJsonValue roleValue = object.value("role"_L1);
        Role role;
        if (!roleValue.isString() || !roleFromName(roleValue.toString(), &role)) {
            m_context.skipElement(element, field + u"role"_s, roleValue.isString() ? QCoreApplication::translate("TranscriptImport", "unknown role '%1'").arg(roleValue.toString())
                                                                                   : QCoreApplication::translate("TranscriptImport", "missing or not a string"));
            return true;
        }
        // Only the main agent's conversation; other agents (reviewers, forwards) are left out.
        const QString agent = object.value("agent"_L1).toString();
        if (!m_agent)
            m_agent = agent;
        if (agent != *m_agent) {
            m_context.ignoreRecord(u"agent/"_s + agent);
            return true;
        }
        const QJsonValue content = object.value("content"_L1);
        if (!content.isString() && !content.isArray() && !content.isNull()) {
            m_context.skipElement(element, field + u"content"_s, QCoreApplication::translate("TranscriptImport", "expected a string, got %1").arg(ImportJson::typeName(content)));
            return true;
        }
        m_context.countRecord(roleValue.toString());
        Message message;
        message.role = role;
        message.content = ImportJson::contentText(content);
        if (role == Role::Assistant) {
            const QJsonArray calls = object.value("tool_calls"_L1).toArray();
            for (qsizetype i = 0; i < calls.size(); ++i) {
                const QJsonObject c = calls.at(i).toObject();
                const QJsonObject function = c.value("function"_L1).toObject();
                ToolCall call;
                call.id = c.value("id"_L1).toString();
                call.name = function.value("name"_L1).toString();
                call.arguments = ImportJson::compact(function.value("arguments"_L1));
                call.argumentsValid = MessageCodec::argumentsAreValid(call.arguments);
                if (call.name.isEmpty()) {
                    m_context.skipElement(element, field + u"tool_calls[%1].function.name"_s.arg(i), QCoreApplication::translate("TranscriptImport", "missing"));
                    continue;
                }
                message.toolCalls.append(call);
            }
        } else if (role == Role::Tool) {
            const QJsonArray ids = object.value("tool_call_ids"_L1).toArray();
            message.toolCallId = ids.isEmpty() ? object.value("tool_call_id"_L1).toString() : ids.at(0).toString();
            if (message.toolCallId.isEmpty()) {
                m_context.skipElement(element, field + u"tool_call_ids"_s, QCoreApplication::translate("TranscriptImport", "a tool message without a call id"));
                return true;
            }
        }
        const int index = m_context.addMessage(std::move(message));
        if (index < 0)
            return false;
        if (role == Role::Assistant) {
            ImportedRequest request;
            request.messageIndex = index;
            m_context.addRequest(request);
        }
        return true;
    }

    ImportContext &m_context;
    std::optional<QString> m_agent;
    bool m_sawHistory = false;
};

} // namespace

SweAgentImporter::SweAgentImporter()
    : TranscriptImporter(u"swe-agent"_s, QT_TRANSLATE_NOOP("TranscriptImport", "SWE-agent trajectory"))
{
}

int SweAgentImporter::canRead(const TranscriptSample &sample) const
{
    if (sample.firstChar != '{')
        return 0;
    const bool trajName = sample.fileName.endsWith(".traj"_L1, Qt::CaseInsensitive);
    const QByteArray &head = sample.head;
    const bool trajectory = head.contains("\"trajectory\"");
    const bool history = head.contains("\"history\"");
    if (trajectory && (head.contains("\"observation\"") || head.contains("\"environment\"") || history))
        return trajName ? 95 : 80;
    if (trajName && history)
        return 70;
    return 0;
}

bool SweAgentImporter::read(ImportContext &context) const
{
    context.session().title = QFileInfo(context.sourceName()).completeBaseName();
    TrajHandler handler(context);
    if (!context.scanJson(handler))
        return false;
    if (!handler.sawHistory())
        return context.fail(QCoreApplication::translate("TranscriptImport", "%1: field 'history': missing; not a SWE-agent trajectory").arg(context.sourceName()));
    return true;
}

} // namespace wl
